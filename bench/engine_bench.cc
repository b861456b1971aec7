// Engine benchmark: J and wall time of rankmap's presets and of every baseline
// on shuffled instance families, side by side in one table, plus the n-to-1
// mesh comparison with Scotch.
//
//   ./bazelw run -c opt //bench:engine_bench
//   ./bazelw run -c opt //bench:engine_bench -- --sizes=64,256 \
//       --families=stencil2d,clustered
//   # adds the 1,048,576-process case:
//   ./bazelw run -c opt //bench:engine_bench -- --scale=1m,8m
//   # ablation: each extension switched off (or on) alone:
//   ./bazelw run -c opt //bench:engine_bench -- --meshes=false \
//       --algorithms=tm,tm-no-exact,tm-no-split,tm-no-refine,tm+exhaustive,\
//   multisection,multisection-no-refine,paper-tm,scotch
//
// Families (fixed seeds, ranks shuffled so identity is poor): 2D 5-point
// stencil, 3D 7-point stencil, random sparse with 4 partners per process,
// hierarchically clustered (heavy inside hidden groups of 16, medium inside
// groups of 64, light random background). Trees are tleaf with distances
// 1/11/111/1111 (core/socket/node/switch). Extra rows: a heterogeneous
// three-cluster network (unbalanced tree with a cluster-pair cost matrix), the
// METIS example meshes and shuffled 2D/3D stencils mapped n-to-1 (onto 4:8:6
// and 4:16:6 with distances 1:10:100; onto the 4,096 leaves of tleaf 4 16 1000
// 16 100 2 10 8 1) against Scotch -b0.03 (--n_to_1 chooses the rows). Rows of
// the multilevel engine and of rankmap-n:1 on instances of 4,096 processes or
// more are followed by the wall time of each of its phases (coarsening,
// initial, refinement; "refinement" alone is the final swap refinement;
// rankmap-n:1 adds the status quo, the Scotch candidate and the prediction).
//
// Every mapping is checked (capacities, or the imbalance bound for n-to-1) and
// its J is recomputed here independently of the library; any failure makes the
// exit status 1. Deterministic: same flags, same table (times aside).
#include <sys/resource.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "core/baselines/scotch_map.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "graphs/graphs.h"
#include "tests/factories.h"
#include "tests/hetero_clusters.h"
#include "topology/tree.h"

ABSL_FLAG(std::string, families, "stencil2d,stencil3d,random,clustered",
          "comma-separated instance families");
ABSL_FLAG(std::string, sizes, "64,256,576,1024,4096,8192",
          "comma-separated process counts");
ABSL_FLAG(std::string, algorithms,
          "default,fast,strong,paper-tm,multisection,multilevel,scotch,"
          "identity,round-robin,random,mpipp",
          "comma-separated algorithms to run; also tm (TreeMatch with its "
          "extensions), default+ml (default with the multilevel engine as a "
          "portfolio member, as strong runs it) and the ablations "
          "tm-no-exact, tm-no-split, tm-no-refine, tm+exhaustive, "
          "multisection-no-refine");
ABSL_FLAG(bool, network, true,
          "add the heterogeneous three-cluster network rows");
ABSL_FLAG(int32_t, hetero, 8,
          "heterogeneous-cluster family: this many seeded platforms (3-6 "
          "clusters, per-pair bandwidths), each with a stencil, a random and "
          "a clustered graph; 0: none");
ABSL_FLAG(bool, meshes, true, "add the n-to-1 METIS mesh rows");
ABSL_FLAG(
    std::string, n_to_1,
    "rankmap-n:1,engine-n:1,multisection-n:1,rankmap-n:1-fast,multilevel-n:1,"
    "scotch-b0.03",
    "the rows of n-to-1 instances: rankmap-n:1 (Map with the default "
    "preset: the engine's partition weighed against the status quo and "
    "Scotch's by predicted exchange time), engine-n:1 (the engine's "
    "partition alone, default preset), multisection-n:1 (the "
    "partitioning multisection's attempts alone), rankmap-n:1-fast, "
    "multilevel-n:1 (the multilevel engine's partition alone), "
    "scotch-b0.03");
ABSL_FLAG(bool, partitioner, true,
          "add the n-to-1 rows at partitioner scale: shuffled 262,144-cell 2D "
          "and 3D meshes onto 4:8:6 (192 leaves) and 4:16:24 (1,536), "
          "distances 1:10:100");
ABSL_FLAG(bool, stencils_n_to_1, true,
          "add the n-to-1 rows of shuffled stencils onto the 4,096 leaves of "
          "tleaf 4 16 1000 16 100 2 10 8 1: 65,536 processes of a 2D stencil, "
          "32,768 of a 3D one");
ABSL_FLAG(bool, irregular, true,
          "add the trees of irregular and prime arities (3, 5, 7, 12)");
ABSL_FLAG(std::string, mesh_dir, "/usr/share/doc/libmetis-dev/examples/graphs",
          "where 4elt.graph, copter2.graph, mdual.graph live");
ABSL_FLAG(std::string, scale, "",
          "add shuffled 3D stencils at scale: 1m (1,048,576 processes), 8m "
          "(8,388,608); comma-separated; each reports the peak RSS");
ABSL_FLAG(int32_t, mpipp_max_n, 4096, "skip MPIPP above this many processes");
ABSL_FLAG(uint64_t, seed, 1, "seed of the generators and of the mappers");
ABSL_FLAG(std::string, j_out, "",
          "also write 'instance algorithm J' with 17 significant digits to "
          "this file, to compare two builds exactly (diff)");
ABSL_FLAG(std::string, write_instances, "",
          "write every heterogeneous-cluster instance to this directory as "
          "NAME.net (network spec), NAME.grf (graph) and NAME.unshuffled "
          "(mapping), to rerun it with the rankmap command");
ABSL_FLAG(int32_t, threads, 1,
          "MappingOptions::threads of rankmap's mappers (same J, other times)");

namespace rankmap {
namespace {

using graphs::CommGraph;
using topology::NodeId;
using topology::Tree;

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

// CPU seconds of the whole process (all threads): robust on a loaded machine,
// where wall time mostly measures the other jobs.
double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         1e-9 * static_cast<double>(ts.tv_nsec);
}

// Heavy traffic inside hidden groups of 16, medium inside groups of 64, light
// background.
CommGraph Clustered(int32_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  graphs::CommGraphBuilder b(n);
  for (int32_t u = 0; u < n; ++u) {
    const int32_t g16 = u / 16 * 16, g64 = u / 64 * 64;
    for (int32_t v = u + 1; v < std::min(n, g16 + 16); ++v)
      (void)b.AddEdge(u, v, 1000);
    for (int k = 0; k < 4; ++k) {
      (void)b.AddEdge(
          u, g64 + static_cast<int32_t>(rng() % std::min(64, n - g64)), 10);
    }
    for (int k = 0; k < 2; ++k)
      (void)b.AddEdge(u, static_cast<int32_t>(rng() % n), 1);
  }
  return *std::move(b).Build();
}

// J recomputed from the CSR arrays and an LCA walk of its own (not
// Tree::Distance's loop order): sum over arcs u < v of w * cost at the LCA (or
// the pair entry below it).
double IndependentJ(const Tree& t, const CommGraph& g, const core::Mapping& m) {
  double j = 0.0;
  auto xadj = g.xadj();
  auto adj = g.adjncy();
  auto w = g.adjwgt();
  for (int32_t u = 0; u < g.num_vertices(); ++u) {
    for (int64_t e = xadj[u]; e < xadj[u + 1]; ++e) {
      const int32_t v = adj[e];
      if (v <= u || m[u] == m[v]) continue;
      // Lift the deeper side first, then both together.
      NodeId a = m[u], b = m[v], ca = a, cb = b;
      while (t.depth(a) > t.depth(b)) ca = a, a = t.parent(a);
      while (t.depth(b) > t.depth(a)) cb = b, b = t.parent(b);
      while (a != b) ca = a, a = t.parent(a), cb = b, b = t.parent(b);
      const double d = t.has_pair_costs(a)
                           ? t.pair_cost(a, t.child_rank(ca), t.child_rank(cb))
                           : t.cost(a);
      j += w[e] * d;
    }
  }
  return j;
}

// Largest leaf load relative to its exact share, minus 1 (n-to-1 rows).
double Imbalance(const Tree& t, const CommGraph& g, const core::Mapping& m) {
  std::vector<double> load(t.num_leaves(), 0.0);
  for (int32_t v = 0; v < g.num_vertices(); ++v)
    load[m[v]] += g.vertex_weight(v);
  const double per_slot =
      g.TotalVertexWeight() / static_cast<double>(t.Capacity(t.root()));
  double worst = 0.0;
  for (int32_t l = 0; l < t.num_leaves(); ++l) {
    if (t.capacity(l) > 0)
      worst = std::max(worst, load[l] / (per_slot * t.capacity(l)) - 1.0);
  }
  return worst;
}

// Reads a METIS .graph file (unweighted or with fmt 1/10/11) through graphs/.
absl::StatusOr<CommGraph> ReadMesh(const std::string& path) {
  return graphs::ReadGraphFile(path, graphs::GraphFormat::kMetis);
}

// Three clusters of different node shapes under a network with cluster-pair
// costs: 8 nodes of 2 x 12 cores, 16 nodes of 2 x 4 cores, 4 nodes of 2 x 32
// cores (576 cores). Inside a cluster: socket 1, node 11, cluster 111; between
// clusters 1111, 2000 or 3000.
Tree NetworkTree() {
  topology::TreeBuilder b;
  const NodeId root = b.AddRoot("network");
  b.SetPairCosts(root, {0, 1111, 3000, 1111, 0, 2000, 3000, 2000, 0});
  const int nodes[3] = {8, 16, 4}, cores[3] = {12, 4, 32};
  for (int c = 0; c < 3; ++c) {
    const NodeId cl = b.AddChild(root, "cluster", 111);
    for (int n = 0; n < nodes[c]; ++n) {
      const NodeId nd = b.AddChild(cl, "node", 11);
      for (int s = 0; s < 2; ++s) {
        const NodeId so = b.AddChild(nd, "socket", 1);
        for (int k = 0; k < cores[c]; ++k) b.AddChild(so, "core");
      }
    }
  }
  return *std::move(b).Build();
}

struct Row {
  std::string instance, algorithm;
  double j = NAN, seconds = NAN, cpu = NAN, imbalance = NAN;
  bool ok = true;
  std::string note;
  // (phase, wall seconds from its first report to its last), in order.
  std::vector<std::pair<std::string, double>> phases;
};

// Wall time of each phase the engine reports (core/model/progress.h): from its
// first report to its last.
class PhaseClock : public core::ProgressSink {
 public:
  void Report(std::string_view phase, double) override {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [name, first, last] : spans_) {
      if (name == phase) {
        last = now;
        return;
      }
    }
    spans_.push_back({std::string(phase), now, now});
  }
  std::vector<std::pair<std::string, double>> Spans() const {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& [name, first, last] : spans_) {
      out.push_back(
          {name, std::chrono::duration<double>(last - first).count()});
    }
    return out;
  }

 private:
  std::mutex mu_;
  std::vector<std::tuple<std::string, std::chrono::steady_clock::time_point,
                         std::chrono::steady_clock::time_point>>
      spans_;
};

struct Instance {
  std::string name;
  Tree tree;
  CommGraph graph;
  bool n_to_1 = false;
  // Families with a natural placement (the application's own order, packed)
  // show it as the row "unshuffled".
  std::optional<core::Mapping> unshuffled;
  // Instances are summarised per group (geometric means).
  std::string group = "classic";
};

class Bench {
 public:
  explicit Bench(std::vector<std::string> algorithms)
      : algorithms_(std::move(algorithms)) {}

  void Run(const Instance& in) {
    std::vector<Row> rows;
    if (in.n_to_1) {
      for (const std::string& a : n_to_1_) {
        if (a == "scotch-b0.03") {
          rows.push_back(RunOne(in, a, [&] {
            return core::ScotchPartitionMap(in.tree, in.graph, 0.03, seed_);
          }));
          continue;
        }
        rows.push_back(RunOne(in, a, [&]() -> absl::StatusOr<core::Mapping> {
          return RunNTo1(a, in);
        }));
      }
    } else {
      for (const std::string& a : algorithms_) {
        if (a == "mpipp" && in.graph.num_vertices() > mpipp_max_n_) continue;
        rows.push_back(RunOne(in, a, [&]() -> absl::StatusOr<core::Mapping> {
          return RunAlgorithm(a, in);
        }));
      }
      if (in.unshuffled.has_value()) {
        rows.push_back(RunOne(in, "unshuffled", [&] {
          return absl::StatusOr<core::Mapping>(*in.unshuffled);
        }));
      }
    }
    // Reference values: Scotch (strict, or -b0.03 for n-to-1) and the paper
    // TreeMatch.
    // "best" is the lowest of these references present: Scotch, the paper
    // TreeMatch and the unshuffled placement.
    double j_scotch = NAN, best = NAN;
    for (const Row& r : rows) {
      if (r.algorithm == "scotch" || r.algorithm == "scotch-b0.03")
        j_scotch = r.j;
      if (r.algorithm == "scotch" || r.algorithm == "scotch-b0.03" ||
          r.algorithm == "paper-tm" || r.algorithm == "unshuffled") {
        best = std::isnan(best) ? r.j : std::min(best, r.j);
      }
    }
    for (const Row& r : rows) {
      const double rs = r.j / j_scotch, rb = r.j / best;
      std::printf("%-26s %-13s %14.6g %9.3f %9.3f %8.3f %8.3f %s%s\n",
                  r.instance.c_str(), r.algorithm.c_str(), r.j, r.seconds,
                  r.cpu, rs, rb,
                  std::isnan(r.imbalance)
                      ? ""
                      : ("imb=" + Fmt(r.imbalance) + " ").c_str(),
                  r.ok ? r.note.c_str() : ("INVALID " + r.note).c_str());
      for (const auto& [phase, seconds] : r.phases) {
        std::printf("%-26s   phase %-30s %9.3f\n", "", phase.c_str(), seconds);
      }
      if (!r.ok) failed_ = true;
      if (j_out_ != nullptr) {
        std::fprintf(j_out_, "%s %s %.17g\n", r.instance.c_str(),
                     r.algorithm.c_str(), r.j);
      }
      if (r.ok && std::isfinite(rs) && rs > 0) {
        Mean& mean = means_[{in.group, r.algorithm}];
        mean.log_scotch += std::log(rs);
        mean.log_best += std::log(rb);
        ++mean.count;
      }
    }
    std::fflush(stdout);
  }

  void Summary() const {
    for (const auto& [key, m] : means_) {
      const std::string label = key.first == "classic" ? std::string("geomean")
                                                       : "geomean " + key.first;
      std::printf("%-26s %-13s %14s %9s %9s %8.3f %8.3f (%d instances)\n",
                  label.c_str(), key.second.c_str(), "", "", "",
                  std::exp(m.log_scotch / m.count),
                  std::exp(m.log_best / m.count), m.count);
    }
  }

  bool failed() const { return failed_; }
  void set_seed(uint64_t s) { seed_ = s; }
  void set_n_to_1(std::vector<std::string> rows) { n_to_1_ = std::move(rows); }
  void set_threads(int32_t t) { threads_ = t; }
  void set_mpipp_max_n(int32_t n) { mpipp_max_n_ = n; }
  void set_j_out(std::FILE* f) { j_out_ = f; }

 private:
  static std::string Fmt(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", x);
    return buf;
  }

  // The n-to-1 rows: rankmap-n:1 (the default's partition-and-map),
  // engine-n:1 (the default's own partition), multisection-n:1 (the
  // partitioning multisection's attempts, the default's partition on graphs
  // below core::kMultilevelNTo1From), rankmap-n:1-fast, multilevel-n:1
  // (Algorithm::kMultilevel).
  absl::StatusOr<core::Mapping> RunNTo1(const std::string& a,
                                        const Instance& in) const {
    core::MappingOptions o;
    if (a == "rankmap-n:1-fast") {
      o = *core::MappingOptions::Preset("fast");
    } else if (a == "multilevel-n:1") {
      o.algorithm = core::Algorithm::kMultilevel;
    } else if (a == "multisection-n:1") {
      o.algorithm = core::Algorithm::kMultisection;
    } else if (a != "rankmap-n:1" && a != "engine-n:1") {
      return absl::InvalidArgumentError("unknown n-to-1 row " + a);
    }
    o.seed = seed_;
    o.threads = threads_;
    o.progress = clock_;
    if (a != "rankmap-n:1" && a != "rankmap-n:1-fast")
      return core::internal::MachineAwarePartition(in.tree, in.graph, o);
    return core::Map(in.tree, in.graph, o);
  }

  absl::StatusOr<core::Mapping> RunAlgorithm(const std::string& a,
                                             const Instance& in) const {
    core::MappingOptions o;
    if (a == "default+ml") {
      // default with the multilevel engine as a portfolio member (as strong).
      o.portfolio_multilevel = true;
    } else if (a == "default" || a == "fast" || a == "strong") {
      absl::StatusOr<core::MappingOptions> p = core::MappingOptions::Preset(a);
      if (!p.ok()) return p.status();
      o = *p;
    } else if (a == "paper-tm") {
      o.algorithm = core::Algorithm::kTreeMatch;
      o.treematch.exact_pairing = false;
      o.treematch.split_arities = false;
      o.refine.enabled = false;
      o.treematch.exhaustive_limit = 0;
    } else if (a.starts_with("tm-no-") || a == "tm+exhaustive" ||
               a == "multisection-no-refine") {
      // Ablation: the engine with one extension switched off (or on).
      o.algorithm = a.starts_with("tm") ? core::Algorithm::kTreeMatch
                                        : core::Algorithm::kMultisection;
      if (a == "tm-no-exact") {
        o.treematch.exact_pairing = false;
      } else if (a == "tm-no-split") {
        o.treematch.split_arities = false;
      } else if (a == "tm-no-refine" || a == "multisection-no-refine") {
        o.refine.enabled = false;
      } else if (a == "tm+exhaustive") {
        o.treematch.exhaustive_limit = 4;
      } else {
        return absl::InvalidArgumentError("unknown ablation " + a);
      }
    } else {
      absl::StatusOr<core::Algorithm> alg = core::ParseAlgorithm(a);
      if (!alg.ok()) return alg.status();
      o.algorithm = *alg;
    }
    o.seed = seed_;
    o.threads = threads_;
    o.progress = clock_;
    if (a == "scotch") {
      // Direct call (same as Map's kScotch) to report Scotch's repairs.
      core::ScotchReport rep;
      absl::StatusOr<core::Mapping> m =
          core::ScotchMap(in.tree, in.graph, o.seed, &rep);
      scotch_repairs_ = rep.repairs;
      return m;
    }
    return core::Map(in.tree, in.graph, o);
  }

  template <typename F>
  Row RunOne(const Instance& in, const std::string& name, F f) const {
    Row r;
    r.instance = in.name;
    r.algorithm = name;
    // Phase lines for the multilevel engine on large instances.
    PhaseClock clock;
    clock_ = (name.starts_with("multilevel") || name == "engine-n:1" ||
              name == "multisection-n:1" || name == "rankmap-n:1") &&
                     in.graph.num_vertices() >= kPhaseLinesFrom
                 ? &clock
                 : nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = CpuSeconds();
    absl::StatusOr<core::Mapping> m = f();
    r.seconds = Seconds(t0);
    r.cpu = CpuSeconds() - c0;
    if (clock_ != nullptr) r.phases = clock.Spans();
    clock_ = nullptr;
    if (!m.ok()) {
      r.ok = false;
      r.note = std::string(m.status().message());
      return r;
    }
    absl::Status valid =
        in.n_to_1 ? core::ValidatePartitionMapping(in.tree, in.graph, *m, 0.03)
                  : core::ValidateMapping(in.tree, in.graph.num_vertices(), *m);
    r.j = IndependentJ(in.tree, in.graph, *m);
    const double lib_j = core::ComputeJ(in.tree, in.graph, *m);
    if (std::abs(lib_j - r.j) > 1e-9 * std::max(1.0, r.j)) {
      r.ok = false;
      r.note = "J mismatch " + Fmt(lib_j) + " vs " + Fmt(r.j);
    }
    if (in.n_to_1) r.imbalance = Imbalance(in.tree, in.graph, *m);
    if (name == "scotch" && scotch_repairs_ > 0) {
      r.note = "repairs=" + std::to_string(scotch_repairs_) + " ";
    }
    if (!valid.ok()) {
      // Scotch's own balance is reported, not fatal: it is the baseline being
      // measured.
      if (name == "scotch-b0.03") {
        r.note = "over-bound";
      } else {
        r.ok = false;
        r.note = std::string(valid.message());
      }
    }
    return r;
  }

  // Instances of at least this many processes get phase lines.
  static constexpr int32_t kPhaseLinesFrom = 4096;
  std::vector<std::string> algorithms_;
  std::vector<std::string> n_to_1_;
  mutable PhaseClock* clock_ = nullptr;  // of the row being run
  mutable int64_t scotch_repairs_ = 0;   // of the last Scotch-strict run
  uint64_t seed_ = 1;
  int32_t threads_ = 1;
  int32_t mpipp_max_n_ = 4096;
  std::FILE* j_out_ = nullptr;
  bool failed_ = false;
  struct Mean {
    double log_scotch = 0.0, log_best = 0.0;
    int count = 0;
  };
  std::map<std::pair<std::string, std::string>, Mean> means_;  // group, algo
};

struct Size {
  int32_t n;
  const char* tree;  // tleaf body, distances 1/11/111/1111
  int32_t r2, c2, x3, y3, z3;
};

constexpr Size kSizes[] = {
    {64, "4 2 1000 2 100 2 10 8 1", 8, 8, 4, 4, 4},
    {256, "4 4 1000 4 100 2 10 8 1", 16, 16, 8, 8, 4},
    {576, "4 6 1000 4 100 2 10 12 1", 24, 24, 12, 8, 6},
    {1024, "4 8 1000 8 100 2 10 8 1", 32, 32, 16, 8, 8},
    {4096, "4 16 1000 16 100 2 10 8 1", 64, 64, 16, 16, 16},
    {8192, "4 32 1000 16 100 2 10 8 1", 128, 64, 32, 16, 16},
};

// Trees of irregular and prime arities (held out from the shapes above):
// distances 1/11/111/... as above.
constexpr Size kIrregularSizes[] = {
    {140, "3 5 100 7 10 4 1", 10, 14, 4, 5, 7},
    {243, "5 3 10000 3 1000 3 100 3 10 3 1", 9, 27, 9, 9, 3},
    {375, "3 3 100 5 10 25 1", 15, 25, 5, 5, 15},
    {720, "3 5 100 12 10 12 1", 24, 30, 8, 9, 10},
    {1260, "4 3 1000 7 100 12 10 5 1", 35, 36, 9, 10, 14},
    {1680, "4 7 1000 5 100 4 10 12 1", 40, 42, 10, 12, 14},
};

bool Has(const std::vector<std::string>& list, const std::string& x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  for (absl::string_view p : absl::StrSplit(s, ',', absl::SkipEmpty()))
    out.emplace_back(p);
  return out;
}

int Main() {
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  const std::vector<std::string> families =
      SplitList(absl::GetFlag(FLAGS_families));
  std::vector<int32_t> sizes;
  for (const std::string& s : SplitList(absl::GetFlag(FLAGS_sizes)))
    sizes.push_back(std::stoi(s));
  Bench bench(SplitList(absl::GetFlag(FLAGS_algorithms)));
  bench.set_seed(seed);
  bench.set_n_to_1(SplitList(absl::GetFlag(FLAGS_n_to_1)));
  bench.set_threads(absl::GetFlag(FLAGS_threads));
  bench.set_mpipp_max_n(absl::GetFlag(FLAGS_mpipp_max_n));
  std::FILE* j_out = nullptr;
  if (const std::string path = absl::GetFlag(FLAGS_j_out); !path.empty()) {
    j_out = std::fopen(path.c_str(), "w");
    if (j_out == nullptr) {
      std::fprintf(stderr, "%s: cannot open for writing: %s\n", path.c_str(),
                   std::strerror(errno));
      return 2;
    }
    bench.set_j_out(j_out);
  }
  std::printf("%-26s %-13s %14s %9s %9s %8s %8s\n", "instance", "algorithm",
              "J", "wall_s", "cpu_s", "J/scotch", "J/best");
  auto run_size = [&](const Size& s, const std::string& group,
                      const std::string& suffix) {
    const Tree tree = testing::MakeTleaf(s.tree);
    const std::vector<int32_t> perm = testing::RandomPermutation(s.n, seed + 6);
    const std::string n = std::to_string(s.n) + suffix;
    auto run = [&](std::string name, CommGraph g) {
      Instance in{std::move(name), tree, std::move(g)};
      in.group = group;
      bench.Run(in);
    };
    if (Has(families, "stencil2d")) {
      run("stencil2d-" + n,
          testing::Permute(testing::MakeGrid2D(s.r2, s.c2), perm));
    }
    if (Has(families, "stencil3d")) {
      run("stencil3d-" + n,
          testing::Permute(testing::MakeGrid3D(s.x3, s.y3, s.z3), perm));
    }
    if (Has(families, "random")) {
      run("random4-" + n, testing::MakeRandomGraph(s.n, 4, seed + 10));
    }
    if (Has(families, "clustered")) {
      run("clustered-" + n, testing::Permute(Clustered(s.n, seed + 4), perm));
    }
  };
  for (const Size& s : kSizes) {
    if (std::find(sizes.begin(), sizes.end(), s.n) != sizes.end())
      run_size(s, "classic", "");
  }
  if (absl::GetFlag(FLAGS_irregular)) {
    for (const Size& s : kIrregularSizes) run_size(s, "irregular", "-irr");
  }
  if (absl::GetFlag(FLAGS_network)) {
    const Tree net = NetworkTree();
    const std::vector<int32_t> perm = testing::RandomPermutation(576, seed + 6);
    bench.Run({"network-stencil3d-576", net,
               testing::Permute(testing::MakeGrid3D(12, 8, 6), perm)});
    bench.Run({"network-clustered-576", net,
               testing::Permute(Clustered(576, seed + 4), perm)});
  }
  for (int32_t h = 1; h <= absl::GetFlag(FLAGS_hetero); ++h) {
    for (testing::HeteroGraph kind :
         {testing::HeteroGraph::kStencil2D, testing::HeteroGraph::kRandom,
          testing::HeteroGraph::kClustered}) {
      testing::HeteroInstance hi =
          testing::MakeHeteroInstance(seed * 1000 + h, kind);
      if (const std::string dir = absl::GetFlag(FLAGS_write_instances);
          !dir.empty()) {
        const std::string base = dir + "/" + hi.name;
        std::string plain;
        for (int32_t l : hi.unshuffled) plain += std::to_string(l) + "\n";
        for (absl::Status s : {base::WriteFile(base + ".net", hi.platform.spec),
                               graphs::WriteGraphFile(hi.graph, base + ".grf"),
                               base::WriteFile(base + ".unshuffled", plain)}) {
          if (!s.ok()) {
            std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
            return 2;
          }
        }
      }
      Instance in{hi.name, std::move(hi.platform.tree), std::move(hi.graph)};
      in.unshuffled = std::move(hi.unshuffled);
      in.group = "hetero";
      bench.Run(in);
    }
  }
  if (absl::GetFlag(FLAGS_meshes)) {
    const char* kMeshes[] = {"4elt", "copter2", "mdual"};
    const char* kTrees[][2] = {{"4:8:6", "3 4 90 8 9 6 1"},
                               {"4:16:6", "3 4 90 16 9 6 1"}};
    for (const char* mesh : kMeshes) {
      const std::string path =
          absl::GetFlag(FLAGS_mesh_dir) + "/" + mesh + ".graph";
      if (!std::ifstream(path).good()) {
        std::printf("%-26s skipped: %s not found (Debian libmetis-doc)\n", mesh,
                    path.c_str());
        continue;
      }
      absl::StatusOr<CommGraph> g = ReadMesh(path);
      if (!g.ok()) {
        std::printf("%-26s cannot read: %s\n", mesh,
                    std::string(g.status().message()).c_str());
        continue;
      }
      for (const auto& t : kTrees) {
        bench.Run({std::string(mesh) + "@" + t[0], testing::MakeTleaf(t[1]), *g,
                   true});
      }
    }
  }
  if (absl::GetFlag(FLAGS_stencils_n_to_1)) {
    const Tree leaves = testing::MakeTleaf("4 16 1000 16 100 2 10 8 1");
    Instance s2{"stencil2d-65536@4096", leaves,
                testing::Permute(testing::MakeGrid2D(256, 256),
                                 testing::RandomPermutation(65536, seed + 6)),
                true};
    s2.group = "stencils n:1";
    bench.Run(s2);
    Instance s3{"stencil3d-32768@4096", leaves,
                testing::Permute(testing::MakeGrid3D(32, 32, 32),
                                 testing::RandomPermutation(32768, seed + 6)),
                true};
    s3.group = "stencils n:1";
    bench.Run(s3);
  }
  if (absl::GetFlag(FLAGS_partitioner)) {
    // What PETSc and OpenFOAM partition: a mesh of 262,144 cells, the cells
    // numbered at random (as a partitioner receives them after a
    // redistribution), onto nodes of 8 and 16 sockets of 6 and 24 cores.
    const char* kTrees[][2] = {{"4:8:6", "3 4 90 8 9 6 1"},
                               {"4:16:24", "3 4 90 16 9 24 1"}};
    const std::vector<int32_t> perm =
        testing::RandomPermutation(262144, seed + 7);
    const CommGraph meshes[] = {
        testing::Permute(testing::MakeGrid2D(512, 512), perm),
        testing::Permute(testing::MakeGrid3D(64, 64, 64), perm)};
    const char* kNames[] = {"mesh2d-262144@", "mesh3d-262144@"};
    for (int k = 0; k < 2; ++k) {
      for (const auto& t : kTrees) {
        Instance in{kNames[k] + std::string(t[0]), testing::MakeTleaf(t[1]),
                    meshes[k], true};
        in.group = "partitioner n:1";
        bench.Run(in);
      }
    }
  }
  for (const std::string& which : SplitList(absl::GetFlag(FLAGS_scale))) {
    // Shuffled 3D stencils on Fugaku-class trees: 1m = 128 x 128 x 64 on
    // 64 x 64 x 4 x 64 leaves, 8m = 256 x 256 x 128 on 512 x 64 x 4 x 64.
    const bool eight = which == "8m";
    if (!eight && which != "1m") {
      std::fprintf(stderr, "--scale: unknown case '%s' (1m, 8m)\n",
                   which.c_str());
      return 2;
    }
    const Tree big = testing::MakeTleaf(eight ? "4 512 1000 64 100 4 10 64 1"
                                              : "4 64 1000 64 100 4 10 64 1");
    const int32_t x = eight ? 256 : 128, y = eight ? 256 : 128,
                  z = eight ? 128 : 64;
    // Only the engine's scalable strategies (those of --algorithms among them).
    std::vector<std::string> scalable;
    for (const std::string& a : SplitList(absl::GetFlag(FLAGS_algorithms))) {
      if (a == "fast" || a == "default" || a == "multisection" ||
          a == "multilevel" || a == "multisection-no-refine" ||
          a == "tm-no-refine") {
        scalable.push_back(a);
      }
    }
    Bench scale(scalable);
    scale.set_seed(seed);
    scale.set_threads(absl::GetFlag(FLAGS_threads));
    scale.set_j_out(j_out);
    const int32_t n = x * y * z;
    scale.Run({"stencil3d-" + std::to_string(n), big,
               testing::Permute(testing::MakeGrid3D(x, y, z),
                                testing::RandomPermutation(n, seed + 6))});
    rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%-26s peak RSS of the process so far: %ld MiB\n",
                ("stencil3d-" + std::to_string(n)).c_str(),
                usage.ru_maxrss / 1024);
    if (scale.failed()) return 1;
  }
  bench.Summary();
  if (j_out != nullptr) std::fclose(j_out);
  return bench.failed() ? 1 : 0;
}

}  // namespace
}  // namespace rankmap

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return rankmap::Main();
}
