// bench/sim: the simulated time of real MPI programs under every mapping
// (SimGrid SMPI, sim/), beside J and the time each cost model predicts.
//
//   ./bazelw run -c opt //bench:sim                    # 256 and 1024 ranks
//   ./bazelw run -c opt //bench:sim -- --large         # and the 4096-rank
//   stencil
//
// Cases (rank r of every program runs where the mapping puts process r):
//   stencil  sim/stencil3d: a 3D 7-point Jacobi decomposed by MPI_Dims_create
//            in natural rank order, 48^3 cells per rank, 2 flops per cell, on
//            24-core hosts (the process grid never matches the hosts), 256
//            and 1024 ranks;
//   replay   sim/replay of a hierarchically clustered pattern (heavy traffic in
//            hidden groups of 16, medium in groups of 64, light background;
//            ranks shuffled: what a profiler records from an application whose
//            launcher ignored its structure), on 24-core hosts, 256 ranks
//            (--replay_sizes);
//   mesh     sim/mesh_halo on a METIS example mesh (copter2 at 256 parts,
//            mdual above) partitioned by METIS k-way, ranks numbered as
//            METIS numbers the parts, 5 doubles per vertex, on 12-core hosts;
//   summa    sim/summa, heterogeneous SUMMA on 4 clusters joined by slower
//            links (printed separately: topology-unaware arrangement, Malik's
//            Algorithm 2, and rankmap's mapping);
//   cg       latency-bound: sim/mesh_halo as the steps of a CG-like solver
//            (--cg_exchanges halo exchanges of one double per halo vertex per
//            iteration, each followed by --cg_allreduces allreduces of a
//            double) on copter2 cut by METIS recursive bisection, ranks
//            numbered as METIS numbers the parts (packed is already good);
//            the engine maps the graph with message counts (halo messages,
//            allreduces as recursive doubling), on 4-core hosts at 64 ranks
//            and 12-core hosts at 256;
//   profiled the same solver on 4elt (recursive bisection) run under the real
//            mpirun with librankmap_profile.so, its recorded bytes and
//            messages (app.mat, app.msgs.mat: the whole run, set-up included)
//            mapped with their counts and replayed message by message
//            (sim/replay), on 4-core hosts.
// Platforms: switches of 8 hosts with 100 Gb/s, 5 us uplinks; hosts with 25
// Gb/s, 2 us links, 1 Gflop/s cores and a 40 GB/s, 0.5 us loopback (tleaf
// link levels, topology/tleaf.h). SMPI's default (calibrated) network model.
// Algorithms: identity (packed), round-robin, random, scotch, tm,
// multisection, default (portfolio), then two variants of default:
// default-by-J (the portfolio choosing by J alone) and default+cong (default
// refined for congestion, core/refine/congestion.h). Each row: J, the predicted
// time per iteration (core/objective/link_load.h, what the engine decides by), the
// replay of the same traffic (sim/replay of the case's graph with its
// counts, --replay_iterations) and prediction / replay, the program's
// simulated seconds per iteration, ratio to packed, and per model (eval --model: hockney, lmo, hloggp, taulop,
// parameters from the platform's links) the predicted seconds (exchange of
// every edge both ways, plus the program's compute time) and the ratio
// predicted / simulated. Per case: Spearman rank correlation of J, of the
// link load and of each model with the simulated times over the seven
// algorithms' mappings; default / best and default / packed; predicted and
// replayed gains of default over packed, and how many pairs of mappings
// whose replays differ by more than 2% the prediction orders alike (the
// targets: gains within 3 points, every such pair alike).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/runfiles.h"
#include "base/status_macros.h"
#include "base/temp_dir.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "core/model/slot_classes.h"
#include "core/objective/link_load.h"
#include "core/split/metis_split.h"
#include "graphs/frontends/matrix_frontend.h"
#include "graphs/frontends/mesh_halo.h"
#include "graphs/frontends/stencil.h"
#include "graphs/frontends/summa.h"
#include "graphs/graphs.h"
#include "graphs/operations.h"
#include "graphs/traffic.h"
#include "models/channel_params.h"
#include "models/cost_model.h"
#include "models/flow.h"
#include "sim/simulate.h"
#include "sim/subprocess.h"
#include "tests/factories.h"
#include "tiling/grid_partition.h"
#include "tiling/partition.h"
#include "topology/simgrid_platform.h"
#include "topology/tleaf.h"
#include "topology/tree_ops.h"

ABSL_FLAG(std::string, stencil_sizes, "256,1024",
          "rank counts of the stencil case");
ABSL_FLAG(std::string, mesh_sizes, "256",
          "rank counts of the mesh case (256: copter2, more: mdual; at 1024 "
          "one simulated run takes about 4 minutes)");
ABSL_FLAG(std::string, replay_sizes, "256",
          "rank counts of the replay case (SimGrid's time grows with the "
          "flows sharing a link: at 1024 ranks one run of this pattern takes "
          "over 15 minutes)");
ABSL_FLAG(bool, large, false, "add the 4096-rank stencil (hours on 2 cores)");
ABSL_FLAG(std::string, cg_sizes, "64,256",
          "rank counts of the latency-bound solver case (copter2)");
ABSL_FLAG(int32_t, cg_exchanges, 20,
          "cg and profiled: halo exchanges (solver steps) per iteration");
ABSL_FLAG(int32_t, cg_allreduces, 2,
          "cg and profiled: allreduces of a double after each step");
ABSL_FLAG(std::string, cg_replay_sizes, "64",
          "cg sizes whose graph is also replayed under every mapping, message "
          "by message and as one message per pair (at 256 ranks the replays "
          "take about 4 CPU minutes)");
ABSL_FLAG(std::string, profiled_sizes, "64",
          "rank counts of the profiled solver case (4elt, real mpirun)");
ABSL_FLAG(std::string, cases, "stencil,replay,mesh,summa,cg,profiled",
          "cases to run");
ABSL_FLAG(std::string, work_dir, "",
          "keep the cases' inputs (graphs, partitions, the profile) in this "
          "existing directory (default: a temporary one, removed)");
ABSL_FLAG(std::string, mesh_dir, "/usr/share/doc/libmetis-dev/examples/graphs",
          "where the METIS example meshes are (Debian libmetis-doc)");
ABSL_FLAG(int64_t, iterations, 2, "timed iterations per simulated run");
ABSL_FLAG(int64_t, replay_iterations, 30,
          "timed iterations of the replays the prediction is checked "
          "against (the prediction is of the steady state; a few iterations "
          "are a transient: a 256-rank mesh halo's per-iteration time moves "
          "by 10% between 4 and 30)");
ABSL_FLAG(uint64_t, seed, 1, "seed of the engine, the shuffles and random");

namespace rankmap::bench {
namespace {

using core::Mapping;
using graphs::CommGraph;
using topology::LeafId;
using topology::Tree;

constexpr int kHostsPerSwitch = 8;
constexpr double kCoreSpeed = 1e9;  // flop/s, the platform writer's default

// Variants of default run after the seven algorithms and stay out of the
// rank correlations: the portfolio choosing by J alone (as on trees without
// links), and default refined for congestion (core/refine/congestion.h) with
// the weight of the root's cost (one byte on the hot link against one byte
// across the root).
enum class Variant { kNone, kJOnly, kCongestion };
struct Algo {
  const char* name;
  core::Algorithm algorithm;
  Variant variant = Variant::kNone;
};
constexpr Algo kAlgos[] = {
    {"identity", core::Algorithm::kIdentity},
    {"round-robin", core::Algorithm::kRoundRobin},
    {"random", core::Algorithm::kRandom},
    {"scotch", core::Algorithm::kScotch},
    {"tm", core::Algorithm::kTreeMatch},
    {"multisection", core::Algorithm::kMultisection},
    {"default", core::Algorithm::kPortfolio},
    {"default-by-J", core::Algorithm::kPortfolio, Variant::kJOnly},
    {"default+cong", core::Algorithm::kPortfolio, Variant::kCongestion},
};
constexpr size_t kDefaultRow = 6;
constexpr models::Model kModels[] = {
    models::Model::kHockney, models::Model::kLmo, models::Model::kHLogGP,
    models::Model::kTauLop};

// The tleaf of switches of kHostsPerSwitch hosts of `cores` cores, enough
// for `ranks`.
std::string Platform(int64_t ranks, int cores) {
  const int64_t per_switch = int64_t{kHostsPerSwitch} * cores;
  const int64_t switches = (ranks + per_switch - 1) / per_switch;
  return absl::StrCat("tleaf 3 ", switches, " 100Gbps:5us ", kHostsPerSwitch,
                      " 25Gbps:2us ", cores, " 40GBps:0.5us");
}

struct Case {
  std::string name;
  std::string platform;  // tleaf line
  CommGraph graph;       // what the engine maps and the models price
  std::string program;   // SMPI program
  std::vector<std::string> args;
  double compute = 0;  // seconds of computation per iteration (slowest rank)
  // For a real program: its graph (bytes, and counts in `replay_messages`),
  // also replayed under every mapping (CompareReplays).
  std::string replay, replay_messages;
};

// Spearman's rank correlation (average ranks for ties).
double Spearman(const std::vector<double>& x, const std::vector<double>& y) {
  auto ranks = [](const std::vector<double>& v) {
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < order.size();) {
      size_t j = i;
      while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
      for (size_t k = i; k <= j; ++k) r[order[k]] = (i + j) / 2.0 + 1;
      i = j + 1;
    }
    return r;
  };
  const std::vector<double> a = ranks(x), b = ranks(y);
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / a.size();
  const double mb = std::accumulate(b.begin(), b.end(), 0.0) / b.size();
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0.0;
}

struct Summary {
  std::string name;
  double default_vs_best = 0;
  double default_vs_packed = 0;
  std::string best;
  std::vector<double> correlation;  // J, then each model
  // The predicted time per iteration (core/objective/link_load.h) against the replay
  // of the same traffic (sim/replay), packed (the present order) and default
  // (the chosen mapping): the gains each implies, and the pairs of the seven
  // algorithms' mappings whose replays differ by more than 2%, and how many
  // of them the prediction orders alike.
  double predicted_gain = 0, replayed_gain = 0;
  int pairs = 0, pairs_alike = 0;
};

// Where sim/replay reads a case's traffic: its graph, and its counts
// ("none" without).
struct ReplayFiles {
  std::string graph, messages = "none";
};

// Writes `g` (bytes) to stem.grf and, with counts, the counts as a graph of
// their own to stem.msgs.edges.
absl::StatusOr<ReplayFiles> WriteReplayFiles(const CommGraph& g,
                                             const std::string& stem) {
  ReplayFiles f;
  f.graph = stem + ".grf";
  RETURN_IF_ERROR(graphs::WriteGraphFile(g, f.graph));
  if (!g.has_messages()) return f;
  f.messages = stem + ".msgs.edges";
  ASSIGN_OR_RETURN(
      const CommGraph counts,
      CommGraph::FromCsr({g.xadj().begin(), g.xadj().end()},
                         {g.adjncy().begin(), g.adjncy().end()},
                         {g.adjmsg().begin(), g.adjmsg().end()}));
  RETURN_IF_ERROR(graphs::WriteGraphFile(counts, f.messages));
  return f;
}

// Seconds per iteration of sim/replay of `files` under mapping m, over
// --replay_iterations.
absl::StatusOr<double> ReplayTime(const sim::Simulator& simulator,
                                  const ReplayFiles& files, const Mapping& m) {
  ASSIGN_OR_RETURN(const std::string replay,
                   sim::FindSmpiProgram("replay_smpi.so"));
  ASSIGN_OR_RETURN(
      const sim::SmpiOutput out,
      simulator.Run(replay,
                    {files.graph,
                     absl::StrCat("--iterations=",
                                  absl::GetFlag(FLAGS_replay_iterations)),
                     absl::StrCat("--messages=", files.messages)},
                    m, sim::SmpiModel::kCalibrated));
  return sim::ParseTimePerIteration(out.out);
}

// The gains and the pairs ranked alike (Summary), from the seven algorithms'
// predicted and replayed times; row 0 is packed.
void ComparePredictions(const std::vector<double>& predicted,
                        const std::vector<double>& replayed, size_t chosen,
                        Summary* s) {
  s->predicted_gain = 1 - predicted[chosen] / predicted[0];
  s->replayed_gain = 1 - replayed[chosen] / replayed[0];
  for (size_t i = 0; i < replayed.size(); ++i) {
    for (size_t j = i + 1; j < replayed.size(); ++j) {
      const double lo = std::min(replayed[i], replayed[j]);
      if (std::fabs(replayed[i] - replayed[j]) <= 0.02 * lo) continue;
      ++s->pairs;
      s->pairs_alike += (predicted[i] < predicted[j]) == (replayed[i] < replayed[j]);
    }
  }
  std::printf(
      "predicted gain of default over packed %.1f%%, replayed %.1f%% "
      "(%+.1f points); %d of %d pairs of mappings whose replays differ by "
      "more than 2%% ordered alike by the prediction\n",
      100 * s->predicted_gain, 100 * s->replayed_gain,
      100 * (s->predicted_gain - s->replayed_gain), s->pairs_alike, s->pairs);
}

// The replay of a real program's graph under the same mappings, message by
// message and as one message per pair and direction (the bandwidth proxy),
// beside the program's simulated times, and how each ranks the mappings.
absl::Status CompareReplays(const Case& c, const sim::Simulator& simulator,
                            const std::vector<Mapping>& mappings,
                            const std::vector<double>& program) {
  if (c.replay.empty()) return absl::OkStatus();
  ASSIGN_OR_RETURN(const std::string replay,
                   sim::FindSmpiProgram("replay_smpi.so"));
  std::printf("the graph replayed (sim/replay) under the same mappings:\n");
  std::printf("%-13s %15s %7s %15s %7s\n", "algorithm", "by message (s)",
              "/prog", "one msg (s)", "/prog");
  std::vector<double> faithful, proxy;
  for (size_t i = 0; i < mappings.size(); ++i) {
    for (const std::string& messages :
         {c.replay_messages, std::string("none")}) {
      ASSIGN_OR_RETURN(
          const sim::SmpiOutput out,
          simulator.Run(
              replay,
              {c.replay,
               absl::StrCat("--iterations=", absl::GetFlag(FLAGS_iterations)),
               absl::StrCat("--messages=", messages)},
              mappings[i], sim::SmpiModel::kCalibrated));
      ASSIGN_OR_RETURN(const double t, sim::ParseTimePerIteration(out.out));
      (messages == "none" ? proxy : faithful).push_back(t);
    }
    std::printf("%-13s %15.6g %7.3f %15.6g %7.3f\n", kAlgos[i].name,
                faithful.back(), faithful.back() / program[i], proxy.back(),
                proxy.back() / program[i]);
  }
  std::printf(
      "rank correlation with the program's simulated times: by message %.2f, "
      "one message per pair %.2f\n",
      Spearman(faithful, program), Spearman(proxy, program));
  return absl::OkStatus();
}

absl::StatusOr<Summary> RunCase(const Case& c, const std::string& dir) {
  ASSIGN_OR_RETURN(const Tree tree, topology::ParseTleaf(c.platform));
  ASSIGN_OR_RETURN(const sim::Simulator simulator,
                   sim::Simulator::Create(tree));
  ASSIGN_OR_RETURN(const std::string program, sim::FindSmpiProgram(c.program));
  const models::ModelParams params = models::DefaultModelParams(tree);
  const models::Flow flow = models::HaloFlow(c.graph, 1);
  std::printf("\n== %s: %d ranks, %lld edges, platform %s\n", c.name.c_str(),
              c.graph.num_vertices(),
              static_cast<long long>(c.graph.num_edges()), c.platform.c_str());
  ReplayFiles files;
  // A replay case's own run is the check when it runs as many iterations.
  const bool replays_itself =
      c.program == "replay_smpi.so" &&
      absl::GetFlag(FLAGS_iterations) == absl::GetFlag(FLAGS_replay_iterations);
  if (!c.replay.empty()) {
    files = {c.replay, c.replay_messages};
  } else if (c.program == "replay_smpi.so") {
    files = {c.args[0], "none"};
    for (const std::string& a : c.args)
      if (absl::StartsWith(a, "--messages=")) files.messages = a.substr(11);
  } else {
    std::string stem = absl::StrCat(dir, "/", c.name);
    std::replace(stem.begin() + dir.size(), stem.end(), ' ', '_');
    ASSIGN_OR_RETURN(files, WriteReplayFiles(c.graph, stem));
  }
  std::printf("%-13s %11s %10s %10s %6s %12s %7s", "algorithm", "J",
              "pred(s)", "replay(s)", "/rep", "simulated(s)", "/packed");
  for (models::Model m : kModels)
    std::printf(" %10s %6s", models::ModelName(m), "/sim");
  std::printf("\n");
  std::fflush(stdout);
  std::vector<double> js, loads, sims, all_sims, replays;
  std::vector<Mapping> mappings;  // of the seven algorithms
  std::vector<std::vector<double>> predicted(std::size(kModels));
  double packed = 0;
  for (const Algo& a : kAlgos) {
    ASSIGN_OR_RETURN(core::MappingOptions opts,
                     core::MappingOptions::Preset("default"));
    opts.algorithm = a.algorithm;
    opts.seed = absl::GetFlag(FLAGS_seed);
    if (a.variant == Variant::kJOnly) opts.link_aware_choice = false;
    if (a.variant == Variant::kCongestion)
      opts.congestion_weight = tree.cost(tree.root());
    ASSIGN_OR_RETURN(const Mapping m, core::Map(tree, c.graph, opts));
    RETURN_IF_ERROR(core::ValidateMapping(tree, c.graph.num_vertices(), m));
    const double j = core::ComputeJ(tree, c.graph, m);
    const core::LinkLoad load = core::EstimateLinkLoad(tree, c.graph, m);
    ASSIGN_OR_RETURN(
        const sim::SmpiOutput out,
        simulator.Run(program, c.args, m, sim::SmpiModel::kCalibrated));
    ASSIGN_OR_RETURN(const double t, sim::ParseTimePerIteration(out.out));
    if (a.algorithm == core::Algorithm::kIdentity) packed = t;
    all_sims.push_back(t);
    // The variants of default stay out of the check: their mappings are
    // mostly default's.
    double replayed = t;
    if (a.variant != Variant::kNone) {
      replayed = 0;
    } else if (!replays_itself) {
      ASSIGN_OR_RETURN(replayed, ReplayTime(simulator, files, m));
    }
    if (a.variant == Variant::kNone) {
      js.push_back(j);
      loads.push_back(load.seconds);
      sims.push_back(t);
      replays.push_back(replayed);
      mappings.push_back(m);
    }
    if (replayed > 0) {
      std::printf("%-13s %11.4g %10.4g %10.4g %6.3f %12.6g %7.3f", a.name, j,
                  load.seconds, replayed, load.seconds / replayed, t,
                  t / packed);
    } else {
      std::printf("%-13s %11.4g %10.4g %10s %6s %12.6g %7.3f", a.name, j,
                  load.seconds, "-", "-", t, t / packed);
    }
    for (size_t k = 0; k < std::size(kModels); ++k) {
      ASSIGN_OR_RETURN(const double p,
                       models::PredictTime(kModels[k], params, tree, flow, m));
      if (a.variant == Variant::kNone) predicted[k].push_back(p + c.compute);
      std::printf(" %10.4g %6.3f", p + c.compute, (p + c.compute) / t);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  RETURN_IF_ERROR(CompareReplays(c, simulator, mappings, sims));
  Summary s;
  s.name = c.name;
  ComparePredictions(loads, replays, kDefaultRow, &s);
  const size_t best =
      std::min_element(all_sims.begin(), all_sims.end()) - all_sims.begin();
  s.best = kAlgos[best].name;
  s.default_vs_best = all_sims[kDefaultRow] / all_sims[best];
  s.default_vs_packed = all_sims[kDefaultRow] / packed;
  s.correlation.push_back(Spearman(js, sims));
  s.correlation.push_back(Spearman(loads, sims));
  for (const auto& p : predicted) s.correlation.push_back(Spearman(p, sims));
  std::printf("rank correlation with simulated: J %.2f, predicted %.2f",
              s.correlation[0], s.correlation[1]);
  for (size_t k = 0; k < std::size(kModels); ++k)
    std::printf(", %s %.2f", models::ModelName(kModels[k]),
                s.correlation[k + 2]);
  std::printf("\ndefault / best (%s): %.4f%s\n", s.best.c_str(),
              s.default_vs_best,
              s.default_vs_best <= 1.01 ? "" : "  (not within 1%)");
  std::printf("default / packed: %.4f%s\n", s.default_vs_packed,
              s.default_vs_packed <= 1.0 ? "" : "  (slower than packed)");
  std::fflush(stdout);
  return s;
}

absl::StatusOr<Case> StencilCase(int64_t ranks) {
  Case c;
  c.name = absl::StrCat("stencil ", ranks);
  c.platform = Platform(ranks, 24);
  ASSIGN_OR_RETURN(const std::vector<int64_t> dims,
                   tiling::DimsCreate(ranks, {0, 0, 0}));
  constexpr int64_t kCells = 48;
  graphs::StencilOptions o;
  o.grid = {dims[0] * kCells, dims[1] * kCells, dims[2] * kCells};
  o.points = 7;
  o.procs = ranks;
  o.element_size = 8;
  ASSIGN_OR_RETURN(c.graph, graphs::StencilGraph(o));
  c.program = "stencil3d_smpi.so";
  c.args = {absl::StrCat("--grid=", o.grid[0], "x", o.grid[1], "x", o.grid[2]),
            absl::StrCat("--iterations=", absl::GetFlag(FLAGS_iterations)),
            "--flops-per-cell=2"};
  c.compute = 2.0 * kCells * kCells * kCells / kCoreSpeed;
  return c;
}

absl::StatusOr<Case> ReplayCase(int64_t ranks, const std::string& dir) {
  Case c;
  c.name = absl::StrCat("replay clustered ", ranks);
  c.platform = Platform(ranks, 24);
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  const int32_t n = static_cast<int32_t>(ranks);
  // Heavy (64 KiB) inside hidden groups of 16, medium inside groups of 64,
  // light background: the engine bench's clustered family in bytes.
  std::mt19937_64 rng(seed + 4);
  graphs::CommGraphBuilder b(n);
  for (int32_t u = 0; u < n; ++u) {
    const int32_t g16 = u / 16 * 16, g64 = u / 64 * 64;
    for (int32_t v = u + 1; v < std::min(n, g16 + 16); ++v)
      RETURN_IF_ERROR(b.AddEdge(u, v, 65536));
    for (int k = 0; k < 4; ++k) {
      RETURN_IF_ERROR(b.AddEdge(
          u, g64 + static_cast<int32_t>(rng() % std::min(64, n - g64)), 655));
    }
    for (int k = 0; k < 2; ++k)
      RETURN_IF_ERROR(b.AddEdge(u, static_cast<int32_t>(rng() % n), 65));
  }
  ASSIGN_OR_RETURN(const CommGraph g, std::move(b).Build());
  c.graph = testing::Permute(g, testing::RandomPermutation(n, seed + 6));
  const std::string path = absl::StrCat(dir, "/clustered", ranks, ".grf");
  RETURN_IF_ERROR(graphs::WriteGraphFile(c.graph, path));
  c.program = "replay_smpi.so";
  c.args = {path,
            absl::StrCat("--iterations=", absl::GetFlag(FLAGS_iterations))};
  return c;
}

// `mesh` cut by METIS into `parts` parts with `method` (3% imbalance), the
// parts numbered as METIS numbers them, written as a partition file at
// `path`.
absl::StatusOr<std::vector<int32_t>> PartitionMesh(const CommGraph& mesh,
                                                   int64_t parts,
                                                   core::MetisMethod method,
                                                   const std::string& path) {
  const core::MetisGraph mg = core::ToMetisGraph(mesh, false);
  std::vector<int32_t> part;
  const std::vector<double> targets(parts, 1.0);
  RETURN_IF_ERROR(core::MetisPartition(mg, targets, 1.03, method, 1,
                                       absl::GetFlag(FLAGS_seed), &part));
  std::string text;
  for (int32_t p : part) absl::StrAppend(&text, p, "\n");
  RETURN_IF_ERROR(base::WriteFile(path, text));
  return part;
}

std::string MeshPath(const std::string& name) {
  return absl::StrCat(absl::GetFlag(FLAGS_mesh_dir), "/", name, ".graph");
}

absl::StatusOr<Case> MeshCase(int64_t ranks, const std::string& dir) {
  Case c;
  const std::string mesh_name = ranks <= 256 ? "copter2" : "mdual";
  c.name = absl::StrCat("mesh ", mesh_name, " ", ranks);
  c.platform = Platform(ranks, 12);
  const std::string mesh_path = MeshPath(mesh_name);
  ASSIGN_OR_RETURN(const CommGraph mesh, graphs::ReadGraphFile(mesh_path));
  const std::string part_path =
      absl::StrCat(dir, "/", mesh_name, ".part.", ranks);
  ASSIGN_OR_RETURN(
      const std::vector<int32_t> part,
      PartitionMesh(mesh, ranks, core::MetisMethod::kKway, part_path));
  ASSIGN_OR_RETURN(
      const graphs::MeshHalo halo,
      graphs::ComputeMeshHalo(mesh, part, static_cast<int32_t>(ranks)));
  constexpr int kValues = 5;
  ASSIGN_OR_RETURN(c.graph, graphs::MeshHaloGraph(halo, 8.0 * kValues));
  c.program = "mesh_halo_smpi.so";
  c.args = {mesh_path, part_path,
            absl::StrCat("--iterations=", absl::GetFlag(FLAGS_iterations)),
            absl::StrCat("--values-per-vertex=", kValues),
            "--flops-per-vertex=20"};
  c.compute = 20.0 *
              static_cast<double>(
                  *std::max_element(halo.owned.begin(), halo.owned.end())) /
              kCoreSpeed;
  return c;
}

// ------------------------------------------------- latency-bound solver --

// A solver's traffic with message counts, per iteration: `exchanges` halo
// exchanges of one double per halo vertex (one message per direction of a
// neighbour pair each), and exchanges x allreduces allreduces of one double
// by recursive doubling (rank r and r xor 2^k swap 8 bytes in round k; ranks
// at or above the largest power of two p first fold into r - p and get the
// result back from it).
absl::StatusOr<CommGraph> SolverGraph(const graphs::MeshHalo& halo,
                                      int32_t exchanges, int32_t allreduces) {
  const int32_t n = halo.num_parts;
  graphs::CommGraphBuilder b(n);
  for (int32_t p = 0; p < n; ++p) {
    for (const auto& [q, vertices] : halo.sends[p]) {
      RETURN_IF_ERROR(b.AddTraffic(
          p, q, 8.0 * exchanges * static_cast<double>(vertices.size()),
          exchanges));
    }
  }
  const double reductions = static_cast<double>(exchanges) * allreduces;
  if (reductions == 0) return std::move(b).Build();
  int32_t p2 = 1;
  while (p2 <= n / 2) p2 *= 2;
  for (int32_t r = p2; r < n; ++r) {
    RETURN_IF_ERROR(b.AddTraffic(r, r - p2, 8 * reductions, reductions));
    RETURN_IF_ERROR(b.AddTraffic(r - p2, r, 8 * reductions, reductions));
  }
  for (int32_t r = 0; r < p2; ++r) {
    for (int32_t k = 1; k < p2; k *= 2)
      RETURN_IF_ERROR(b.AddTraffic(r, r ^ k, 8 * reductions, reductions));
  }
  return std::move(b).Build();
}

// The solver's arguments to sim/mesh_halo after MESH PARTITION.
std::vector<std::string> SolverArgs(int64_t iterations) {
  return {absl::StrCat("--iterations=", iterations), "--values-per-vertex=1",
          "--flops-per-vertex=20",
          absl::StrCat("--exchanges=", absl::GetFlag(FLAGS_cg_exchanges)),
          absl::StrCat("--allreduces=", absl::GetFlag(FLAGS_cg_allreduces))};
}

absl::StatusOr<Case> SolverCase(int64_t ranks, const std::string& dir) {
  Case c;
  c.name = absl::StrCat("cg copter2 ", ranks);
  c.platform = Platform(ranks, ranks >= 256 ? 12 : 4);
  const std::string mesh_path = MeshPath("copter2");
  ASSIGN_OR_RETURN(const CommGraph mesh, graphs::ReadGraphFile(mesh_path));
  const std::string part_path = absl::StrCat(dir, "/copter2.rb.part.", ranks);
  ASSIGN_OR_RETURN(
      const std::vector<int32_t> part,
      PartitionMesh(mesh, ranks, core::MetisMethod::kRecursive, part_path));
  ASSIGN_OR_RETURN(
      const graphs::MeshHalo halo,
      graphs::ComputeMeshHalo(mesh, part, static_cast<int32_t>(ranks)));
  const int32_t exchanges = absl::GetFlag(FLAGS_cg_exchanges);
  ASSIGN_OR_RETURN(c.graph, SolverGraph(halo, exchanges,
                                        absl::GetFlag(FLAGS_cg_allreduces)));
  c.program = "mesh_halo_smpi.so";
  c.args = {mesh_path, part_path};
  for (std::string& a : SolverArgs(absl::GetFlag(FLAGS_iterations)))
    c.args.push_back(std::move(a));
  c.compute = 20.0 * exchanges *
              static_cast<double>(
                  *std::max_element(halo.owned.begin(), halo.owned.end())) /
              kCoreSpeed;
  std::printf("cg copter2 %lld: %.0f messages of %.0f bytes per iteration\n",
              static_cast<long long>(ranks), c.graph.TotalMessages(),
              c.graph.TotalVolume());
  if (!absl::StrContains(
          absl::StrCat(",", absl::GetFlag(FLAGS_cg_replay_sizes), ","),
          absl::StrCat(",", ranks, ","))) {
    return c;
  }
  // The graph for the replay: bytes, and the counts as a graph of their own.
  c.replay = absl::StrCat(dir, "/cg", ranks, ".grf");
  c.replay_messages = absl::StrCat(dir, "/cg", ranks, ".msgs.edges");
  RETURN_IF_ERROR(graphs::WriteGraphFile(c.graph, c.replay));
  ASSIGN_OR_RETURN(
      const CommGraph counts,
      CommGraph::FromCsr({c.graph.xadj().begin(), c.graph.xadj().end()},
                         {c.graph.adjncy().begin(), c.graph.adjncy().end()},
                         {c.graph.adjmsg().begin(), c.graph.adjmsg().end()}));
  RETURN_IF_ERROR(graphs::WriteGraphFile(counts, c.replay_messages));
  return c;
}

// Runs the solver under the real mpirun with the profiler preloaded; returns
// the profile's prefix (prefix.mat, prefix.msgs.mat).
absl::StatusOr<std::string> ProfileSolver(const std::string& mesh_path,
                                          const std::string& part_path,
                                          int64_t ranks,
                                          const std::string& dir) {
  ASSIGN_OR_RETURN(const std::string program,
                   base::FindBesideSelf("sim/mesh_halo_mpi"));
  ASSIGN_OR_RETURN(const std::string profiler,
                   base::FindBesideSelf("mpi_bindings/librankmap_profile.so"));
  const std::string prefix = absl::StrCat(dir, "/profile", ranks);
  std::vector<std::string> argv = {"/usr/bin/env", "mpirun"};
  if (geteuid() == 0) argv.push_back("--allow-run-as-root");
  for (std::string a :
       {std::string("--oversubscribe"), std::string("-np"), absl::StrCat(ranks),
        std::string("--mca"), std::string("mpi_yield_when_idle"),
        std::string("1"), std::string("-x"),
        absl::StrCat("LD_PRELOAD=", profiler), std::string("-x"),
        absl::StrCat("RANKMAP_PROFILE_OUT=", prefix), program, mesh_path,
        part_path}) {
    argv.push_back(std::move(a));
  }
  for (std::string& a : SolverArgs(1)) argv.push_back(std::move(a));
  ASSIGN_OR_RETURN(const sim::ProcessResult r,
                   sim::RunProcess(std::move(argv), dir, "mpirun"));
  if (r.signal != 0 || r.exit_status != 0 ||
      !base::IsRegularFile(prefix + ".msgs.mat")) {
    return absl::InternalError(
        absl::StrCat("profiled run failed (status ", r.exit_status, ", signal ",
                     r.signal, "): ", r.err.substr(0, 500)));
  }
  return prefix;
}

absl::StatusOr<Case> ProfiledCase(int64_t ranks, const std::string& dir) {
  Case c;
  c.name = absl::StrCat("profiled 4elt ", ranks);
  c.platform = Platform(ranks, 4);
  const std::string mesh_path = MeshPath("4elt");
  ASSIGN_OR_RETURN(const CommGraph mesh, graphs::ReadGraphFile(mesh_path));
  const std::string part_path = absl::StrCat(dir, "/4elt.rb.part.", ranks);
  RETURN_IF_ERROR(
      PartitionMesh(mesh, ranks, core::MetisMethod::kRecursive, part_path)
          .status());
  ASSIGN_OR_RETURN(const std::string prefix,
                   ProfileSolver(mesh_path, part_path, ranks, dir));
  ASSIGN_OR_RETURN(graphs::Traffic t,
                   graphs::ReadTraffic(absl::StrCat(prefix, ".mat")));
  c.graph = std::move(t.graph);
  std::printf(
      "profiled 4elt %lld: %.0f messages of %.0f bytes recorded (whole run, "
      "two solver iterations and the set-up)\n",
      static_cast<long long>(ranks), c.graph.TotalMessages(),
      c.graph.TotalVolume());
  c.program = "replay_smpi.so";
  c.args = {absl::StrCat(prefix, ".mat"),
            absl::StrCat("--iterations=", absl::GetFlag(FLAGS_iterations)),
            absl::StrCat("--messages=", t.messages_path)};
  return c;
}

// ------------------------------------------------------------------ SUMMA --

// The Grid'5000 clusters of the thesis' 16-node SMPI attempt (Malik, app. A:
// Edel 4, Taurus 5, Sol 3, Chimint 4 nodes), four times as many nodes, one
// process per node. Cores per node from the thesis' Table 3.8 (Sol: 4);
// every core 9.6 Gflop/s; as the thesis raised heterogeneity with thread
// counts, odd nodes run half as many threads. Node links and inter-cluster
// bandwidths from Table 3.9 (MB/s; Sol and Chimint take the rows of Suno and
// Chinqchint, the other clusters of their sites); latencies by distance.
struct Site {
  const char* name;
  int nodes;
  int cores;
  double link_mbps;  // node link, MB/s
};
constexpr Site kSites[] = {{"edel", 16, 8, 891.20},
                           {"taurus", 20, 12, 6850.27},
                           {"sol", 12, 4, 895.41},
                           {"chimint", 16, 8, 892.90}};
constexpr double kSiteMbps[4][4] = {{891.20, 249.53, 83.54, 59.51},
                                    {249.53, 6850.27, 111.23, 75.12},
                                    {83.54, 111.23, 895.41, 43.20},
                                    {59.51, 75.12, 43.20, 892.90}};
constexpr double kSiteLatencyMs[4][4] = {
    {0, 1.5, 3, 5}, {1.5, 0, 3, 4}, {3, 3, 0, 8}, {5, 4, 8, 0}};
constexpr double kFlopsPerCore = 9.6e9;

struct Grid {
  std::string xml;
  std::vector<std::string> host;  // all hosts, site by site
  std::vector<int32_t> site;      // per host
  std::vector<double> speed;      // per host, flop/s
};

Grid MakeGrid() {
  Grid g;
  std::string zones, links, routes;
  for (int s = 0; s < 4; ++s) {
    const Site& site = kSites[s];
    absl::StrAppend(&zones, "    <zone id=\"", site.name,
                    "\" routing=\"Floyd\">\n      <router id=\"", site.name,
                    "-sw\"/>\n");
    std::string site_routes;
    for (int i = 0; i < site.nodes; ++i) {
      const std::string h = absl::StrCat(site.name, "-", i);
      const int threads = i % 2 == 0 ? site.cores : site.cores / 2;
      g.host.push_back(h);
      g.site.push_back(s);
      g.speed.push_back(threads * kFlopsPerCore);
      absl::StrAppend(
          &zones, "      <host id=\"", h, "\" speed=\"",
          absl::StrFormat("%.17g", threads * kFlopsPerCore),
          "f\" core=\"1\"/>\n      <link id=\"", h, "-up\" bandwidth=\"",
          site.link_mbps,
          "MBps\" latency=\"20us\" sharing_policy=\"SPLITDUPLEX\"/>\n");
      absl::StrAppend(&site_routes, "      <route src=\"", h, "\" dst=\"",
                      site.name, "-sw\"><link_ctn id=\"", h,
                      "-up\" direction=\"UP\"/></route>\n");
    }
    absl::StrAppend(&zones, site_routes, "    </zone>\n");
    for (int t = s + 1; t < 4; ++t) {
      const std::string id = absl::StrCat(site.name, "-", kSites[t].name);
      absl::StrAppend(&links, "    <link id=\"", id, "\" bandwidth=\"",
                      kSiteMbps[s][t], "MBps\" latency=\"",
                      kSiteLatencyMs[s][t], "ms\"/>\n");
      absl::StrAppend(&routes, "    <zoneRoute src=\"", site.name, "\" dst=\"",
                      kSites[t].name, "\" gw_src=\"", site.name,
                      "-sw\" gw_dst=\"", kSites[t].name,
                      "-sw\"><link_ctn id=\"", id, "\"/></zoneRoute>\n");
    }
  }
  g.xml = absl::StrCat(
      "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
      "\"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n"
      "  <zone id=\"grid\" routing=\"Full\">\n",
      zones, links, routes, "  </zone>\n</platform>\n");
  return g;
}

std::string PartitionText(const tiling::Partition& p, int64_t block) {
  std::string out = absl::StrCat("summa ", p.rows, " ", block, "\n");
  for (const tiling::Rect& r : p.rects)
    absl::StrAppend(&out, "rect ", r.row, " ", r.col, " ", r.height, " ",
                    r.width, " ", r.owner, "\n");
  return out;
}

absl::Status RunSumma(const std::string& dir) {
  constexpr int64_t kBlocks = 128, kBlock = 64;
  const Grid grid = MakeGrid();
  const std::string platform = dir + "/grid.xml";
  RETURN_IF_ERROR(base::WriteFile(platform, grid.xml));
  ASSIGN_OR_RETURN(const Tree tree,
                   topology::ReadSimGridPlatformFile(platform));
  ASSIGN_OR_RETURN(const sim::Simulator simulator,
                   sim::Simulator::Create(tree, platform));
  ASSIGN_OR_RETURN(const std::string program,
                   sim::FindSmpiProgram("summa_smpi.so"));
  const int32_t p = static_cast<int32_t>(grid.host.size());
  std::map<std::string, LeafId> leaf_of;
  for (LeafId l = 0; l < tree.num_leaves(); ++l) leaf_of[tree.host(l)] = l;
  // Topology-unaware: processor i is the i-th host handed out by a scheduler
  // that ignores clusters (a seeded shuffle).
  const std::vector<int32_t> perm =
      testing::RandomPermutation(p, absl::GetFlag(FLAGS_seed) + 7);
  graphs::MatrixFrontendOptions o;
  std::vector<int32_t> proc_site(p);
  Mapping on_host(p);
  for (int32_t i = 0; i < p; ++i) {
    o.speeds.push_back(grid.speed[perm[i]]);
    proc_site[i] = grid.site[perm[i]];
    on_host[i] = leaf_of.at(grid.host[perm[i]]);
  }
  o.n = kBlocks * kBlock;
  o.block = kBlock;
  o.flow = graphs::SummaFlow::kOneToAll;
  ASSIGN_OR_RETURN(const graphs::MatrixFrontendResult unaware,
                   graphs::SummaFrontend(o));
  o.clusters = proc_site;
  o.num_clusters = 4;
  for (int s = 0; s < 4; ++s)
    for (int t = 0; t < 4; ++t) o.bandwidth.push_back(kSiteMbps[s][t]);
  ASSIGN_OR_RETURN(const graphs::MatrixFrontendResult arranged,
                   graphs::SummaFrontend(o));
  for (absl::string_view line : absl::StrSplit(arranged.report, '\n')) {
    if (absl::StrContains(line, "bandwidth cost") ||
        absl::StrContains(line, "partition:"))
      std::printf("%s\n", std::string(line).c_str());
  }
  // rankmap on the unaware partition: with slot classes (a rectangle only
  // moves to a host of the speed it was sized for, core/model/slot_classes.h)
  // and free.
  ASSIGN_OR_RETURN(core::MappingOptions opts,
                   core::MappingOptions::Preset("default"));
  opts.seed = absl::GetFlag(FLAGS_seed);
  std::vector<double> leaf_speed(tree.num_leaves());
  for (size_t h = 0; h < grid.host.size(); ++h)
    leaf_speed[leaf_of.at(grid.host[h])] = grid.speed[h];
  ASSIGN_OR_RETURN(const core::SlotClasses speed_classes,
                   core::ClassesFromSpeeds(o.speeds, leaf_speed));
  ASSIGN_OR_RETURN(const Mapping classes,
                   core::Map(tree, unaware.graph, opts, speed_classes));
  ASSIGN_OR_RETURN(const Mapping free_map,
                   core::Map(tree, unaware.graph, opts));
  struct Variant {
    const char* name;
    const graphs::MatrixFrontendResult* partition;
    const Mapping* mapping;
  };
  const Variant variants[] = {
      {"topology-unaware", &unaware, &on_host},
      {"Algorithm 2", &arranged, &on_host},
      {"map within speeds", &unaware, &classes},
      {"map (free)", &unaware, &free_map},
  };
  std::printf(
      "\n== summa: %d processes, one per node, on 4 clusters (edel 16, taurus "
      "20, sol 12, chimint 16 nodes), n = %lld (%lld x %lld blocks of %lld)\n",
      p, static_cast<long long>(o.n), static_cast<long long>(kBlocks),
      static_cast<long long>(kBlocks), static_cast<long long>(kBlock));
  std::printf("%-10s %-20s %12s %14s %10s %10s %13s\n", "flow", "arrangement",
              "J", "simulated (s)", "/unaware", "WAN (GB)", "max WAN (s)");
  // Bytes between sites and the busiest wide-area link's transfer time, for
  // explaining the simulated times (a link carries both directions).
  std::map<LeafId, int32_t> site_of_leaf;
  for (size_t h = 0; h < grid.host.size(); ++h)
    site_of_leaf[leaf_of.at(grid.host[h])] = grid.site[h];
  auto wan = [&](const CommGraph& g, const Mapping& m) {
    double pair[4][4] = {};
    for (int32_t u = 0; u < g.num_vertices(); ++u) {
      for (int64_t e = g.xadj()[u]; e < g.xadj()[u + 1]; ++e) {
        const int32_t v = g.adjncy()[e];
        const int32_t a = site_of_leaf.at(m[u]), b = site_of_leaf.at(m[v]);
        if (u < v && a != b)
          pair[std::min(a, b)][std::max(a, b)] += g.adjwgt()[e];
      }
    }
    double total = 0, slowest = 0;
    for (int s = 0; s < 4; ++s) {
      for (int t = s + 1; t < 4; ++t) {
        total += pair[s][t];
        slowest = std::max(slowest, pair[s][t] / (kSiteMbps[s][t] * 1e6));
      }
    }
    return std::pair<double, double>(total, slowest);
  };
  for (const graphs::SummaFlow flow :
       {graphs::SummaFlow::kOneToAll, graphs::SummaFlow::kRing}) {
    const char* flow_name =
        flow == graphs::SummaFlow::kRing ? "ring" : "one-to-all";
    double base = 0, alg2 = 0;
    for (const Variant& v : variants) {
      const std::string path = absl::StrCat(dir, "/summa.part");
      RETURN_IF_ERROR(
          base::WriteFile(path, PartitionText(v.partition->partition, kBlock)));
      ASSIGN_OR_RETURN(const CommGraph g,
                       graphs::HeterogeneousSummaGraph(
                           v.partition->partition, flow, {kBlock * kBlock, 8}));
      const double j = core::ComputeJ(tree, g, *v.mapping);
      ASSIGN_OR_RETURN(
          const sim::SmpiOutput out,
          simulator.Run(program, {path, absl::StrCat("--flow=", flow_name)},
                        *v.mapping, sim::SmpiModel::kCalibrated));
      ASSIGN_OR_RETURN(const double t, sim::ParseTimePerIteration(out.out));
      if (base == 0) base = t;
      if (std::string(v.name) == "Algorithm 2") alg2 = t;
      const auto [wan_bytes, wan_seconds] = wan(g, *v.mapping);
      std::printf("%-10s %-20s %12.4g %14.6g %10.3f %10.3f %13.4g\n", flow_name,
                  v.name, j, t, t / base, wan_bytes / 1e9, wan_seconds);
      std::fflush(stdout);
    }
    std::printf(
        "%s: Algorithm 2 total-time gain over topology-unaware: "
        "%.1f%%\n",
        flow_name, 100.0 * (base - alg2) / base);
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace rankmap::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  using namespace rankmap::bench;
  auto temp = rankmap::base::TempDir::Create("bench-sim");
  if (!temp.ok()) {
    std::fprintf(stderr, "%s\n", std::string(temp.status().message()).c_str());
    return 1;
  }
  // The inputs the cases write (graphs, partitions, the profile), kept in
  // --work_dir when it is given.
  const std::string work_dir = absl::GetFlag(FLAGS_work_dir).empty()
                                   ? temp->path()
                                   : absl::GetFlag(FLAGS_work_dir);
  const std::string* dir = &work_dir;
  auto parse_sizes = [](const std::string& flag, std::vector<int64_t>& out) {
    for (absl::string_view s : absl::StrSplit(flag, ',', absl::SkipEmpty())) {
      int64_t v = 0;
      if (!absl::SimpleAtoi(s, &v) || v < 2) {
        std::fprintf(stderr, "bad size '%s'\n", std::string(s).c_str());
        return false;
      }
      out.push_back(v);
    }
    return true;
  };
  std::vector<int64_t> stencil_sizes, mesh_sizes, replay_sizes, cg_sizes,
      profiled_sizes;
  if (!parse_sizes(absl::GetFlag(FLAGS_stencil_sizes), stencil_sizes) ||
      !parse_sizes(absl::GetFlag(FLAGS_mesh_sizes), mesh_sizes) ||
      !parse_sizes(absl::GetFlag(FLAGS_replay_sizes), replay_sizes) ||
      !parse_sizes(absl::GetFlag(FLAGS_cg_sizes), cg_sizes) ||
      !parse_sizes(absl::GetFlag(FLAGS_profiled_sizes), profiled_sizes))
    return 2;
  const std::string cases = absl::GetFlag(FLAGS_cases);
  auto wants = [&](const char* name) {
    return cases.find(name) != std::string::npos;
  };
  std::vector<absl::StatusOr<Case>> todo;
  if (wants("stencil")) {
    for (int64_t n : stencil_sizes) todo.push_back(StencilCase(n));
  }
  if (wants("replay")) {
    for (int64_t n : replay_sizes) todo.push_back(ReplayCase(n, *dir));
  }
  if (wants("mesh")) {
    for (int64_t n : mesh_sizes) todo.push_back(MeshCase(n, *dir));
  }
  if (wants("cg")) {
    for (int64_t n : cg_sizes) todo.push_back(SolverCase(n, *dir));
  }
  if (wants("profiled")) {
    for (int64_t n : profiled_sizes) todo.push_back(ProfiledCase(n, *dir));
  }
  if (absl::GetFlag(FLAGS_large) && wants("stencil"))
    todo.push_back(StencilCase(4096));
  std::vector<Summary> summaries;
  int failures = 0;
  if (wants("summa")) {
    absl::Status s = RunSumma(*dir);
    if (!s.ok()) {
      std::printf("summa failed: %s\n", std::string(s.message()).c_str());
      ++failures;
    }
  }
  for (auto& c : todo) {
    absl::StatusOr<Summary> s =
        c.ok() ? RunCase(*c, *dir) : absl::StatusOr<Summary>(c.status());
    if (!s.ok()) {
      std::printf("case failed: %s\n",
                  std::string(s.status().message()).c_str());
      ++failures;
      continue;
    }
    summaries.push_back(*s);
  }
  std::printf(
      "\n== summary: default's simulated time / the best algorithm's; "
      "rank correlations with simulated time\n");
  std::printf("%-26s %9s %9s %-13s %6s %6s %8s %6s %7s %7s\n", "case",
              "def/best", "def/pack", "best", "J", "load", "hockney", "lmo",
              "hloggp", "taulop");
  std::vector<double> mean(6, 0.0);
  for (const Summary& s : summaries) {
    std::printf("%-26s %9.4f %9.4f %-13s", s.name.c_str(), s.default_vs_best,
                s.default_vs_packed, s.best.c_str());
    for (size_t k = 0; k < s.correlation.size(); ++k) {
      std::printf(" %6.2f", s.correlation[k]);
      mean[k] += s.correlation[k] / summaries.size();
    }
    std::printf("\n");
  }
  if (!summaries.empty()) {
    std::printf("%-26s %9s %9s %-13s", "mean", "", "", "");
    for (double m : mean) std::printf(" %6.2f", m);
    std::printf("\n");
  }
  std::printf(
      "\n== predicted = simulated: default's gain over packed predicted "
      "(core/objective/link_load.h) and replayed (sim/replay of the same traffic); "
      "pairs of mappings whose replays differ by more than 2%%, ordered alike "
      "by the prediction\n");
  std::printf("%-26s %10s %10s %8s %8s\n", "case", "predicted", "replayed",
              "points", "alike");
  for (const Summary& s : summaries) {
    std::printf("%-26s %9.1f%% %9.1f%% %+8.1f %5d/%-3d%s\n", s.name.c_str(),
                100 * s.predicted_gain, 100 * s.replayed_gain,
                100 * (s.predicted_gain - s.replayed_gain), s.pairs_alike,
                s.pairs,
                std::fabs(s.predicted_gain - s.replayed_gain) <= 0.03 &&
                        s.pairs_alike == s.pairs
                    ? ""
                    : "  (off target)");
  }
  return failures == 0 ? 0 : 1;
}
