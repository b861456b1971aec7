#include "mpi_bindings/job_tree.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "api/load_topology.h"
#include "base/cpu_list.h"
#include "base/status_macros.h"
#include "topology/process_leaves.h"
#include "topology/slurm_topology.h"
#include "topology/switch_tree.h"
#include "topology/tree_ops.h"

namespace rankmap::mpi_bindings {
namespace {

// A tree through api/'s loading, the one every interface uses: the
// description ("this" for the running machine), its leaves, and the PUs
// in `allowed_pus` (hwloc list syntax; empty keeps all).
absl::StatusOr<topology::Tree> LoadDescription(std::string_view description,
                                               std::string_view allowed_pus,
                                               bool core_leaves) {
  api::TopologySpec spec;
  spec.description = std::string(description);
  spec.leaf = core_leaves ? "core" : "pu";
  spec.allowed = std::string(allowed_pus);
  return api::LoadTree(spec);
}

using topology::LeafId;
using topology::NodeId;
using topology::Tree;
using topology::TreeBuilder;

// Where each rank sits (topology/process_leaves.h); `what` names the tree
// in the error for a host it does not have.
absl::StatusOr<std::vector<LeafId>> AssignSlots(
    const Tree& tree, std::span<const ProcessInfo> procs,
    std::string_view what) {
  std::vector<topology::ProcessWhere> where;
  where.reserve(procs.size());
  for (const ProcessInfo& p : procs) where.push_back({p.host, p.pus});
  absl::StatusOr<topology::ProcessLeaves> leaves =
      topology::LeavesOfProcesses(tree, where, "rank", what);
  if (!leaves.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("mpi_bindings: ", leaves.status().message()));
  }
  return std::move(leaves->leaf);
}

absl::StatusOr<JobTree> WithOccupancy(Tree tree,
                                      std::vector<LeafId> slot_of_rank,
                                      bool real_machine) {
  std::vector<int32_t> capacity(tree.num_leaves(), 0);
  for (LeafId l : slot_of_rank) ++capacity[l];
  JobTree job;
  ASSIGN_OR_RETURN(job.tree, tree.WithCapacities(std::move(capacity)));
  job.slot_of_rank = std::move(slot_of_rank);
  job.real_machine = real_machine;
  return job;
}

// Each process on a leaf of its host (see AssignSlots); the tree is the real
// machine.
absl::StatusOr<JobTree> WithHostSlots(Tree tree,
                                      std::span<const ProcessInfo> procs) {
  ASSIGN_OR_RETURN(std::vector<LeafId> slots,
                   AssignSlots(tree, procs, "the machine"));
  return WithOccupancy(std::move(tree), std::move(slots),
                       /*real_machine=*/true);
}

absl::StatusOr<JobTree> FromOverride(std::span<const ProcessInfo> procs,
                                     const JobTreeOptions& options) {
  ASSIGN_OR_RETURN(Tree tree,
                   LoadDescription(options.topology, "", options.core_leaves));
  std::vector<LeafId> slots = core::Slots(tree, procs.size());
  if (slots.size() < procs.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("mpi_bindings: topology override has ", slots.size(),
                     " slots but the job has ", procs.size(), " processes"));
  }
  slots.resize(procs.size());
  return WithOccupancy(std::move(tree), std::move(slots),
                       /*real_machine=*/false);
}

absl::StatusOr<JobTree> FromNetwork(std::span<const ProcessInfo> procs,
                                    const JobTreeOptions& options) {
  ASSIGN_OR_RETURN(Tree tree,
                   LoadDescription(options.network, "", options.core_leaves));
  // Slots first: the tree is moved into the call below.
  ASSIGN_OR_RETURN(std::vector<LeafId> slots,
                   AssignSlots(tree, procs, "the network spec"));
  return WithOccupancy(std::move(tree), std::move(slots),
                       /*real_machine=*/true);
}

absl::StatusOr<JobTree> FromHwloc(std::span<const ProcessInfo> procs,
                                  const JobTreeOptions& options) {
  // Hosts in order of their first rank; per host the union of its ranks' PUs.
  std::vector<std::string> hosts;
  std::map<std::string, std::vector<int32_t>> pus_of_host;
  for (const ProcessInfo& p : procs) {
    auto [it, inserted] = pus_of_host.try_emplace(p.host);
    if (inserted) hosts.push_back(p.host);
    it->second.insert(it->second.end(), p.pus.begin(), p.pus.end());
  }
  std::vector<Tree> node_trees;
  double costliest = 0.0;
  for (const std::string& host : hosts) {
    ASSIGN_OR_RETURN(
        Tree t, LoadDescription("this", base::FormatCpuList(pus_of_host[host]),
                                options.core_leaves));
    costliest = std::max(costliest, t.cost(t.root()));
    node_trees.push_back(std::move(t));
  }
  bool slurm_switches = !options.topology_addr_pattern.empty();
  for (const ProcessInfo& p : procs)
    slurm_switches = slurm_switches && !p.topology_addr.empty();
  TreeBuilder b;
  if (slurm_switches) {
    std::vector<std::pair<std::string, std::string>> addresses;
    for (const ProcessInfo& p : procs)
      addresses.emplace_back(p.host, p.topology_addr);
    ASSIGN_OR_RETURN(const topology::SwitchTree net,
                     topology::SwitchTreeFromAddresses(
                         addresses, options.topology_addr_pattern));
    std::map<std::string, const Tree*> tree_of_host;
    for (size_t h = 0; h < hosts.size(); ++h)
      tree_of_host[hosts[h]] = &node_trees[h];
    ASSIGN_OR_RETURN(
        Tree tree,
        topology::AttachHostTrees(
            net, "SLURM_TOPOLOGY_ADDR",
            [&](const std::string& host) -> absl::StatusOr<const Tree*> {
              return tree_of_host.at(host);
            }));
    return WithHostSlots(std::move(tree), procs);
  }
  if (hosts.size() == 1) {
    topology::AppendSubtree(b, -1, node_trees[0], hosts[0]);
  } else {
    const double switch_cost = options.switch_cost > 0
                                   ? options.switch_cost
                                   : 10.0 * std::max(costliest, 1.0);
    NodeId root = b.AddRoot("switch", switch_cost);
    for (size_t h = 0; h < hosts.size(); ++h) {
      topology::AppendSubtree(b, root, node_trees[h], hosts[h]);
    }
  }
  ASSIGN_OR_RETURN(Tree tree, std::move(b).Build());
  return WithHostSlots(std::move(tree), procs);
}

}  // namespace

absl::StatusOr<JobTree> BuildJobTree(std::span<const ProcessInfo> processes,
                                     const JobTreeOptions& options) {
  if (processes.empty())
    return absl::InvalidArgumentError("mpi_bindings: empty job");
  if (!options.topology.empty()) return FromOverride(processes, options);
  if (!options.network.empty()) return FromNetwork(processes, options);
  return FromHwloc(processes, options);
}

absl::StatusOr<std::vector<int32_t>> NewRanksFromMapping(
    const JobTree& job, const core::Mapping& mapping) {
  const int64_t n = static_cast<int64_t>(job.slot_of_rank.size());
  RETURN_IF_ERROR(core::ValidateMapping(job.tree, n, mapping));
  // Old ranks per leaf in ascending order, as a CSR over leaves.
  const int32_t leaves = job.tree.num_leaves();
  std::vector<int32_t> begin(leaves + 1, 0);
  for (LeafId l : job.slot_of_rank) ++begin[l + 1];
  for (int32_t l = 0; l < leaves; ++l) begin[l + 1] += begin[l];
  std::vector<int32_t> old_at(n);
  std::vector<int32_t> next(begin.begin(), begin.end() - 1);
  for (int32_t r = 0; r < n; ++r) old_at[next[job.slot_of_rank[r]]++] = r;
  std::vector<int32_t> new_rank(n, -1);
  std::copy(begin.begin(), begin.end() - 1, next.begin());
  for (int32_t p = 0; p < n; ++p) {
    const LeafId l = mapping[p];
    if (next[l] >= begin[l + 1]) {
      return absl::InternalError(absl::StrCat(
          "mpi_bindings: leaf ", l, " receives more processes than sit on it"));
    }
    new_rank[old_at[next[l]++]] = p;
  }
  return new_rank;
}

absl::StatusOr<Reordering> ComputeReordering(
    const JobTree& job, const graphs::CommGraph& graph,
    const core::MappingOptions& options,
    std::span<const double> process_speed) {
  const int64_t n = static_cast<int64_t>(job.slot_of_rank.size());
  if (graph.num_vertices() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("mpi_bindings: graph has ", graph.num_vertices(),
                     " vertices but the communicator has ", n, " processes"));
  }
  Reordering r;
  if (process_speed.empty()) {
    ASSIGN_OR_RETURN(r.mapping, core::Map(job.tree, graph, options));
  } else {
    if (static_cast<int64_t>(process_speed.size()) != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("mpi_bindings: ", process_speed.size(),
                       " process speeds for ", n, " processes"));
    }
    ASSIGN_OR_RETURN(const core::SlotClasses classes,
                     core::ClassesForTree(job.tree, process_speed));
    ASSIGN_OR_RETURN(r.mapping, core::Map(job.tree, graph, options, classes));
  }
  ASSIGN_OR_RETURN(r.new_rank, NewRanksFromMapping(job, r.mapping));
  r.cost_before = core::ComputeJ(job.tree, graph, job.slot_of_rank);
  r.cost_after = core::ComputeJ(job.tree, graph, r.mapping);
  return r;
}

}  // namespace rankmap::mpi_bindings
