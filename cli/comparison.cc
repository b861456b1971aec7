#include "cli/comparison.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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
    int64_t slots = 0;  // what strict balance pads to (core/scotch_map.h)
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

absl::Status PrintComparison(const topology::Tree& tree,
                             const graphs::CommGraph& graph,
                             const core::MappingOptions& base,
                             std::ostream& out, core::Mapping* best_mapping,
                             const TimeModel* model, ProgressLine* progress,
                             const ExtraColumn* extra,
                             std::span<const core::Algorithm> selected) {
  std::vector<Row> rows;
  std::vector<double> predicted, extra_value;
  double identity = 0.0;
  bool identity_run = false;
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
      predicted.push_back(INFINITY);
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
      predicted.push_back(INFINITY);
      continue;
    }
    if (info.algorithm == core::Algorithm::kIdentity) {
      identity = r.j;
      identity_run = true;
    }
    if (extra != nullptr) {
      absl::StatusOr<double> v = extra->value(*r.mapping);
      if (!v.ok()) return v.status();
      extra_value.resize(rows.size(), 0.0);
      extra_value.back() = *v;
    }
    if (model == nullptr) {
      predicted.push_back(r.j);
      continue;
    }
    absl::StatusOr<double> t = PredictExchange(*model, tree, graph, *r.mapping);
    if (!t.ok()) return t.status();
    predicted.push_back(*t);
  }
  if (!identity_run) {
    core::MappingOptions opts = base;
    opts.algorithm = core::Algorithm::kIdentity;
    const Row r = RunOne("identity", tree, graph, opts);
    if (r.mapping.ok()) identity = r.j;
  }
  if (rows.empty()) return absl::InvalidArgumentError("compare: no algorithm");
  // Rank: by predicted time with a model, else keep the fixed order; the best
  // row by the ranking quantity (J without a model).
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (model != nullptr) {
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return predicted[a] < predicted[b];
    });
  }
  size_t best = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (predicted[i] < predicted[best]) best = i;
  }
  if (best_mapping != nullptr && rows[best].mapping.ok())
    *best_mapping = *rows[best].mapping;
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
    const double vs_identity = identity > 0 ? r.j / identity : 1.0;
    const double vs_best =
        predicted[best] > 0 ? predicted[i] / predicted[best] : 1.0;
    // The wall time stays the last column so golden tests can mask it.
    out << absl::StrFormat("%-13s %16.6g %12.3f %10.3f", r.name, r.j,
                           vs_identity, vs_best);
    if (model != nullptr) out << absl::StrFormat(" %15.6g", predicted[i]);
    if (extra != nullptr) out << absl::StrFormat(" %15.6g", extra_value[i]);
    out << absl::StrFormat(" %9.3f\n", r.seconds);
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
