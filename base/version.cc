#include "base/version.h"

#include "base/version_stamp.h"

namespace rankmap::base {

std::string_view Release() { return "0.4.0"; }

std::string_view Commit() { return kStampedCommit; }

std::string VersionString() {
  return "rankmap " + std::string(Release()) + " (" + std::string(Commit()) +
         ")";
}

}  // namespace rankmap::base
