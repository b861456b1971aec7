#include "core/split/metis_split.h"

#include <metis.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/split/integer_weights.h"

namespace rankmap::core {
namespace {

static_assert(sizeof(idx_t) == 4,
              "rankmap expects Debian's 32-bit METIS idx_t");
static_assert(sizeof(real_t) == sizeof(float),
              "rankmap expects Debian's single-precision METIS real_t");

// Subgraphs above kHugeSubgraph vertices, and all splits of graphs above
// kHugeGraph vertices, get a single METIS attempt.
constexpr int32_t kHugeSubgraph = 200000;
constexpr int32_t kHugeGraph = 500000;
// One-to-one: graphs up to this many vertices get 8 METIS attempts at the
// root, larger ones 4.
constexpr int32_t kManyRootCuts = 2048;

}  // namespace

double MetisGraph::Cut(std::span<const int32_t> part) const {
  double cut = 0.0;
  for (int32_t i = 0; i < num_vertices(); ++i) {
    for (int32_t e = xadj[i]; e < xadj[i + 1]; ++e) {
      if (part[i] != part[adjncy[e]]) cut += arc_weight[e];
    }
  }
  return cut;
}

MetisGraph ToMetisGraph(const graphs::CommGraph& g, bool vertex_weights) {
  MetisGraph m;
  const int32_t n = g.num_vertices();
  m.xadj.assign(n + 1, 0);
  for (int32_t i = 0; i < n; ++i) {
    auto nbrs = g.neighbors(i);
    auto wgts = g.weights(i);
    for (size_t e = 0; e < nbrs.size(); ++e) {
      if (wgts[e] <= 0) continue;
      m.adjncy.push_back(nbrs[e]);
      m.arc_weight.push_back(wgts[e]);
    }
    m.xadj[i + 1] = static_cast<int32_t>(m.adjncy.size());
  }
  m.metis_arc_weight = ScaleToMetisWeights(m.arc_weight);
  m.vertex_weight.assign(n, 1.0);
  if (vertex_weights) {
    for (int32_t i = 0; i < n; ++i) m.vertex_weight[i] = g.vertex_weight(i);
    if (g.has_vertex_weights())
      m.metis_vertex_weight = IntegerVertexWeights(m.vertex_weight, 0);
  }
  return m;
}

MetisAttempts SplitAttempts(bool n_to_1, bool at_root, int32_t subgraph_size,
                            int32_t graph_size, int32_t parts,
                            int32_t metis_effort) {
  MetisAttempts a;
  if (metis_effort <= 0) {
    // The least effort: one recursive bisection per split, two at the root.
    a.ncuts = at_root ? 2 : 1;
    return a;
  }
  const bool huge = subgraph_size > kHugeSubgraph || graph_size > kHugeGraph;
  const int32_t base = n_to_1 ? 2 : 1;
  const int32_t tries = huge ? 1 : metis_effort * base;
  const int32_t root_tries = n_to_1 || graph_size <= kManyRootCuts
                                 ? 8 / base * tries
                                 : 4 / base * tries;
  a.ncuts = at_root && !huge ? root_tries : tries;
  const bool both = n_to_1 || metis_effort >= 2;
  a.first_method = huge && parts > 8 ? 1 : 0;
  a.last_method = huge ? (parts <= 8 ? 1 : 2) : (both ? 2 : 1);
  return a;
}

absl::Status MetisPartition(const MetisGraph& g,
                            std::span<const double> targets, double ub,
                            MetisMethod method, int32_t ncuts, uint64_t seed,
                            std::vector<int32_t>* part) {
  const int32_t k = static_cast<int32_t>(targets.size());
  idx_t nvtxs = g.num_vertices(), ncon = 1, nparts = k, objval = 0;
  std::vector<real_t> tpwgts(k);
  double total = 0.0;
  for (double x : targets) total += x;
  for (int32_t p = 0; p < k; ++p)
    tpwgts[p] = static_cast<real_t>(targets[p] / total);
  // METIS wants the targets to sum to 1 within its tolerance; fold float
  // rounding into the largest part.
  real_t sum = 0;
  for (real_t x : tpwgts) sum += x;
  *std::max_element(tpwgts.begin(), tpwgts.end()) += 1.0f - sum;
  real_t ubvec = static_cast<real_t>(ub);
  idx_t opts[METIS_NOPTIONS];
  METIS_SetDefaultOptions(opts);
  opts[METIS_OPTION_SEED] = static_cast<idx_t>(seed);
  opts[METIS_OPTION_NUMBERING] = 0;
  opts[METIS_OPTION_NCUTS] = ncuts;
  part->assign(nvtxs, 0);
  // METIS takes non-const pointers to arrays it does not modify.
  idx_t* xadj = const_cast<idx_t*>(g.xadj.data());
  idx_t* adjncy = const_cast<idx_t*>(g.adjncy.data());
  idx_t* adjwgt = const_cast<idx_t*>(g.metis_arc_weight.data());
  idx_t* vwgt = g.metis_vertex_weight.empty()
                    ? nullptr
                    : const_cast<idx_t*>(g.metis_vertex_weight.data());
  const int rc =
      method == MetisMethod::kRecursive
          ? METIS_PartGraphRecursive(&nvtxs, &ncon, xadj, adjncy, vwgt, nullptr,
                                     adjwgt, &nparts, tpwgts.data(), &ubvec,
                                     opts, &objval, part->data())
          : METIS_PartGraphKway(&nvtxs, &ncon, xadj, adjncy, vwgt, nullptr,
                                adjwgt, &nparts, tpwgts.data(), &ubvec, opts,
                                &objval, part->data());
  if (rc != METIS_OK) {
    return absl::InternalError(absl::StrCat("METIS failed with code ", rc,
                                            " splitting ", nvtxs,
                                            " vertices into ", k, " parts"));
  }
  for (int32_t& p : *part) p = std::clamp<int32_t>(p, 0, k - 1);
  return absl::OkStatus();
}

}  // namespace rankmap::core
