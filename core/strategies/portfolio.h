// The portfolio (Algorithm::kPortfolio, the default): TreeMatch and the METIS
// multisection on the same input, the lower J kept (TreeMatch on ties).
// On trees with links (topology::Tree::has_links) and with
// options.link_aware_choice, the link-load estimate
// (core/objective/link_load.h) decides instead when it separates the two by
// more than 5%: on the 256-rank stencil of bench/sim, TreeMatch's 6% lower J
// came with a 15% busier host link and a 14% longer simulated time. Trees
// without links are mapped exactly as by J alone.
//
// The multisection's result is always refined (when options.refine.enabled);
// on graphs of up to 2048 processes the multisection is restarted with other
// METIS seeds (4096 / n runs, at most 8) and the lowest J kept. TreeMatch's
// result is refined only when, unrefined, it is within 2% of the refined
// multisection's J: measured on the bench families (N = 64 to 8192), the
// refined TreeMatch beat the refined multisection only on clustered patterns,
// by at most 0.01%, and elsewhere trailed it by 2-90%; skipping the hopeless
// refinements is what brings the default preset under Scotch's time at N =
// 4096 and 8192. With options.threads >= 2 TreeMatch (and its speculative
// refinement) runs beside the multisection; the result does not depend on the
// thread count. Above 2^18 processes TreeMatch first proves itself on a pilot
// (a breadth-first ball of the graph as large as the root's largest child,
// mapped onto that child by both raw strategies) and runs on the whole graph
// only when it comes within 2% of the multisection there: on the shuffled
// 1,048,576-process 3D stencil it trails by 3x and the pilot saves its 4.5 s.
// With options.portfolio_multilevel (the strong preset) the multilevel engine
// (core/strategies/multilevel.h) runs as a third member, on one thread, and is
// kept only when it scores better. Not in the default: side by side on the
// bench it lowered J on 3 of the 8 rows at N = 4096 / 8192 (2D stencils by 2.4%
// and 1.0%, random 8192 by 0.2%; 0.9955x in the geometric mean) for 1.84x
// default's wall time, on 5 of 24 irregular-arity rows by at most 0.22%, on
// none of the 24 heterogeneous ones.
// Options with more effort than the default (metis_effort,
// refine.swap_rounds: the strong preset) also run the default's portfolio and
// keep the better, so spending more never returns a worse mapping. Inputs of
// at most 9 processes are then searched exactly (core/initial/exact_map.h).
//
//   ASSIGN_OR_RETURN(Mapping m, PortfolioMap(tree, graph, MappingOptions{}));
#ifndef RANKMAP_CORE_STRATEGIES_PORTFOLIO_H_
#define RANKMAP_CORE_STRATEGIES_PORTFOLIO_H_

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// One-to-one; requires n <= the tree's total capacity (Map checks). Errors:
// the multisection's.
absl::StatusOr<Mapping> PortfolioMap(const topology::Tree& tree,
                                     const graphs::CommGraph& graph,
                                     const MappingOptions& options);

namespace internal {

// TreeMatch's result is refined only when, unrefined, it is within this factor
// of the refined multisection's J (above; exposed for the tests).
inline constexpr double kRefineTreeMatchWithin = 1.02;

}  // namespace internal

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_STRATEGIES_PORTFOLIO_H_
