// Greedy top-down split for trees TreeMatch's bottom-up grouping does not fit
// (unbalanced trees, leaves of different capacities, restricted leaves,
// child-pair cost matrices): at each node the processes are split over the
// children in order, filling each child up to its capacity by growing from the
// most-connected process (the strongest boundary process of the previous child
// seeds the next one). Refinement then polishes the result (Map does that).
//
//   Mapping m = GreedySplitMap(tree, graph);   // valid one-to-one mapping
#ifndef RANKMAP_CORE_INITIAL_GREEDY_SPLIT_H_
#define RANKMAP_CORE_INITIAL_GREEDY_SPLIT_H_

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// Requires graph.num_vertices() <= the tree's total capacity. O((n + m) log m
// * height).
Mapping GreedySplitMap(const topology::Tree& tree,
                       const graphs::CommGraph& graph);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_INITIAL_GREEDY_SPLIT_H_
