#include "mpi_bindings/profile_output.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/host_name.h"
#include "base/lines.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "mpi_bindings/profile_window.h"
#include "mpi_bindings/traffic_model.h"

namespace rankmap::mpi_bindings {
namespace {

// Debian's abseil has its own string_view.
absl::string_view A(std::string_view s) { return {s.data(), s.size()}; }

void AppendNumber(std::string* out, double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) {
    absl::StrAppend(out, static_cast<int64_t>(v));
  } else {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.17g", v);
    out->append(buf);
  }
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  return base::WriteFile(path, text);
}

// "0-2, 5, 7-9" for sorted ranks.
std::string Ranges(const std::vector<int32_t>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    absl::StrAppend(&out, out.empty() ? "" : ", ", ranks[i]);
    if (j > i) absl::StrAppend(&out, "-", ranks[j]);
    i = j + 1;
  }
  return out;
}

// An exclusive flock on a file, released (and the descriptor closed) on
// destruction.
class FileLock {
 public:
  explicit FileLock(const std::string& path)
      : fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0) flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0) close(fd_);  // releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

}  // namespace

std::string FormatDenseMatrix(int32_t n, std::span<const double> matrix) {
  std::string out;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      if (j > 0) out += ' ';
      AppendNumber(&out, matrix[static_cast<size_t>(i) * n + j]);
    }
    out += '\n';
  }
  return out;
}

std::string FormatScotchGraph(const graphs::CommGraph& graph) {
  std::string out = absl::StrCat("0\n", graph.num_vertices(), " ",
                                 graph.num_arcs(), "\n0\t010\n");
  for (graphs::VertexId v = 0; v < graph.num_vertices(); ++v) {
    absl::StrAppend(&out, graph.degree(v));
    auto nb = graph.neighbors(v);
    auto w = graph.weights(v);
    for (size_t k = 0; k < nb.size(); ++k) {
      absl::StrAppend(&out, "\t", static_cast<int64_t>(std::llround(w[k])), " ",
                      nb[k]);
    }
    out += '\n';
  }
  return out;
}

absl::StatusOr<graphs::CommGraph> GraphFromMatrix(
    int32_t n, std::span<const double> matrix) {
  if (n < 0 || matrix.size() != static_cast<size_t>(n) * n) {
    return absl::InvalidArgumentError(
        absl::StrCat("profile: matrix has ", matrix.size(),
                     " entries, expected ", static_cast<int64_t>(n) * n));
  }
  graphs::CommGraphBuilder b(n);
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      const double w = matrix[static_cast<size_t>(i) * n + j];
      if (w != 0.0 || !std::isfinite(w)) RETURN_IF_ERROR(b.AddEdge(i, j, w));
    }
  }
  return std::move(b).Build();
}

namespace {

// The side file's text (profile_output.h).
std::string FormatProfileSide(const std::string& prefix, int32_t n,
                              const ProfileNotes& notes) {
  const std::string name = prefix.substr(prefix.rfind('/') + 1);
  // Values stay on one line.
  auto line = [](std::string_view key, std::string value) {
    std::replace(value.begin(), value.end(), '\n', ' ');
    std::replace(value.begin(), value.end(), '\r', ' ');
    return absl::StrCat(A(key), "=", value, "\n");
  };
  std::string out = absl::StrCat(
      "# ", notes.window.empty() ? "rankmap profile" : notes.window, "\n");
  absl::StrAppend(&out, line("processes", absl::StrCat(n)));
  for (const auto& [key, value] : notes.facts) absl::StrAppend(&out, line(key, value));
  if (!notes.partial.empty()) absl::StrAppend(&out, line("partial", notes.partial));
  absl::StrAppend(&out, line("bytes", name + ".mat"),
                  line("messages", name + ".msgs.mat"),
                  line("graph", name + ".grf"),
                  line("placement", name + ".placement"));
  struct stat st;
  const std::string hardware = HardwareDirectory(prefix);
  if (stat(hardware.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    absl::StrAppend(&out, line("hardware", name + ".hwloc"));
  return out;
}

}  // namespace

std::string HardwareDirectory(const std::string& prefix) {
  return prefix + ".hwloc";
}

std::string ProfileSidePath(const std::string& prefix) {
  return prefix + ".profile";
}

absl::Status WriteProfile(const std::string& prefix, int32_t n,
                          std::span<const double> bytes,
                          std::span<const double> messages,
                          const ProfileNotes& notes) {
  ASSIGN_OR_RETURN(graphs::CommGraph graph, GraphFromMatrix(n, bytes));
  if (messages.size() != bytes.size()) {
    return absl::InvalidArgumentError("profile: message matrix size differs");
  }
  RETURN_IF_ERROR(WriteText(prefix + ".mat", FormatDenseMatrix(n, bytes)));
  RETURN_IF_ERROR(
      WriteText(prefix + ".msgs.mat", FormatDenseMatrix(n, messages)));
  RETURN_IF_ERROR(WriteText(prefix + ".grf", FormatScotchGraph(graph)));
  RETURN_IF_ERROR(WriteText(ProfileSidePath(prefix),
                            FormatProfileSide(prefix, n, notes)));
  if (notes.partial.empty()) {
    std::remove((prefix + ".partial").c_str());
    return absl::OkStatus();
  }
  return WriteText(prefix + ".partial", absl::StrCat(notes.partial, "\n"));
}

absl::StatusOr<std::vector<std::pair<std::string, std::string>>>
ParseProfileSide(std::string_view text, std::string_view name) {
  std::vector<std::pair<std::string, std::string>> facts;
  int32_t number = 0;
  for (absl::string_view line : absl::StrSplit(A(text), '\n')) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line[0] == '#') continue;
    const size_t eq = line.find('=');
    const absl::string_view key = line.substr(0, eq);
    const bool good_key =
        eq != absl::string_view::npos && !key.empty() &&
        std::all_of(key.begin(), key.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
    if (!good_key) {
      return absl::InvalidArgumentError(absl::StrCat(
          A(name), ":", number, ": expected key=value, found '",
          line.substr(0, 64), "'"));
    }
    facts.emplace_back(std::string(key), std::string(line.substr(eq + 1)));
  }
  return facts;
}

std::string FormatCpuList(std::span<const int32_t> cpus) {
  std::vector<int32_t> v(cpus.begin(), cpus.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    absl::StrAppend(&out, out.empty() ? "" : ",", v[i]);
    if (j > i) absl::StrAppend(&out, "-", v[j]);
    i = j + 1;
  }
  return out;
}

namespace {

// The ranges of a CPU list, checked; `max_cpus` bounds their total before
// any is expanded.
absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>> CpuRanges(
    std::string_view list, int64_t max_cpus) {
  const absl::string_view text = A(list);
  auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad CPU list '", text.substr(0, 64), "': ", what));
  };
  if (text.empty()) return bad("expected ranges like 0-3,8");
  std::vector<std::pair<int64_t, int64_t>> ranges;
  int64_t total = 0;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    const size_t dash = part.find('-');
    int64_t a = 0, b = 0;
    const bool ok = dash == std::string_view::npos
                        ? absl::SimpleAtoi(part, &a) && (b = a, true)
                        : absl::SimpleAtoi(part.substr(0, dash), &a) &&
                              absl::SimpleAtoi(part.substr(dash + 1), &b);
    if (!ok || part.empty() || part[0] == '+' || part[0] == '-' || a < 0) {
      return bad(absl::StrCat("'", part.substr(0, 32),
                              "' is not an index or a range a-b"));
    }
    if (b < a) return bad(absl::StrCat("range ", a, "-", b, " ends first"));
    if (b > kMaxCpuIndex) {
      return bad(absl::StrCat("CPU index ", b, " above ", kMaxCpuIndex));
    }
    total += b - a + 1;
    if (total > max_cpus) {
      return bad(absl::StrCat("more than ", max_cpus, " CPUs"));
    }
    ranges.emplace_back(a, b);
  }
  return ranges;
}

}  // namespace

absl::StatusOr<int64_t> CountCpuList(std::string_view list) {
  // A list of ranges adds at most kMaxCpuIndex + 1 per range; the text's
  // length bounds the ranges.
  ASSIGN_OR_RETURN(const auto ranges,
                   CpuRanges(list, std::numeric_limits<int64_t>::max() / 4));
  int64_t total = 0;
  for (const auto& [a, b] : ranges) total += b - a + 1;
  return total;
}

absl::StatusOr<std::vector<int32_t>> ParseCpuList(std::string_view list,
                                                  int64_t max_cpus) {
  // Ranges first, so that a huge range is refused before it is expanded.
  ASSIGN_OR_RETURN(const auto ranges, CpuRanges(list, max_cpus));
  int64_t total = 0;
  for (const auto& [a, b] : ranges) total += b - a + 1;
  std::vector<int32_t> cpus;
  cpus.reserve(total);
  for (const auto& [a, b] : ranges) {
    for (int64_t c = a; c <= b; ++c) cpus.push_back(static_cast<int32_t>(c));
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string PlacementPath(const std::string& prefix) {
  return prefix + ".placement";
}

std::string FormatPlacement(std::span<const RankPlacement> ranks,
                            int32_t world_size, std::string_view note) {
  std::string out = absl::StrCat(
      "# rankmap placement of ", world_size,
      " ranks: <rank> <host> <cpu list> (the CPUs sched_getaffinity allowed "
      "each rank at MPI_Init, operating-system indexes)");
  if (!note.empty()) absl::StrAppend(&out, "; ", A(note));
  out += '\n';
  for (const RankPlacement& r : ranks) {
    absl::StrAppend(&out, r.rank, " ", r.host, " ", FormatCpuList(r.cpus),
                    "\n");
  }
  return out;
}

absl::StatusOr<std::vector<PlacementLine>> ParsePlacementLines(
    std::string_view text, std::string_view file, int64_t max_memory_bytes) {
  const absl::string_view name = A(file);
  const int64_t budget = base::MemoryBudget(max_memory_bytes);
  // SplitLines copies the text about three times over; each line keeps its
  // host and CPU list.
  const int64_t lines = std::count(text.begin(), text.end(), '\n') + 1;
  const int64_t bytes = base::SaturatingMulAdd(
      static_cast<int64_t>(text.size()), 5, base::SaturatingMulAdd(lines, 160));
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat(name, ": a placement of ", lines, " lines"), bytes, budget));
  std::vector<PlacementLine> out;
  std::map<int32_t, int64_t> seen;  // rank -> line
  for (const base::Line& l : base::SplitLines(text)) {
    if (l.tokens.size() != 3) {
      return base::LineError(
          file, l.number,
          absl::StrCat("expected '<rank> <host> <cpu list>', found ",
                       l.tokens.size(), " fields"));
    }
    PlacementLine r;
    r.line = l.number;
    int64_t rank = 0;
    if (!absl::SimpleAtoi(l.tokens[0].text, &rank) || rank < 0 ||
        rank >= (int64_t{1} << 24)) {
      return base::LineError(
          file, l.number,
          absl::StrCat("rank '", l.tokens[0].text.substr(0, 32),
                       "' is not a whole number below 2^24"));
    }
    r.rank = static_cast<int32_t>(rank);
    if (auto [it, fresh] = seen.emplace(r.rank, l.number); !fresh) {
      return base::LineError(
          file, l.number,
          absl::StrCat("rank ", rank, " already on line ", it->second));
    }
    if (absl::Status st = base::CheckHostName(l.tokens[1].text); !st.ok()) {
      return base::LineError(file, l.number, std::string(st.message()));
    }
    r.host = l.tokens[1].text;
    // The syntax and bounds now, the expansion by whoever knows the host.
    if (absl::StatusOr<int64_t> count = CountCpuList(l.tokens[2].text);
        !count.ok()) {
      return base::LineError(file, l.number,
                             std::string(count.status().message()));
    }
    r.cpu_list = l.tokens[2].text;
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(),
            [](const PlacementLine& a, const PlacementLine& b) {
              return a.rank < b.rank;
            });
  return out;
}

absl::StatusOr<std::vector<RankPlacement>> ParsePlacement(
    std::string_view text, std::string_view file, int64_t max_memory_bytes) {
  ASSIGN_OR_RETURN(std::vector<PlacementLine> lines,
                   ParsePlacementLines(text, file, max_memory_bytes));
  // The CPUs of every line together, 4 bytes each, within what is left.
  const int64_t budget = base::MemoryBudget(max_memory_bytes);
  int64_t cpus = 0;
  for (const PlacementLine& l : lines) cpus += *CountCpuList(l.cpu_list);
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat(A(file), ": the CPU lists of ", lines.size(), " ranks (",
                   cpus, " CPUs)"),
      base::SaturatingMulAdd(cpus, 4,
                             base::SaturatingMulAdd(
                                 static_cast<int64_t>(text.size()), 5, 0)),
      budget));
  std::vector<RankPlacement> out;
  out.reserve(lines.size());
  for (PlacementLine& l : lines) {
    absl::StatusOr<std::vector<int32_t>> list =
        ParseCpuList(l.cpu_list, kMaxCpuIndex + 1);
    if (!list.ok()) {
      return base::LineError(file, l.line, std::string(list.status().message()));
    }
    out.push_back({l.rank, std::move(l.host), *std::move(list)});
  }
  return out;
}

void PerIteration(ProfileRow* row) {
  if (!row->marks || row->iterations < 1) return;
  const double n = static_cast<double>(row->iterations);
  for (auto* v : {&row->bytes, &row->messages, &row->fetched_bytes,
                  &row->fetched_messages}) {
    for (double& x : *v) x /= n;
  }
}

std::string RowPath(const std::string& prefix, int32_t rank) {
  return absl::StrCat(prefix, ".part.", rank);
}

std::string FormatRow(const ProfileRow& row) {
  std::string out =
      absl::StrCat("rankmap-profile-row ", row.rank, " ", row.world_size, "\n",
                   row.state, "\n", "window ", row.marks ? 1 : 0, " ",
                   row.iterations, " ", row.collectives, " ", row.window, "\n");
  if (!row.host.empty()) {
    absl::StrAppend(&out, "placement ", row.host, " ", FormatCpuList(row.cpus),
                    "\n");
  }
  for (int32_t j = 0; j < row.world_size; ++j) {
    const double v[4] = {row.bytes[j], row.messages[j], row.fetched_bytes[j],
                         row.fetched_messages[j]};
    if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0) continue;
    absl::StrAppend(&out, j);
    for (double x : v) {
      out += ' ';
      AppendNumber(&out, x);
    }
    out += '\n';
  }
  return out;
}

namespace {

// "window <marks> <iterations> <collectives> <description>".
bool ParseWindowLine(absl::string_view line, ProfileRow* row) {
  std::vector<absl::string_view> f =
      absl::StrSplit(line, absl::MaxSplits(' ', 4));
  int marks = 0;
  if (f.size() != 5 || f[0] != "window" || !absl::SimpleAtoi(f[1], &marks) ||
      (marks != 0 && marks != 1) || !absl::SimpleAtoi(f[2], &row->iterations) ||
      row->iterations < 0 || f[3].empty()) {
    return false;
  }
  row->marks = marks == 1;
  row->collectives = std::string(f[3]);
  row->window = std::string(f[4]);
  return true;
}

// "placement <host> <cpu list>".
absl::Status ParsePlacementLine(absl::string_view line, ProfileRow* row) {
  std::vector<absl::string_view> f = absl::StrSplit(line, ' ');
  if (f.size() != 3) {
    return absl::InvalidArgumentError("expected 'placement <host> <cpu list>'");
  }
  RETURN_IF_ERROR(
      base::CheckHostName(std::string_view(f[1].data(), f[1].size())));
  ASSIGN_OR_RETURN(row->cpus,
                   ParseCpuList(std::string_view(f[2].data(), f[2].size()),
                                kMaxCpuIndex + 1));
  row->host = std::string(f[1]);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ProfileRow> ParseRow(std::string_view row_text,
                                    std::string_view file) {
  const absl::string_view text = A(row_text), name = A(file);
  auto bad = [&](size_t line, absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ":", line, ": ", what));
  };
  std::vector<absl::string_view> lines = absl::StrSplit(text, '\n');
  ProfileRow row;
  std::vector<absl::string_view> head =
      absl::StrSplit(lines[0], ' ', absl::SkipEmpty());
  int64_t rank = 0, world = 0;
  if (lines.size() < 3 || head.size() != 3 ||
      head[0] != "rankmap-profile-row" || !absl::SimpleAtoi(head[1], &rank) ||
      !absl::SimpleAtoi(head[2], &world) || world < 1 || world > (1 << 24) ||
      rank < 0 || rank >= world) {
    return bad(1, "expected 'rankmap-profile-row <rank> <world size>'");
  }
  RETURN_IF_ERROR(
      base::CheckMemory(absl::StrCat(name, ": a row of ", world, " processes"),
                        world * 4 * 8, base::MemoryBudget()));
  row.rank = static_cast<int32_t>(rank);
  row.world_size = static_cast<int32_t>(world);
  row.state = std::string(lines[1]);
  if (!ParseWindowLine(lines[2], &row)) {
    return bad(3,
               "expected 'window <marks 0|1> <iterations> <collectives> "
               "<description>'");
  }
  for (auto* v :
       {&row.bytes, &row.messages, &row.fetched_bytes, &row.fetched_messages}) {
    v->assign(world, 0.0);
  }
  for (size_t i = 3; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    if (absl::StartsWith(lines[i], "placement ")) {
      if (absl::Status st = ParsePlacementLine(lines[i], &row); !st.ok()) {
        return bad(i + 1, st.message());
      }
      continue;
    }
    std::vector<absl::string_view> f = absl::StrSplit(lines[i], ' ');
    int64_t j = 0;
    double v[4];
    bool ok =
        f.size() == 5 && absl::SimpleAtoi(f[0], &j) && j >= 0 && j < world;
    for (int k = 0; ok && k < 4; ++k) {
      ok =
          absl::SimpleAtod(f[k + 1], &v[k]) && std::isfinite(v[k]) && v[k] >= 0;
    }
    if (!ok) {
      return bad(i + 1,
                 "expected 'j bytes messages fetched_bytes fetched_messages'");
    }
    row.bytes[j] = v[0];
    row.messages[j] = v[1];
    row.fetched_bytes[j] = v[2];
    row.fetched_messages[j] = v[3];
  }
  return row;
}

absl::Status WriteFileAtomically(const std::string& path,
                                 std::string_view contents) {
  const std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  RETURN_IF_ERROR(base::WriteFile(tmp, contents));
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot replace: ", std::strerror(err)));
  }
  return absl::OkStatus();
}

namespace {

// The saved rows of a job, laid out as WriteProfile takes them.
struct SavedRows {
  std::vector<double> bytes, messages, fetched_bytes, fetched_messages;
  std::vector<int32_t> missing, found;
  std::vector<std::string> unfinished;
  std::vector<double> iterations;  // of the ranks found
  std::vector<RankPlacement> placement;
  ProfileRow first;  // the first row found, for the window's description
};

absl::StatusOr<SavedRows> ReadSavedRows(const std::string& prefix,
                                        int32_t world_size) {
  const int64_t n = world_size;
  SavedRows s;
  for (auto* v :
       {&s.bytes, &s.messages, &s.fetched_bytes, &s.fetched_messages}) {
    v->assign(n * n, 0.0);
  }
  for (int32_t r = 0; r < world_size; ++r) {
    const std::string path = RowPath(prefix, r);
    if (!base::IsRegularFile(path)) {
      s.missing.push_back(r);
      continue;
    }
    ASSIGN_OR_RETURN(const std::string text,
                     base::ReadFile(path, "profile row"));
    ASSIGN_OR_RETURN(ProfileRow row, ParseRow(text, path));
    if (row.rank != r || row.world_size != world_size) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": row of rank ", row.rank, " of ", row.world_size,
                       " processes, expected rank ", r, " of ", world_size));
    }
    if (row.state != "running") {
      s.unfinished.push_back(absl::StrCat("rank ", r, " ", row.state));
    }
    PerIteration(&row);
    for (int64_t j = 0; j < n; ++j) {
      s.bytes[r * n + j] = row.bytes[j];
      s.messages[r * n + j] = row.messages[j];
      s.fetched_bytes[r * n + j] = row.fetched_bytes[j];
      s.fetched_messages[r * n + j] = row.fetched_messages[j];
    }
    s.iterations.push_back(static_cast<double>(row.iterations));
    if (!row.host.empty()) s.placement.push_back({r, row.host, row.cpus});
    if (s.found.empty()) s.first = std::move(row);
    s.found.push_back(r);
  }
  return s;
}

}  // namespace

absl::StatusOr<std::string> MergePartialProfile(const std::string& prefix,
                                                int32_t world_size,
                                                std::string_view reason) {
  const int64_t n = world_size;
  // Four dense n x n matrices here, the text of two in WriteProfile.
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat("profile: merging the rows of ", n, " processes"),
      base::SaturatingMulAdd(n * n, 4 * 8 + 2 * 16), base::MemoryBudget()));
  FileLock lock(prefix + ".lock");
  ASSIGN_OR_RETURN(SavedRows s, ReadSavedRows(prefix, world_size));
  if (s.found.empty()) {
    return absl::NotFoundError(
        absl::StrCat(prefix, ": no saved rows (", RowPath(prefix, 0), " ...)"));
  }
  profile::AddFetched(world_size, s.fetched_bytes, s.bytes);
  profile::AddFetched(world_size, s.fetched_messages, s.messages);
  ProfileNotes notes;
  notes.partial = absl::StrCat(A(reason), "; rows of ", s.found.size(), " of ",
                               n, " processes, each as of its last save");
  if (!s.missing.empty()) {
    absl::StrAppend(&notes.partial, "; no row from ranks ", Ranges(s.missing));
  }
  for (const std::string& u : s.unfinished) {
    absl::StrAppend(&notes.partial, "; ", u);
  }
  notes.window = profile::ProfileHeader(s.first.window, s.first.marks,
                                        s.iterations, s.first.collectives);
  notes.facts = profile::ProfileFacts(s.first.window, s.first.marks,
                                      s.iterations, s.first.collectives);
  RETURN_IF_ERROR(WriteProfile(prefix, world_size, s.bytes, s.messages, notes));
  if (!s.placement.empty()) {
    const std::string note =
        s.placement.size() == static_cast<size_t>(world_size)
            ? "partial profile"
            : absl::StrCat("partial profile: ", s.placement.size(), " of ", n,
                           " ranks known");
    RETURN_IF_ERROR(WriteFileAtomically(
        PlacementPath(prefix), FormatPlacement(s.placement, world_size, note)));
  }
  return absl::StrCat("partial traffic of ", n, " processes written to ",
                      prefix, ".{mat,grf} (", notes.partial, ")");
}

}  // namespace rankmap::mpi_bindings
