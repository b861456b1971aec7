// The refinement kernel: local search on an assignment of a graph's vertices
// to blocks (the leaves of a tree, or of a tree cut at some depth,
// core/strategies/cut_tree.h) under a bound on every block's vertex weight,
// with gains priced by one GainModel (core/refine/gain_model.h: J, or the time
// objective). Its uses:
//
//   * n-to-1 partitions (core/refine/partition_refine.h): blocks are leaves,
//     bounds the imbalance bound of each leaf, moves go into room;
//   * the multilevel engine (core/strategies/multilevel.h), n-to-1 and
//     one-to-one: blocks are the subtrees of one cut, bounds their
//     capacities, the graph one level of the hierarchy, so coarse levels move
//     whole clusters between subtrees; on a finest one-to-one level (a full
//     tree has no room) moves take slack and are each followed by their
//     repair (below), which is a swap when the repaired vertex goes where the
//     first one came from.
//
// Not (yet) uses of it, each with its own search: the swap refinement of
// one-to-one strategies (core/refine/refine.h, subtree-content swaps on equal
// leaves), k-way splits priced by a child-pair matrix
// (core/refine/kway_refine.h: pairwise FM) and the busiest-link objective
// (core/refine/congestion.h, not a sum of arc prices).
//
// The steps:
//   * Rebalance: vertices leave blocks above their bound, least loss first,
//     to a neighbouring block with room, else to a neighbouring block that
//     stays less loaded than the one they leave (the overload diffuses
//     towards room; every such move lowers the sum of squared loads, so it
//     ends), else the lightest to the nearest block with room in the tree.
//   * Label propagation: sweeps moving each vertex to the neighbouring block
//     whose price lowers most and has room; only vertices whose neighbourhood
//     changed are revisited.
//   * FM (Fiduccia-Mattheyses) with a lazy max-heap of each vertex's best
//     move: the unlocked vertex of best gain (possibly negative) goes to a
//     neighbouring block and is locked, its neighbours' entries are renewed,
//     and the search is rolled back to its best prefix that ends with no more
//     blocks over their bound than it started with. A vertex whose best block
//     has no room waits on that block until a vertex leaves it. Localized
//     (FmOptions::localized): one small search from every boundary vertex,
//     ending after kLocalStall moves without a new best; global: one search
//     per round over every boundary vertex at once, ending after max(64, n /
//     100) such moves. With slack > 0 a move may fill a block past its bound
//     by up to the slack, and the best vertex of that block then leaves it
//     (back where the move came from, or to a neighbouring block with room):
//     the move rule of levels without room.
//
// Deterministic: vertices in id order, ties to the lower vertex and the lower
// block; no clock, no threads.
//
//   const GainModel model(graph, tree);
//   Refiner r(model, graph, bound, &blocks);
//   r.Rebalance();
//   r.LabelPropagation(8);
//   r.Fm({.rounds = 2});
//   // ComputeJ(tree, graph, blocks) did not rise after Rebalance.
#ifndef RANKMAP_CORE_REFINE_REFINER_H_
#define RANKMAP_CORE_REFINE_REFINER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/model/mapping.h"
#include "core/refine/gain_model.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// How an FM search moves (see the top of this file).
struct FmOptions {
  int32_t rounds = 2;
  // Room a move may take past its block's bound; the block is then repaired
  // at once. 0: moves into room only.
  double slack = 0.0;
  // One search per boundary vertex (true) or one per round (false).
  bool localized = true;
};

class Refiner {
 public:
  // blocks: one leaf of model.tree() per vertex of `graph`, updated in place;
  // bound: one per leaf. All are referenced, not copied; `model` prices
  // `graph`'s arcs.
  Refiner(const GainModel& model, const graphs::CommGraph& graph,
          std::span<const double> bound, Mapping* blocks);
  // The same priced by J on `tree`.
  Refiner(const topology::Tree& tree, const graphs::CommGraph& graph,
          std::span<const double> bound, Mapping* blocks);

  // Moves vertices out of blocks above their bound. Returns false when some
  // vertex fits nowhere (the bounds are infeasible). Each pass over a block
  // costs O(its vertices * degree * k^2), k the blocks around a vertex.
  bool Rebalance();
  // At most `rounds` sweeps in vertex order (a sweep visits the vertices on a
  // block boundary, then only those whose neighbourhood changed); returns the
  // decrease of the objective. Moves only into room: every block within its
  // bound stays so.
  double LabelPropagation(int32_t rounds);
  // FM rounds as `options` say, stopping after a round without gain. Returns
  // the decrease of the objective (>= 0); a search only keeps prefixes that
  // end with no more blocks over their bound than before it.
  double Fm(const FmOptions& options);

 private:
  // Volume towards each neighbouring block of one vertex.
  struct Neighbourhood {
    std::vector<topology::LeafId> blocks;
    std::vector<GainModel::Volume> volume;
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
  // Decrease of the objective when v moves to `to` (any block).
  double GainTo(graphs::VertexId v, topology::LeafId to);
  // The vertex of x (not locked in search `id`) whose move out of x loses
  // least: back to `vacated` or to a neighbouring block with room; *target
  // receives where. (gain, vertex), vertex -1 when none fits anywhere.
  std::pair<double, graphs::VertexId> BestRepair(topology::LeafId x,
                                                 topology::LeafId vacated,
                                                 graphs::VertexId moved,
                                                 int32_t id,
                                                 topology::LeafId* target);
  // One FM search from `seeds` (search id `id`); *over counts the blocks over
  // their bound. Returns the gain kept.
  double Search(std::span<const graphs::VertexId> seeds, int32_t id,
                const FmOptions& options, int64_t* over);
  void RebalanceBlock(topology::LeafId b,
                      std::vector<std::vector<graphs::VertexId>>& members,
                      std::vector<topology::LeafId>* overfull, bool* stuck);

  std::optional<GainModel> own_model_;  // when built from a tree
  const GainModel& model_;
  const topology::Tree& tree_;
  const graphs::CommGraph& graph_;
  std::span<const double> bound_;
  Mapping& block_;
  std::vector<double> load_;
  Neighbourhood near_;
  std::vector<int32_t> index_;  // per block: position in near_, -1
  std::vector<topology::LeafId> candidates_;  // BestMove's scratch
  // FM state.
  std::vector<int32_t> locked_;   // search id that locked the vertex
  std::vector<int32_t> version_;  // of the vertex's heap entry
  int32_t searches_run_ = 0;
  std::vector<std::pair<graphs::VertexId, topology::LeafId>> log_;
  std::vector<std::vector<graphs::VertexId>> waiting_;  // per block
  std::vector<topology::LeafId> waited_on_;  // blocks with waiting vertices
  std::vector<graphs::VertexId> woken_;      // Search's scratch
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

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_REFINE_REFINER_H_
