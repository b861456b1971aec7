// Test-only graphs for graphs/ tests: random graphs with integer or real
// weights, the TreeMatch paper's 8 x 8 example matrix, and a 3D stencil.
#ifndef RANKMAP_GRAPHS_TEST_GRAPHS_H_
#define RANKMAP_GRAPHS_TEST_GRAPHS_H_

#include <cstdint>
#include <vector>

#include "graphs/comm_graph.h"

namespace rankmap::graphs::testing {

// n vertices, each sending to `partners` random others; weights are integers in
// [1, 1000] when `integer_weights`, otherwise reals in (0, 1000). Optional
// random integer vertex weights. Same seed, same graph.
CommGraph RandomGraph(int32_t n, int32_t partners, uint64_t seed,
                      bool integer_weights = true, bool vertex_weights = false);

// The 8 x 8 communication matrix of the TreeMatch paper (Jeannot & Mercier,
// Euro-Par 2010, Fig. 1(a)), row-major, as the directed volumes A[i][j] (see
// test_graphs.cc).
std::vector<double> TreeMatchExampleMatrix();
// The CommGraph of that matrix: w(i, j) = A[i][j] + A[j][i].
CommGraph TreeMatchExampleGraph();

// x * y * z grid, 7-point stencil, weight w; vertex (i, j, k) is (i * y + j) *
// z + k.
CommGraph Stencil3D(int32_t x, int32_t y, int32_t z, double w = 1.0);

// Aborts on a builder error (inputs are literals written in tests).
CommGraph BuildOrDie(CommGraphBuilder builder);

}  // namespace rankmap::graphs::testing

#endif  // RANKMAP_GRAPHS_TEST_GRAPHS_H_
