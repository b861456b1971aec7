#include "api/c_api.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "api/load_topology.h"
#include "api/map_outcome.h"
#include "api/named_options.h"
#include "api/partition.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "core/mapping.h"
#include "core/slot_classes.h"
#include "graphs/comm_graph.h"

namespace rankmap::api {
namespace {

absl::StatusOr<graphs::CommGraph> GraphFromCsr(int32_t n, const int64_t* xadj,
                                               const int32_t* adjncy,
                                               const double* adjwgt,
                                               const double* adjmsg,
                                               const double* vwgt) {
  if (n < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("rankmap_map: n = ", n, " < 0"));
  if (n > 0 && xadj == nullptr)
    return absl::InvalidArgumentError("rankmap_map: xadj is NULL");
  // xadj is checked whole before its last entry sizes anything.
  if (n > 0 && xadj[0] != 0)
    return absl::InvalidArgumentError("rankmap_map: xadj[0] must be 0");
  for (int32_t u = 0; u < n; ++u) {
    if (xadj[u + 1] < xadj[u]) {
      return absl::InvalidArgumentError(
          absl::StrCat("rankmap_map: xadj decreases at vertex ", u));
    }
  }
  const int64_t arcs = n > 0 ? xadj[n] : 0;
  if (arcs > 0 && (adjncy == nullptr || adjwgt == nullptr))
    return absl::InvalidArgumentError("rankmap_map: adjncy or adjwgt is NULL");
  // The builder's memory: 48 bytes per vertex, 32 per arc (as the readers
  // estimate it, graphs/graph_readers.h), 8 more per arc with messages.
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat("rankmap_map: a graph of ", n, " vertices and ", arcs,
                   " arcs (xadj[n])"),
      base::SaturatingMulAdd(arcs, adjmsg != nullptr ? 40 : 32,
                             base::SaturatingMulAdd(n + 1, 48)),
      base::MemoryBudget()));
  graphs::CommGraphBuilder b(n);
  b.Reserve(arcs);
  for (int32_t u = 0; u < n; ++u) {
    for (int64_t a = xadj[u]; a < xadj[u + 1]; ++a) {
      // Each arc is u sending adjwgt[a] to adjncy[a]; a symmetric CSR lists
      // both directions, which the builder sums: halve so a symmetric input
      // keeps its weights (and its message counts).
      if (adjmsg == nullptr) {
        RETURN_IF_ERROR(b.AddEdge(u, adjncy[a], adjwgt[a] / 2.0));
      } else {
        RETURN_IF_ERROR(
            b.AddTraffic(u, adjncy[a], adjwgt[a] / 2.0, adjmsg[a] / 2.0));
      }
    }
    if (vwgt != nullptr) RETURN_IF_ERROR(b.SetVertexWeight(u, vwgt[u]));
  }
  return std::move(b).Build();
}

// The C structs by name, through the front door every interface shares.
absl::StatusOr<core::MappingOptions> OptionsOf(const rankmap_options* options,
                                               const rankmap_choice* choice,
                                               int32_t n) {
  rankmap_options defaults;
  rankmap_options_init(&defaults);
  const rankmap_options& o = options != nullptr ? *options : defaults;
  rankmap_choice no_choice;
  rankmap_choice_init(&no_choice);
  const rankmap_choice& c = choice != nullptr ? *choice : no_choice;
  NamedOptions names;
  if (o.preset != nullptr) names.preset = o.preset;
  if (o.algorithm != nullptr) names.algorithm = o.algorithm;
  if (c.objective != nullptr) names.objective = c.objective;
  names.keep_margin = c.keep_margin;
  if (c.present != nullptr && n > 0)
    names.present.assign(c.present, c.present + n);
  names.seed = o.seed;
  names.threads = o.threads;
  names.imbalance = o.imbalance;
  return ResolveOptions(names);
}

void FillReport(const core::MapReport& r, rankmap_report* out) {
  *out = rankmap_report{};
  const PresentVerdict verdict = VerdictOf(r);
  out->verdict = static_cast<int32_t>(verdict);
  std::snprintf(out->verdict_name, sizeof out->verdict_name, "%s",
                std::string(VerdictName(verdict)).c_str());
  if (r.weighed) {
    std::snprintf(out->objective, sizeof out->objective, "%s",
                  r.objective.c_str());
  }
  out->present_cost = r.present_cost;
  out->present_estimate = r.present_estimate;
  out->best_cost = r.best_cost;
  out->best_estimate = r.best_estimate;
  out->chosen_cost = r.chosen_cost;
  out->chosen_estimate = r.chosen_estimate;
  out->moved = r.moved;
}

struct CRequest {
  const char* topology;
  int32_t n;
  const int64_t* xadj;
  const int32_t* adjncy;
  const double* adjwgt;
  const double* adjmsg;
  const double* vwgt;
  const double* process_speed;
  const rankmap_options* options;
  const rankmap_choice* choice;
};

absl::Status MapC(const CRequest& r, int32_t* mapping, double* j,
                  rankmap_report* report) {
  if (r.topology == nullptr)
    return absl::InvalidArgumentError("rankmap_map: topology is NULL");
  if (mapping == nullptr && r.n > 0)
    return absl::InvalidArgumentError("rankmap_map: mapping is NULL");
  ASSIGN_OR_RETURN(const core::MappingOptions opts,
                   OptionsOf(r.options, r.choice, r.n));
  TopologySpec spec;
  spec.description = r.topology;
  spec.slots_per_leaf = r.options != nullptr ? r.options->capacity : 1;
  ASSIGN_OR_RETURN(const topology::Tree tree, LoadTopology(spec));
  ASSIGN_OR_RETURN(
      const graphs::CommGraph graph,
      GraphFromCsr(r.n, r.xadj, r.adjncy, r.adjwgt, r.adjmsg, r.vwgt));
  std::optional<core::SlotClasses> classes;
  if (r.process_speed != nullptr) {
    ASSIGN_OR_RETURN(classes,
                     core::ClassesForTree(
                         tree, {r.process_speed,
                                static_cast<size_t>(graph.num_vertices())}));
  }
  ASSIGN_OR_RETURN(
      const MapOutcome out,
      MapChecked(tree, graph, opts, classes ? &*classes : nullptr));
  std::memcpy(mapping, out.mapping.data(),
              sizeof(int32_t) * out.mapping.size());
  if (j != nullptr) *j = out.cost.j;
  if (report != nullptr) FillReport(out.report, report);
  return absl::OkStatus();
}

core::ExchangeModel ModelOf(const rankmap_exchange& e) {
  core::ExchangeModel m;
  if (e.bytes_per_unit >= 0 || e.messages_per_pair >= 0)
    m.source = core::ExchangeModel::Source::kGiven;
  if (e.bytes_per_unit >= 0) m.bytes_per_unit = e.bytes_per_unit;
  if (e.messages_per_pair >= 0) m.messages_per_pair = e.messages_per_pair;
  return m;
}

void Copy(absl::string_view from, char* to, size_t size) {
  std::snprintf(to, size, "%s", std::string(from).c_str());
}

void FillPartitionReport(const PartitionOutcome& out,
                         rankmap_partition_report* r) {
  *r = rankmap_partition_report{};
  const core::PartitionReport& c = out.choice;
  r->weighed = c.weighed ? 1 : 0;
  Copy(c.objective, r->objective, sizeof r->objective);
  Copy(c.winner, r->winner, sizeof r->winner);
  Copy(c.model, r->model, sizeof r->model);
  Copy(c.note, r->note, sizeof r->note);
  r->status_quo_seconds = c.status_quo.seconds;
  r->chosen_seconds = c.chosen.seconds;
  r->status_quo_cost = c.status_quo.cost;
  r->chosen_cost = c.chosen.cost;
  r->status_quo_pairs = c.status_quo.pairs;
  r->chosen_pairs = c.chosen.pairs;
  r->j = out.cost.j;
  r->imbalance = out.imbalance;
}

struct CPartition {
  const char* topology;
  int32_t n;
  const int64_t* xadj;
  const int32_t* adjncy;
  const double* adjwgt;
  const double* vwgt;
  const rankmap_options* options;
  const rankmap_choice* choice;
  const rankmap_exchange* exchange;
};

absl::Status PartitionC(const CPartition& r, int32_t* part,
                        rankmap_partition_report* report) {
  if (r.topology == nullptr)
    return absl::InvalidArgumentError("rankmap_partition: topology is NULL");
  if (part == nullptr && r.n > 0)
    return absl::InvalidArgumentError("rankmap_partition: part is NULL");
  rankmap_choice choice;
  rankmap_choice_init(&choice);
  if (r.choice != nullptr) {
    choice.objective = r.choice->objective;
    choice.keep_margin = r.choice->keep_margin;
  }
  ASSIGN_OR_RETURN(core::MappingOptions opts,
                   OptionsOf(r.options, &choice, r.n));
  TopologySpec spec;
  spec.description = r.topology;
  spec.slots_per_leaf = r.options != nullptr ? r.options->capacity : 1;
  ASSIGN_OR_RETURN(const topology::Tree tree, LoadTopology(spec));
  ASSIGN_OR_RETURN(
      const graphs::CommGraph graph,
      GraphFromCsr(r.n, r.xadj, r.adjncy, r.adjwgt, nullptr, r.vwgt));
  rankmap_exchange exchange;
  rankmap_exchange_init(&exchange);
  if (r.exchange != nullptr) exchange = *r.exchange;
  if (exchange.profile != nullptr) {
    if (exchange.profile_partition == nullptr) {
      return absl::InvalidArgumentError(
          "rankmap_partition: a profile needs profile_partition (the rank of "
          "each vertex in the profiled run)");
    }
    ASSIGN_OR_RETURN(opts.exchange,
                     FitExchangeModelFromFiles(graph, exchange.profile,
                                               exchange.profile_partition,
                                               exchange.profile_exchanges));
  } else {
    opts.exchange = ModelOf(exchange);
  }
  ASSIGN_OR_RETURN(const PartitionOutcome out, Partition(tree, graph, opts));
  std::memcpy(part, out.mapping.data(), sizeof(int32_t) * out.mapping.size());
  if (report != nullptr) FillPartitionReport(out, report);
  return absl::OkStatus();
}

// The C boundary: no exception may reach the caller's C code; the message
// goes to err.
template <typename F>
int AtCBoundary(const char* who, char* err, size_t errlen, F call) {
  absl::Status s;
  try {
    s = call();
  } catch (const std::bad_alloc&) {
    s = absl::ResourceExhaustedError(absl::StrCat(who, ": out of memory"));
  } catch (const std::exception& e) {
    s = absl::InternalError(absl::StrCat(who, ": internal error: ", e.what()));
  }
  if (err != nullptr && errlen > 0) Copy(s.message(), err, errlen);
  return s.ok() ? 0 : 1;
}

}  // namespace
}  // namespace rankmap::api

extern "C" {

void rankmap_options_init(rankmap_options* options) {
  options->algorithm = nullptr;
  options->preset = nullptr;
  options->seed = 1;
  options->threads = 1;
  options->capacity = 1;
  options->imbalance = rankmap::core::MappingOptions().imbalance;
}

void rankmap_choice_init(rankmap_choice* choice) {
  choice->objective = nullptr;
  choice->present = nullptr;
  choice->keep_margin = rankmap::core::MappingOptions().keep_margin;
}

int rankmap_map(const char* topology, int32_t n, const int64_t* xadj,
                const int32_t* adjncy, const double* adjwgt, const double* vwgt,
                const rankmap_options* options, int32_t* mapping, double* j,
                char* err, size_t errlen) {
  return rankmap_map_traffic(topology, n, xadj, adjncy, adjwgt, nullptr, vwgt,
                             nullptr, options, nullptr, mapping, j, nullptr,
                             err, errlen);
}

int rankmap_map_speeds(const char* topology, int32_t n, const int64_t* xadj,
                       const int32_t* adjncy, const double* adjwgt,
                       const double* vwgt, const double* process_speed,
                       const rankmap_options* options, int32_t* mapping,
                       double* j, char* err, size_t errlen) {
  return rankmap_map_traffic(topology, n, xadj, adjncy, adjwgt, nullptr, vwgt,
                             process_speed, options, nullptr, mapping, j,
                             nullptr, err, errlen);
}

int rankmap_map_traffic(const char* topology, int32_t n, const int64_t* xadj,
                        const int32_t* adjncy, const double* adjwgt,
                        const double* adjmsg, const double* vwgt,
                        const double* process_speed,
                        const rankmap_options* options,
                        const rankmap_choice* choice, int32_t* mapping,
                        double* j, rankmap_report* report, char* err,
                        size_t errlen) {
  const rankmap::api::CRequest request = {topology, n,      xadj, adjncy,
                                          adjwgt,   adjmsg, vwgt, process_speed,
                                          options,  choice};
  return rankmap::api::AtCBoundary("rankmap_map", err, errlen, [&] {
    return rankmap::api::MapC(request, mapping, j, report);
  });
}

void rankmap_exchange_init(rankmap_exchange* exchange) {
  exchange->bytes_per_unit = -1;
  exchange->messages_per_pair = -1;
  exchange->profile = nullptr;
  exchange->profile_partition = nullptr;
  exchange->profile_exchanges = 1;
}

int rankmap_partition(const char* topology, int32_t n, const int64_t* xadj,
                      const int32_t* adjncy, const double* adjwgt,
                      const double* vwgt, const rankmap_options* options,
                      const rankmap_choice* choice,
                      const rankmap_exchange* exchange, int32_t* part,
                      rankmap_partition_report* report, char* err,
                      size_t errlen) {
  const rankmap::api::CPartition request = {
      topology, n, xadj, adjncy, adjwgt, vwgt, options, choice, exchange};
  return rankmap::api::AtCBoundary("rankmap_partition", err, errlen, [&] {
    return rankmap::api::PartitionC(request, part, report);
  });
}

}  // extern "C"
