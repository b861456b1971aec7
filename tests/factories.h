// Test-only factories shared by the unit, end-to-end and benchmark code.
#ifndef RANKMAP_TESTS_FACTORIES_H_
#define RANKMAP_TESTS_FACTORIES_H_

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "graphs/comm_graph.h"
#include "topology/tree.h"

namespace rankmap::testing {

// r x c grid, 5-point stencil, weight w per edge; vertex (i, j) has id i * c +
// j.
graphs::CommGraph MakeGrid2D(int32_t r, int32_t c, double w = 1.0);
// x * y * z grid, 7-point stencil; vertex (i, j, k) has id (i * y + j) * z + k.
graphs::CommGraph MakeGrid3D(int32_t x, int32_t y, int32_t z, double w = 1.0);
// Random graph: each vertex picks `partners` random others with integer weights
// in [1, 100].
graphs::CommGraph MakeRandomGraph(int32_t n, int32_t partners, uint64_t seed);
// `groups` cliques of `size` vertices with intra weight `heavy`; consecutive
// groups joined by one edge (first vertex to first vertex) of weight `light`.
graphs::CommGraph MakeCliqueChain(int32_t groups, int32_t size, double heavy,
                                  double light);
// `pairs` heavy pairs (2p, 2p + 1) of weight `heavy` joined into a ring by
// light edges (2p + 1, 2p + 2 mod 2 * pairs) of weight `light`.
graphs::CommGraph MakePairRing(int32_t pairs, double heavy, double light);
// J recomputed pair by pair over all vertex pairs (O(n^2 log deg)),
// independently of the engine's edge-walking evaluators: an oracle for small
// tests.
double PairwiseJ(const topology::Tree& tree, const graphs::CommGraph& g,
                 const std::vector<int32_t>& mapping);
// An unbalanced, restricted instance with a known optimum of 180: a root (cost
// 100) over node A with 6 cores and node B with 4 cores of which leaves 7 and 9
// are unavailable (capacity 0), cores inside a node at distance 1; the graph is
// a 6-clique and a pair (weight 5) joined by one edge (weight 1), ranks
// shuffled. Only node A holds the 6-clique.
struct RestrictedTwoNodeCase {
  topology::Tree tree;
  graphs::CommGraph graph;
};
RestrictedTwoNodeCase MakeRestrictedTwoNodeCase();
// 1 to 4 random single-character edits (replace, erase or insert from
// `alphabet`): the mutation step of the parsers' crash tests.
std::string MutateText(std::string text, std::string_view alphabet,
                       std::mt19937_64& rng);
// The tleaf body "L a1 c1 ... aL cL" (without the word tleaf), e.g. "2 2 10 2
// 1". Aborts the test binary on malformed input: factories are for literals
// written in tests.
topology::Tree MakeTleaf(std::string_view levels);
// Relabels vertices: vertex v of g becomes perm[v].
graphs::CommGraph Permute(const graphs::CommGraph& g,
                          const std::vector<int32_t>& perm);
// A random permutation of [0, n).
std::vector<int32_t> RandomPermutation(int32_t n, uint64_t seed);
// A switch over `hosts` Machines named n0, n1, ..., each with `pus` PU leaves
// whose os indexes are 0, 2, 4, ... (so they differ from the leaf numbers).
topology::Tree MakeHostsTree(int32_t hosts, int32_t pus);

}  // namespace rankmap::testing

#endif  // RANKMAP_TESTS_FACTORIES_H_
