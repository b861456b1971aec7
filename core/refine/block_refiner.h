// Refinement of a mapping of one level's vertices onto blocks (the leaves of a
// cut tree, core/strategies/cut_tree.h) with gains measured in J, under a
// bound on every block's vertex weight: the step the multilevel engine runs at
// every level, coarsest first.
//
//   * Rebalance: vertices leave blocks above their bound, least loss first,
//     to a neighbouring block with room, else to a neighbouring block that
//     stays less loaded than the one they leave (the overload diffuses
//     towards room; every such move lowers the sum of squared loads, so it
//     ends), else the lightest to the nearest block with room in the tree.
//   * Label propagation: sweeps moving each vertex to the neighbouring block
//     that lowers J most and has room; only vertices whose neighbourhood
//     changed are revisited.
//   * Localized FM: from every boundary vertex, a small Fiduccia-Mattheyses
//     search: the unlocked vertex of best gain (possibly negative) among those
//     around the search's moves goes to a neighbouring block and is locked;
//     the search ends after kLocalStall moves without a new best and is rolled
//     back to its best prefix that ends with every block within its bound.
//     With slack > 0 a move may fill a block past its bound, and the best
//     vertex of that block then leaves it (back where the move came from, or
//     to a neighbouring block with room): a swap, so that levels without any
//     room (one-to-one, unit weights on full leaves) still improve.
//
// Gains are sums of ArcCost::Price over the volume a vertex has towards each
// neighbouring block (core/refine/arc_cost.h), so they are exact changes
// of J on the cut tree. Deterministic: vertices in id order, ties to the lower
// block.
//
//   Refiner r(cut.tree(), graph, bound, &blocks);
//   r.Rebalance();
//   r.LabelPropagation(8);
//   r.LocalFm(2, /*slack=*/0.0);
//   // ComputeJ(cut.tree(), graph, blocks) did not rise after Rebalance.
#ifndef RANKMAP_CORE_REFINE_BLOCK_REFINER_H_
#define RANKMAP_CORE_REFINE_BLOCK_REFINER_H_

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/model/mapping.h"
#include "core/refine/arc_cost.h"
#include "core/refine/leaf_distance.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core::multilevel {

class Refiner {
 public:
  // blocks: one leaf of `tree` per vertex of `graph`, updated in place; bound:
  // one per leaf of `tree`. All are referenced, not copied.
  Refiner(const topology::Tree& tree, const graphs::CommGraph& graph,
          std::span<const double> bound, Mapping* blocks);

  // Moves vertices out of blocks above their bound. Returns false when some
  // vertex fits nowhere (the bounds are infeasible). Each pass over a block
  // costs O(its vertices * degree * k^2), k the blocks around a vertex.
  bool Rebalance();
  // At most `rounds` sweeps in vertex order (a sweep visits the vertices on a
  // block boundary, then only those whose neighbourhood changed); returns the
  // J decrease. Moves only into room: every block within its bound stays so.
  double LabelPropagation(int32_t rounds);
  // Localized FM (above), seeds in vertex order, each vertex moved at most
  // once per round; at most `rounds` rounds, stopping after one without gain.
  // Returns the J decrease (>= 0); a search only keeps prefixes that end with
  // no more blocks over their bound than before it.
  double LocalFm(int32_t rounds, double slack);

 private:
  // Volume towards each neighbouring block of one vertex.
  struct Neighbourhood {
    std::vector<topology::LeafId> blocks;
    std::vector<ArcCost::Volume> volume;
  };
  void Collect(graphs::VertexId v);
  void ClearCollected();
  // The cost of the collected vertex if it sat in block x.
  double CostAt(topology::LeafId x) const;
  // The best move of v to a neighbouring block whose load stays within its
  // bound + slack: (gain, block), block -1 when there is none.
  std::pair<double, topology::LeafId> BestMove(graphs::VertexId v,
                                               double slack);
  // The same among the neighbouring blocks `accept` takes.
  template <typename Accept>
  std::pair<double, topology::LeafId> BestMoveWhere(graphs::VertexId v,
                                                    Accept accept);
  // Keeps the kMaxCandidates of candidates_ that block a pays most towards.
  void LimitCandidates(topology::LeafId a);
  bool Fits(topology::LeafId b, double w, double slack) const;
  bool Over(topology::LeafId b) const;
  void Move(graphs::VertexId v, topology::LeafId to);
  // The nearest block to `from` in the tree with room for w (-1: none).
  topology::LeafId NearestWithRoom(topology::LeafId from, double w) const;
  bool Boundary(graphs::VertexId v) const;
  // Member lists per block, kept by Move from now on.
  void TrackMembers();
  // J decrease of moving v to `to` (any block).
  double GainTo(graphs::VertexId v, topology::LeafId to);
  // The vertex of x (not locked in search `id`) whose move out of x loses
  // least: back to `vacated` or to a neighbouring block with room; *target
  // receives where. (gain, vertex), vertex -1 when none fits anywhere.
  std::pair<double, graphs::VertexId> BestRepair(topology::LeafId x,
                                                 topology::LeafId vacated,
                                                 graphs::VertexId moved,
                                                 int32_t id,
                                                 topology::LeafId* target);
  double LocalSearch(graphs::VertexId seed, int32_t id, double slack,
                     int64_t* over);
  void RebalanceBlock(topology::LeafId b,
                      std::vector<std::vector<graphs::VertexId>>& members,
                      std::vector<topology::LeafId>* overfull, bool* stuck);

  const topology::Tree& tree_;
  const graphs::CommGraph& graph_;
  std::span<const double> bound_;
  Mapping& block_;
  LeafDistance distance_;
  ArcCost cost_;
  std::vector<double> load_;
  Neighbourhood near_;
  std::vector<int32_t> index_;  // per block: position in near_, -1
  std::vector<topology::LeafId> candidates_;  // BestMove's scratch
  // FM state.
  std::vector<int32_t> locked_;   // pass id that locked the vertex
  std::vector<int32_t> version_;  // of the vertex's heap entry
  int32_t passes_run_ = 0;
  std::vector<std::pair<graphs::VertexId, topology::LeafId>> local_log_;
  std::vector<std::vector<graphs::VertexId>> members_;  // TrackMembers
  std::vector<int32_t> position_;  // of each vertex in its block's members
  std::vector<graphs::VertexId> repair_candidates_;
  std::vector<int32_t> seen_;  // repair_stamp_ of the vertices gathered
  int32_t repair_stamp_ = 0;
};

template <typename Accept>
std::pair<double, topology::LeafId> Refiner::BestMoveWhere(graphs::VertexId v,
                                                           Accept accept) {
  const topology::LeafId a = block_[v];
  Collect(v);
  std::pair<double, topology::LeafId> best = {0.0, -1};
  std::vector<topology::LeafId>& cand = candidates_;
  cand.clear();
  for (size_t i = 0; i < near_.blocks.size(); ++i) {
    if (near_.blocks[i] != a && accept(near_.blocks[i]))
      cand.push_back(static_cast<topology::LeafId>(i));
  }
  if (!cand.empty()) {
    const double here = CostAt(a);
    LimitCandidates(a);
    for (topology::LeafId i : cand) {
      const topology::LeafId x = near_.blocks[i];
      const double g = here - CostAt(x);
      if (best.second < 0 || g > best.first ||
          (g == best.first && x < best.second)) {
        best = {g, x};
      }
    }
  }
  ClearCollected();
  return best;
}

}  // namespace rankmap::core::multilevel

#endif  // RANKMAP_CORE_REFINE_BLOCK_REFINER_H_
