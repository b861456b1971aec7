#include "core/strategies/multilevel.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status_macros.h"
#include "core/coarsen/hierarchy.h"
#include "core/initial/multisection.h"
#include "core/refine/refine.h"
#include "core/refine/refiner.h"
#include "core/strategies/cut_tree.h"
#include "core/strategies/problem.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::VertexId;
using multilevel::CutShape;
using multilevel::CutTree;
using multilevel::Hierarchy;
using multilevel::Problem;
using topology::Tree;

// Graphs above this many vertices are coarsened until a level has at most
// this many; smaller graphs are split whole. Measured on the bench's n-to-1
// meshes: one level of coarsening in front of the top split raised J from
// 0.947 to 0.985 of Scotch's (METIS splits the full graph better than its
// contraction), so coarsening only bounds what METIS sees on huge graphs.
constexpr int64_t kSplitWhole = int64_t{1} << 19;
// A coarse level maps onto the deepest cut whose smallest block holds
// 1 / max(imbalance, kCoarseSlack) times its heaviest vertex.
constexpr double kCoarseSlack = 0.05;
// Refinement on every cut: label propagation sweeps, localized FM rounds.
constexpr int32_t kLpRounds = 8;
constexpr int32_t kFmRounds = 2;

// Which cut each level of the hierarchy maps onto, and how its bounds relax.
struct Schedule {
  int32_t top = 1;             // the first cut with two blocks or more
  std::vector<int32_t> depth;  // per level; level 0: the finest cut
  std::vector<double> relax;   // per level: slack on every block's bound
  std::vector<double> split_imbalance;  // per level, for the multisection
  double top_relax = 0.0;               // the coarsest level on the top cut
  double top_imbalance = 0.0;           // (< 0: exact sizes)
};

// The imbalance that keeps every block of a cut within its bound relaxed by
// `relax`.
double SplitImbalance(const CutShape& s, double relax) {
  return s.min_ratio + relax / std::max(1.0, s.min_bound - s.min_room);
}

Schedule MakeSchedule(const Problem& p, const Hierarchy& h, int32_t top) {
  const double fit = 1.0 / std::max(p.imbalance, kCoarseSlack);
  std::vector<CutShape> shapes(p.max_depth + 1);
  for (int32_t d = top; d <= p.max_depth; ++d)
    shapes[d] = ShapeAt(p, d, /*coarse=*/true);
  const CutShape finest = ShapeAt(p, p.max_depth);
  const int32_t levels = h.num_levels(), coarsest = levels - 1;
  Schedule s;
  s.top = top;
  s.depth.assign(levels, top);
  s.relax.assign(levels, 0.0);
  s.split_imbalance.assign(levels, 0.0);
  for (int32_t l = coarsest; l >= 0; --l) {
    const double w = h.max_vertex_weight(l);
    int32_t d = top;
    for (int32_t e = top; e <= p.max_depth; ++e) {
      if (shapes[e].min_bound >= fit * w) d = e;
    }
    if (l == 0) d = p.max_depth;
    if (l < coarsest) d = std::max(d, s.depth[l + 1]);
    s.depth[l] = d;
    // Coarse vertices may not pack into blocks without room: such levels
    // relax the bounds by what a vertex exceeds the room.
    s.relax[l] = l == 0 ? 0.0 : std::max(0.0, w - shapes[d].min_room);
    s.split_imbalance[l] =
        SplitImbalance(l == 0 ? finest : shapes[d], s.relax[l]);
  }
  const CutShape t = ShapeAt(p, top, /*coarse=*/coarsest > 0);
  s.top_relax = coarsest == 0
                    ? 0.0
                    : std::max(0.0, h.max_vertex_weight(coarsest) - t.min_room);
  s.top_imbalance = SplitImbalance(t, s.top_relax);
  // One-to-one on the finest level: exact sizes, as the multisection splits.
  if (p.one_to_one && coarsest == 0) s.top_imbalance = -1.0;
  return s;
}

// The smallest depth whose cut has two blocks or more, or -1.
int32_t TopDepth(const Problem& p) {
  for (int32_t d = 1; d <= p.max_depth; ++d) {
    if (ShapeAt(p, d).blocks >= 2) return d;
  }
  return -1;
}

// The cut trees of a run, made once per depth.
class Cuts {
 public:
  explicit Cuts(const Problem& p) : p_(p) {}
  absl::StatusOr<const CutTree*> At(int32_t d) {
    auto it = cuts_.find(d);
    if (it == cuts_.end()) {
      ASSIGN_OR_RETURN(CutTree c, CutTree::Make(*p_.tree, p_.BlockDepths(d)));
      it = cuts_.emplace(d, std::move(c)).first;
    }
    return &it->second;
  }

 private:
  const Problem& p_;
  std::map<int32_t, CutTree> cuts_;
};

// Rebalance, label propagation and localized FM on one cut. slack > 0 lets
// FM swap through full blocks (see core/refine/refiner.h).
void RefineCut(const CutTree& cut, const CommGraph& g,
               const std::vector<double>& bound, double slack,
               Mapping* blocks) {
  Refiner r(cut.tree(), g, bound, blocks);
  r.Rebalance();
  r.LabelPropagation(kLpRounds);
  r.Fm({.rounds = kFmRounds, .slack = slack});
}

// One run: the hierarchy, the top split of its coarsest level, the deeper
// cuts, the uncoarsening down to the finest blocks.
class Engine {
 public:
  Engine(const Problem& p, const MappingOptions& o, int64_t split_whole)
      : p_(p), o_(o), split_whole_(split_whole), cuts_(p) {}

  absl::StatusOr<Mapping> Run();

 private:
  absl::StatusOr<Mapping> Initial();
  // Level l from the mapping of level l + 1 (of the top split when l is the
  // coarsest level).
  absl::StatusOr<Mapping> Uncoarsen(int32_t l, const Mapping& coarse);
  // Splits every block of `from` down to the blocks of `to` (the multisection
  // continued from each block, at the least METIS effort).
  absl::StatusOr<Mapping> Deepen(int32_t l, const CutTree& from,
                                 const CutTree& to, Mapping blocks);
  Mapping Expand(const CutTree& cut, const Mapping& blocks) const;
  // FM's slack on level l: the finest level may have no room at all.
  double Slack(int32_t l) const {
    return l == 0 ? h_->max_vertex_weight(0) : 0.0;
  }

  const Problem& p_;
  const MappingOptions& o_;
  const int64_t split_whole_;
  Cuts cuts_;
  std::optional<Hierarchy> h_;
  Schedule s_;
};

absl::StatusOr<Mapping> Engine::Run() {
  const CommGraph& g = *p_.graph;
  const int32_t top = TopDepth(p_);
  if (top < 0 || g.num_vertices() < 2) {
    // One block takes everything.
    ASSIGN_OR_RETURN(const CutTree* cut, cuts_.At(p_.max_depth));
    Mapping blocks(g.num_vertices(), 0);
    for (LeafId b = 0; b < cut->num_blocks(); ++b) {
      if (p_.NodeBound(cut->original(b)) > 0) {
        std::fill(blocks.begin(), blocks.end(), b);
        break;
      }
    }
    return Expand(*cut, blocks);
  }
  multilevel::CoarseningOptions c;
  c.stop_at = split_whole_;
  c.max_weight = ShapeAt(p_, top, /*coarse=*/true).min_bound *
                 std::max(p_.imbalance, kCoarseSlack);
  c.seed = o_.seed;
  c.threads = o_.threads;
  h_.emplace(multilevel::BuildHierarchy(
      g, c, {.sink = o_.progress, .name = "multilevel: coarsening"}));
  s_ = MakeSchedule(p_, *h_, top);
  ASSIGN_OR_RETURN(Mapping blocks, Initial());
  // Refinement: the coarsest level down to its own cut, then every level.
  constexpr std::string_view kPhase = "multilevel: refinement";
  ReportProgress(o_.progress, kPhase, 0.0);
  double total = 0.0, done = 0.0;
  for (int32_t l = 0; l < h_->num_levels(); ++l)
    total += h_->graph(l).num_vertices();
  const int32_t coarsest = h_->num_levels() - 1;
  ASSIGN_OR_RETURN(blocks, Uncoarsen(coarsest, blocks));
  for (int32_t l = coarsest; l >= 0; --l) {
    if (l < coarsest) {
      ASSIGN_OR_RETURN(blocks, Uncoarsen(l, blocks));
    }
    done += h_->graph(l).num_vertices();
    ReportProgress(o_.progress, kPhase, done / total);
  }
  ASSIGN_OR_RETURN(const CutTree* finest, cuts_.At(s_.depth[0]));
  return Expand(*finest, blocks);
}

absl::StatusOr<Mapping> Engine::Initial() {
  // The top split (the most expensive cut) of the coarsest level, with the
  // options' METIS effort, refined on the top cut.
  const int32_t l = h_->num_levels() - 1;
  const CommGraph& g = h_->graph(l);
  constexpr std::string_view kPhase = "multilevel: initial";
  ReportProgress(o_.progress, kPhase, 0.0);
  ASSIGN_OR_RETURN(const CutTree* top, cuts_.At(s_.top));
  const std::vector<NodeId> root(g.num_vertices(), top->tree().root());
  ASSIGN_OR_RETURN(Mapping m,
                   MultisectionFrom(top->tree(), g, o_.multisection, o_.seed,
                                    s_.top_imbalance, root, o_.threads));
  RefineCut(*top, g, BlockBounds(p_, *top, s_.top_relax, l > 0), 0.0, &m);
  ReportProgress(o_.progress, kPhase, 1.0);
  return m;
}

absl::StatusOr<Mapping> Engine::Uncoarsen(int32_t l, const Mapping& coarse) {
  // Level l takes its coarser level's blocks (the coarsest: the top split's),
  // is split down to its own cut where that is deeper, and refined there.
  const CommGraph& g = h_->graph(l);
  const bool coarsest = l + 1 == h_->num_levels();
  Mapping blocks = coarse;
  if (!coarsest) {
    std::span<const VertexId> up = h_->up(l);
    blocks.resize(g.num_vertices());
    for (VertexId v = 0; v < g.num_vertices(); ++v) blocks[v] = coarse[up[v]];
  }
  ASSIGN_OR_RETURN(const CutTree* from,
                   cuts_.At(coarsest ? s_.top : s_.depth[l + 1]));
  ASSIGN_OR_RETURN(const CutTree* to, cuts_.At(s_.depth[l]));
  if (from == to && coarsest) return blocks;  // refined by Initial
  if (from != to) {
    ASSIGN_OR_RETURN(blocks, Deepen(l, *from, *to, std::move(blocks)));
  }
  RefineCut(*to, g, BlockBounds(p_, *to, s_.relax[l], l > 0), Slack(l),
            &blocks);
  return blocks;
}

absl::StatusOr<Mapping> Engine::Deepen(int32_t l, const CutTree& from,
                                       const CutTree& to, Mapping blocks) {
  const CommGraph& g = h_->graph(l);
  // The blocks of the coarser cut first fit this level's bounds (one-to-one's
  // exact split needs it).
  const std::vector<double> bound = BlockBounds(p_, from, s_.relax[l], l > 0);
  Refiner(from.tree(), g, bound, &blocks).Rebalance();
  std::vector<NodeId> start(g.num_vertices());
  for (VertexId v = 0; v < g.num_vertices(); ++v)
    start[v] = to.cut_node(from.original(blocks[v]));
  MultisectionOptions least = o_.multisection;
  least.metis_effort = 0;
  const double imbalance =
      p_.one_to_one && l == 0 ? -1.0 : s_.split_imbalance[l];
  return MultisectionFrom(to.tree(), g, least, o_.seed + l + 1, imbalance,
                          start, o_.threads);
}

Mapping Engine::Expand(const CutTree& cut, const Mapping& blocks) const {
  // A block's processes fill its leaves in leaf order (the leaves of a
  // collapsed block are equidistant).
  const Tree& t = *p_.tree;
  Mapping m(blocks.size());
  std::vector<LeafId> next(cut.num_blocks());
  std::vector<int64_t> used(t.num_leaves(), 0);
  for (LeafId b = 0; b < cut.num_blocks(); ++b)
    next[b] = t.leaf_begin(cut.original(b));
  for (size_t v = 0; v < blocks.size(); ++v) {
    const LeafId b = blocks[v];
    LeafId& l = next[b];
    while (l + 1 < t.leaf_end(cut.original(b)) && used[l] >= t.capacity(l)) ++l;
    m[v] = l;
    ++used[l];
  }
  return m;
}

}  // namespace

namespace internal {

absl::StatusOr<Mapping> RunMultilevel(const Tree& tree, const CommGraph& graph,
                                      const MappingOptions& options,
                                      bool one_to_one, int64_t split_whole) {
  const Problem p = multilevel::MakeProblem(
      tree, graph, one_to_one, one_to_one ? 0.0 : options.imbalance);
  Engine engine(p, options, split_whole);
  return engine.Run();
}

}  // namespace internal

absl::StatusOr<Mapping> MultilevelMap(const Tree& tree, const CommGraph& graph,
                                      const MappingOptions& options) {
  ASSIGN_OR_RETURN(Mapping m, internal::RunMultilevel(tree, graph, options,
                                                      true, kSplitWhole));
  if (options.refine.enabled) {
    RefineMapping(tree, graph, options.refine.swap_rounds, &m, nullptr,
                  options.progress);
  }
  return m;
}

absl::StatusOr<Mapping> MultilevelPartition(const Tree& tree,
                                            const CommGraph& graph,
                                            const MappingOptions& options) {
  ASSIGN_OR_RETURN(Mapping m, internal::RunMultilevel(tree, graph, options,
                                                      false, kSplitWhole));
  RETURN_IF_ERROR(ValidatePartitionMapping(tree, graph, m, options.imbalance));
  return m;
}

}  // namespace rankmap::core
