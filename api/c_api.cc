#include "api/c_api.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "base/status_macros.h"
#include "core/mapper.h"
#include "core/mapping.h"
#include "core/slot_classes.h"
#include "graphs/comm_graph.h"
#include "topology/topology.h"

namespace rankmap::core {
namespace {

absl::StatusOr<graphs::CommGraph> GraphFromCsr(int32_t n, const int64_t* xadj,
                                               const int32_t* adjncy,
                                               const double* adjwgt,
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
  // estimate it, graphs/graph_readers.h).
  RETURN_IF_ERROR(base::CheckMemory(
      absl::StrCat("rankmap_map: a graph of ", n, " vertices and ", arcs,
                   " arcs (xadj[n])"),
      base::SaturatingMulAdd(arcs, 32, base::SaturatingMulAdd(n + 1, 48)),
      base::MemoryBudget()));
  graphs::CommGraphBuilder b(n);
  b.Reserve(arcs);
  for (int32_t u = 0; u < n; ++u) {
    for (int64_t a = xadj[u]; a < xadj[u + 1]; ++a) {
      // Each arc is u sending adjwgt[a] to adjncy[a]; a symmetric CSR lists
      // both directions, which the builder sums: halve so a symmetric input
      // keeps its weights.
      RETURN_IF_ERROR(b.AddEdge(u, adjncy[a], adjwgt[a] / 2.0));
    }
    if (vwgt != nullptr) RETURN_IF_ERROR(b.SetVertexWeight(u, vwgt[u]));
  }
  return std::move(b).Build();
}

absl::Status MapC(const char* topology, int32_t n, const int64_t* xadj,
                  const int32_t* adjncy, const double* adjwgt,
                  const double* vwgt, const double* process_speed,
                  const rankmap_options* options, int32_t* mapping, double* j) {
  if (topology == nullptr)
    return absl::InvalidArgumentError("rankmap_map: topology is NULL");
  if (mapping == nullptr && n > 0)
    return absl::InvalidArgumentError("rankmap_map: mapping is NULL");
  rankmap_options defaults;
  rankmap_options_init(&defaults);
  const rankmap_options& o = options != nullptr ? *options : defaults;
  ASSIGN_OR_RETURN(
      MappingOptions opts,
      MappingOptions::Preset(o.preset != nullptr ? o.preset : "default"));
  if (o.algorithm != nullptr) {
    ASSIGN_OR_RETURN(opts.algorithm, ParseAlgorithm(o.algorithm));
  }
  opts.seed = o.seed;
  opts.threads = o.threads;
  opts.imbalance = o.imbalance;
  topology::LoadOptions load;
  load.capacity = o.capacity;
  ASSIGN_OR_RETURN(topology::Tree tree, topology::LoadTopology(topology, load));
  ASSIGN_OR_RETURN(graphs::CommGraph graph,
                   GraphFromCsr(n, xadj, adjncy, adjwgt, vwgt));
  Mapping m;
  if (process_speed == nullptr) {
    ASSIGN_OR_RETURN(m, Map(tree, graph, opts));
  } else {
    ASSIGN_OR_RETURN(
        const SlotClasses classes,
        ClassesForTree(
            tree, {process_speed, static_cast<size_t>(graph.num_vertices())}));
    ASSIGN_OR_RETURN(m, Map(tree, graph, opts, classes));
  }
  std::memcpy(mapping, m.data(), sizeof(int32_t) * m.size());
  if (j != nullptr) *j = ComputeJ(tree, graph, m);
  return absl::OkStatus();
}

}  // namespace
}  // namespace rankmap::core

extern "C" {

void rankmap_options_init(rankmap_options* options) {
  options->algorithm = nullptr;
  options->preset = nullptr;
  options->seed = 1;
  options->threads = 1;
  options->capacity = 1;
  options->imbalance = rankmap::core::MappingOptions().imbalance;
}

int rankmap_map(const char* topology, int32_t n, const int64_t* xadj,
                const int32_t* adjncy, const double* adjwgt, const double* vwgt,
                const rankmap_options* options, int32_t* mapping, double* j,
                char* err, size_t errlen) {
  return rankmap_map_speeds(topology, n, xadj, adjncy, adjwgt, vwgt, nullptr,
                            options, mapping, j, err, errlen);
}

int rankmap_map_speeds(const char* topology, int32_t n, const int64_t* xadj,
                       const int32_t* adjncy, const double* adjwgt,
                       const double* vwgt, const double* process_speed,
                       const rankmap_options* options, int32_t* mapping,
                       double* j, char* err, size_t errlen) {
  // The C boundary: no exception may reach the caller's C code.
  absl::Status s;
  try {
    s = rankmap::core::MapC(topology, n, xadj, adjncy, adjwgt, vwgt,
                            process_speed, options, mapping, j);
  } catch (const std::bad_alloc&) {
    s = absl::ResourceExhaustedError("rankmap_map: out of memory");
  } catch (const std::exception& e) {
    s = absl::InternalError(
        absl::StrCat("rankmap_map: internal error: ", e.what()));
  }
  if (err != nullptr && errlen > 0) {
    const std::string message(s.message());
    std::snprintf(err, errlen, "%s", message.c_str());
  }
  return s.ok() ? 0 : 1;
}

}  // extern "C"
