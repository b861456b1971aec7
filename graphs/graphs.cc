#include "graphs/graphs.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "graphs/graph_readers.h"
#include "graphs/graph_writers.h"
#include "graphs/otf2_reader.h"

namespace rankmap::graphs {
namespace {

using base::ParseInt;
using base::ParseReal;
using base::Quote;
using base::QuoteOrEof;
using base::TextScanner;

// Lines the content-based detection looks at; enough to tell the formats apart
// without scanning a large file.
constexpr int kDetectionLines = 64;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

GraphFormat FormatFromExtension(std::string_view name) {
  const size_t slash = name.find_last_of('/');
  const std::string_view base =
      slash == std::string_view::npos ? name : name.substr(slash + 1);
  const size_t dot = base.find_last_of('.');
  if (dot == std::string_view::npos) return GraphFormat::kAuto;
  const std::string ext =
      absl::AsciiStrToLower(std::string(base.substr(dot + 1)));
  if (ext == "mat") return GraphFormat::kMat;
  if (ext == "grf" || ext == "src") return GraphFormat::kScotch;
  if (ext == "graph" || ext == "metis") return GraphFormat::kMetis;
  if (ext == "mtx") return GraphFormat::kMatrixMarket;
  if (ext == "edges" || ext == "edgelist" || ext == "el")
    return GraphFormat::kEdgeList;
  if (ext == "otf2") return GraphFormat::kOtf2;
  return GraphFormat::kAuto;
}

// A METIS file has a header `n m [fmt [ncon]]` followed by exactly n vertex
// lines (the last ones may be empty). Counts the lines after the first data
// line, one pass with memchr.
bool LooksLikeMetis(std::string_view text, size_t header_tokens,
                    std::string_view first_token) {
  int64_t n;
  if (header_tokens < 2 || header_tokens > 4 || !ParseInt(first_token, &n) ||
      n < 1) {
    return false;
  }
  // Skip leading blank/comment lines and the header line itself.
  TextScanner s(text, "");
  s.SkipBlankAndCommentLines('%');
  s.NextLine();
  const char* p = text.data() + (text.size() - s.remaining());
  const char* end = text.data() + text.size();
  int64_t lines = 0, trailing_blank = 0;
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
    const char* line_end = nl == nullptr ? end : nl;
    const char* q = p;
    while (q < line_end && (*q == ' ' || *q == '\t' || *q == '\r')) ++q;
    if (q < line_end && *q == '%') {
      // comment line: not a vertex
    } else if (q == line_end) {
      ++lines;
      ++trailing_blank;
    } else {
      ++lines;
      trailing_blank = 0;
    }
    p = nl == nullptr ? end : nl + 1;
  }
  return lines - trailing_blank <= n && n <= lines;
}

// Detection order: the MatrixMarket banner; the extension; the Scotch header `0
// / n m / base flags`; comment characters (`#` edge list, `%` METIS); a square
// block of equally long lines (or lines longer than 3 tokens) is a `.mat`;
// equally long lines of 2 or 3 tokens an edge list; a 2-4 token first line
// followed by other shapes METIS.
absl::StatusOr<GraphFormat> DetectFormat(std::string_view text,
                                         std::string_view name) {
  TextScanner s(text, name);
  s.SkipBlankAndCommentLines(0);
  if (s.TokenOnLine() == "%%MatrixMarket") return GraphFormat::kMatrixMarket;
  if (GraphFormat hint = FormatFromExtension(name); hint != GraphFormat::kAuto)
    return hint;

  TextScanner lines(text, name);
  struct Line {
    size_t count = 0;
    std::string_view first[3];
  };
  std::vector<Line> head;
  bool hash_comment = false, percent_comment = false;
  while (!lines.AtEndOfFile() &&
         static_cast<int>(head.size()) < kDetectionLines) {
    const char c = lines.PeekOnLine();
    if (c == '#') hash_comment = true;
    if (c == '%') percent_comment = true;
    if (c != '\n' && c != '#' && c != '%') {
      Line line;
      for (std::string_view t = lines.TokenOnLine(); !t.empty();
           t = lines.TokenOnLine()) {
        if (line.count < 3) line.first[line.count] = t;
        ++line.count;
      }
      head.push_back(line);
    }
    lines.NextLine();
  }
  const bool whole_file = lines.AtEndOfFile();
  if (head.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        std::string(name), ": no data to detect a graph format from"));
  }
  auto is_int = [](std::string_view t) {
    int64_t v;
    return ParseInt(t, &v);
  };
  if (head.size() >= 3 && head[0].count == 1 && head[0].first[0] == "0" &&
      head[1].count == 2 && is_int(head[1].first[0]) &&
      is_int(head[1].first[1]) && head[2].count == 2 &&
      is_int(head[2].first[0])) {
    return GraphFormat::kScotch;
  }
  if (hash_comment) return GraphFormat::kEdgeList;
  if (percent_comment) return GraphFormat::kMetis;
  if (LooksLikeMetis(text, head[0].count, head[0].first[0])) {
    return GraphFormat::kMetis;
  }
  const size_t c = head[0].count;
  bool uniform = true;
  for (const Line& line : head) uniform = uniform && line.count == c;
  if (uniform && (c > 3 || (whole_file && head.size() == c)))
    return GraphFormat::kMat;
  if (uniform && (c == 2 || c == 3)) return GraphFormat::kEdgeList;
  if (c >= 2 && c <= 4) return GraphFormat::kMetis;
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(name),
                   ": cannot detect the graph format from the content; name it "
                   "(mat, grf, metis, mtx, "
                   "edges)"));
}

}  // namespace

absl::StatusOr<GraphFormat> ParseGraphFormat(std::string_view name) {
  const std::string s = absl::AsciiStrToLower(std::string(name));
  if (s == "auto") return GraphFormat::kAuto;
  if (s == "mat") return GraphFormat::kMat;
  if (s == "grf" || s == "scotch") return GraphFormat::kScotch;
  if (s == "metis" || s == "graph") return GraphFormat::kMetis;
  if (s == "mtx" || s == "matrixmarket") return GraphFormat::kMatrixMarket;
  if (s == "edges" || s == "edgelist") return GraphFormat::kEdgeList;
  if (s == "otf2") return GraphFormat::kOtf2;
  return absl::InvalidArgumentError(
      absl::StrCat("graphs: unknown format '", s,
                   "' (expected auto, mat, grf, metis, mtx, edges or otf2)"));
}

absl::StatusOr<CommGraph> ReadGraphString(std::string_view text,
                                          std::string_view name,
                                          GraphFormat format,
                                          const ReadOptions& options) {
  if (format == GraphFormat::kAuto) {
    ASSIGN_OR_RETURN(format, DetectFormat(text, name));
  }
  switch (format) {
    case GraphFormat::kMat:
      return ReadMat(text, name, options);
    case GraphFormat::kScotch:
      return ReadScotch(text, name, options);
    case GraphFormat::kMetis:
      return ReadMetis(text, name, options);
    case GraphFormat::kMatrixMarket:
      return ReadMatrixMarket(text, name, options);
    case GraphFormat::kEdgeList:
      return ReadEdgeList(text, name, options);
    case GraphFormat::kOtf2:
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(name),
                       ":1: an OTF2 trace is an archive of files; read "
                       "it with ReadGraphFile on its anchor file"));
    case GraphFormat::kAuto:
      break;
  }
  return absl::InternalError("graphs: unreachable format");
}

absl::StatusOr<CommGraph> ReadGraphFile(const std::string& path,
                                        GraphFormat format,
                                        const ReadOptions& options) {
  ASSIGN_OR_RETURN(
      const std::string text,
      base::ReadFile(path, "communication graph", MemoryBudget(options)));
  if (format == GraphFormat::kOtf2 ||
      (format == GraphFormat::kAuto &&
       (FormatFromExtension(path) == GraphFormat::kOtf2 ||
        LooksLikeOtf2Anchor(text)))) {
    ASSIGN_OR_RETURN(const Otf2Traffic traffic, ReadOtf2Traffic(path));
    const int64_t arcs = 2 * static_cast<int64_t>(traffic.pairs.size());
    const int64_t need = base::SaturatingMulAdd(
        1, EstimatedGraphBytes(traffic.num_ranks, arcs),
        options.consumer_bytes ? options.consumer_bytes(traffic.num_ranks, arcs)
                               : 0);
    RETURN_IF_ERROR(base::CheckMemory(
        absl::StrCat(path, ": the traffic of ", traffic.num_ranks, " ranks"),
        need, MemoryBudget(options)));
    return TrafficGraph(traffic);
  }
  return ReadGraphString(text, path, format, options);
}

namespace {

absl::Status WriteTo(const CommGraph& graph, GraphFormat format,
                     TextSink& sink) {
  switch (format) {
    case GraphFormat::kMat:
      return WriteMat(graph, sink);
    case GraphFormat::kScotch:
      return WriteScotch(graph, sink);
    case GraphFormat::kMetis:
      return WriteMetis(graph, sink);
    case GraphFormat::kMatrixMarket:
      return WriteMatrixMarket(graph, sink);
    case GraphFormat::kEdgeList:
    case GraphFormat::kAuto:
      return WriteEdgeList(graph, sink);
    case GraphFormat::kOtf2:
      return absl::InvalidArgumentError(
          "graphs are not written as OTF2 traces");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> FormatGraph(const CommGraph& graph,
                                        GraphFormat format) {
  std::string text;
  {
    TextSink sink(&text);
    RETURN_IF_ERROR(WriteTo(graph, format, sink));
    RETURN_IF_ERROR(sink.Finish());
  }
  return text;
}

absl::Status WriteGraphFile(const CommGraph& graph, const std::string& path,
                            GraphFormat format) {
  if (format == GraphFormat::kAuto) format = FormatFromExtension(path);
  if (format == GraphFormat::kAuto) {
    return absl::InvalidArgumentError(
        absl::StrCat(path,
                     ": cannot choose a format from the extension (use .mat, "
                     ".grf, .graph, .mtx or "
                     ".edges, or name the format)"));
  }
  FilePtr file(std::fopen(path.c_str(), "wb"));
  if (file == nullptr) {
    return absl::NotFoundError(absl::StrCat(path, ": cannot open for writing"));
  }
  absl::Status status;
  {
    // The sink flushes into the file when it goes out of scope, before the
    // close below.
    TextSink sink(file.get());
    status = WriteTo(graph, format, sink);
    if (status.ok()) {
      if (absl::Status s = sink.Finish(); !s.ok()) {
        status = absl::DataLossError(
            absl::StrCat(path, ": ", std::string(s.message())));
      }
    }
  }
  if (std::fclose(file.release()) != 0 && status.ok()) {
    status = absl::DataLossError(absl::StrCat(path, ": close failed"));
  }
  // Leave no half-written file behind.
  if (!status.ok()) std::remove(path.c_str());
  return status;
}

}  // namespace rankmap::graphs
