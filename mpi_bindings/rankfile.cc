#include "mpi_bindings/rankfile.h"

#include <unistd.h>

#include <fstream>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::mpi_bindings {

absl::StatusOr<std::string> FormatRankfile(const topology::Tree& tree,
                                           const core::Mapping& mapping,
                                           const RankfileOptions& options) {
  RETURN_IF_ERROR(core::ValidateMapping(
      tree, static_cast<int64_t>(mapping.size()), mapping));
  std::string default_host = options.default_host;
  if (default_host.empty()) {
    char name[256] = {};
    if (gethostname(name, sizeof(name) - 1) == 0) default_host = name;
    if (default_host.empty()) default_host = "localhost";
  }
  // Logical index of each leaf among the leaves of its host, in leaf order.
  std::vector<int32_t> logical(tree.num_leaves());
  std::map<std::string, int32_t> next;
  bool all_physical = options.physical;
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    const std::string& host =
        tree.host(l).empty() ? default_host : tree.host(l);
    logical[l] = next[host]++;
    if (tree.os_index(l) < 0) all_physical = false;
  }
  std::string out =
      all_physical
          ? "# physical PU numbers: mpirun --mca rmaps_rank_file_physical 1 "
            "--rankfile FILE\n"
          : "# logical slot numbers: mpirun --rankfile FILE\n";
  for (size_t p = 0; p < mapping.size(); ++p) {
    const topology::LeafId l = mapping[p];
    const std::string& host =
        tree.host(l).empty() ? default_host : tree.host(l);
    absl::StrAppend(&out, "rank ", p, "=", host,
                    " slot=", all_physical ? tree.os_index(l) : logical[l],
                    "\n");
  }
  return out;
}

absl::Status WriteRankfile(const std::string& path, const topology::Tree& tree,
                           const core::Mapping& mapping,
                           const RankfileOptions& options) {
  ASSIGN_OR_RETURN(std::string text, FormatRankfile(tree, mapping, options));
  std::ofstream f(path, std::ios::trunc);
  f << text;
  f.close();
  if (!f)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

}  // namespace rankmap::mpi_bindings
