#include "mpi_bindings/profile_output.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "mpi_bindings/traffic_model.h"

namespace rankmap::mpi_bindings {
namespace {

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

absl::Status WriteProfile(const std::string& prefix, int32_t n,
                          std::span<const double> bytes,
                          std::span<const double> messages,
                          std::string_view partial_note) {
  ASSIGN_OR_RETURN(graphs::CommGraph graph, GraphFromMatrix(n, bytes));
  if (messages.size() != bytes.size()) {
    return absl::InvalidArgumentError("profile: message matrix size differs");
  }
  const std::string head =
      partial_note.empty()
          ? ""
          : absl::StrCat("# partial profile: ", std::string(partial_note),
                         "\n");
  RETURN_IF_ERROR(
      WriteText(prefix + ".mat", head + FormatDenseMatrix(n, bytes)));
  RETURN_IF_ERROR(
      WriteText(prefix + ".msgs.mat", head + FormatDenseMatrix(n, messages)));
  RETURN_IF_ERROR(WriteText(prefix + ".grf", FormatScotchGraph(graph)));
  if (partial_note.empty()) {
    std::remove((prefix + ".partial").c_str());
    return absl::OkStatus();
  }
  return WriteText(prefix + ".partial",
                   absl::StrCat(std::string(partial_note), "\n"));
}

std::string RowPath(const std::string& prefix, int32_t rank) {
  return absl::StrCat(prefix, ".part.", rank);
}

std::string FormatRow(const ProfileRow& row) {
  std::string out = absl::StrCat("rankmap-profile-row ", row.rank, " ",
                                 row.world_size, "\n", row.state, "\n");
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

absl::StatusOr<ProfileRow> ParseRow(std::string_view text,
                                    std::string_view name) {
  auto bad = [&](int line, std::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(name), ":", line, ": ", std::string(what)));
  };
  std::vector<std::string> lines =
      absl::StrSplit(absl::string_view(text.data(), text.size()), '\n');
  ProfileRow row;
  std::vector<std::string> head =
      absl::StrSplit(lines[0], ' ', absl::SkipEmpty());
  int64_t rank = 0, world = 0;
  if (lines.size() < 2 || head.size() != 3 ||
      head[0] != "rankmap-profile-row" || !absl::SimpleAtoi(head[1], &rank) ||
      !absl::SimpleAtoi(head[2], &world) || world < 1 || world > (1 << 24) ||
      rank < 0 || rank >= world) {
    return bad(1, "expected 'rankmap-profile-row <rank> <world size>'");
  }
  row.rank = static_cast<int32_t>(rank);
  row.world_size = static_cast<int32_t>(world);
  row.state = lines[1];
  for (auto* v :
       {&row.bytes, &row.messages, &row.fetched_bytes, &row.fetched_messages}) {
    v->assign(world, 0.0);
  }
  for (size_t i = 2; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    std::vector<std::string> f = absl::StrSplit(lines[i], ' ');
    int64_t j = 0;
    double v[4];
    bool ok =
        f.size() == 5 && absl::SimpleAtoi(f[0], &j) && j >= 0 && j < world;
    for (int k = 0; ok && k < 4; ++k) {
      ok =
          absl::SimpleAtod(f[k + 1], &v[k]) && std::isfinite(v[k]) && v[k] >= 0;
    }
    if (!ok) {
      return bad(static_cast<int>(i) + 1,
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

absl::StatusOr<std::string> MergePartialProfile(const std::string& prefix,
                                                int32_t world_size,
                                                std::string_view reason) {
  const int64_t n = world_size;
  // Four dense n x n matrices here, the text of two in WriteProfile.
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat("profile: merging the rows of ", n, " processes"),
      base::SaturatingMulAdd(n * n, 4 * 8 + 2 * 16), base::MemoryBudget()));
  FileLock lock(prefix + ".lock");
  std::vector<double> bytes(n * n, 0.0), messages(n * n, 0.0),
      fetched_bytes(n * n, 0.0), fetched_messages(n * n, 0.0);
  std::vector<int32_t> missing, found;
  std::vector<std::string> unfinished;
  for (int32_t r = 0; r < world_size; ++r) {
    const std::string path = RowPath(prefix, r);
    if (!base::IsRegularFile(path)) {
      missing.push_back(r);
      continue;
    }
    ASSIGN_OR_RETURN(const std::string text,
                     base::ReadFile(path, "profile row"));
    ASSIGN_OR_RETURN(const ProfileRow row, ParseRow(text, path));
    if (row.rank != r || row.world_size != world_size) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": row of rank ", row.rank, " of ", row.world_size,
                       " processes, expected rank ", r, " of ", world_size));
    }
    found.push_back(r);
    if (row.state != "running") {
      unfinished.push_back(absl::StrCat("rank ", r, " ", row.state));
    }
    for (int64_t j = 0; j < n; ++j) {
      bytes[r * n + j] = row.bytes[j];
      messages[r * n + j] = row.messages[j];
      fetched_bytes[r * n + j] = row.fetched_bytes[j];
      fetched_messages[r * n + j] = row.fetched_messages[j];
    }
  }
  if (found.empty()) {
    return absl::NotFoundError(
        absl::StrCat(prefix, ": no saved rows (", RowPath(prefix, 0), " ...)"));
  }
  profile::AddFetched(world_size, fetched_bytes, bytes);
  profile::AddFetched(world_size, fetched_messages, messages);
  std::string note =
      absl::StrCat(std::string(reason), "; rows of ", found.size(), " of ", n,
                   " processes, each as of its last save");
  if (!missing.empty())
    absl::StrAppend(&note, "; no row from ranks ", Ranges(missing));
  for (const std::string& u : unfinished) absl::StrAppend(&note, "; ", u);
  RETURN_IF_ERROR(WriteProfile(prefix, world_size, bytes, messages, note));
  return absl::StrCat("partial traffic of ", n, " processes written to ",
                      prefix, ".{mat,grf} (", note, ")");
}

}  // namespace rankmap::mpi_bindings
