// Files that travel with the running binary: Bazel runfiles when it runs from
// the build tree (`bazel run`, tests), or the installed tree's directories.
//
//   ASSIGN_OR_RETURN(std::string lib, FindBesideSelf(
//       "mpi_bindings/librankmap_profile.so", {"../lib/openmpi"}));
#ifndef RANKMAP_BASE_RUNFILES_H_
#define RANKMAP_BASE_RUNFILES_H_

#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::base {

// The running binary's path (/proc/self/exe), or "" when unknown.
std::string SelfExe();

// `relative` (a workspace path, e.g. "sim/replay_smpi.so") in the binary's
// runfiles: <exe>.runfiles/rankmap/, $RUNFILES_DIR/rankmap/,
// $TEST_SRCDIR/rankmap/; then the file's base name in each of `installed`
// (directories relative to the binary's own, e.g. "../lib/openmpi").
// Errors (NotFound): every place it looked, in order.
absl::StatusOr<std::string> FindBesideSelf(
    std::string_view relative, std::span<const std::string> installed = {});

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_RUNFILES_H_
