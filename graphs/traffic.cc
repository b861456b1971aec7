#include "graphs/traffic.h"

#include <sys/stat.h>

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "graphs/csr_access.h"

namespace rankmap::graphs {
namespace {

constexpr std::string_view kMessagesSuffix = ".msgs.mat";

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

std::string MessagesPathBeside(std::string_view path) {
  if (path.ends_with(kMessagesSuffix)) return "";
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string_view::npos ||
      (slash != std::string_view::npos && dot < slash) ||
      dot == (slash == std::string_view::npos ? 0 : slash + 1)) {
    return "";
  }
  return absl::StrCat(std::string(path.substr(0, dot)),
                      std::string(kMessagesSuffix));
}

absl::StatusOr<CommGraph> AttachMessages(const CommGraph& bytes,
                                         const CommGraph& messages,
                                         std::string_view messages_name) {
  const VertexId n = bytes.num_vertices();
  if (messages.num_vertices() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(messages_name), ": message counts of ",
                     messages.num_vertices(), " processes for a graph of ", n));
  }
  // Merge the two sorted rows of every vertex; the union stays symmetric and
  // sorted because both inputs are.
  std::vector<ArcIndex> xadj(n + 1, 0);
  std::vector<VertexId> adjncy;
  std::vector<double> adjwgt, adjmsg;
  adjncy.reserve(bytes.num_arcs());
  adjwgt.reserve(bytes.num_arcs());
  adjmsg.reserve(bytes.num_arcs());
  for (VertexId v = 0; v < n; ++v) {
    auto bn = bytes.neighbors(v), mn = messages.neighbors(v);
    auto bw = bytes.weights(v), mw = messages.weights(v);
    size_t i = 0, k = 0;
    while (i < bn.size() || k < mn.size()) {
      const bool take_b = k == mn.size() || (i < bn.size() && bn[i] <= mn[k]);
      const bool take_m = i == bn.size() || (k < mn.size() && mn[k] <= bn[i]);
      adjncy.push_back(take_b ? bn[i] : mn[k]);
      adjwgt.push_back(take_b ? bw[i] : 0.0);
      adjmsg.push_back(take_m ? mw[k] : 0.0);
      i += take_b;
      k += take_m;
    }
    xadj[v + 1] = static_cast<ArcIndex>(adjncy.size());
  }
  std::vector<double> vwgt(bytes.vwgt().begin(), bytes.vwgt().end());
  return internal::CsrAccess::Make(std::move(xadj), std::move(adjncy),
                                   std::move(adjwgt), std::move(vwgt),
                                   std::move(adjmsg));
}

absl::StatusOr<Traffic> ReadTraffic(const std::string& path,
                                    const TrafficOptions& options) {
  Traffic t;
  ASSIGN_OR_RETURN(t.graph, ReadGraphFile(path, options.format, options.read));
  std::string messages_path;
  if (options.messages.empty()) {
    messages_path = MessagesPathBeside(path);
    if (messages_path.empty() || !IsRegularFile(messages_path)) return t;
  } else if (options.messages != "none") {
    messages_path = options.messages;
  } else {
    return t;
  }
  ASSIGN_OR_RETURN(CommGraph counts,
                   ReadGraphFile(messages_path, options.messages_format,
                                 options.read));
  ASSIGN_OR_RETURN(t.graph, AttachMessages(t.graph, counts, messages_path));
  t.messages_path = std::move(messages_path);
  return t;
}

}  // namespace rankmap::graphs
