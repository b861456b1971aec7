#include "core/baselines/scotch_map.h"

// Scotch's header needs FILE from stdio.h first.
#include <scotch/scotch.h>
#include <stdio.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "core/split/integer_weights.h"
#include "core/split/tree_walk.h"
#include "graphs/operations.h"

namespace rankmap::core {
namespace {

using graphs::CommGraph;
using graphs::VertexId;
using topology::Tree;

static_assert(sizeof(SCOTCH_Num) == 4,
              "rankmap expects Debian's 32-bit SCOTCH_Num");

// Memory of one padded slot in a strict-balance run (our arrays and Scotch's
// graph, measured about 100 bytes a vertex).
constexpr int64_t kScotchBytesPerSlot = 160;

// RAII owners for the three Scotch objects.
struct ScotchGraph {
  SCOTCH_Graph g;
  ScotchGraph() { SCOTCH_graphInit(&g); }
  ~ScotchGraph() { SCOTCH_graphExit(&g); }
};
struct ScotchArch {
  SCOTCH_Arch a;
  ScotchArch() { SCOTCH_archInit(&a); }
  ~ScotchArch() { SCOTCH_archExit(&a); }
};
struct ScotchContext {
  SCOTCH_Context c;
  ScotchContext() { SCOTCH_contextInit(&c); }
  ~ScotchContext() { SCOTCH_contextExit(&c); }
};
struct ScotchStrat {
  SCOTCH_Strat s;
  ScotchStrat() { SCOTCH_stratInit(&s); }
  ~ScotchStrat() { SCOTCH_stratExit(&s); }
};

absl::Status Fail(const char* call, int rc) {
  return absl::InternalError(
      absl::StrCat("scotch: ", call, " failed (code ", rc, ")"));
}

// Cost of a node as Scotch sees it: pair matrices are replaced by their
// off-diagonal mean.
double NodeCost(const Tree& tree, NodeId n) {
  if (tree.is_leaf(n)) return 0.0;
  if (!tree.has_pair_costs(n)) return tree.cost(n);
  const int32_t k = tree.num_children(n);
  if (k < 2) return 0.0;
  double sum = 0.0;
  for (int32_t i = 0; i < k; ++i) {
    for (int32_t j = 0; j < k; ++j) {
      if (i != j) sum += tree.pair_cost(n, i, j);
    }
  }
  return sum / (static_cast<double>(k) * (k - 1));
}

// Integer costs: kept when integral and <= 2^20, else scaled so the largest is
// 2^16.
std::vector<int64_t> IntegerCosts(const std::vector<double>& c) {
  double max_c = 0.0;
  bool integral = true;
  for (double x : c) {
    max_c = std::max(max_c, x);
    integral = integral && x == std::floor(x);
  }
  const double scale = (integral && max_c <= (1 << 20))
                           ? 1.0
                           : (max_c > 0 ? 65536.0 / max_c : 1.0);
  std::vector<int64_t> out(c.size());
  for (size_t i = 0; i < c.size(); ++i) out[i] = std::llround(c[i] * scale);
  return out;
}

// The target architecture and how its terminal domains map back to leaves.
struct Target {
  ScotchArch arch;
  bool tleaf = false;
  int32_t group = 1;         // tleaf: terminals per leaf (the capacity level)
  int64_t max_distance = 1;  // largest distance between two terminals (integer)
  int64_t slots = 0;         // terminals counted with capacity
};

absl::Status BuildTarget(const Tree& tree, Target* t) {
  const int32_t cap0 = tree.capacity(0);
  bool uniform = cap0 > 0;
  bool pair = false;
  for (LeafId l = 0; l < tree.num_leaves(); ++l)
    uniform = uniform && tree.capacity(l) == cap0;
  for (NodeId n = tree.num_leaves(); n < tree.num_nodes(); ++n)
    pair = pair || tree.has_pair_costs(n);
  t->slots = tree.Capacity(tree.root());
  // Per-depth costs when the tree is balanced and every node of a depth costs
  // the same.
  std::vector<double> level_cost;
  bool levels = uniform && !pair && tree.Balanced();
  if (levels) {
    level_cost.assign(tree.height() + 1, -1.0);
    for (NodeId n = 0; n < tree.num_nodes(); ++n) {
      double& c = level_cost[tree.depth(n)];
      const double x = tree.is_leaf(n) ? 0.0 : tree.cost(n);
      if (c < 0) c = x;
      levels = levels && c == x;
    }
  }
  if (levels) {
    const std::vector<int32_t> ar = tree.Arities();
    std::vector<double> link(ar.size());
    for (size_t i = 0; i < ar.size(); ++i) {
      link[i] = level_cost[i] - level_cost[i + 1];
      if (link[i] < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "scotch: level costs must not grow towards the leaves (depth ", i,
            ")"));
      }
    }
    std::vector<int64_t> ilink = IntegerCosts(link);
    std::vector<SCOTCH_Num> size(ar.begin(), ar.end()),
        linkv(ilink.begin(), ilink.end());
    if (cap0 > 1) {
      // Co-located processes: a bottom level of the capacity's arity at link
      // cost 0.
      size.push_back(cap0);
      linkv.push_back(0);
      t->group = cap0;
    }
    t->max_distance = std::max<int64_t>(
        1, std::accumulate(ilink.begin(), ilink.end(), int64_t{0}));
    t->tleaf = true;
    const int rc =
        SCOTCH_archTleaf(&t->arch.a, static_cast<SCOTCH_Num>(size.size()),
                         size.data(), linkv.data());
    return rc == 0 ? absl::OkStatus() : Fail("SCOTCH_archTleaf", rc);
  }
  return absl::OkStatus();  // not a tleaf: the caller maps top-down
}

// SCOTCH_graphMap of `sub` (a subgraph, or the whole graph) plus `pad`
// isolated unit vertices onto `arch`; returns the terminal of every vertex of
// `sub`.
absl::StatusOr<std::vector<SCOTCH_Num>> MapSubgraph(
    const CommGraph& sub, int64_t pad, bool weighted, int64_t max_distance,
    double imbalance, uint64_t seed, const SCOTCH_Arch* arch) {
  const int64_t n = sub.num_vertices();
  const int64_t total = n + pad;
  std::vector<SCOTCH_Num> verttab(total + 1, 0);
  std::vector<SCOTCH_Num> edgetab(sub.adjncy().begin(), sub.adjncy().end());
  const std::span<const double> raw = sub.adjwgt();
  for (int64_t i = 0; i < n; ++i)
    verttab[i + 1] = static_cast<SCOTCH_Num>(sub.xadj()[i + 1]);
  for (int64_t i = n + 1; i <= total; ++i) verttab[i] = verttab[n];
  // Scotch integer edge loads: integral weights kept when the largest
  // communication load (sum of loads times the largest distance) fits 2^30,
  // else scaled into that budget.
  const double budget =
      static_cast<double>(1 << 30) / static_cast<double>(max_distance);
  double sum = 0.0, max_w = 0.0;
  bool integral = true;
  for (double w : raw) {
    sum += w;
    max_w = std::max(max_w, w);
    integral = integral && w == std::floor(w);
  }
  double scale = 1.0;
  if (!integral || sum > budget) {
    scale = sum > 0 ? budget / sum : 1.0;
    if (max_w * scale > (1 << 20)) scale = (1 << 20) / max_w;
  }
  std::vector<SCOTCH_Num> edlotab(raw.size());
  for (size_t e = 0; e < raw.size(); ++e) {
    // Scotch loads must be >= 1; zero-weight arcs become the smallest unit.
    edlotab[e] = static_cast<SCOTCH_Num>(
        std::max<int64_t>(1, std::llround(raw[e] * scale)));
  }
  std::vector<SCOTCH_Num> velotab;
  if (weighted && sub.has_vertex_weights()) {
    std::vector<double> loads(n);
    for (int64_t i = 0; i < n; ++i) loads[i] = sub.vertex_weight(i);
    std::vector<int32_t> integral = IntegerVertexWeights(loads, 1);
    velotab.assign(integral.begin(), integral.end());
    velotab.resize(total, 1);
  }
  const SCOTCH_Num arcs = static_cast<SCOTCH_Num>(edgetab.size());
  if (edgetab.empty()) {  // Scotch wants non-null arrays
    edgetab.push_back(0);
    edlotab.push_back(1);
  }
  ScotchGraph sg;
  int rc = SCOTCH_graphBuild(&sg.g, 0, static_cast<SCOTCH_Num>(total),
                             verttab.data(), nullptr,
                             velotab.empty() ? nullptr : velotab.data(),
                             nullptr, arcs, edgetab.data(), edlotab.data());
  if (rc != 0) return Fail("SCOTCH_graphBuild", rc);
  ScotchStrat strat;
  rc = SCOTCH_stratGraphMapBuild(&strat.s, SCOTCH_STRATDEFAULT,
                                 SCOTCH_archSize(arch), imbalance);
  if (rc != 0) return Fail("SCOTCH_stratGraphMapBuild", rc);
  // Scotch 7 runs threads; a context with the deterministic option and a fixed
  // seed makes the result depend on the inputs only.
  ScotchContext ctx;
  rc = SCOTCH_contextOptionSetNum(&ctx.c, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
  if (rc == 0) {
    rc = SCOTCH_contextOptionSetNum(&ctx.c, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1);
  }
  if (rc != 0) return Fail("SCOTCH_contextOptionSetNum", rc);
  SCOTCH_contextRandomSeed(&ctx.c,
                           static_cast<SCOTCH_Num>(seed % 2147483647ull));
  SCOTCH_contextRandomReset(&ctx.c);
  ScotchGraph bound;
  rc = SCOTCH_contextBindGraph(&ctx.c, &sg.g, &bound.g);
  if (rc != 0) return Fail("SCOTCH_contextBindGraph", rc);
  std::vector<SCOTCH_Num> parttab(total, 0);
  rc = SCOTCH_graphMap(&bound.g, arch, &strat.s, parttab.data());
  if (rc != 0) return Fail("SCOTCH_graphMap", rc);
  parttab.resize(n);
  return parttab;
}

// Maps with Scotch: one tleaf call for balanced trees; otherwise top-down, one
// call per internal node onto a weighted complete graph of its children
// (weights = capacities).
absl::StatusOr<Mapping> RunScotch(const Tree& tree, const CommGraph& graph,
                                  double imbalance, uint64_t seed,
                                  bool one_to_one, ScotchReport* report) {
  if (graph.num_arcs() >= std::numeric_limits<SCOTCH_Num>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "scotch: ", graph.num_arcs(), " arcs exceed Scotch's 32-bit numbers"));
  }
  if (tree.Capacity(tree.root()) <= 0) {
    return absl::InvalidArgumentError("scotch: no leaf with capacity > 0");
  }
  const int32_t n = graph.num_vertices();
  Target target;
  if (absl::Status s = BuildTarget(tree, &target); !s.ok()) return s;
  report->tleaf_target = target.tleaf;
  Mapping m(n, -1);
  if (target.tleaf) {
    const int64_t pad = one_to_one ? target.slots - n : 0;
    absl::StatusOr<std::vector<SCOTCH_Num>> part =
        MapSubgraph(graph, pad, !one_to_one, target.max_distance, imbalance,
                    seed, &target.arch.a);
    if (!part.ok()) return part.status();
    for (int32_t v = 0; v < n; ++v)
      m[v] = static_cast<LeafId>((*part)[v] / target.group);
  } else {
    int64_t max_distance = 1;
    for (NodeId x = tree.num_leaves(); x < tree.num_nodes(); ++x) {
      max_distance =
          std::max<int64_t>(max_distance, std::llround(NodeCost(tree, x)));
    }
    graphs::SubgraphExtractor extractor;
    auto split = [&](NodeId node, std::vector<VertexId> verts,
                     std::vector<ChildShare>* shares) -> absl::Status {
      std::vector<NodeId> kids;
      std::vector<SCOTCH_Num> caps;
      for (NodeId c : tree.children(node)) {
        if (tree.Capacity(c) > 0) {
          kids.push_back(c);
          caps.push_back(static_cast<SCOTCH_Num>(
              std::min<int64_t>(tree.Capacity(c), 1 << 30)));
        }
      }
      if (kids.size() == 1) {
        shares->push_back({kids[0], std::move(verts)});
        return absl::OkStatus();
      }
      ScotchArch arch;
      const int rc = SCOTCH_archCmpltw(
          &arch.a, static_cast<SCOTCH_Num>(kids.size()), caps.data());
      if (rc != 0) return Fail("SCOTCH_archCmpltw", rc);
      const int64_t pad =
          one_to_one
              ? std::max<int64_t>(
                    0, tree.Capacity(node) - static_cast<int64_t>(verts.size()))
              : 0;
      absl::StatusOr<CommGraph> sub = extractor.Extract(graph, verts);
      if (!sub.ok()) return sub.status();
      absl::StatusOr<std::vector<SCOTCH_Num>> part =
          MapSubgraph(*sub, pad, !one_to_one, max_distance, imbalance,
                      seed * 1000003ull + static_cast<uint64_t>(node), &arch.a);
      if (!part.ok()) return part.status();
      const size_t first = shares->size();
      for (NodeId c : kids) shares->push_back({c, {}});
      for (size_t i = 0; i < verts.size(); ++i) {
        const SCOTCH_Num d = std::clamp<SCOTCH_Num>(
            (*part)[i], 0, static_cast<SCOTCH_Num>(kids.size()) - 1);
        (*shares)[first + d].verts.push_back(verts[i]);
      }
      return absl::OkStatus();
    };
    absl::StatusOr<Mapping> walked = WalkTopDown(tree, n, split);
    if (!walked.ok()) return walked.status();
    m = *std::move(walked);
  }
  for (int32_t v = 0; v < n; ++v) {
    if (m[v] < 0 || m[v] >= tree.num_leaves() || tree.capacity(m[v]) == 0) {
      return absl::InternalError(absl::StrCat(
          "scotch: vertex ", v, " mapped to ", m[v], ", not a usable leaf"));
    }
  }
  return m;
}

// Moves surplus processes off over-full leaves to the nearest leaf with a free
// slot.
int64_t RepairCapacities(const Tree& tree, Mapping* m) {
  std::vector<int32_t> load(tree.num_leaves(), 0);
  for (LeafId l : *m) ++load[l];
  int64_t repairs = 0;
  for (size_t v = 0; v < m->size(); ++v) {
    const LeafId a = (*m)[v];
    if (load[a] <= tree.capacity(a)) continue;
    LeafId to = -1;
    for (NodeId up = tree.parent(a); up >= 0 && to < 0; up = tree.parent(up)) {
      for (LeafId b = tree.leaf_begin(up); b < tree.leaf_end(up); ++b) {
        if (load[b] < tree.capacity(b)) {
          to = b;
          break;
        }
      }
    }
    if (to < 0) break;  // cannot happen when n <= capacity
    --load[a];
    ++load[to];
    (*m)[v] = to;
    ++repairs;
  }
  return repairs;
}

}  // namespace

absl::StatusOr<Mapping> ScotchMap(const topology::Tree& tree,
                                  const graphs::CommGraph& graph, uint64_t seed,
                                  ScotchReport* report) {
  assert(graph.num_vertices() <= tree.Capacity(tree.root()));
  ScotchReport local;
  ScotchReport* rep = report != nullptr ? report : &local;
  // Strict balance pads the graph to one vertex per slot; no leaf can take
  // more than n processes, so larger capacities are cut to n first.
  const int32_t n = graph.num_vertices();
  std::vector<int32_t> cut(tree.num_leaves());
  int64_t slots = 0;
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    cut[l] = std::min(tree.capacity(l), n);
    slots += cut[l];
  }
  if (absl::Status s = base::CheckMemory(
          absl::StrCat("scotch: strict balance on ", slots, " slots"),
          base::SaturatingMulAdd(slots, kScotchBytesPerSlot),
          base::MemoryBudget());
      !s.ok()) {
    return s;
  }
  std::optional<Tree> cut_tree;
  if (slots < tree.Capacity(tree.root())) {
    absl::StatusOr<Tree> t = tree.WithCapacities(std::move(cut));
    if (!t.ok()) return t.status();
    cut_tree = *std::move(t);
  }
  absl::StatusOr<Mapping> m =
      RunScotch(cut_tree ? *cut_tree : tree, graph, 0.0, seed, true, rep);
  if (!m.ok()) return m.status();
  rep->repairs = RepairCapacities(tree, &*m);
  if (absl::Status s = ValidateMapping(tree, graph.num_vertices(), *m);
      !s.ok()) {
    return absl::InternalError(absl::StrCat(
        "scotch: repaired mapping invalid: ", std::string(s.message())));
  }
  return m;
}

absl::StatusOr<Mapping> ScotchPartitionMap(const topology::Tree& tree,
                                           const graphs::CommGraph& graph,
                                           double imbalance, uint64_t seed,
                                           ScotchReport* report) {
  if (!std::isfinite(imbalance) || imbalance < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "scotch: imbalance ", imbalance, " must be finite and >= 0"));
  }
  ScotchReport local;
  return RunScotch(tree, graph, imbalance, seed, false,
                   report != nullptr ? report : &local);
}

}  // namespace rankmap::core
