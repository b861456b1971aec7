// Refinement: gain-driven local search on a mapping, accepting only moves that
// strictly lower J = sum over edges of w(u, v) * Distance(leaf(u), leaf(v)).
//
// Moves: swap the leaves of two processes, or move a process to a leaf with
// free capacity. Candidate leaves for a process u are the leaves near its
// heaviest neighbours (the neighbour's leaf and its siblings under the same
// parent), so a round costs O(sum over u of candidates(u) * degree * depth).
// Gains are evaluated exactly in O((deg u + deg v) * depth). Visiting order and
// tie breaks are fixed, so results depend only on the inputs (no clock, no
// threads).
//
//   Mapping m = ...;                       // any valid mapping
//   RefineMapping(tree, graph, options, &m);
//   // ComputeJ(tree, graph, m) <= the J before; ValidateMapping still OK.
#ifndef RANKMAP_CORE_REFINE_H_
#define RANKMAP_CORE_REFINE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/mapping.h"
#include "core/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// A mapping with leaf occupancy, answering "what does J gain if ..." questions
// exactly. Requires a valid mapping (ValidateMapping OK) for the lifetime of
// the object; the mapping is updated in place by Swap/Move.
class Placement {
 public:
  Placement(const topology::Tree& tree, const graphs::CommGraph& graph,
            Mapping* mapping);

  // J(before) - J(after) for exchanging the leaves of u and v. O((deg u + deg
  // v) * depth).
  double SwapGain(graphs::VertexId u, graphs::VertexId v) const;
  // J(before) - J(after) for moving u to leaf l (which must have free
  // capacity).
  double MoveGain(graphs::VertexId u, LeafId l) const;
  void Swap(graphs::VertexId u, graphs::VertexId v);
  void Move(graphs::VertexId u, LeafId l);

  LeafId leaf(graphs::VertexId u) const { return (*mapping_)[u]; }
  bool HasRoom(LeafId l) const { return load_[l] < tree_.capacity(l); }
  // Processes on leaf l (at most capacity(l) of them).
  std::span<const graphs::VertexId> Occupants(LeafId l) const {
    return {occupant_.data() + slot_begin_[l], static_cast<size_t>(load_[l])};
  }

 private:
  const topology::Tree& tree_;
  const graphs::CommGraph& graph_;
  Mapping* mapping_;
  std::vector<int64_t> slot_begin_;         // per leaf, into occupant_
  std::vector<int32_t> load_;               // per leaf
  std::vector<graphs::VertexId> occupant_;  // slots, leaf-major

  // O(1) distances on balanced trees with one cost per depth: leaf keys pack
  // the child index at each depth (top digits highest), so the highest
  // differing bit names the depth of the lowest common ancestor. Empty when not
  // applicable.
  double Dist(LeafId a, LeafId b) const {
    if (key_.empty()) return tree_.Distance(a, b);
    const uint64_t x = key_[a] ^ key_[b];
    return x == 0 ? 0.0 : bit_cost_[63 - __builtin_clzll(x)];
  }
  std::vector<uint64_t> key_;
  double bit_cost_[64] = {};
};

// Improves *mapping in place with at most options.refine_rounds rounds of
// swaps/moves; stops early when a round finds no improving move. Never raises
// J. Requires a valid mapping for (tree, graph). Time O(rounds * n * candidates
// * degree * depth); memory O(n + leaves).
void RefineMapping(const topology::Tree& tree, const graphs::CommGraph& graph,
                   const MappingOptions& options, Mapping* mapping);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_H_
