#include "launch/job_placement.h"

#include <set>
#include <unordered_map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/host_name.h"

namespace rankmap::launch {

absl::StatusOr<JobPlacement> PlaceJob(const topology::Tree& tree,
                                      const core::Mapping& mapping) {
  if (mapping.empty()) return absl::InvalidArgumentError("launch: no process");
  const int32_t leaves = tree.num_leaves();
  // Position of each leaf among the leaves of its host, in leaf order.
  std::vector<int32_t> local(leaves);
  {
    std::unordered_map<std::string, int32_t> next;
    for (topology::LeafId l = 0; l < leaves; ++l)
      local[l] = next[tree.host(l)]++;
  }
  JobPlacement job;
  job.physical = true;
  job.ranks.reserve(mapping.size());
  std::unordered_map<std::string, int32_t> host_index;
  for (size_t r = 0; r < mapping.size(); ++r) {
    const topology::LeafId l = mapping[r];
    if (l < 0 || l >= leaves) {
      return absl::InvalidArgumentError(
          absl::StrCat("launch: process ", r, " is mapped to leaf ", l,
                       ", not a leaf of the topology (0..", leaves - 1, ")"));
    }
    if (tree.host(l).empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "launch: leaf ", l, " (process ", r,
          ") has no host name: the topology is not a real machine (a tleaf "
          "or synthetic description); map onto 'this', an hwloc XML export, "
          "or a network whose nodes are named hosts"));
    }
    // Host names end up in hostfiles, rankfiles and wrapper scripts: checked
    // here once more, whatever reader produced them.
    if (!host_index.contains(tree.host(l))) {
      if (absl::Status bad = base::CheckHostName(tree.host(l)); !bad.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "launch: leaf ", l, " (process ", r, "): ", bad.message()));
      }
    }
    RankSlot s;
    s.host = tree.host(l);
    s.pus.assign(tree.pus(l).begin(), tree.pus(l).end());
    if (tree.logical_index(l) >= 0) {
      s.logical = tree.logical_index(l);
      s.logical_is_core = !absl::EndsWith(tree.kind(l), "PU");
    } else {
      s.logical = local[l];
    }
    if (s.pus.empty()) job.physical = false;
    if (host_index.try_emplace(s.host, job.hosts.size()).second)
      job.hosts.push_back(s.host);
    job.ranks.push_back(std::move(s));
  }
  return job;
}

std::vector<std::vector<int32_t>> RanksByHost(const JobPlacement& job) {
  std::unordered_map<std::string, size_t> index;
  for (size_t h = 0; h < job.hosts.size(); ++h) index[job.hosts[h]] = h;
  std::vector<std::vector<int32_t>> out(job.hosts.size());
  for (size_t r = 0; r < job.ranks.size(); ++r)
    out[index[job.ranks[r].host]].push_back(static_cast<int32_t>(r));
  return out;
}

bool SharesPus(const JobPlacement& job) {
  std::set<std::pair<std::string, int32_t>> seen;
  for (const RankSlot& s : job.ranks) {
    for (int32_t pu : s.pus) {
      if (!seen.emplace(s.host, pu).second) return true;
    }
  }
  return false;
}

std::optional<std::vector<std::vector<int32_t>>> SharedLocalBinding(
    const JobPlacement& job, const std::vector<std::vector<int32_t>>& groups) {
  size_t longest = 0;
  for (size_t g = 1; g < groups.size(); ++g) {
    if (groups[g].size() > groups[longest].size()) longest = g;
  }
  std::vector<std::vector<int32_t>> list;
  if (groups.empty()) return list;
  for (int32_t r : groups[longest]) list.push_back(job.ranks[r].pus);
  for (const std::vector<int32_t>& group : groups) {
    for (size_t k = 0; k < group.size(); ++k) {
      if (job.ranks[group[k]].pus != list[k]) return std::nullopt;
    }
  }
  return list;
}

}  // namespace rankmap::launch
