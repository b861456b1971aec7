// Files a command writes together, all or none. Each Write goes to a
// temporary file beside its path (same directory, so that a rename replaces
// the path at once), registered with base/leftovers.h so that a stopped
// command removes it; Commit renames every temporary over its path. A batch
// destroyed without Commit removes its temporaries: when any output fails
// (an unwritable --report), the old files stay as they were and no new one is
// left, whole or half-written.
//
//   base::FileBatch files;
//   RETURN_IF_ERROR(files.Write("m.txt", mapping_text));
//   RETURN_IF_ERROR(files.Write("m.html", report));   // fails: m.txt untouched
//   RETURN_IF_ERROR(files.Commit());
#ifndef RANKMAP_BASE_FILE_BATCH_H_
#define RANKMAP_BASE_FILE_BATCH_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace rankmap::base {

class FileBatch {
 public:
  FileBatch() = default;
  FileBatch(const FileBatch&) = delete;
  FileBatch& operator=(const FileBatch&) = delete;
  ~FileBatch();

  // Writes `contents` to a new temporary beside `path` (mode 0644, 0755 when
  // `executable`); a `path` that is a device or FIFO (/dev/null) is written
  // at the commit instead. Errors name `path` and the system's reason (a
  // directory that does not exist or cannot be written).
  absl::Status Write(const std::string& path, std::string_view contents,
                     bool executable = false);

  // `file` (or a directory), already written on the file system of `path` (a
  // run's directory beside it), becomes `path` at Commit, replacing a
  // directory there whole; it is removed when the batch is dropped.
  void Adopt(const std::string& file, const std::string& path);

  // `path` (a file or a directory with what it holds) is removed at Commit:
  // a file of an earlier run that the new
  // outputs do not replace and that would otherwise be read with them.
  void RemoveAtCommit(const std::string& path);

  // Renames every temporary over its path (and removes what
  // RemoveAtCommit named), in the order written (a path
  // written twice ends with its last contents). Errors: a rename that fails
  // (the path is a directory); the temporaries not yet renamed are removed.
  absl::Status Commit();

 private:
  struct Pending {
    std::string temporary;  // empty: remove `path`, or write `stream`
    std::string path;
    std::optional<std::string> stream;  // for a device or FIFO
  };
  void RemovePending();
  std::vector<Pending> pending_;
};

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_FILE_BATCH_H_
