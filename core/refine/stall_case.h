// A five-process, two-leaf n-to-1 case on which moves into room stall, shared
// by the tests of the refinement kernel and of its n-to-1 use: leaf 0 = {p, q,
// y} is full (bound 3 each), leaf 1 = {x, z}; x talks to p and q (10 each),
// p-q 5, y-p 2, x-z 1. J starts at 20; moves into room stop at 17; the
// optimum is 3 (leaf 0 = {p, q, x}, leaf 1 = {y, z}).
#ifndef RANKMAP_CORE_REFINE_STALL_CASE_H_
#define RANKMAP_CORE_REFINE_STALL_CASE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/model/mapping.h"
#include "graphs/comm_graph.h"

namespace rankmap::core::internal {

struct StallCase {
  enum : int32_t { p, q, y, x, z };
  graphs::CommGraph graph;
  std::vector<double> bound = {3.0, 3.0};
  Mapping start = {0, 0, 0, 1, 1};
};

inline StallCase MakeStallCase() {
  graphs::CommGraphBuilder b(5);
  b.AddEdge(StallCase::x, StallCase::p, 10).IgnoreError();
  b.AddEdge(StallCase::x, StallCase::q, 10).IgnoreError();
  b.AddEdge(StallCase::p, StallCase::q, 5).IgnoreError();
  b.AddEdge(StallCase::y, StallCase::p, 2).IgnoreError();
  b.AddEdge(StallCase::x, StallCase::z, 1).IgnoreError();
  return {std::move(b).Build().value()};
}

}  // namespace rankmap::core::internal

#endif  // RANKMAP_CORE_REFINE_STALL_CASE_H_
