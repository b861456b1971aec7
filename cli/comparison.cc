#include "cli/comparison.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "core/mapper.h"

namespace rankmap::cli {
namespace {

struct Row {
  std::string name;
  absl::StatusOr<core::Mapping> mapping;
  double j = 0.0;
  double seconds = 0.0;
  double predicted = 0.0;   // the model's time, with a model
  double extra = 0.0;       // the extra column, with one
  double value = INFINITY;  // what ranks the row (Measure)
};

Row RunOne(const std::string& name, const topology::Tree& tree,
           const graphs::CommGraph& graph, core::MappingOptions opts) {
  Row row{name, absl::UnknownError("not run")};
  const auto start = std::chrono::steady_clock::now();
  row.mapping = core::Map(tree, graph, opts);
  row.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (row.mapping.ok()) {
    auto cost = core::CheckedCost(tree, graph, *row.mapping, opts.imbalance);
    if (!cost.ok()) {
      row.mapping = cost.status();
    } else {
      row.j = cost->j;
    }
  }
  return row;
}

// Fills a mapped row's model time and extra column, and its ranking value:
// the extra column when it ranks, else the model's time, else J.
absl::Status Measure(Row& r, const topology::Tree& tree,
                     const graphs::CommGraph& graph, const TimeModel* model,
                     const ExtraColumn* extra) {
  if (extra != nullptr) {
    ASSIGN_OR_RETURN(r.extra, extra->value(*r.mapping));
  }
  if (model != nullptr) {
    ASSIGN_OR_RETURN(r.predicted,
                     PredictExchange(*model, tree, graph, *r.mapping));
  }
  r.value = extra != nullptr && extra->ranks ? r.extra
            : model != nullptr               ? r.predicted
                                             : r.j;
  return absl::OkStatus();
}

void PrintTable(const std::vector<Row>& rows, std::span<const size_t> order,
                size_t best, double identity_j, const TimeModel* model,
                const ExtraColumn* extra, std::ostream& out) {
  out << absl::StrFormat("%-13s %16s %12s %10s", "algorithm", "J",
                         "vs identity", "vs best");
  if (model != nullptr)
    out << absl::StrFormat(" %15s", absl::StrCat(model->name, " (s)"));
  if (extra != nullptr) out << absl::StrFormat(" %15s", extra->header);
  out << absl::StrFormat(" %9s\n", "time (s)");
  for (size_t i : order) {
    const Row& r = rows[i];
    if (!r.mapping.ok()) {
      out << absl::StrFormat("%-13s %s\n", r.name,
                             std::string(r.mapping.status().message()));
      continue;
    }
    const double vs_identity = identity_j > 0 ? r.j / identity_j : 1.0;
    const double vs_best =
        rows[best].value > 0 ? r.value / rows[best].value : 1.0;
    // The wall time stays the last column so golden tests can mask it.
    out << absl::StrFormat("%-13s %16.6g %12.3f %10.3f", r.name, r.j,
                           vs_identity, vs_best);
    if (model != nullptr) out << absl::StrFormat(" %15.6g", r.predicted);
    if (extra != nullptr) out << absl::StrFormat(" %15.6g", r.extra);
    out << absl::StrFormat(" %9.3f\n", r.seconds);
  }
}

constexpr int32_t kMpippLimit = 16384;
constexpr int64_t kScotchSlotLimit = 65536;

}  // namespace

std::string SkipReason(core::Algorithm algorithm, const topology::Tree& tree,
                       const graphs::CommGraph& graph) {
  const int32_t n = graph.num_vertices();
  if (algorithm == core::Algorithm::kMpipp && n > kMpippLimit) {
    return absl::StrCat("skipped: ", n, " processes, above its limit of ",
                        kMpippLimit, " (name it in --algorithms to run it)");
  }
  if (algorithm == core::Algorithm::kScotch) {
    int64_t slots =
        0;  // what strict balance pads to (core/baselines/scotch_map.h)
    for (core::LeafId l = 0; l < tree.num_leaves(); ++l)
      slots += std::min(tree.capacity(l), n);
    slots = std::max<int64_t>(slots, n);
    if (slots > kScotchSlotLimit) {
      return absl::StrCat("skipped: ", slots, " slots, above its limit of ",
                          kScotchSlotLimit,
                          " (name it in --algorithms to run it)");
    }
  }
  return "";
}

absl::StatusOr<std::vector<core::Algorithm>> ParseAlgorithmList(
    std::string_view list) {
  std::vector<bool> wanted(core::Algorithms().size(), false);
  bool any = false;
  for (absl::string_view name :
       absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    absl::StatusOr<core::Algorithm> a = core::ParseAlgorithm(std::string(name));
    if (!a.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--algorithms: ", a.status().message()));
    }
    for (size_t i = 0; i < wanted.size(); ++i) {
      if (core::Algorithms()[i].algorithm == *a) wanted[i] = any = true;
    }
  }
  if (!any) {
    return absl::InvalidArgumentError(
        "--algorithms: expected a comma-separated list of algorithms");
  }
  std::vector<core::Algorithm> out;
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (wanted[i]) out.push_back(core::Algorithms()[i].algorithm);
  }
  return out;
}

std::string PresentOrderLine(double identity, double fastest,
                             std::string_view fastest_name) {
  const std::string head = "the present order (identity) is ";
  const std::string name(fastest_name);
  if (name == "identity") return head + "the fastest";
  if (identity <= fastest)
    return absl::StrCat(head, "as fast as the fastest (", name, ")");
  const double percent = 100.0 * (identity / fastest - 1.0);
  if (percent < 1.0) {
    return absl::StrFormat("%swithin %.1f%% of the fastest (%s)", head, percent,
                           name);
  }
  return absl::StrFormat("%s%.1f%% slower than the fastest (%s)", head, percent,
                         name);
}

absl::Status PrintComparison(const topology::Tree& tree,
                             const graphs::CommGraph& graph,
                             const core::MappingOptions& base,
                             std::ostream& out, core::Mapping* best_mapping,
                             const TimeModel* model, ProgressLine* progress,
                             const ExtraColumn* extra,
                             std::span<const core::Algorithm> selected) {
  std::vector<Row> rows;
  std::optional<Row> identity;
  const size_t total =
      selected.empty() ? core::Algorithms().size() : selected.size();
  for (const core::AlgorithmInfo& info : core::Algorithms()) {
    const std::string name(info.name);
    if (!selected.empty() && std::find(selected.begin(), selected.end(),
                                       info.algorithm) == selected.end()) {
      continue;
    }
    const std::string skip =
        selected.empty() ? SkipReason(info.algorithm, tree, graph) : "";
    if (!skip.empty()) {
      rows.push_back({name, absl::ResourceExhaustedError(skip)});
      continue;
    }
    core::MappingOptions opts = base;
    opts.algorithm = info.algorithm;
    if (progress != nullptr) {
      progress->SetStep(
          absl::StrCat(name, ", ", rows.size() + 1, " of ", total));
      opts.progress = progress;
    }
    rows.push_back(RunOne(name, tree, graph, opts));
    Row& r = rows.back();
    if (!r.mapping.ok()) {
      const absl::StatusCode code = r.mapping.status().code();
      if (code == absl::StatusCode::kInvalidArgument ||
          (code == absl::StatusCode::kResourceExhausted && rows.size() == 1))
        return r.mapping.status();
      continue;
    }
    RETURN_IF_ERROR(Measure(r, tree, graph, model, extra));
    if (info.algorithm == core::Algorithm::kIdentity) identity = r;
  }
  const bool timed = extra != nullptr && extra->ranks;
  if (!identity.has_value()) {
    core::MappingOptions opts = base;
    opts.algorithm = core::Algorithm::kIdentity;
    Row r = RunOne("identity", tree, graph, opts);
    if (r.mapping.ok() && timed)
      RETURN_IF_ERROR(Measure(r, tree, graph, nullptr, extra));
    if (r.mapping.ok()) identity = r;
  }
  if (rows.empty()) return absl::InvalidArgumentError("compare: no algorithm");
  // Rank: by predicted or simulated time, else keep the fixed order; the best
  // row by the ranking quantity (J without either).
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (model != nullptr || timed) {
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return rows[a].value < rows[b].value;
    });
  }
  size_t best = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].value < rows[best].value) best = i;
  }
  if (best_mapping != nullptr && rows[best].mapping.ok())
    *best_mapping = *rows[best].mapping;
  PrintTable(rows, order, best, identity ? identity->j : 0.0, model, extra,
             out);
  if (timed && identity.has_value() && rows[best].mapping.ok()) {
    out << PresentOrderLine(identity->value, rows[best].value, rows[best].name)
        << "\n";
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
