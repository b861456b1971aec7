// Real weights as the integers METIS and Scotch take, by two documented rules.
//
//   std::vector<int32_t> arcs = ScaleToMetisWeights(raw);      // edge weights
//   std::vector<int32_t> vw = IntegerVertexWeights(w, 1);      // vertex loads
#ifndef RANKMAP_CORE_SPLIT_INTEGER_WEIGHTS_H_
#define RANKMAP_CORE_SPLIT_INTEGER_WEIGHTS_H_

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::core {

// Edge weights for METIS: scale so the largest weight is 2^20 and the sum of
// all arc weights stays below 2^30, round, and keep every positive weight at
// least 1; relative magnitudes are preserved to ~1e-6 of the largest and no
// METIS sum can overflow. Zero stays zero. O(size).
std::vector<int32_t> ScaleToMetisWeights(std::span<const double> weights);

// Vertex weights (loads): unchanged when they are all integers summing below
// 2^28, else scaled so the total is 2^28; rounded. Positive weights become at
// least 1; zero weights become `zero_as` (0 for METIS, 1 for Scotch, which
// wants positive loads). O(size).
std::vector<int32_t> IntegerVertexWeights(std::span<const double> weights,
                                          int32_t zero_as);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_SPLIT_INTEGER_WEIGHTS_H_
