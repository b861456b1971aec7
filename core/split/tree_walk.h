// The top-down driver shared by the strategies that split processes from the
// root down (the METIS multisection, the Scotch baseline on trees that are not
// tleaf, TreeMatch's greedy fallback): every internal node's processes are
// split over its children by a strategy-specific function, down to the
// leaves.
//
//   ASSIGN_OR_RETURN(Mapping m, WalkTopDown(tree, n,
//       [&](NodeId node, std::vector<VertexId> verts,
//           std::vector<ChildShare>* shares) -> absl::Status {
//         shares->push_back({tree.children(node)[0], std::move(verts)});
//         return absl::OkStatus();
//       }));
#ifndef RANKMAP_CORE_SPLIT_TREE_WALK_H_
#define RANKMAP_CORE_SPLIT_TREE_WALK_H_

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "core/model/progress.h"
#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::core {

// The processes one child of a node receives.
struct ChildShare {
  NodeId child = -1;
  std::vector<graphs::VertexId> verts;
};

// split(node, verts, shares): distribute verts (the processes that reached
// internal node `node`, never empty) over node's children by appending one
// ChildShare per child that receives any (children in any order, each at most
// once). An error stops the walk.
using SplitFn = absl::FunctionRef<absl::Status(
    NodeId node, std::vector<graphs::VertexId> verts,
    std::vector<ChildShare>* shares)>;

// Processes 0..n-1 start at the root; nodes are visited depth first, children
// in the order split lists them; a process that reaches leaf l is mapped to l.
// The result maps every process (given a split that loses none). O(n * height)
// plus the splits.
absl::StatusOr<Mapping> WalkTopDown(const topology::Tree& tree, int32_t n,
                                    SplitFn split);

// As split, told which worker (0 .. threads - 1) calls it, so that it can keep
// scratch space per worker.
using WorkerSplitFn = absl::FunctionRef<absl::Status(
    int32_t worker, NodeId node, std::vector<graphs::VertexId> verts,
    std::vector<ChildShare>* shares)>;

// WalkTopDown with up to `threads` workers splitting different nodes at once
// (the caller's thread is worker 0). split must be safe to call concurrently
// for different nodes; when its result depends only on (node, verts), the
// mapping is the same for every thread count. An error, or an exception,
// stops every worker; the error (or exception) is returned (rethrown) here.
// Progress: the share of the n * height process-levels split so far (each
// split of k processes does k of them), reported in whole percents, in
// increasing order, and 1 at the end of a successful walk.
absl::StatusOr<Mapping> WalkTopDown(const topology::Tree& tree, int32_t n,
                                    int32_t threads, WorkerSplitFn split,
                                    const ProgressPhase& progress = {});

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_SPLIT_TREE_WALK_H_
