// Which build this is: the release and the commit it was built from, printed
// by `rankmap --version` and carried in every JSON output so that a result
// can be tied to the build that produced it.
//
//   std::cout << base::VersionString() << "\n";  // "rankmap 0.4.0
//   (a1b2c3d4e5)"
#ifndef RANKMAP_BASE_VERSION_H_
#define RANKMAP_BASE_VERSION_H_

#include <string>
#include <string_view>

namespace rankmap::base {

// The release, e.g. "0.4.0".
std::string_view Release();
// `git describe --always --dirty` of the source tree at build time ("-dirty"
// when it had uncommitted changes), or "unknown" outside a git checkout.
std::string_view Commit();
// "rankmap <release> (<commit>)".
std::string VersionString();

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_VERSION_H_
