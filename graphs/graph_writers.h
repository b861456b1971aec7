// Writers for the communication-graph file formats, so a graph built in memory
// (by a front end, a profiler or a contraction) can be handed to Scotch,
// METIS/KaHIP, TopoMatch or any tool reading MatrixMarket or edge lists. Each
// writer's output reads back (graph_readers.h) to the same CSR, within the
// limits below.
//
// Round-trip rules:
//   * `.mat` writes the symmetric matrix A with A[i][j] = A[j][i] = w(i, j) / 2
//   (exact in
//     binary floating point), so reading sums back w(i, j). Zero-weight edges
//     vanish (a dense zero is no edge) and vertex weights are not
//     representable.
//   * MatrixMarket writes `real symmetric` with the lower triangle A[i][j] =
//   w(i, j) / 2 for
//     i > j. Zero-weight edges are kept; vertex weights are not representable.
//   * Edge list writes each edge once, `i j w` with i < j, after one `#`
//   comment line; when
//     the last vertex is isolated it adds the zero self loop `n-1 n-1 0` so
//     that n survives. Vertex weights are not representable.
//   * Scotch and METIS store integers. Every edge and vertex weight w is
//   written as
//     llround(w * integer_weight_scale) (halves away from zero), except that a
//     positive weight which would round to 0 is written as 1 so that no edge
//     disappears. Integer-valued weights therefore round-trip exactly at scale
//     1; others read back rounded. A scaled weight above 2^53 is an error (it
//     could not be written exactly). Scotch and METIS builds with 32-bit
//     integers need weights below 2^31: choose the scale accordingly.
// Real numbers are written in the shortest form that reads back to the same
// double.
//
// Usage:
//   std::string text;
//   TextSink sink(&text);
//   RETURN_IF_ERROR(WriteMetis(g, sink));
//   RETURN_IF_ERROR(sink.Finish());
#ifndef RANKMAP_GRAPHS_GRAPH_WRITERS_H_
#define RANKMAP_GRAPHS_GRAPH_WRITERS_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "graphs/comm_graph.h"

namespace rankmap::graphs {

struct WriteOptions {
  // Multiplies weights before rounding them for the integer formats (Scotch,
  // METIS).
  double integer_weight_scale = 1.0;
  // `.mat` is dense (n^2 values): larger graphs are refused.
  int64_t max_mat_vertices = 16384;
};

// Buffered text output to a string or a FILE (not owned). Writes go through a 1
// MiB buffer.
class TextSink {
 public:
  explicit TextSink(std::string* out) : out_(out) {}
  explicit TextSink(std::FILE* file) : file_(file) {}
  TextSink(const TextSink&) = delete;
  TextSink& operator=(const TextSink&) = delete;
  ~TextSink() { (void)Flush(); }

  void Append(std::string_view text) {
    buffer_.append(text.data(), text.size());
    if (buffer_.size() >= kFlushBytes) (void)Flush();
  }
  void Append(char c) {
    buffer_.push_back(c);
    if (buffer_.size() >= kFlushBytes) (void)Flush();
  }
  void AppendInt(int64_t value);
  // Shortest decimal form that parses back to exactly `value`.
  void AppendReal(double value);
  // Flushes the buffer; reports the first write error seen.
  absl::Status Finish();

 private:
  static constexpr size_t kFlushBytes = 1 << 20;
  bool Flush();

  std::string* out_ = nullptr;
  std::FILE* file_ = nullptr;
  std::string buffer_;
  bool failed_ = false;
};

// Each writer: O(n + m) time (`.mat`: O(n^2)), no allocation beyond the sink's
// buffer. Errors: `.mat` above max_mat_vertices; Scotch/METIS weights too large
// after scaling or a non-positive scale. The sink's own write errors are
// reported by TextSink::Finish().
absl::Status WriteMat(const CommGraph& graph, TextSink& sink,
                      const WriteOptions& options = {});
absl::Status WriteScotch(const CommGraph& graph, TextSink& sink,
                         const WriteOptions& options = {});
absl::Status WriteMetis(const CommGraph& graph, TextSink& sink,
                        const WriteOptions& options = {});
absl::Status WriteMatrixMarket(const CommGraph& graph, TextSink& sink,
                               const WriteOptions& options = {});
absl::Status WriteEdgeList(const CommGraph& graph, TextSink& sink,
                           const WriteOptions& options = {});

// The integer a Scotch/METIS writer emits for weight w (see the round-trip
// rules). Errors: the scaled weight is above 2^53 or the scale is not positive
// and finite.
absl::Status IntegerWeight(double w, double scale, int64_t* out);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_GRAPH_WRITERS_H_
