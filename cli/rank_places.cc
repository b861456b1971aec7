#include "cli/rank_places.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/lines.h"
#include "base/status_macros.h"
#include "topology/binding.h"

namespace rankmap::cli {
namespace {

// A host's CPUs in the tree: its leaves' PU os indexes, or only how many
// leaves it has when they carry none.
struct HostCpus {
  std::set<int32_t> pus;
  int64_t leaves = 0;
};

std::map<std::string, HostCpus> CpusByHost(const topology::Tree& tree) {
  std::map<std::string, HostCpus> hosts;
  for (topology::LeafId l = 0; l < tree.num_leaves(); ++l) {
    HostCpus& h = hosts[tree.host(l)];
    ++h.leaves;
    for (int32_t pu : tree.pus(l)) h.pus.insert(pu);
  }
  return hosts;
}

// "0-7" for a host's PU set, or "8 leaves" when it has none.
std::string Describe(const HostCpus& h) {
  if (h.pus.empty()) return absl::StrCat(h.leaves, " leaves, no CPU numbers");
  const std::vector<int32_t> pus(h.pus.begin(), h.pus.end());
  return absl::StrCat("CPUs ", topology::FormatPuList(pus));
}

}  // namespace

absl::StatusOr<RankPlaces> ReadRankPlaces(const std::string& path, int32_t n) {
  ASSIGN_OR_RETURN(const std::string text, base::ReadFile(path, "placement"));
  return ParseRankPlaces(text, path, n);
}

absl::StatusOr<RankPlaces> ParseRankPlaces(std::string_view text,
                                           const std::string& path, int32_t n,
                                           int64_t max_memory_bytes) {
  RankPlaces places{path};
  ASSIGN_OR_RETURN(places.ranks,
                   mpi_bindings::ParsePlacementLines(text, path,
                                                     max_memory_bytes));
  // Sorted and distinct: the first rank out of place shows what is wrong.
  for (size_t i = 0; i < places.ranks.size(); ++i) {
    const mpi_bindings::PlacementLine& l = places.ranks[i];
    if (l.rank == static_cast<int32_t>(i) && l.rank < n) continue;
    return base::LineError(
        path, l.line,
        l.rank >= n
            ? absl::StrCat("rank ", l.rank, " is not a rank of the profile's ",
                           n, " (0-", n - 1, ")")
            : absl::StrCat("rank ", i, " has no line (the next is rank ",
                           l.rank, ")"));
  }
  if (static_cast<int32_t>(places.ranks.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": ", places.ranks.size(), " ranks placed, the profile has ", n,
        " processes (a partial profile: some ranks never saved their place)"));
  }
  return places;
}

std::vector<std::string> HostsInOrder(const RankPlaces& places) {
  std::vector<std::string> hosts;
  std::set<std::string> seen;
  for (const mpi_bindings::PlacementLine& l : places.ranks) {
    if (seen.insert(l.host).second) hosts.push_back(l.host);
  }
  return hosts;
}

absl::StatusOr<std::vector<topology::ProcessWhere>> WhereOnMachine(
    const RankPlaces& places, const topology::Tree& tree) {
  const std::map<std::string, HostCpus> hosts = CpusByHost(tree);
  std::vector<topology::ProcessWhere> where;
  where.reserve(places.ranks.size());
  for (const mpi_bindings::PlacementLine& l : places.ranks) {
    auto it = hosts.find(l.host);
    if (it == hosts.end()) {
      return absl::NotFoundError(
          absl::StrCat("host '", l.host, "' of rank ", l.rank,
                       " is not in the machine"));
    }
    const HostCpus& h = it->second;
    const int64_t has = h.pus.empty() ? h.leaves
                                      : static_cast<int64_t>(h.pus.size());
    ASSIGN_OR_RETURN(const int64_t named,
                     mpi_bindings::CountCpuList(l.cpu_list));
    if (named > has) {
      return base::LineError(
          places.path, l.line,
          absl::StrCat("rank ", l.rank, " names ", named, " CPUs, host '",
                       l.host, "' has ", has, " in the machine (",
                       Describe(h), ")"));
    }
    ASSIGN_OR_RETURN(std::vector<int32_t> cpus,
                     mpi_bindings::ParseCpuList(l.cpu_list, has));
    for (int32_t cpu : cpus) {
      if (h.pus.empty() || h.pus.count(cpu)) continue;
      return base::LineError(
          places.path, l.line,
          absl::StrCat("rank ", l.rank, " ran on CPU ", cpu, ", which host '",
                       l.host, "' does not have in the machine (",
                       Describe(h), ")"));
    }
    where.push_back({l.host, std::move(cpus)});
  }
  return where;
}

std::string PlacementBeside(const std::string& profile) {
  const size_t slash = profile.rfind('/');
  const size_t name = slash == std::string::npos ? 0 : slash + 1;
  const size_t dot = profile.rfind('.');
  const bool has_extension = dot != std::string::npos && dot > name;
  return absl::StrCat(has_extension ? profile.substr(0, dot) : profile,
                      ".placement");
}

}  // namespace rankmap::cli
