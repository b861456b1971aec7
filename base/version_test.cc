#include "base/version.h"

#include <string>

#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

// The commit is what git describes in a checkout (hex, maybe "-dirty"), or
// "unknown": never empty, never anything a shell or JSON would trip on.
TEST(Version, NamesReleaseAndCommit) {
  const std::string commit(Commit());
  ASSERT_FALSE(commit.empty());
  for (char c : commit) {
    EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                c == '.' || c == '_')
        << commit;
  }
  EXPECT_EQ(VersionString(),
            "rankmap " + std::string(Release()) + " (" + commit + ")");
}

}  // namespace
}  // namespace rankmap::base
