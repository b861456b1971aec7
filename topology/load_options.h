// Options shared by every topology reader (hwloc import, tleaf, network spec)
// and by LoadTopology in topology/topology.h. Plain values, no global state.
//
//   LoadOptions opts;
//   opts.leaf = LeafKind::kCore;      // one slot per core, hyperthreads folded
//   opts.level_costs = "numa=100,pack=50";
#ifndef RANKMAP_TOPOLOGY_LOAD_OPTIONS_H_
#define RANKMAP_TOPOLOGY_LOAD_OPTIONS_H_

#include <cstdint>
#include <string>

namespace rankmap::topology {

enum class LeafKind { kPu, kCore };

struct LoadOptions {
  // Leaves are PUs, or cores with their hyperthreads folded into one slot.
  LeafKind leaf = LeafKind::kPu;
  // Per-level cost overrides by level name, e.g. "numa=100,pack=50,core=1"
  // (hwloc inputs and the hwloc nodes of a network spec). Names are hwloc's
  // (pack, package, socket, numa, group, die, l3, core, pu, machine, ...); the
  // value becomes the distance between two leaves whose lowest common ancestor
  // is such a level.
  std::string level_costs;
  // Keep only these PUs (hwloc list syntax of os indexes, e.g. "0-3,8"); empty
  // keeps all. For tleaf and network-spec inputs the numbers are logical leaf
  // indexes instead.
  std::string allowed_pus;
  // Capacity of every leaf (oversubscription); 1 by default.
  int32_t capacity = 1;
  // Memory budget for building the tree (and hwloc's objects), checked before
  // anything large is allocated; 0: base::MemoryBudget()'s default.
  int64_t max_memory_bytes = 0;
  // Most steps hwloc may be given for one machine (topology/hwloc_guard.h:
  // about 10 s by default); tests and fuzzers lower it.
  int64_t max_hwloc_work = int64_t{100} * 1000 * 1000 * 1000;
  // Hardware of the hosts of a switch network read from a cluster's files
  // (Slurm topology.conf, ibnetdiscover; topology/switch_tree.h): a directory
  // of <host>.xml hwloc exports, or one description for every host (hwloc
  // synthetic string, tleaf, XML file, "this").
  std::string node;
};

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_LOAD_OPTIONS_H_
