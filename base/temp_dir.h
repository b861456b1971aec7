// A fresh directory for a run's temporary files, removed with everything in it
// when the TempDir goes away, or when the command is stopped
// (base/leftovers.h).
//
//   ASSIGN_OR_RETURN(TempDir dir, TempDir::Create("sim"));
//   RETURN_IF_ERROR(WriteFile(dir.path() + "/hostfile", text));
//
// The directory is made under $TEST_TMPDIR (inside a Bazel test), else
// $TMPDIR, else /tmp, so runs inside tests stay in the test's sandbox.
#ifndef RANKMAP_BASE_TEMP_DIR_H_
#define RANKMAP_BASE_TEMP_DIR_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace rankmap::base {

class TempDir {
 public:
  // A new directory "<base>/rankmap-<prefix>-XXXXXX". Errors name the path
  // and errno text.
  static absl::StatusOr<TempDir> Create(std::string_view prefix);
  // The same inside `parent` ("<parent>/.rankmap-<prefix>-XXXXXX", hidden):
  // a run's files beside the outputs they become (a rename away).
  static absl::StatusOr<TempDir> CreateIn(const std::string& parent,
                                          std::string_view prefix);

  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&& other) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  const std::string& path() const { return path_; }

 private:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  static absl::StatusOr<TempDir> Make(std::string templ);
  std::string path_;  // empty after a move
};

// Where temporary directories go: $TEST_TMPDIR, $TMPDIR or /tmp.
std::string TempBase();

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_TEMP_DIR_H_
