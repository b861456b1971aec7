#include "cli/process_speeds.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "tiling/speeds_file.h"

namespace rankmap::cli {

absl::StatusOr<core::SlotClasses> LoadProcessClasses(const std::string& path,
                                                     const topology::Tree& tree,
                                                     int32_t num_processes) {
  ASSIGN_OR_RETURN(const std::vector<double> speeds,
                   tiling::ReadSpeedsFile(path));
  if (static_cast<int64_t>(speeds.size()) != num_processes) {
    return absl::InvalidArgumentError(
        absl::StrCat("--process-speeds ", path, ": ", speeds.size(),
                     " speeds for ", num_processes, " processes"));
  }
  absl::StatusOr<core::SlotClasses> classes =
      core::ClassesForTree(tree, speeds);
  if (!classes.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--process-speeds ", path, ": ", classes.status().message()));
  }
  return classes;
}

}  // namespace rankmap::cli
