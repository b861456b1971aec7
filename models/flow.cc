#include "models/flow.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::models {

absl::Status ValidateFlow(const Flow& flow) {
  if (flow.num_processes < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("flow: negative process count ", flow.num_processes));
  }
  for (size_t p = 0; p < flow.phases.size(); ++p) {
    const Phase& phase = flow.phases[p];
    if (phase.repetitions < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "flow: phase ", p, ": negative repetitions ", phase.repetitions));
    }
    for (size_t i = 0; i < phase.transmissions.size(); ++i) {
      const Transmission& t = phase.transmissions[i];
      if (t.src < 0 || t.src >= flow.num_processes || t.dst < 0 ||
          t.dst >= flow.num_processes || t.src == t.dst) {
        return absl::InvalidArgumentError(absl::StrCat(
            "flow: phase ", p, ", transmission ", i, ": ", t.src, " -> ", t.dst,
            " is not a pair of distinct processes in [0, ", flow.num_processes,
            ")"));
      }
      if (!std::isfinite(t.bytes) || t.bytes < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("flow: phase ", p, ", transmission ", i, ": bytes ",
                         t.bytes, " is negative or not finite"));
      }
    }
  }
  return absl::OkStatus();
}

Flow HaloFlow(const graphs::CommGraph& graph, int64_t iterations) {
  Flow flow;
  flow.num_processes = graph.num_vertices();
  Phase phase;
  phase.repetitions = iterations;
  phase.transmissions.reserve(static_cast<size_t>(graph.num_arcs()));
  for (graphs::VertexId u = 0; u < graph.num_vertices(); ++u) {
    const auto nbrs = graph.neighbors(u);
    const auto wgts = graph.weights(u);
    for (size_t k = 0; k < nbrs.size(); ++k) {
      if (wgts[k] > 0)
        phase.transmissions.push_back({u, nbrs[k], 0.5 * wgts[k]});
    }
  }
  flow.phases.push_back(std::move(phase));
  return flow;
}

absl::StatusOr<Flow> HaloMessagesFlow(
    std::span<const graphs::HaloMessage> messages, int32_t num_processes,
    double element_size, int64_t iterations) {
  if (!std::isfinite(element_size) || element_size <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("flow/halo: element size ", element_size,
                     " must be positive and finite"));
  }
  if (iterations < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("flow/halo: negative iteration count ", iterations));
  }
  Flow flow;
  flow.num_processes = num_processes;
  Phase phase;
  phase.repetitions = iterations;
  phase.transmissions.reserve(messages.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    const graphs::HaloMessage& m = messages[i];
    if (m.cells < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "flow/halo: message ", i, ": negative cell count ", m.cells));
    }
    phase.transmissions.push_back(
        {m.src, m.dst, static_cast<double>(m.cells) * element_size});
  }
  flow.phases.push_back(std::move(phase));
  RETURN_IF_ERROR(ValidateFlow(flow));
  return flow;
}

void AppendBroadcast(Broadcast kind, const std::vector<int32_t>& members,
                     double bytes,
                     std::vector<std::vector<Transmission>>& stages) {
  const size_t k = members.size();
  auto stage = [&stages](size_t t) -> std::vector<Transmission>& {
    if (stages.size() <= t) stages.resize(t + 1);
    return stages[t];
  };
  switch (kind) {
    case Broadcast::kFlat:
      for (size_t i = 1; i < k; ++i)
        stage(0).push_back({members[0], members[i], bytes});
      break;
    case Broadcast::kBinomial:
      for (size_t t = 0, span = 1; span < k; ++t, span *= 2) {
        for (size_t i = 0; i < span && i + span < k; ++i) {
          stage(t).push_back({members[i], members[i + span], bytes});
        }
      }
      break;
    case Broadcast::kRing:
      for (size_t i = 0; i + 1 < k; ++i)
        stage(i).push_back({members[i], members[i + 1], bytes});
      break;
  }
}

absl::StatusOr<Flow> SummaFlow(const SummaFlowOptions& o) {
  if (o.grid_rows < 1 || o.grid_cols < 1 ||
      static_cast<int64_t>(o.grid_rows) * o.grid_cols > INT32_MAX) {
    return absl::InvalidArgumentError(absl::StrCat(
        "flow/summa: bad process grid ", o.grid_rows, " x ", o.grid_cols));
  }
  if (o.steps < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("flow/summa: negative steps ", o.steps));
  }
  for (double b : {o.a_panel_bytes, o.b_panel_bytes}) {
    if (!std::isfinite(b) || b < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "flow/summa: panel bytes ", b, " is negative or not finite"));
    }
  }
  const int32_t rows = o.grid_rows, cols = o.grid_cols;
  Flow flow;
  flow.num_processes = rows * cols;
  std::vector<int32_t> members;
  for (int64_t s = 0; s < o.steps; ++s) {
    std::vector<std::vector<Transmission>> stages;
    const int32_t root_col = static_cast<int32_t>(s % cols);
    const int32_t root_row = static_cast<int32_t>(s % rows);
    for (int32_t r = 0; r < rows; ++r) {  // A panels along rows
      members.clear();
      for (int32_t i = 0; i < cols; ++i)
        members.push_back(r * cols + (root_col + i) % cols);
      AppendBroadcast(o.broadcast, members, o.a_panel_bytes, stages);
    }
    for (int32_t c = 0; c < cols; ++c) {  // B panels along columns
      members.clear();
      for (int32_t i = 0; i < rows; ++i)
        members.push_back(((root_row + i) % rows) * cols + c);
      AppendBroadcast(o.broadcast, members, o.b_panel_bytes, stages);
    }
    for (auto& st : stages) flow.phases.push_back(Phase{std::move(st), 1});
  }
  return flow;
}

}  // namespace rankmap::models
