#include "graphs/fuzz/reader_check.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rankmap::graphs::fuzz {

absl::Status CheckReader(ReaderFn read, std::string_view text,
                         std::string_view name, bool* parsed) {
  ReadOptions options;
  options.max_memory_bytes = kFuzzMemoryBudget;
  absl::StatusOr<CommGraph> g = read(text, name, options);
  if (parsed != nullptr) *parsed = g.ok();
  if (!g.ok()) {
    const std::string message(g.status().message());
    const std::string prefix = absl::StrCat(std::string(name), ":");
    if (g.status().code() != absl::StatusCode::kInvalidArgument ||
        message.rfind(prefix, 0) != 0) {
      return absl::InternalError(absl::StrCat(
          "error without the file:line prefix: ", g.status().ToString()));
    }
    return absl::OkStatus();
  }
  absl::StatusOr<CommGraph> copy = CommGraph::FromCsr(
      std::vector<ArcIndex>(g->xadj().begin(), g->xadj().end()),
      std::vector<VertexId>(g->adjncy().begin(), g->adjncy().end()),
      std::vector<double>(g->adjwgt().begin(), g->adjwgt().end()),
      std::vector<double>(g->vwgt().begin(), g->vwgt().end()));
  if (!copy.ok()) {
    return absl::InternalError(absl::StrCat(
        "accepted graph breaks an invariant: ", copy.status().ToString()));
  }
  return absl::OkStatus();
}

void FuzzReader(ReaderFn read, const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::Status s = CheckReader(read, text, "fuzz");
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    std::abort();
  }
}

}  // namespace rankmap::graphs::fuzz
