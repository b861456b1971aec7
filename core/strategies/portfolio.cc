#include "core/strategies/portfolio.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "base/status_macros.h"
#include "core/initial/exact_map.h"
#include "core/initial/multisection.h"
#include "core/initial/treematch.h"
#include "core/objective/objective.h"
#include "core/parallel/joined_thread.h"
#include "core/refine/refine.h"
#include "core/split/metis_rand.h"
#include "core/strategies/multilevel.h"
#include "graphs/operations.h"
#include "topology/tree_ops.h"

namespace rankmap::core {
namespace {

using internal::kRefineTreeMatchWithin;
// Multisection restarts: 4096 / n of them (at most 8), so graphs of up to
// 2048 processes get several METIS seeds. Measured on the irregular-tree
// family: geomean 0.854 -> 0.844 of Scotch, and the one instance that stayed
// above Scotch came within 0.2%; graphs of 4096 processes and more run once.
constexpr int32_t kRestartBudget = 4096;
// Search nodes of the exact search on tiny inputs (a few milliseconds).
constexpr int64_t kExactMapBudget = int64_t{1} << 20;

// Above this many processes TreeMatch first proves itself on a pilot.
constexpr int32_t kPilotAbove = 1 << 18;

// The pilot: a breadth-first ball of the graph (from process 0, the next
// unvisited process when a component ends) as large as the root's largest
// child, mapped onto that child's leaves by raw TreeMatch and by the raw
// multisection. True when TreeMatch comes within kRefineTreeMatchWithin of the
// multisection there, i.e. when running it on the whole graph can pay.
bool TreeMatchPaysOnPilot(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const MappingOptions& options) {
  NodeId child = -1;
  for (NodeId c : tree.children(tree.root())) {
    if (child < 0 || tree.Capacity(c) > tree.Capacity(child)) child = c;
  }
  const int32_t n = graph.num_vertices();
  if (child < 0 || tree.is_leaf(child)) return true;
  const int32_t size =
      static_cast<int32_t>(std::min<int64_t>(tree.Capacity(child), n));
  std::vector<char> seen(n, 0);
  std::vector<graphs::VertexId> ball;
  ball.reserve(size);
  for (graphs::VertexId start = 0;
       start < n && static_cast<int32_t>(ball.size()) < size; ++start) {
    if (seen[start]) continue;
    seen[start] = 1;
    ball.push_back(start);
    for (size_t head = ball.size() - 1;
         head < ball.size() && static_cast<int32_t>(ball.size()) < size;
         ++head) {
      for (graphs::VertexId v : graph.neighbors(ball[head])) {
        if (seen[v]) continue;
        seen[v] = 1;
        ball.push_back(v);
        if (static_cast<int32_t>(ball.size()) == size) break;
      }
    }
  }
  absl::StatusOr<graphs::CommGraph> sub = graphs::InducedSubgraph(graph, ball);
  std::vector<LeafId> leaves;
  for (LeafId l = tree.leaf_begin(child); l < tree.leaf_end(child); ++l)
    leaves.push_back(l);
  absl::StatusOr<topology::Tree> part = topology::Restrict(tree, leaves);
  if (!sub.ok() || !part.ok()) return true;
  // Progress: TreeMatch the first half, the multisection's walk the second.
  constexpr std::string_view kPhase = "portfolio: pilot";
  ReportProgress(options.progress, kPhase, 0);
  const Mapping tm = TreeMatchMap(*part, *sub, options.treematch);
  ReportProgress(options.progress, kPhase, 0.5);
  absl::StatusOr<Mapping> ms = MultisectionMap(
      *part, *sub, options.multisection, options.seed, options.threads,
      {.sink = options.progress, .name = kPhase, .from = 0.5, .to = 1.0});
  if (!ms.ok()) return true;
  return ComputeJ(*part, *sub, tm) <=
         kRefineTreeMatchWithin * ComputeJ(*part, *sub, *ms);
}

// One run of the portfolio with the options' effort (see the header).
absl::StatusOr<Mapping> OnePortfolio(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options,
                                     const Objective& objective) {
  const RefineOptions& refine = options.refine;
  Mapping by_tm;
  double j_tm = 0.0;
  std::optional<Mapping> tm_refined;
  ProgressSink* progress = options.progress;
  auto run_tm = [&] {
    ReportProgress(progress, "portfolio: treematch", 0);
    by_tm = TreeMatchMap(tree, graph, options.treematch);
    j_tm = objective.Cost(graph, by_tm);
    ReportProgress(progress, "portfolio: treematch", 1);
  };
  // The refined multisection, restarted with other METIS seeds while that
  // is cheap (kRestartBudget / n runs, at most 8): the lowest J is kept.
  auto run_ms = [&]() -> absl::StatusOr<Mapping> {
    const int32_t restarts = std::clamp<int32_t>(
        kRestartBudget / std::max<int32_t>(graph.num_vertices(), 1), 1, 8);
    absl::StatusOr<Mapping> best = absl::UnknownError("not run");
    double best_j = 0.0;
    for (int32_t r = 0; r < restarts; ++r) {
      ReportProgress(progress, "portfolio: multisection",
                     static_cast<double>(r) / restarts);
      absl::StatusOr<Mapping> m =
          MultisectionMap(tree, graph, options.multisection,
                          options.seed + 7919 * r, options.threads,
                          {.sink = progress,
                           .name = "portfolio: multisection",
                           .from = static_cast<double>(r) / restarts,
                           .to = static_cast<double>(r + 1) / restarts});
      if (!m.ok()) return m;
      if (refine.enabled) {
        objective.Refine(graph, refine.swap_rounds, &*m, nullptr, progress);
      }
      const double j = objective.Cost(graph, *m);
      if (!best.ok() || j < best_j) {
        best = std::move(m);
        best_j = j;
      }
    }
    ReportProgress(progress, "portfolio: multisection", 1);
    return best;
  };
  absl::StatusOr<Mapping> by_ms = absl::UnknownError("not run");
  // The multilevel engine competes beside them, kept only when it scores
  // better: on the worker after TreeMatch (on one thread) where METIS may run
  // beside the multisection (core/split/metis_rand.h), else after the
  // multisection.
  absl::StatusOr<Mapping> by_ml = absl::UnknownError("not run");
  auto run_ml = [&] {
    if (!options.portfolio_multilevel) return;
    MappingOptions one = options;
    one.threads = 1;
    by_ml = MultilevelMap(tree, graph, one);
  };
  if (graph.num_vertices() > kPilotAbove &&
      !TreeMatchPaysOnPilot(tree, graph, options)) {
    // TreeMatch lost clearly on the pilot: the multisection alone.
    return run_ms();
  }
  // TreeMatch on a worker; the multisection on this thread (and its
  // subtrees on several where METIS can: core/split/metis_rand.h).
  if (options.threads >= 2) {
    JoinedThread worker([&] {
      run_tm();
      if (refine.enabled) {
        tm_refined = by_tm;
        objective.Refine(graph, refine.swap_rounds, &*tm_refined, nullptr,
                         progress);
      }
      if (MetisRunsInParallel()) run_ml();
    });
    by_ms = run_ms();
    worker.Join();
    if (!MetisRunsInParallel()) run_ml();
  } else {
    run_tm();
    by_ms = run_ms();
    run_ml();
  }
  if (!by_ms.ok()) return by_ms;
  const double j_ms = objective.Cost(graph, *by_ms);
  if (refine.enabled && j_tm <= kRefineTreeMatchWithin * j_ms) {
    if (!tm_refined) {
      tm_refined = by_tm;
      objective.Refine(graph, refine.swap_rounds, &*tm_refined, nullptr,
                       progress);
    }
    by_tm = *std::move(tm_refined);
  }
  Mapping best =
      Better(objective.ScoreOf(graph, *by_ms), objective.ScoreOf(graph, by_tm))
          ? *std::move(by_ms)
          : std::move(by_tm);
  if (by_ml.ok() &&
      Better(objective.ScoreOf(graph, *by_ml), objective.ScoreOf(graph, best)))
    return *std::move(by_ml);
  return best;
}

}  // namespace

absl::StatusOr<Mapping> PortfolioMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options) {
  ASSIGN_OR_RETURN(const Objective objective,
                   Objective::For(tree, graph, options));
  ASSIGN_OR_RETURN(Mapping best, OnePortfolio(tree, graph, options, objective));
  Score score = objective.ScoreOf(graph, best);
  // More effort than the default: the default's run too, so spending more
  // never returns a worse mapping (ties keep the effortful one).
  const MappingOptions base;
  if (options.multisection.metis_effort > base.multisection.metis_effort ||
      options.refine.swap_rounds > base.refine.swap_rounds) {
    MappingOptions cheaper = options;
    cheaper.multisection = base.multisection;
    cheaper.refine.swap_rounds = base.refine.swap_rounds;
    cheaper.portfolio_multilevel = base.portfolio_multilevel;
    ASSIGN_OR_RETURN(Mapping other,
                     OnePortfolio(tree, graph, cheaper, objective));
    const Score other_score = objective.ScoreOf(graph, other);
    if (Better(other_score, score)) {
      best = std::move(other);
      score = other_score;
    }
  }
  // Tiny inputs: search every placement (bounded, never worse in J; kept
  // only when not worse by the score either).
  if (graph.num_vertices() <= kExactMapLimit) {
    Mapping exact = best;
    double j = ComputeJ(tree, graph, exact);
    ExactMap(tree, graph, kExactMapBudget, &exact, &j);
    if (!Better(score, objective.ScoreOf(graph, exact)))
      best = std::move(exact);
  }
  return best;
}

}  // namespace rankmap::core
