// Readers for the communication-graph file formats, one function per format.
// Each reads an in-memory file (graphs.h's ReadGraphFile does the single read)
// and streams it into a CommGraph without building an N x N array, except for
// the dense `.mat` format itself.
//
// Weight semantics: w(i, j) of the CommGraph is the total volume exchanged by i
// and j.
//   * Matrix formats (.mat, MatrixMarket) and the edge list describe directed
//   traffic
//     A[i][j]; w(i, j) = A[i][j] + A[j][i]. A symmetric MatrixMarket file
//     stores one triangle of a symmetric A, so each entry (i, j, v) yields w(i,
//     j) = 2v. A zero in the dense
//     `.mat` is no edge; an explicit zero entry of a sparse format is a
//     zero-weight edge.
//   * Graph formats (Scotch .grf, METIS) are symmetric by definition: each edge
//   is listed by
//     both endpoints with the same weight, and w(i, j) is that weight. A
//     missing reverse arc, unequal weights on the two arcs or a duplicate
//     neighbour is an error (as in Scotch's graphCheck and METIS's graphchk).
//     Self loops are accepted and dropped everywhere.
// Weights may be integers or reals (signs, fractions, exponents); negative,
// NaN, infinite or non-numeric weights are errors.
//
// Errors (InvalidArgument) read `name:line: expected X, found Y` and cover
// truncated files, wrong counts, ids out of range, non-numeric tokens, bad
// weights, ragged `.mat` rows and sizes beyond the memory budget (checked
// before allocating).
//
// Usage:
//   ASSIGN_OR_RETURN(CommGraph g, ReadMetis(text, "app.graph"));
#ifndef RANKMAP_GRAPHS_GRAPH_READERS_H_
#define RANKMAP_GRAPHS_GRAPH_READERS_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/read_options.h"

namespace rankmap::graphs {

// TopoMatch/TreeMatch dense matrix: one row per line, n values per row, n rows;
// '#' starts a comment line; blank lines are ignored. O(n^2) time, memory
// O(nonzeros).
absl::StatusOr<CommGraph> ReadMat(std::string_view text, std::string_view name,
                                  const ReadOptions& options = {});

// Scotch source graph: `0`, `n arcs`, `base flags` (flags 0..111: labels, edge
// loads, vertex loads), then per vertex `[label] [load] degree ([edge load]
// neighbour)*`. Token based, as Scotch reads it. Vertex loads become vertex
// weights. O(n + m log deg).
absl::StatusOr<CommGraph> ReadScotch(std::string_view text,
                                     std::string_view name,
                                     const ReadOptions& options = {});

// METIS: `%` comment lines, header `n m [fmt [ncon]]`, then one line per vertex
// (1-based):
// `[size] [w1 .. wncon] (neighbour [weight])*`. The first vertex weight becomes
// the vertex weight; vertex sizes are checked and ignored. O(n + m log deg).
absl::StatusOr<CommGraph> ReadMetis(std::string_view text,
                                    std::string_view name,
                                    const ReadOptions& options = {});

// MatrixMarket coordinate format: banner `%%MatrixMarket matrix coordinate
// real|integer|pattern general|symmetric`, `%` comments, `n n nnz`, then nnz
// lines `i j [v]` (1-based; pattern entries weigh 1). The matrix must be
// square. O(nnz log deg).
absl::StatusOr<CommGraph> ReadMatrixMarket(std::string_view text,
                                           std::string_view name,
                                           const ReadOptions& options = {});

// Edge list: lines `i j w` (0-based ids, directed traffic) or `i j` (weight 1;
// the first data line decides, every line must match); `#` starts a comment
// line. n = largest id + 1, so a zero-weight self loop `k k 0` declares
// isolated vertices up to k; above 2^20 vertices, an edge whose id would make
// more than 15/16 of the vertices isolated (a typo like `0 230000000 1`) is an
// error unless a self loop declares them. O(m log deg).
absl::StatusOr<CommGraph> ReadEdgeList(std::string_view text,
                                       std::string_view name,
                                       const ReadOptions& options = {});

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_GRAPH_READERS_H_
