#include "graphs/graph_readers.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "base/text_scanner.h"
#include "graphs/csr_access.h"

namespace rankmap::graphs {
namespace {

using base::ParseInt;
using base::ParseReal;
using base::Quote;
using base::QuoteOrEof;
using base::TextScanner;

constexpr int64_t kMaxVertices = std::numeric_limits<VertexId>::max() - 1;
// Edge lists above this many vertices must not be mostly isolated vertices
// implied by one large id (ReadEdgeList).
constexpr int64_t kIsolatedGraphFloor = int64_t{1} << 20;

// Reads the next token (on the current line, or anywhere when `cross_lines`) as
// an integer in [lo, hi].
absl::Status ReadInt(TextScanner& s, bool cross_lines, std::string_view what,
                     int64_t lo, int64_t hi, int64_t* value) {
  const std::string_view tok = cross_lines ? s.Token() : s.TokenOnLine();
  if (!ParseInt(tok, value)) {
    return s.Error(what, cross_lines ? QuoteOrEof(tok) : Quote(tok));
  }
  if (*value < lo || *value > hi) {
    return s.Error(absl::StrCat(std::string(what), " in [", lo, ", ", hi, "]"),
                   Quote(tok));
  }
  return absl::OkStatus();
}

// Reads the next token as a finite, non-negative real.
absl::Status ReadWeight(TextScanner& s, bool cross_lines, std::string_view what,
                        double* value) {
  const std::string_view tok = cross_lines ? s.Token() : s.TokenOnLine();
  if (!ParseReal(tok, value)) {
    return s.Error(absl::StrCat(std::string(what), " (a number)"),
                   cross_lines ? QuoteOrEof(tok) : Quote(tok));
  }
  if (!std::isfinite(*value) || *value < 0.0) {
    return s.Error(
        absl::StrCat(std::string(what), " (finite and non-negative)"),
        Quote(tok));
  }
  return absl::OkStatus();
}

absl::Status ExpectEndOfLine(TextScanner& s, std::string_view after) {
  if (s.AtEndOfLine()) return absl::OkStatus();
  return s.Error(absl::StrCat("end of line after ", std::string(after)),
                 Quote(s.TokenOnLine()));
}

absl::Status CheckBudget(const TextScanner& s, int64_t n, int64_t arcs,
                         const ReadOptions& options) {
  if (n > kMaxVertices) {
    return s.Message(
        absl::StrCat(n, " vertices exceed the limit of ", kMaxVertices));
  }
  const int64_t need = EstimatedGraphBytes(n, arcs);
  const int64_t budget = MemoryBudget(options);
  const int64_t after =
      options.consumer_bytes ? options.consumer_bytes(n, arcs) : 0;
  if (need > budget || after > budget - need) {
    return s.Message(absl::StrCat(
        "a graph of ", n, " vertices and ", arcs, " arcs needs about ",
        need >> 20, " MiB",
        after > 0 ? absl::StrCat(" for the graph and ", after >> 20,
                                 " MiB for what follows (the mapping)")
                  : "",
        ", more than the memory budget of ", budget >> 20, " MiB"));
  }
  return absl::OkStatus();
}

// builder.AddEdge with the scanner's position on error (ids and weights are
// already checked, so this only fires on values the checks let through, such as
// an overflowing 2 * v).
absl::Status AddEdgeAt(const TextScanner& s, CommGraphBuilder& builder,
                       int64_t u, int64_t v, double w) {
  absl::Status status = builder.AddEdge(u, v, w);
  if (status.ok()) return status;
  return s.Message(std::string(status.message()));
}

// Builds, naming the input position in errors (the builder rejects merged
// weights that overflow to infinity: each value was finite, but A[i][j] +
// A[j][i] can exceed the largest double).
absl::StatusOr<CommGraph> BuildChecked(const TextScanner& s,
                                       CommGraphBuilder builder) {
  absl::StatusOr<CommGraph> g = std::move(builder).Build();
  if (!g.ok()) return s.Message(std::string(g.status().message()));
  return g;
}

// A graph format's adjacency lists as read (0-based, in file order), before the
// symmetry check. line[v] is the line where vertex v's list starts (for
// messages).
struct RawCsr {
  std::vector<ArcIndex> xadj{0};
  std::vector<VertexId> adjncy;
  std::vector<double> adjwgt;
  std::vector<double> vwgt;
  std::vector<int64_t> line;
};

// Sorts each row, drops self loops, rejects duplicates and asymmetric arcs, and
// hands the arrays to CommGraph. `base` converts ids back to the file's
// numbering in messages.
absl::StatusOr<CommGraph> FinishSymmetric(const TextScanner& s, RawCsr raw,
                                          int64_t base) {
  const VertexId n = static_cast<VertexId>(raw.xadj.size() - 1);
  std::vector<std::pair<VertexId, double>> row;
  ArcIndex out = 0;
  for (VertexId v = 0; v < n; ++v) {
    const ArcIndex begin = raw.xadj[v], end = raw.xadj[v + 1];
    bool sorted = true;
    for (ArcIndex a = begin + 1; a < end && sorted; ++a) {
      sorted = raw.adjncy[a - 1] < raw.adjncy[a];
    }
    if (!sorted) {
      row.clear();
      for (ArcIndex a = begin; a < end; ++a)
        row.emplace_back(raw.adjncy[a], raw.adjwgt[a]);
      std::sort(row.begin(), row.end(),
                [](const auto& x, const auto& y) { return x.first < y.first; });
      for (size_t k = 0; k < row.size(); ++k) {
        if (k > 0 && row[k - 1].first == row[k].first) {
          return s.ErrorAt(
              raw.line[v],
              absl::StrCat("each neighbour once in the list of vertex ",
                           v + base),
              absl::StrCat("neighbour ", row[k].first + base, " twice"));
        }
        raw.adjncy[begin + k] = row[k].first;
        raw.adjwgt[begin + k] = row[k].second;
      }
    }
    raw.xadj[v] = out;
    for (ArcIndex a = begin; a < end; ++a) {
      if (raw.adjncy[a] == v) continue;
      raw.adjncy[out] = raw.adjncy[a];
      raw.adjwgt[out++] = raw.adjwgt[a];
    }
  }
  raw.xadj[n] = out;
  raw.adjncy.resize(out);
  raw.adjwgt.resize(out);
  for (VertexId v = 0; v < n; ++v) {
    for (ArcIndex a = raw.xadj[v]; a < raw.xadj[v + 1]; ++a) {
      const VertexId u = raw.adjncy[a];
      const auto first = raw.adjncy.begin() + raw.xadj[u];
      const auto last = raw.adjncy.begin() + raw.xadj[u + 1];
      const auto it = std::lower_bound(first, last, v);
      if (it == last || *it != v) {
        return s.ErrorAt(
            raw.line[v],
            absl::StrCat("vertex ", u + base, " (line ", raw.line[u],
                         ") to list vertex ", v + base,
                         " as a neighbour too (the graph must be symmetric)"),
            "no such arc");
      }
      const double back = raw.adjwgt[it - raw.adjncy.begin()];
      if (u > v && back != raw.adjwgt[a]) {
        return s.ErrorAt(
            raw.line[v],
            absl::StrCat("edge (", v + base, ", ", u + base, ") to weigh ",
                         raw.adjwgt[a], " in both directions"),
            absl::StrCat(back, " on line ", raw.line[u]));
      }
    }
  }
  raw.line.clear();
  raw.line.shrink_to_fit();
  return internal::CsrAccess::Make(std::move(raw.xadj), std::move(raw.adjncy),
                                   std::move(raw.adjwgt), std::move(raw.vwgt));
}

// Parses a 3-digit flag word such as "011" (any of its digits 0/1, at most
// three of them).
bool ParseFlags(std::string_view tok, int* hundreds, int* tens, int* units) {
  if (tok.empty() || tok.size() > 3) return false;
  int digits[3] = {0, 0, 0};
  for (size_t i = 0; i < tok.size(); ++i) {
    const char c = tok[tok.size() - 1 - i];
    if (c != '0' && c != '1') return false;
    digits[i] = c - '0';
  }
  *units = digits[0];
  *tens = digits[1];
  *hundreds = digits[2];
  return true;
}

}  // namespace

absl::StatusOr<CommGraph> ReadMat(std::string_view text, std::string_view name,
                                  const ReadOptions& options) {
  TextScanner s(text, name);
  s.SkipBlankAndCommentLines('#');
  if (s.AtEndOfFile()) return s.Error("a matrix row", "end of file");
  // The first row fixes n; it is parsed into a small buffer before the builder
  // exists.
  std::vector<double> first;
  while (!s.AtEndOfLine()) {
    double w;
    RETURN_IF_ERROR(ReadWeight(s, false, "a matrix entry", &w));
    first.push_back(w);
  }
  const int64_t n = static_cast<int64_t>(first.size());
  // Nonzero entries are bounded by n (n - 1) and by the file size (two bytes
  // per value).
  const int64_t max_entries = static_cast<int64_t>(std::min(
      static_cast<double>(n) * static_cast<double>(std::max<int64_t>(n - 1, 0)),
      static_cast<double>(text.size() / 2 + 1)));
  RETURN_IF_ERROR(CheckBudget(s, n, max_entries, options));
  CommGraphBuilder builder(n);
  for (int64_t j = 0; j < n; ++j) {
    if (first[j] > 0.0) RETURN_IF_ERROR(AddEdgeAt(s, builder, 0, j, first[j]));
  }
  first = {};
  for (int64_t i = 1; i < n; ++i) {
    s.NextLine();
    s.SkipBlankAndCommentLines('#');
    if (s.AtEndOfFile()) {
      return s.Error(absl::StrCat(n, " rows (one per value of the first row)"),
                     absl::StrCat(i, " rows"));
    }
    for (int64_t j = 0; j < n; ++j) {
      if (s.AtEndOfLine()) {
        return s.Error(absl::StrCat(n, " values in row ", i + 1),
                       absl::StrCat(j));
      }
      double w;
      RETURN_IF_ERROR(ReadWeight(s, false, "a matrix entry", &w));
      if (w > 0.0 && i != j) RETURN_IF_ERROR(AddEdgeAt(s, builder, i, j, w));
    }
    if (!s.AtEndOfLine()) {
      return s.Error(absl::StrCat(n, " values in row ", i + 1),
                     absl::StrCat("more: ", Quote(s.TokenOnLine())));
    }
  }
  s.NextLine();
  s.SkipBlankAndCommentLines('#');
  if (!s.AtEndOfFile()) {
    return s.Error(
        absl::StrCat("end of file after ", n, " rows"),
        absl::StrCat("another row starting with ", Quote(s.TokenOnLine())));
  }
  return BuildChecked(s, std::move(builder));
}

absl::StatusOr<CommGraph> ReadScotch(std::string_view text,
                                     std::string_view name,
                                     const ReadOptions& options) {
  TextScanner s(text, name);
  const std::string_view version = s.Token();
  if (version != "0")
    return s.Error("the Scotch graph version '0'", QuoteOrEof(version));
  // Every vertex needs a degree token and every arc a neighbour token (at least
  // one digit and one separator each), which bounds both counts by the file
  // size before allocating.
  const int64_t max_count = static_cast<int64_t>(text.size() / 2 + 1);
  int64_t n, arcs, base;
  RETURN_IF_ERROR(ReadInt(s, true, "a vertex count", 0,
                          std::min(max_count, kMaxVertices), &n));
  RETURN_IF_ERROR(ReadInt(s, true, "an arc count", 0, max_count, &arcs));
  RETURN_IF_ERROR(ReadInt(s, true, "a base value", 0, 1, &base));
  const std::string_view flag_tok = s.Token();
  int has_labels, has_edge_loads, has_vertex_loads;
  if (!ParseFlags(flag_tok, &has_labels, &has_edge_loads, &has_vertex_loads)) {
    return s.Error("a flag word of at most three 0/1 digits such as '011'",
                   QuoteOrEof(flag_tok));
  }
  RETURN_IF_ERROR(CheckBudget(s, n, arcs, options));
  RawCsr raw;
  raw.xadj.reserve(n + 1);
  raw.line.reserve(n);
  raw.adjncy.reserve(arcs);
  raw.adjwgt.reserve(arcs);
  if (has_vertex_loads) raw.vwgt.reserve(n);
  std::vector<int64_t> labels, label_adj;
  if (has_labels) {
    labels.reserve(n);
    label_adj.reserve(arcs);
  }
  const int64_t lo = base, hi = base + n - 1;
  constexpr int64_t kAnyLabel = std::numeric_limits<int64_t>::max();
  for (int64_t v = 0; v < n; ++v) {
    if (has_labels) {
      int64_t label;
      RETURN_IF_ERROR(ReadInt(s, true, "a vertex label", 0, kAnyLabel, &label));
      labels.push_back(label);
    }
    if (has_vertex_loads) {
      double load;
      RETURN_IF_ERROR(ReadWeight(s, true, "a vertex load", &load));
      raw.vwgt.push_back(load);
    }
    // Degrees are checked against the arcs the header has left, so a lying
    // header cannot make the arrays grow past what was reserved and budgeted.
    const int64_t left = arcs - static_cast<int64_t>(raw.adjncy.size());
    const std::string_view degree_tok = s.Token();
    int64_t degree;
    if (!ParseInt(degree_tok, &degree) || degree < 0 || degree > left) {
      return s.Error(
          absl::StrCat("the degree of vertex ", v + base, " (at most ", left,
                       " of the ", arcs, " declared arcs are left)"),
          QuoteOrEof(degree_tok));
    }
    raw.line.push_back(s.line());
    for (int64_t k = 0; k < degree; ++k) {
      double w = 1.0;
      if (has_edge_loads)
        RETURN_IF_ERROR(ReadWeight(s, true, "an edge load", &w));
      int64_t u;
      if (has_labels) {
        RETURN_IF_ERROR(
            ReadInt(s, true, "a neighbour label", 0, kAnyLabel, &u));
        label_adj.push_back(u);
        raw.adjncy.push_back(0);
      } else {
        RETURN_IF_ERROR(ReadInt(s, true, "a neighbour", lo, hi, &u));
        raw.adjncy.push_back(static_cast<VertexId>(u - base));
      }
      raw.adjwgt.push_back(w);
    }
    raw.xadj.push_back(static_cast<ArcIndex>(raw.adjncy.size()));
  }
  if (static_cast<int64_t>(raw.adjncy.size()) != arcs) {
    return s.Error(absl::StrCat(arcs, " arcs as declared in the header"),
                   absl::StrCat(raw.adjncy.size()));
  }
  const std::string_view extra = s.Token();
  if (!extra.empty()) {
    return s.Error(absl::StrCat("end of file after ", n, " vertices"),
                   Quote(extra));
  }
  if (has_labels) {
    // Neighbours name labels: resolve them through a sorted (label, vertex)
    // table.
    std::vector<std::pair<int64_t, VertexId>> table(n);
    for (int64_t v = 0; v < n; ++v)
      table[v] = {labels[v], static_cast<VertexId>(v)};
    std::sort(table.begin(), table.end());
    for (int64_t k = 1; k < n; ++k) {
      if (table[k - 1].first == table[k].first) {
        return s.ErrorAt(raw.line[table[k].second], "distinct vertex labels",
                         absl::StrCat("label ", table[k].first, " used twice"));
      }
    }
    for (int64_t v = 0; v < n; ++v) {
      for (ArcIndex a = raw.xadj[v]; a < raw.xadj[v + 1]; ++a) {
        auto it = std::lower_bound(table.begin(), table.end(),
                                   std::make_pair(label_adj[a], VertexId{0}));
        if (it == table.end() || it->first != label_adj[a]) {
          return s.ErrorAt(raw.line[v], "a neighbour label that names a vertex",
                           absl::StrCat("unknown label ", label_adj[a]));
        }
        raw.adjncy[a] = it->second;
      }
    }
  }
  return FinishSymmetric(s, std::move(raw), base);
}

absl::StatusOr<CommGraph> ReadMetis(std::string_view text,
                                    std::string_view name,
                                    const ReadOptions& options) {
  TextScanner s(text, name);
  s.SkipBlankAndCommentLines('%');
  if (s.AtEndOfFile())
    return s.Error("a header 'n m [fmt [ncon]]'", "end of file");
  // One line per vertex and at least two bytes per arc bound the header's
  // counts.
  const int64_t max_n =
      std::min(static_cast<int64_t>(text.size()) + 1, kMaxVertices);
  int64_t n, m;
  RETURN_IF_ERROR(ReadInt(s, false, "a vertex count", 0, max_n, &n));
  RETURN_IF_ERROR(ReadInt(s, false, "an edge count", 0,
                          static_cast<int64_t>(text.size() / 4 + 1), &m));
  int has_sizes = 0, has_vwgt = 0, has_ewgt = 0;
  int64_t ncon = 0;
  if (!s.AtEndOfLine()) {
    const std::string_view fmt = s.TokenOnLine();
    if (!ParseFlags(fmt, &has_sizes, &has_vwgt, &has_ewgt)) {
      return s.Error("a format of at most three 0/1 digits such as '011'",
                     Quote(fmt));
    }
    if (!s.AtEndOfLine()) {
      RETURN_IF_ERROR(ReadInt(s, false, "a constraint count", 1, 1024, &ncon));
    }
  }
  if (has_vwgt && ncon == 0) ncon = 1;
  if (!has_vwgt && ncon > 0) {
    return s.Error("no constraint count (the format has no vertex weights)",
                   absl::StrCat(ncon));
  }
  RETURN_IF_ERROR(ExpectEndOfLine(s, "the header"));
  RETURN_IF_ERROR(CheckBudget(s, n, 2 * m, options));
  RawCsr raw;
  raw.xadj.reserve(n + 1);
  raw.line.reserve(n);
  raw.adjncy.reserve(2 * m);
  raw.adjwgt.reserve(2 * m);
  if (has_vwgt) raw.vwgt.reserve(n);
  for (int64_t v = 0; v < n; ++v) {
    // Each vertex owns one line, possibly empty; only `%` lines are skipped.
    s.NextLine();
    while (!s.AtEndOfFile() && s.PeekOnLine() == '%') s.NextLine();
    if (s.AtEndOfFile()) {
      return s.Error(absl::StrCat(n, " vertex lines as declared in the header"),
                     absl::StrCat(v, " before the end of the file"));
    }
    raw.line.push_back(s.line());
    if (has_sizes) {
      int64_t size;
      RETURN_IF_ERROR(ReadInt(s, false, "a vertex size", 0,
                              std::numeric_limits<int64_t>::max(), &size));
    }
    for (int64_t c = 0; c < ncon; ++c) {
      double w;
      RETURN_IF_ERROR(ReadWeight(s, false, "a vertex weight", &w));
      if (c == 0) raw.vwgt.push_back(w);
    }
    while (!s.AtEndOfLine()) {
      if (static_cast<int64_t>(raw.adjncy.size()) == 2 * m) {
        return s.Error(absl::StrCat(2 * m, " arcs (", m,
                                    " edges as declared in the header)"),
                       absl::StrCat("more at vertex ", v + 1));
      }
      int64_t u;
      RETURN_IF_ERROR(ReadInt(s, false, "a neighbour", 1, n, &u));
      double w = 1.0;
      if (has_ewgt) RETURN_IF_ERROR(ReadWeight(s, false, "an edge weight", &w));
      raw.adjncy.push_back(static_cast<VertexId>(u - 1));
      raw.adjwgt.push_back(w);
    }
    raw.xadj.push_back(static_cast<ArcIndex>(raw.adjncy.size()));
  }
  if (static_cast<int64_t>(raw.adjncy.size()) != 2 * m) {
    return s.Error(absl::StrCat(m, " edges as declared in the header"),
                   absl::StrCat(raw.adjncy.size(), " arcs, i.e. ",
                                raw.adjncy.size() / 2.0, " edges"));
  }
  s.NextLine();
  s.SkipBlankAndCommentLines('%');
  if (!s.AtEndOfFile()) {
    return s.Error(absl::StrCat("end of file after ", n, " vertex lines"),
                   Quote(s.TokenOnLine()));
  }
  return FinishSymmetric(s, std::move(raw), 1);
}

absl::StatusOr<CommGraph> ReadMatrixMarket(std::string_view text,
                                           std::string_view name,
                                           const ReadOptions& options) {
  TextScanner s(text, name);
  const std::string_view banner = s.TokenOnLine();
  if (banner != "%%MatrixMarket")
    return s.Error("'%%MatrixMarket'", Quote(banner));
  const std::string object =
      absl::AsciiStrToLower(std::string(s.TokenOnLine()));
  if (object != "matrix") return s.Error("'matrix'", Quote(object));
  const std::string format =
      absl::AsciiStrToLower(std::string(s.TokenOnLine()));
  if (format != "coordinate") return s.Error("'coordinate'", Quote(format));
  const std::string field = absl::AsciiStrToLower(std::string(s.TokenOnLine()));
  if (field != "real" && field != "integer" && field != "pattern") {
    return s.Error("'real', 'integer' or 'pattern'", Quote(field));
  }
  const std::string symmetry =
      absl::AsciiStrToLower(std::string(s.TokenOnLine()));
  if (symmetry != "general" && symmetry != "symmetric") {
    return s.Error("'general' or 'symmetric'", Quote(symmetry));
  }
  RETURN_IF_ERROR(ExpectEndOfLine(s, "the banner"));
  const bool pattern = field == "pattern", integer = field == "integer";
  const double factor = symmetry == "symmetric" ? 2.0 : 1.0;
  s.NextLine();
  s.SkipBlankAndCommentLines('%');
  if (s.AtEndOfFile())
    return s.Error("a size line 'rows columns entries'", "end of file");
  int64_t rows, cols, nnz;
  RETURN_IF_ERROR(ReadInt(s, false, "a row count", 0, kMaxVertices, &rows));
  RETURN_IF_ERROR(ReadInt(s, false, "a column count", 0, kMaxVertices, &cols));
  // Each entry needs at least "i j\n" (4 bytes): bounds nnz by the file size.
  RETURN_IF_ERROR(ReadInt(s, false, "an entry count", 0,
                          static_cast<int64_t>(text.size() / 4 + 1), &nnz));
  if (rows != cols) {
    return s.Error("a square matrix", absl::StrCat(rows, " x ", cols));
  }
  RETURN_IF_ERROR(ExpectEndOfLine(s, "the size line"));
  RETURN_IF_ERROR(CheckBudget(s, rows, 2 * nnz, options));
  CommGraphBuilder builder(rows);
  builder.Reserve(nnz);
  for (int64_t k = 0; k < nnz; ++k) {
    s.NextLine();
    s.SkipBlankAndCommentLines('%');
    if (s.AtEndOfFile()) {
      return s.Error(absl::StrCat(nnz, " entries as declared in the size line"),
                     absl::StrCat(k));
    }
    int64_t i, j;
    RETURN_IF_ERROR(ReadInt(s, false, "a row index", 1, rows, &i));
    RETURN_IF_ERROR(ReadInt(s, false, "a column index", 1, rows, &j));
    double w = 1.0;
    if (integer) {
      int64_t value;
      RETURN_IF_ERROR(ReadInt(s, false, "a non-negative integer value", 0,
                              std::numeric_limits<int64_t>::max(), &value));
      w = static_cast<double>(value);
    } else if (!pattern) {
      RETURN_IF_ERROR(ReadWeight(s, false, "a value", &w));
    }
    RETURN_IF_ERROR(ExpectEndOfLine(s, "an entry"));
    if (!std::isfinite(factor * w)) {
      return s.Message(absl::StrCat(
          "value ", w,
          " of a symmetric matrix doubles past the largest double"));
    }
    RETURN_IF_ERROR(AddEdgeAt(s, builder, i - 1, j - 1, factor * w));
  }
  s.NextLine();
  s.SkipBlankAndCommentLines('%');
  if (!s.AtEndOfFile()) {
    return s.Error(absl::StrCat("end of file after ", nnz, " entries"),
                   Quote(s.TokenOnLine()));
  }
  return BuildChecked(s, std::move(builder));
}

absl::StatusOr<CommGraph> ReadEdgeList(std::string_view text,
                                       std::string_view name,
                                       const ReadOptions& options) {
  TextScanner s(text, name);
  struct Edge {
    VertexId u, v;
    double w;
  };
  std::vector<Edge> edges;
  // The largest id the budget allows (a graph with id k has k + 1 vertices).
  const int64_t max_id =
      std::min(kMaxVertices - 1, MemoryBudget(options) / 48 - 2);
  auto read_id = [&](std::string_view what, int64_t* id) -> absl::Status {
    RETURN_IF_ERROR(ReadInt(s, false, what, 0, kMaxVertices - 1, id));
    if (*id > max_id) {
      return s.Message(absl::StrCat("vertex id ", *id,
                                    " implies more vertices than the memory ",
                                    "budget allows (ids up to ", max_id, ")"));
    }
    return absl::OkStatus();
  };
  int64_t largest = -1;
  int64_t largest_declared = -1;  // the largest id of a self loop `k k w`
  int largest_line = 0;           // where the largest id of an edge is
  int fields = 0;                 // 2 or 3, fixed by the first data line
  for (s.SkipBlankAndCommentLines('#'); !s.AtEndOfFile();
       s.NextLine(), s.SkipBlankAndCommentLines('#')) {
    int64_t u, v;
    RETURN_IF_ERROR(read_id("a source vertex id", &u));
    RETURN_IF_ERROR(read_id("a target vertex id", &v));
    double w = 1.0;
    if (fields == 0) fields = s.AtEndOfLine() ? 2 : 3;
    if (fields == 3) RETURN_IF_ERROR(ReadWeight(s, false, "a weight", &w));
    RETURN_IF_ERROR(ExpectEndOfLine(
        s, fields == 3 ? "'i j w'" : "'i j' (as on the first line)"));
    if (u == v) {
      largest_declared = std::max(largest_declared, u);
    } else {
      if (std::max(u, v) > largest) largest_line = s.line();
      edges.push_back({static_cast<VertexId>(u), static_cast<VertexId>(v), w});
    }
    largest = std::max({largest, u, v});
  }
  const int64_t n = largest + 1;
  // One mistyped id makes every smaller id a vertex; the engine's work grows
  // with the vertex count, so a graph that is mostly isolated vertices only
  // because of an edge's id is refused (a self loop declares them on purpose).
  const int64_t touched = 2 * static_cast<int64_t>(edges.size());
  if (n > kIsolatedGraphFloor && largest > largest_declared &&
      touched < n / 16) {
    return absl::InvalidArgumentError(absl::StrCat(
        s.name(), ":", largest_line, ": vertex id ", largest, " implies ", n,
        " vertices but the file's ", edges.size(), " edges touch at most ",
        touched,
        " of them; more than 15/16 would be isolated (declare them "
        "with a line '",
        largest, " ", largest, fields == 3 ? " 0" : "", "' if intended)"));
  }
  RETURN_IF_ERROR(
      CheckBudget(s, n, 2 * static_cast<int64_t>(edges.size()), options));
  CommGraphBuilder builder(n);
  builder.Reserve(static_cast<int64_t>(edges.size()));
  for (const Edge& e : edges)
    RETURN_IF_ERROR(AddEdgeAt(s, builder, e.u, e.v, e.w));
  edges = {};
  return BuildChecked(s, std::move(builder));
}

}  // namespace rankmap::graphs
