// tleaf: the Scotch/TopoMatch target format for balanced trees, one line
//
//   tleaf L a1 c1 a2 c2 ... aL cL
//
// L levels, top-down: every node at depth i-1 has a_i children and the link
// between depth i-1 and depth i costs c_i (an integer or a real, >= 0). The
// distance between two leaves whose lowest common ancestor is at depth d is
// c_{d+1} + ... + c_L (Tree::FromLevels), and a leaf's index is its
// mixed-radix number (i1, ..., iL) in radices (a1, ..., aL), as in Scotch and
// TopoMatch, so costs and mappings compare with theirs 1:1. Tokens may be
// separated by any whitespace, newlines included (Scotch writes "tleaf" and
// the numbers on separate lines).
//
//   ASSIGN_OR_RETURN(Tree t, ParseTleaf("tleaf 3 2 100 4 10 8 1"));
//   ASSIGN_OR_RETURN(std::string line, WriteTleaf(t));  // the same line
//
// Links (a rankmap extension; Scotch and TopoMatch read only costs): every
// c_i may instead be a link "<bandwidth>:<latency>" in SimGrid units
// (topology/link.h), e.g.
//
//   tleaf 3 4 10Gbps:2us 16 25Gbps:1us 24 40GBps:0.2us
//
// Then all levels must be links. The nodes at depth L-1 are hosts (machines
// of a simulated platform, named n0, n1, ... left to right, every leaf of
// host k carrying the host name "nk"); level L's link is their loopback (what
// two processes of one host share) and level i < L's link connects each node
// at depth i to its parent. Costs are derived from the links (topology/tree.h,
// topology/link.h): a host costs its loopback's route cost, a node at depth
// d < L-1 the route cost of two times the links of levels d+1 .. L-1. The
// example is 4 switches of 16 hosts of 24 cores; two cores of one host are
// 0.2 + 65536 / 40e9 s = 1.8384 us apart, two hosts of one switch
// 2 x 1 us + 65536 / 3.125e9 s = 22.97 us, two hosts under different switches
// 2 x 3 us + 65536 / 1.25e9 s = 58.43 us.
#ifndef RANKMAP_TOPOLOGY_TLEAF_H_
#define RANKMAP_TOPOLOGY_TLEAF_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "topology/tree.h"

namespace rankmap::topology {

// True when the first token of `text` is "tleaf". O(length of leading
// whitespace).
bool LooksLikeTleaf(std::string_view text);

// Parses a tleaf description. Errors name `source`, line, column and field,
// e.g. `spec.tgt:1:9: field 'a2' (arity of level 2): expected a positive
// integer, found '0'`; also missing fields, trailing tokens, more than 256
// levels or `max_leaves` leaves, and (ResourceExhausted, before building) a
// tree whose nodes need more than base::MemoryBudget(max_memory_bytes)
// (topology/tree_size.h: 2^25 leaves need about 8 GiB). O(nodes).
absl::StatusOr<Tree> ParseTleaf(std::string_view text,
                                std::string_view source = "topology/tleaf",
                                int64_t max_leaves = int64_t{1} << 30,
                                int64_t max_memory_bytes = 0);

// The tleaf line of a balanced tree whose nodes at one depth share one cost and
// have no child-pair matrix: "tleaf L a1 c1 ... aL cL" with c_i = cost(depth
// i-1) - cost(depth i). Errors: unbalanced tree, pair costs, costs that differ
// within a level or grow with depth. A tree with links is written in the link
// form above when it has that shape (hosts at depth L-1, one link per level);
// errors otherwise.
absl::StatusOr<std::string> WriteTleaf(const Tree& tree);

// Shortest readable form of a cost: integers without a decimal point, other
// values with 15 significant digits (so float noise from subtracting costs does
// not show).
std::string FormatCost(double value);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_TLEAF_H_
