#include "graphs/graph_writers.h"

#include <charconv>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::graphs {
namespace {

constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

}  // namespace

void TextSink::AppendInt(int64_t value) {
  char buf[24];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  Append(std::string_view(buf, static_cast<size_t>(ptr - buf)));
}

void TextSink::AppendReal(double value) {
  char buf[32];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), value);
  Append(std::string_view(buf, static_cast<size_t>(ptr - buf)));
}

bool TextSink::Flush() {
  if (buffer_.empty()) return !failed_;
  if (out_ != nullptr) {
    out_->append(buffer_);
  } else if (file_ != nullptr && !failed_) {
    failed_ =
        std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size();
  }
  buffer_.clear();
  return !failed_;
}

absl::Status TextSink::Finish() {
  if (!Flush()) return absl::DataLossError("graphs/writer: short write");
  if (file_ != nullptr && std::fflush(file_) != 0) {
    return absl::DataLossError("graphs/writer: flush failed");
  }
  return absl::OkStatus();
}

absl::Status IntegerWeight(double w, double scale, int64_t* out) {
  if (!(scale > 0.0) || !std::isfinite(scale)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "graphs/writer: integer_weight_scale must be positive, got ", scale));
  }
  const double scaled = w * scale;
  if (!(scaled <= kMaxExactInteger)) {
    return absl::InvalidArgumentError(
        absl::StrCat("graphs/writer: weight ", w, " times scale ", scale,
                     " exceeds 2^53 and cannot be written as an exact integer; "
                     "lower integer_weight_scale"));
  }
  *out = std::llround(scaled);
  if (*out == 0 && scaled > 0.0) *out = 1;
  return absl::OkStatus();
}

absl::Status WriteMat(const CommGraph& graph, TextSink& sink,
                      const WriteOptions& options) {
  const VertexId n = graph.num_vertices();
  if (n > options.max_mat_vertices) {
    return absl::InvalidArgumentError(absl::StrCat(
        "graphs/writer: ", n,
        " vertices are too many for the dense .mat format (", "limit ",
        options.max_mat_vertices, "); use grf, metis or edges"));
  }
  for (VertexId v = 0; v < n; ++v) {
    auto row = graph.neighbors(v);
    auto wgt = graph.weights(v);
    size_t k = 0;
    for (VertexId j = 0; j < n; ++j) {
      if (j > 0) sink.Append(' ');
      if (k < row.size() && row[k] == j) {
        sink.AppendReal(wgt[k++] / 2.0);
      } else {
        sink.Append('0');
      }
    }
    sink.Append('\n');
  }
  return absl::OkStatus();
}

absl::Status WriteScotch(const CommGraph& graph, TextSink& sink,
                         const WriteOptions& options) {
  const VertexId n = graph.num_vertices();
  const bool vertex_loads = graph.has_vertex_weights();
  sink.Append("0\n");
  sink.AppendInt(n);
  sink.Append(' ');
  sink.AppendInt(graph.num_arcs());
  sink.Append(vertex_loads ? "\n0 011\n" : "\n0 010\n");
  for (VertexId v = 0; v < n; ++v) {
    int64_t x;
    if (vertex_loads) {
      RETURN_IF_ERROR(IntegerWeight(graph.vertex_weight(v),
                                    options.integer_weight_scale, &x));
      sink.AppendInt(x);
      sink.Append('\t');
    }
    sink.AppendInt(graph.degree(v));
    auto row = graph.neighbors(v);
    auto wgt = graph.weights(v);
    for (size_t k = 0; k < row.size(); ++k) {
      RETURN_IF_ERROR(IntegerWeight(wgt[k], options.integer_weight_scale, &x));
      sink.Append('\t');
      sink.AppendInt(x);
      sink.Append(' ');
      sink.AppendInt(row[k]);
    }
    sink.Append('\n');
  }
  return absl::OkStatus();
}

absl::Status WriteMetis(const CommGraph& graph, TextSink& sink,
                        const WriteOptions& options) {
  const VertexId n = graph.num_vertices();
  const bool vertex_weights = graph.has_vertex_weights();
  sink.AppendInt(n);
  sink.Append(' ');
  sink.AppendInt(graph.num_edges());
  sink.Append(vertex_weights ? " 011\n" : " 001\n");
  for (VertexId v = 0; v < n; ++v) {
    int64_t x;
    bool first = true;
    if (vertex_weights) {
      RETURN_IF_ERROR(IntegerWeight(graph.vertex_weight(v),
                                    options.integer_weight_scale, &x));
      sink.AppendInt(x);
      first = false;
    }
    auto row = graph.neighbors(v);
    auto wgt = graph.weights(v);
    for (size_t k = 0; k < row.size(); ++k) {
      RETURN_IF_ERROR(IntegerWeight(wgt[k], options.integer_weight_scale, &x));
      if (!first) sink.Append(' ');
      first = false;
      sink.AppendInt(row[k] + 1);
      sink.Append(' ');
      sink.AppendInt(x);
    }
    sink.Append('\n');
  }
  return absl::OkStatus();
}

absl::Status WriteMatrixMarket(const CommGraph& graph, TextSink& sink,
                               const WriteOptions&) {
  const VertexId n = graph.num_vertices();
  sink.Append("%%MatrixMarket matrix coordinate real symmetric\n");
  sink.AppendInt(n);
  sink.Append(' ');
  sink.AppendInt(n);
  sink.Append(' ');
  sink.AppendInt(graph.num_edges());
  sink.Append('\n');
  for (VertexId v = 0; v < n; ++v) {
    auto row = graph.neighbors(v);
    auto wgt = graph.weights(v);
    for (size_t k = 0; k < row.size() && row[k] < v; ++k) {
      sink.AppendInt(v + 1);
      sink.Append(' ');
      sink.AppendInt(row[k] + 1);
      sink.Append(' ');
      sink.AppendReal(wgt[k] / 2.0);
      sink.Append('\n');
    }
  }
  return absl::OkStatus();
}

absl::Status WriteEdgeList(const CommGraph& graph, TextSink& sink,
                           const WriteOptions&) {
  const VertexId n = graph.num_vertices();
  sink.Append("# ");
  sink.AppendInt(n);
  sink.Append(" vertices, ");
  sink.AppendInt(graph.num_edges());
  sink.Append(" edges; lines 'i j w', 0-based\n");
  for (VertexId v = 0; v < n; ++v) {
    auto row = graph.neighbors(v);
    auto wgt = graph.weights(v);
    for (size_t k = 0; k < row.size(); ++k) {
      if (row[k] < v) continue;
      sink.AppendInt(v);
      sink.Append(' ');
      sink.AppendInt(row[k]);
      sink.Append(' ');
      sink.AppendReal(wgt[k]);
      sink.Append('\n');
    }
  }
  if (n > 0 && graph.degree(n - 1) == 0) {
    sink.AppendInt(n - 1);
    sink.Append(' ');
    sink.AppendInt(n - 1);
    sink.Append(" 0\n");
  }
  return absl::OkStatus();
}

}  // namespace rankmap::graphs
