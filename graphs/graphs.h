// Front door of graphs/: read and write communication graphs in the common file
// formats.
//
//   // The format is detected from the content.
//   ASSIGN_OR_RETURN(CommGraph g, ReadGraphFile("app.mat"));
//   RETURN_IF_ERROR(WriteGraphFile(g, "app.grf", GraphFormat::kScotch));
//
// Formats: TopoMatch/TreeMatch dense `.mat`, Scotch `.grf`, METIS `.graph`,
// MatrixMarket `.mtx` (coordinate), edge list `i j w` (0-based), OTF2 traces
// (the anchor file, traces.otf2: bytes sent between world ranks).
// Asymmetric input is symmetrised by summing both directions. Errors read
// `file:line: expected ..., found ...`.
#ifndef RANKMAP_GRAPHS_GRAPHS_H_
#define RANKMAP_GRAPHS_GRAPHS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/read_options.h"

namespace rankmap::graphs {

enum class GraphFormat {
  kAuto,
  kMat,
  kScotch,
  kMetis,
  kMatrixMarket,
  kEdgeList,
  kOtf2
};

// Parses "auto", "mat", "grf"/"scotch", "metis"/"graph", "mtx"/"matrixmarket",
// "edges", "otf2".
absl::StatusOr<GraphFormat> ParseGraphFormat(std::string_view name);

// Reads a file; kAuto detects the format from the content, with the extension
// as a hint. `options`: the memory budget and what the caller will need on
// top of the graph (read_options.h), checked before the graph is built.
absl::StatusOr<CommGraph> ReadGraphFile(const std::string& path,
                                        GraphFormat format = GraphFormat::kAuto,
                                        const ReadOptions& options = {});
// Reads from memory; `name` is used in error messages. OTF2 archives (several
// files) are read by ReadGraphFile only.
absl::StatusOr<CommGraph> ReadGraphString(
    std::string_view text, std::string_view name,
    GraphFormat format = GraphFormat::kAuto, const ReadOptions& options = {});
// The text of the graph in `format` (kAuto: edge list), for writing to a
// stream. Errors: the writer's (weights a Scotch/METIS file cannot hold).
absl::StatusOr<std::string> FormatGraph(
    const CommGraph& graph, GraphFormat format = GraphFormat::kAuto);
// Writes a file; kAuto chooses from the extension.
absl::Status WriteGraphFile(const CommGraph& graph, const std::string& path,
                            GraphFormat format = GraphFormat::kAuto);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_GRAPHS_H_
