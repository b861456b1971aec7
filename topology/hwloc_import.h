// hwloc import: the running machine, an XML export (`lstopo --of xml`, hwloc
// 1.x or 2.x format) or a synthetic string in hwloc's own syntax, turned into
// a topology::Tree.
//
// What the tree keeps of hwloc's:
//  - Leaves are PUs in hwloc's logical order (LeafKind::kPu), or cores
//    (LeafKind::kCore: one slot per core, hyperthreads folded; a PU with no
//    Core above it stays a leaf). A PU leaf's os_index is the PU's; a core
//    leaf's is its first PU's (the id a binding uses), and its PU set holds
//    every hardware thread of the core. Each leaf keeps hwloc's logical index
//    of its PU or core as numbered before any allowed_pus restriction (what a
//    launcher numbering CPUs logically sees), and the machine's host name
//    when hwloc knows it (this machine; XML exports carry a HostName info;
//    synthetic descriptions have none).
//  - Leaf speeds come from hwloc's CPU kinds (hybrid CPUs: Intel P/E cores,
//    AMD Zen 5/5c): 1 + the rank of the kind's efficiency, so on a machine with
//    P and E cores the E cores have speed 1 and the P cores 2. Machines with
//    one kind, or kinds of unknown efficiency, have speed 1 everywhere.
//  - Normal objects without a PU (CPU-less packages kept as PCI parents,
//    memory-only Groups), I/O and Misc objects are dropped. PUs hwloc marks
//    disallowed are dropped too: we load without
//    HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED, so an XML saved under a cpuset or
//    with offline CPUs gives the tree of the CPUs that can run processes.
//  - NUMA nodes (memory children in hwloc 2) become levels by naming the
//    object they are attached to ("Group+NUMANode", "Package+NUMANode"):
//    hwloc 2 gives a NUMA node its parent's cpuset, and where a NUMA node
//    groups a proper subset of an object's cores it inserts a Group over
//    them, so that Group is the NUMA level (several NUMA nodes on one object,
//    like KNL's DRAM + MCDRAM, name it once).
//  - A level (depth) where every internal node has exactly one child is
//    collapsed into the level above; the survivor's kind joins the names, like
//    lstopo: "Package+L3Cache", "L2Cache+L1Cache+Core". Distances do not
//    change (a single-child node is never the LCA of two distinct leaves).
//
// Default costs follow depth, deeper = cheaper: with H the height of the
// resulting tree, an internal node at depth d costs (10^(H-d) - 1) / 9, i.e.
// 1, 11, 111, ... from the bottom level up: the tleaf rule with link costs 1,
// 10, 100, ... Overrides by level name ("numa=100,pack=50") replace the cost
// of every node one of whose joined names matches; when a node matches several
// names, the first matching name of the override string wins. Names absent
// from the machine are ignored, so one override string serves many machines.
//
//   HwlocImportOptions o;
//   o.leaf = LeafKind::kCore;
//   ASSIGN_OR_RETURN(Tree t, TreeFromSynthetic("pack:2 core:4 pu:2", o));
//   // t has 8 leaves; Distance(0, 1) == 1, Distance(0, 4) == 11
#ifndef RANKMAP_TOPOLOGY_HWLOC_IMPORT_H_
#define RANKMAP_TOPOLOGY_HWLOC_IMPORT_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "topology/hwloc_guard.h"
#include "topology/load_options.h"
#include "topology/tree.h"

namespace rankmap::topology {

struct HwlocImportOptions {
  LeafKind leaf = LeafKind::kPu;
  // "name=cost,name=cost"; see above. Errors: unknown level name, bad or
  // negative cost.
  std::string level_costs;
  // hwloc list of PU os indexes ("0-3,8"); empty keeps every allowed PU. The
  // topology is restricted to these PUs with hwloc_topology_restrict before
  // conversion.
  std::string allowed_pus;
  // Synthetic descriptions with more PUs than this are refused before hwloc
  // builds them (callers with a leaf budget, like the network spec, lower it).
  int64_t max_synthetic_pus = int64_t{1} << 24;
  // Memory budget of hwloc's objects (topology/hwloc_guard.h); 0: the default
  // of base::MemoryBudget.
  int64_t max_memory_bytes = 0;
  // Most steps hwloc may take (topology/hwloc_guard.h).
  int64_t max_hwloc_work = kMaxHwlocWork;
};

// The running machine. Errors: hwloc fails to load, restriction matches no PU.
absl::StatusOr<Tree> TreeFromThisMachine(
    const HwlocImportOptions& options = {});

// An hwloc synthetic description ("pack:2 numa:2 core:4 pu:2"; a last level
// other than pu gets "pu:1" appended, so "core:8" is 8 single-PU cores).
// Checked here first so errors name the column and the field:
// `topology/synthetic: unknown level 'foo' at column 8`, zero or negative
// counts, more than options.max_synthetic_pus PUs, and (ResourceExhausted) a
// machine whose hwloc load would be too slow or too large
// (topology/hwloc_guard.h: `core:16384` is refused, `pack:64 core:64 pu:2`
// takes about a second). Cost O(PUs).
absl::StatusOr<Tree> TreeFromSynthetic(std::string_view synthetic,
                                       const HwlocImportOptions& options = {});

// An XML file written by lstopo or hwloc_topology_export_xml. Errors name the
// path: missing file, XML that topology/hwloc_guard.h refuses before hwloc
// sees it (objects without the sets or os indexes hwloc needs not to crash,
// machines too large to load), XML hwloc refuses.
absl::StatusOr<Tree> TreeFromXmlFile(const std::string& path,
                                     const HwlocImportOptions& options = {});

// The same from XML text held in memory; `source` names it in errors.
absl::StatusOr<Tree> TreeFromXmlBuffer(std::string_view xml,
                                       std::string_view source,
                                       const HwlocImportOptions& options = {});

// The XML hwloc exports for a synthetic description
// (hwloc_topology_export_xmlbuffer); for round-trip tests and for saving a
// synthetic machine.
absl::StatusOr<std::string> SyntheticToXml(std::string_view synthetic);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_HWLOC_IMPORT_H_
