#include "core/strategies/partition_choice.h"

#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "core/baselines/scotch_map.h"
#include "core/objective/link_load.h"
#include "core/objective/time_objective.h"
#include "core/refine/partition_refine.h"
#include "core/strategies/partition_map.h"
#include "graphs/operations.h"

namespace rankmap::core {
namespace {

// A graph with message counts and a model nobody gave is its own exchange.
bool OwnCounts(const ExchangeModel& model, const graphs::CommGraph& graph) {
  return model.source == ExchangeModel::Source::kDefault &&
         graph.has_messages();
}

// Whether the candidates are ranked by time; kTime needs links.
absl::StatusOr<bool> ByTime(ObjectiveKind objective,
                            const topology::Tree& tree) {
  if (objective == ObjectiveKind::kTime && !tree.has_links()) {
    return absl::InvalidArgumentError(
        "map: the time objective needs a topology with links (n-to-1: the "
        "exchange between parts is priced on them)");
  }
  return objective != ObjectiveKind::kJ && tree.has_links();
}

// `graph` with its message counts as edge weights (same arcs).
absl::StatusOr<graphs::CommGraph> CountsAsWeights(
    const graphs::CommGraph& graph) {
  auto xadj = graph.xadj();
  auto adjncy = graph.adjncy();
  auto adjmsg = graph.adjmsg();
  return graphs::CommGraph::FromCsr(
      std::vector<graphs::ArcIndex>(xadj.begin(), xadj.end()),
      std::vector<graphs::VertexId>(adjncy.begin(), adjncy.end()),
      std::vector<double>(adjmsg.begin(), adjmsg.end()));
}

// The exchange graph and the cut it came from.
struct Exchange {
  graphs::CommGraph graph;
  double cut = 0.0;
};

absl::StatusOr<Exchange> MakeExchange(const graphs::CommGraph& graph,
                                      std::span<const int32_t> part,
                                      int32_t num_parts,
                                      const ExchangeModel& model) {
  const ExchangeModel& m = model;
  if (!(m.bytes_per_unit >= 0) || !std::isfinite(m.bytes_per_unit) ||
      !(m.messages_per_pair >= 0) || !std::isfinite(m.messages_per_pair)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "exchange model: ", m.bytes_per_unit, " bytes per unit and ",
        m.messages_per_pair, " messages per pair (must be finite and >= 0)"));
  }
  graphs::GraphContractor contractor;
  ASSIGN_OR_RETURN(graphs::CommGraph parts,
                   contractor.Contract(graph, part, num_parts));
  Exchange out;
  out.cut = parts.TotalVolume();
  auto xadj = parts.xadj();
  auto adjncy = parts.adjncy();
  auto w = parts.adjwgt();
  std::vector<double> bytes(w.begin(), w.end()), messages;
  if (OwnCounts(model, graph)) {
    ASSIGN_OR_RETURN(const graphs::CommGraph counts, CountsAsWeights(graph));
    ASSIGN_OR_RETURN(const graphs::CommGraph summed,
                     contractor.Contract(counts, part, num_parts));
    messages.assign(summed.adjwgt().begin(), summed.adjwgt().end());
  } else {
    // Both directions: the graph convention (core/objective/link_load.h).
    for (double& b : bytes) b *= 2.0 * model.bytes_per_unit;
    messages.assign(bytes.size(), 2.0 * model.messages_per_pair);
  }
  ASSIGN_OR_RETURN(
      out.graph, graphs::CommGraph::FromCsr(
                     {xadj.begin(), xadj.end()}, {adjncy.begin(), adjncy.end()},
                     std::move(bytes), {}, std::move(messages)));
  return out;
}

// Prices exchange graphs on one tree (the time trees made once).
class Pricer {
 public:
  static absl::StatusOr<Pricer> For(const topology::Tree& tree,
                                    const MappingOptions& options) {
    Pricer p(tree, options);
    ASSIGN_OR_RETURN(const bool by_time, ByTime(options.objective, tree));
    if (by_time) {
      ASSIGN_OR_RETURN(TimeTrees t, MakeTimeTrees(tree));
      p.time_.emplace(std::move(t));
    }
    p.identity_.resize(tree.num_leaves());
    std::iota(p.identity_.begin(), p.identity_.end(), 0);
    return p;
  }

  bool by_time() const { return time_.has_value(); }

  absl::StatusOr<ExchangePrediction> Predict(const graphs::CommGraph& graph,
                                             const Mapping& mapping) const {
    ASSIGN_OR_RETURN(
        const Exchange ex,
        MakeExchange(graph, mapping, tree_.num_leaves(), options_.exchange));
    ExchangePrediction p;
    const LinkLoad load = EstimateLinkLoad(tree_, ex.graph, identity_);
    p.seconds = load.seconds;
    p.busiest = load.busiest;
    p.latency = load.latency;
    p.cost = time_ ? TimeCost(*time_, ex.graph, identity_)
                   : ComputeJ(tree_, ex.graph, identity_);
    p.cut = ex.cut;
    p.pairs = ex.graph.num_edges();
    p.bytes = ex.graph.TotalVolume();
    p.messages = ex.graph.TotalMessages();
    return p;
  }

  // a ranks before b: the estimate, then the cost (J alone under J).
  bool Before(const ExchangePrediction& a, const ExchangePrediction& b) const {
    if (time_ && a.seconds != b.seconds) return a.seconds < b.seconds;
    return a.cost < b.cost;
  }

  // Whether `best` replaces the status quo (the top of the header).
  bool Replaces(const ExchangePrediction& best,
                const ExchangePrediction& status_quo) const {
    if (!time_) return best.cost < status_quo.cost;
    const double keep = 1.0 - options_.keep_margin;
    return best.seconds <= status_quo.seconds &&
           (best.seconds < keep * status_quo.seconds ||
            best.cost < keep * status_quo.cost);
  }

 private:
  Pricer(const topology::Tree& tree, const MappingOptions& options)
      : tree_(tree), options_(options) {}
  const topology::Tree& tree_;
  const MappingOptions& options_;
  std::optional<TimeTrees> time_;
  Mapping identity_;
};

// The flat tree of the status quo: one root over one leaf per part, of
// capacity 1 when the parts are placed (options.present), of the leaves'
// capacities otherwise.
absl::StatusOr<topology::Tree> FlatTree(const topology::Tree& tree,
                                        const std::vector<int32_t>& placed) {
  topology::TreeBuilder b;
  const NodeId root = b.AddRoot("machine", 1.0);
  const int64_t parts =
      placed.empty() ? tree.num_leaves() : static_cast<int64_t>(placed.size());
  for (int64_t p = 0; p < parts; ++p) {
    const NodeId leaf = b.AddChild(root, "part", 0.0);
    b.SetCapacity(leaf,
                  placed.empty() ? static_cast<int32_t>(tree.Capacity(p)) : 1);
  }
  return std::move(b).Build();
}

// OK when `placed` puts capacity(l) parts on every leaf l.
absl::Status CheckPlacedParts(const topology::Tree& tree,
                              const std::vector<int32_t>& placed) {
  std::vector<int64_t> count(tree.num_leaves(), 0);
  for (size_t p = 0; p < placed.size(); ++p) {
    if (placed[p] < 0 || placed[p] >= tree.num_leaves()) {
      return absl::InvalidArgumentError(
          absl::StrCat("status quo: part ", p, " on leaf ", placed[p],
                       " of a tree of ", tree.num_leaves(), " leaves"));
    }
    ++count[placed[p]];
  }
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    if (count[l] != tree.Capacity(l)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "status quo: ", count[l], " parts on leaf ", l, " of capacity ",
          tree.Capacity(l), " (one part a slot)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string DescribeExchange(const ExchangeModel& model,
                             const graphs::CommGraph& graph) {
  if (OwnCounts(model, graph)) {
    return "the graph's own bytes and message counts, summed between parts "
           "(default)";
  }
  std::string s = absl::StrFormat(
      "%.6g B per unit of edge weight and %.6g message%s per neighbouring "
      "pair, each way (%s",
      model.bytes_per_unit, model.messages_per_pair,
      model.messages_per_pair == 1 ? "" : "s",
      ExchangeSourceName(model.source));
  if (!model.origin.empty()) absl::StrAppend(&s, " from ", model.origin);
  return s + ")";
}

absl::StatusOr<graphs::CommGraph> ExchangeGraph(const topology::Tree& tree,
                                                const graphs::CommGraph& graph,
                                                const Mapping& mapping,
                                                const ExchangeModel& model) {
  return PartsExchangeGraph(graph, mapping, tree.num_leaves(), model);
}

absl::StatusOr<graphs::CommGraph> PartsExchangeGraph(
    const graphs::CommGraph& graph, std::span<const int32_t> part,
    int32_t num_parts, const ExchangeModel& model) {
  ASSIGN_OR_RETURN(Exchange ex, MakeExchange(graph, part, num_parts, model));
  return std::move(ex.graph);
}

absl::StatusOr<ExchangePrediction> PredictExchange(
    const topology::Tree& tree, const graphs::CommGraph& graph,
    const Mapping& mapping, const MappingOptions& options) {
  ASSIGN_OR_RETURN(const Pricer pricer, Pricer::For(tree, options));
  return pricer.Predict(graph, mapping);
}

absl::StatusOr<Mapping> StatusQuoPartition(const topology::Tree& tree,
                                           const graphs::CommGraph& graph,
                                           const MappingOptions& options) {
  const std::vector<int32_t>& placed = options.present;
  if (!placed.empty()) RETURN_IF_ERROR(CheckPlacedParts(tree, placed));
  ASSIGN_OR_RETURN(const topology::Tree flat, FlatTree(tree, placed));
  // Scotch onto the complete graph, as the partitioners users run call it.
  // Over the bound (Scotch's balance is looser than its -b at thousands of
  // parts), vertices leave the parts over it, least loss first
  // (RepairLeafLoads): the partition stays the one the user has. Where Scotch fails or the repair cannot meet the bound, the
  // engine's partition of the flat tree (its progress the caller's "status
  // quo" phase, not the engine's): four multisections, minutes at thousands
  // of parts, so never where a repair does.
  absl::StatusOr<Mapping> m =
      ScotchPartitionMap(flat, graph, options.imbalance, options.seed);
  if (m.ok() &&
      !ValidatePartitionMapping(flat, graph, *m, options.imbalance).ok()) {
    RepairLeafLoads(flat, graph,
                    PartitionLoadBounds(flat, graph, options.imbalance), &*m);
  }
  if (!m.ok() ||
      !ValidatePartitionMapping(flat, graph, *m, options.imbalance).ok()) {
    MappingOptions o = options;
    o.progress = nullptr;
    ASSIGN_OR_RETURN(m, PartitionMap(flat, graph, o));
  }
  // Part p on leaf present[p], or leaf p of the flat tree on leaf p.
  if (!placed.empty()) {
    for (LeafId& l : *m) l = placed[l];
  }
  return m;
}

absl::StatusOr<Mapping> ChooseAmong(const topology::Tree& tree,
                                    const graphs::CommGraph& graph,
                                    const MappingOptions& options,
                                    Mapping status_quo,
                                    std::vector<NamedPartition> others,
                                    PartitionReport* report) {
  ASSIGN_OR_RETURN(const Pricer pricer, Pricer::For(tree, options));
  PartitionReport r;
  r.weighed = true;
  r.objective = pricer.by_time() ? "time" : "J";
  r.model = DescribeExchange(options.exchange, graph);
  if (!tree.has_links()) {
    r.note =
        "the topology has no links: the exchange's bytes priced by J, "
        "messages not priced";
  } else if (!pricer.by_time()) {
    r.note = "objective J: the exchange's bytes priced by J";
  }
  ASSIGN_OR_RETURN(r.status_quo, pricer.Predict(graph, status_quo));
  r.candidates.push_back({"status quo", r.status_quo});
  int best = -1;
  for (size_t i = 0; i < others.size(); ++i) {
    ASSIGN_OR_RETURN(const ExchangePrediction p,
                     pricer.Predict(graph, others[i].mapping));
    r.candidates.push_back({others[i].name, p});
    if (best < 0 || pricer.Before(p, r.candidates[best + 1].prediction))
      best = static_cast<int>(i);
  }
  Mapping chosen = std::move(status_quo);
  r.winner = "status quo";
  r.chosen = r.status_quo;
  if (best >= 0 &&
      pricer.Replaces(r.candidates[best + 1].prediction, r.status_quo)) {
    chosen = std::move(others[best].mapping);
    r.winner = others[best].name;
    r.chosen = r.candidates[best + 1].prediction;
  }
  if (report != nullptr) *report = std::move(r);
  return chosen;
}

absl::StatusOr<Mapping> ChoosePartition(const topology::Tree& tree,
                                        const graphs::CommGraph& graph,
                                        const MappingOptions& options,
                                        Mapping found) {
  // The objective is checked before the status quo is partitioned.
  RETURN_IF_ERROR(ByTime(options.objective, tree).status());
  ReportProgress(options.progress, "status quo", 0);
  ASSIGN_OR_RETURN(Mapping status_quo,
                   StatusQuoPartition(tree, graph, options));
  ReportProgress(options.progress, "status quo", 1);
  std::vector<NamedPartition> others;
  others.push_back({"machine-aware", std::move(found)});
  if (options.scotch_candidate) {
    ReportProgress(options.progress, "scotch candidate", 0);
    absl::StatusOr<Mapping> scotch =
        ScotchPartitionMap(tree, graph, options.imbalance, options.seed);
    ReportProgress(options.progress, "scotch candidate", 1);
    if (scotch.ok() &&
        ValidatePartitionMapping(tree, graph, *scotch, options.imbalance)
            .ok()) {
      others.push_back({"scotch", *std::move(scotch)});
    }
  }
  ReportProgress(options.progress, "prediction", 0);
  absl::StatusOr<Mapping> chosen =
      ChooseAmong(tree, graph, options, std::move(status_quo),
                  std::move(others), options.partition_report);
  ReportProgress(options.progress, "prediction", 1);
  return chosen;
}

}  // namespace rankmap::core
