// Partitioner-scale benchmark: meshes of 10^5-10^6 cells partitioned onto
// machines of 64-1,536 cores by the partitions a user can have, side by side
// in one run, each judged by J and by the simulated time of one halo exchange
// built from it (SimGrid SMPI, sim/replay message by message).
//
//   ./bazelw run -c opt //bench:partition
//   ./bazelw run -c opt //bench:partition -- --meshes=stencil3d:64x64x64 \
//       --machines="tleaf 3 6 25Gbps:2us 8 100Gbps:1us 4 40GBps:0.3us"
//   # a real mesh and the traffic its solver sends (bench/openfoam_profile.sh):
//   ./bazelw run -c opt //bench:partition -- --meshes=graph:channel.grf \
//       --profile=pimple16 --profile_partition=pimple16.part --exchanges=3
//
// Partitions (part p runs on leaf p, as launchers place ranks in order):
//   status quo   Scotch onto a complete graph (a flat tree of the same
//                leaves), parts in order: what OpenFOAM's scotch method and
//                PETSc's ptscotch give; best J of --runs seeds
//   scotch_gmap  Scotch's machine-aware mapping (SCOTCH_graphMap onto the
//                tree); best J of --runs seeds
//   metis+place  METIS k-way, then rankmap's one-to-one placement of the
//                parts' exchange graph (under each traffic model)
//   rankmap      rankmap's n-to-1 entry point (api::Partition, the default
//                preset), told the traffic model; the candidate its choice
//                kept is printed after the row
// Traffic models of one exchange between neighbouring parts p and q sharing
// f faces (core::ExchangeModel, the parts' exchange graph of
// core::ExchangeGraph): bandwidth-bound (--bw_bytes_per_face B a face,
// --bw_messages per pair and direction) and latency-bound (--lat_messages
// small messages per pair and direction carrying --lat_bytes_per_face B a
// face in all; or fitted from a profile of the solver with --profile,
// api::FitExchangeModel). Each partition's exchange is
// replayed under both models (SMPI's calibrated model on the tree's links);
// ratios are to the status quo's and scotch_gmap's replay under the same
// model.
//
// Every partition is checked (one in-range leaf per cell), its J recomputed
// here from the tree's distances, its imbalance computed here; a row over
// --imbalance is marked '!'. Deterministic for the engine and METIS (seeded);
// Debian's Scotch varies from run to run, hence the best of several.
#include "api/partition.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "api/named_options.h"
#include "base/status_macros.h"
#include "base/temp_dir.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/split/metis_split.h"
#include "core/model/options.h"
#include "core/strategies/partition_choice.h"
#include "core/baselines/scotch_map.h"
#include "graphs/comm_graph.h"
#include "graphs/frontends/mesh_halo.h"
#include "graphs/graphs.h"
#include "graphs/traffic.h"
#include "sim/simulate.h"
#include "tests/factories.h"
#include "topology/tleaf.h"
#include "topology/tree.h"

ABSL_FLAG(std::string, meshes,
          "stencil3d:64x64x64,stencil2d:512x512,metis:mdual",
          "comma-separated meshes: stencil3d:XxYxZ (7-point), stencil2d:XxY "
          "(5-point), both shuffled; metis:NAME (--mesh_dir/NAME.graph); "
          "graph:PATH (any graph file, e.g. `rankmap frontend openfoam`'s)");
ABSL_FLAG(std::string, machines,
          "tleaf 3 2 10Gbps:5us 4 25Gbps:2us 8 40GBps:0.3us;"
          "tleaf 3 6 25Gbps:2us 8 100Gbps:1us 4 40GBps:0.3us;"
          "tleaf 4 8 25Gbps:2us 8 100Gbps:1us 2 50GBps:0.5us 12 "
          "40GBps:0.3us",
          "semicolon-separated tleaf machines with links");
ABSL_FLAG(std::string, mesh_dir, "/usr/share/doc/libmetis-dev/examples/graphs",
          "where metis:NAME meshes are");
ABSL_FLAG(int32_t, runs, 3, "Scotch runs (seeds 1..runs), the best kept");
ABSL_FLAG(double, imbalance, 0.03, "allowed imbalance of every partitioner");
ABSL_FLAG(double, bw_bytes_per_face, 40, "bandwidth-bound: bytes a face");
ABSL_FLAG(double, bw_messages, 1, "bandwidth-bound: messages a pair, each way");
ABSL_FLAG(double, lat_messages, 1600,
          "latency-bound: messages a pair, each way (without --profile)");
ABSL_FLAG(double, lat_bytes_per_face, 12800,
          "latency-bound: bytes a face, all messages together (without "
          "--profile): one double per face per message");
ABSL_FLAG(std::string, profile, "",
          "latency-bound model fitted from this profile (PREFIX.mat and "
          "PREFIX.msgs.mat of librankmap_profile.so) of the first mesh");
ABSL_FLAG(std::string, profile_partition, "",
          "the partition the profiled run used: one part per line per cell");
ABSL_FLAG(int64_t, exchanges, 1,
          "what the profile holds: this many exchanges (time steps)");
ABSL_FLAG(bool, simulate, true, "replay each exchange in SMPI");
ABSL_FLAG(int64_t, max_replay_messages, 4'000'000,
          "replays of more messages than this (SMPI: about 10^5 a CPU second) "
          "are left out, shown as '-'");
ABSL_FLAG(uint64_t, seed, 1, "seed of the shuffles, METIS and the engine");
ABSL_FLAG(int32_t, threads, 1, "engine threads (results do not depend on it)");
ABSL_FLAG(bool, check, false,
          "exit status 1 unless every partition is valid and within the "
          "imbalance bound (rankmap, metis+place) and every replay ran");

namespace rankmap::bench {
namespace {

using core::ExchangeModel;
using graphs::CommGraph;
using topology::Tree;
using Clock = std::chrono::steady_clock;

// The message counts of an exchange graph as the weights of a graph of the
// same arcs: the replay's message file.
absl::StatusOr<CommGraph> MessageGraph(const CommGraph& g) {
  return CommGraph::FromCsr({g.xadj().begin(), g.xadj().end()},
                            {g.adjncy().begin(), g.adjncy().end()},
                            {g.adjmsg().begin(), g.adjmsg().end()});
}

struct Mesh {
  std::string name;
  CommGraph graph;
};

// One partition and what it costs.
struct Row {
  std::string name;
  core::Mapping mapping;
  double seconds = 0;  // wall time of one run
  double j = 0;
  double imbalance = 0;
  double replay[2] = {-1, -1};  // bandwidth-bound, latency-bound
  std::string note;             // rankmap: the candidate its choice kept
};

absl::StatusOr<std::vector<int32_t>> Dims(const std::string& text, size_t n) {
  std::vector<int32_t> dims;
  const std::vector<std::string> parts = absl::StrSplit(text, 'x');
  for (const std::string& d : parts) {
    int32_t v = 0;
    if (!absl::SimpleAtoi(d, &v) || v <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad extents '", text, "'"));
    }
    dims.push_back(v);
  }
  if (dims.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "': expected ", n, " extents"));
  }
  return dims;
}

// The mesh `spec` names, its cells shuffled where it is generated (so that
// the natural order, which hides nothing, is no help).
absl::StatusOr<Mesh> LoadMesh(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("mesh '", spec, "'"));
  }
  const std::string kind = spec.substr(0, colon), arg = spec.substr(colon + 1);
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  Mesh m{spec, {}};
  if (kind == "stencil3d" || kind == "stencil2d") {
    const bool three = kind == "stencil3d";
    ASSIGN_OR_RETURN(const std::vector<int32_t> d, Dims(arg, three ? 3 : 2));
    CommGraph g = three ? testing::MakeGrid3D(d[0], d[1], d[2])
                        : testing::MakeGrid2D(d[0], d[1]);
    m.graph =
        testing::Permute(g, testing::RandomPermutation(g.num_vertices(), seed));
  } else if (kind == "metis") {
    ASSIGN_OR_RETURN(m.graph,
                     graphs::ReadGraphFile(absl::StrCat(
                         absl::GetFlag(FLAGS_mesh_dir), "/", arg, ".graph")));
  } else if (kind == "graph") {
    ASSIGN_OR_RETURN(m.graph, graphs::ReadGraphFile(arg));
  } else {
    return absl::InvalidArgumentError(absl::StrCat("mesh kind '", kind, "'"));
  }
  return m;
}

// J recomputed from the tree's distances, independently of core's cost.
double RecomputedJ(const Tree& tree, const CommGraph& g,
                   const core::Mapping& m) {
  long double j = 0;
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    const auto nbr = g.neighbors(u);
    const auto w = g.weights(u);
    for (size_t k = 0; k < nbr.size(); ++k) {
      if (u < nbr[k] && m[u] != m[nbr[k]]) {
        j += w[k] * tree.Distance(m[u], m[nbr[k]]);
      }
    }
  }
  return static_cast<double>(j);
}

// Largest excess of a leaf's cells over its share (leaves of capacity 1).
double Imbalance(const Tree& tree, const CommGraph& g, const core::Mapping& m) {
  std::vector<double> load(tree.num_leaves(), 0);
  for (graphs::VertexId v = 0; v < g.num_vertices(); ++v) {
    load[m[v]] += g.vertex_weight(v);
  }
  const double share = g.TotalVertexWeight() / tree.num_leaves();
  return *std::max_element(load.begin(), load.end()) / share - 1;
}

absl::Status CheckMapping(const Tree& tree, const CommGraph& g,
                          const core::Mapping& m, std::string_view name) {
  if (static_cast<int64_t>(m.size()) != g.num_vertices()) {
    return absl::InternalError(
        absl::StrCat(std::string(name), ": mapping of ", m.size(), " cells"));
  }
  for (core::LeafId l : m) {
    if (l < 0 || l >= tree.num_leaves()) {
      return absl::InternalError(
          absl::StrCat(std::string(name), ": leaf ", l, " out of range"));
    }
  }
  return absl::OkStatus();
}

template <typename F>
absl::StatusOr<Row> Timed(std::string name, F run) {
  Row r;
  r.name = std::move(name);
  const auto start = Clock::now();
  ASSIGN_OR_RETURN(r.mapping, run());
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

// The best of --runs Scotch runs by J on `target` (a flat tree for the
// status quo), the wall time of one run.
absl::StatusOr<Row> BestScotch(std::string name, const Tree& target,
                               const CommGraph& g) {
  Row best;
  double total = 0;
  const int32_t runs = std::max(1, absl::GetFlag(FLAGS_runs));
  for (int32_t s = 1; s <= runs; ++s) {
    ASSIGN_OR_RETURN(Row r, Timed(name, [&] {
                       return core::ScotchPartitionMap(
                           target, g, absl::GetFlag(FLAGS_imbalance), s);
                     }));
    total += r.seconds;
    r.j = RecomputedJ(target, g, r.mapping);
    if (s == 1 || r.j < best.j) best = std::move(r);
  }
  best.seconds = total / runs;
  return best;
}

absl::StatusOr<core::MappingOptions> EngineOptions() {
  return api::ResolveOptions({.seed = absl::GetFlag(FLAGS_seed),
                              .threads = absl::GetFlag(FLAGS_threads),
                              .imbalance = absl::GetFlag(FLAGS_imbalance)});
}

// METIS k-way into one part a leaf, then the parts' exchange graph under
// `model` placed one-to-one by the engine.
absl::StatusOr<core::Mapping> MetisPlaced(const Tree& tree, const CommGraph& g,
                                          const ExchangeModel& model) {
  std::vector<int32_t> part;
  const std::vector<double> targets(tree.num_leaves(), 1.0);
  RETURN_IF_ERROR(core::MetisPartition(
      core::ToMetisGraph(g, false), targets, 1 + absl::GetFlag(FLAGS_imbalance),
      core::MetisMethod::kKway, 1, absl::GetFlag(FLAGS_seed), &part));
  ASSIGN_OR_RETURN(const CommGraph exchange,
                   core::ExchangeGraph(tree, g, part, model));
  ASSIGN_OR_RETURN(const core::MappingOptions o, EngineOptions());
  ASSIGN_OR_RETURN(const core::Mapping place, core::Map(tree, exchange, o));
  core::Mapping m(part.size());
  for (size_t v = 0; v < part.size(); ++v) m[v] = place[part[v]];
  return m;
}

// rankmap's n-to-1 entry point (api::Partition), told the traffic model;
// `winner` gets the candidate it chose.
absl::StatusOr<core::Mapping> RankmapNTo1(const Tree& tree, const CommGraph& g,
                                          const ExchangeModel& model,
                                          std::string* winner) {
  ASSIGN_OR_RETURN(core::MappingOptions o, EngineOptions());
  o.exchange = model;
  ASSIGN_OR_RETURN(api::PartitionOutcome out, api::Partition(tree, g, o));
  *winner = out.choice.winner;
  return std::move(out.mapping);
}

// The exchange of `row`'s partition under `model`, replayed message by
// message; seconds of one exchange, or -1 when it has more messages than
// --max_replay_messages.
absl::StatusOr<double> Replay(const sim::Simulator& simulator, const Tree& tree,
                              const CommGraph& g, const core::Mapping& m,
                              const ExchangeModel& model,
                              const std::string& dir) {
  ASSIGN_OR_RETURN(const CommGraph exchange,
                   core::ExchangeGraph(tree, g, m, model));
  if (exchange.TotalMessages() > absl::GetFlag(FLAGS_max_replay_messages)) {
    return -1.0;  // too long to simulate: left out
  }
  const std::string bytes = dir + "/exchange.edges";
  const std::string counts = dir + "/exchange.msgs.edges";
  RETURN_IF_ERROR(graphs::WriteGraphFile(exchange, bytes));
  ASSIGN_OR_RETURN(const CommGraph messages, MessageGraph(exchange));
  RETURN_IF_ERROR(graphs::WriteGraphFile(messages, counts));
  sim::SimulateOptions o;
  o.iterations = 1;
  o.messages = counts;
  ASSIGN_OR_RETURN(const sim::ReplayPlan plan, sim::PlanReplay(bytes, o));
  core::Mapping identity(tree.num_leaves());
  for (int32_t l = 0; l < tree.num_leaves(); ++l) identity[l] = l;
  return simulator.Replay(plan, identity, o);
}

void PrintRows(const std::vector<Row>& rows, const Row& status_quo,
               const Row& gmap) {
  std::printf("  %-18s %12s %6s %7s %9s %11s %6s %6s %11s %6s %6s\n",
              "partition", "J", "/sq", "imbal", "wall s", "bw xchg s", "/sq",
              "/gmap", "lat xchg s", "/sq", "/gmap");
  const double bound = absl::GetFlag(FLAGS_imbalance);
  for (const Row& r : rows) {
    std::printf("  %-18s %12.6g %6.3f %6.2f%%%s %9.3f", r.name.c_str(), r.j,
                r.j / status_quo.j, 100 * r.imbalance,
                r.imbalance > bound + 1e-9 ? "!" : " ", r.seconds);
    for (int k = 0; k < 2; ++k) {
      if (r.replay[k] < 0 || status_quo.replay[k] < 0 || gmap.replay[k] < 0) {
        std::printf(" %11s %6s %6s", "-", "-", "-");
      } else {
        std::printf(" %11.5g %6.3f %6.3f", r.replay[k],
                    r.replay[k] / status_quo.replay[k],
                    r.replay[k] / gmap.replay[k]);
      }
    }
    std::printf("%s%s\n", r.note.empty() ? "" : "  ", r.note.c_str());
  }
}

// Every partition of one mesh on one machine, replayed, printed. OK unless a
// partition or replay failed; `bad` counts rows the check refuses.
absl::Status RunCase(const Mesh& mesh, const std::string& machine,
                     const ExchangeModel models[2], int* bad) {
  ASSIGN_OR_RETURN(const Tree tree, topology::ParseTleaf(machine));
  ASSIGN_OR_RETURN(const Tree flat, topology::ParseTleaf(absl::StrCat(
                                        "tleaf 1 ", tree.num_leaves(), " 1")));
  const CommGraph& g = mesh.graph;
  std::printf("\n%s (%d cells, %lld edges) on %s (%d cores)\n",
              mesh.name.c_str(), g.num_vertices(),
              static_cast<long long>(g.num_edges()), machine.c_str(),
              tree.num_leaves());
  std::vector<Row> rows;
  ASSIGN_OR_RETURN(Row sq, BestScotch("status quo", flat, g));
  rows.push_back(std::move(sq));
  ASSIGN_OR_RETURN(Row gmap, BestScotch("scotch_gmap", tree, g));
  rows.push_back(std::move(gmap));
  for (int k = 0; k < 2; ++k) {
    const char* tag = k == 0 ? "/bw" : "/lat";
    ASSIGN_OR_RETURN(Row metis, Timed(absl::StrCat("metis+place", tag), [&] {
                       return MetisPlaced(tree, g, models[k]);
                     }));
    rows.push_back(std::move(metis));
    std::string winner;
    ASSIGN_OR_RETURN(Row ours, Timed(absl::StrCat("rankmap", tag), [&] {
                       return RankmapNTo1(tree, g, models[k], &winner);
                     }));
    ours.note = winner;
    rows.push_back(std::move(ours));
  }
  std::optional<sim::Simulator> simulator;
  std::optional<base::TempDir> dir;
  if (absl::GetFlag(FLAGS_simulate)) {
    ASSIGN_OR_RETURN(simulator, sim::Simulator::Create(tree));
    ASSIGN_OR_RETURN(dir, base::TempDir::Create("partition-bench"));
  }
  const double bound = absl::GetFlag(FLAGS_imbalance);
  for (size_t i = 0; i < rows.size(); ++i) {
    Row& r = rows[i];
    RETURN_IF_ERROR(CheckMapping(tree, g, r.mapping, r.name));
    r.j = RecomputedJ(tree, g, r.mapping);
    r.imbalance = Imbalance(tree, g, r.mapping);
    const bool ours =
        r.name.starts_with("rankmap") || r.name.starts_with("metis+place");
    if (ours && r.imbalance > bound + 1e-9) ++*bad;
    if (!simulator) continue;
    // A partition an earlier row has (rankmap told either model often
    // returns the same one) replays the same: simulated once.
    const auto same =
        std::find_if(rows.begin(), rows.begin() + i,
                     [&](const Row& o) { return o.mapping == r.mapping; });
    for (int k = 0; k < 2; ++k) {
      if (same != rows.begin() + i) {
        r.replay[k] = same->replay[k];
        continue;
      }
      ASSIGN_OR_RETURN(r.replay[k], Replay(*simulator, tree, g, r.mapping,
                                           models[k], dir->path()));
    }
  }
  PrintRows(rows, rows[0], rows[1]);
  std::fflush(stdout);
  return absl::OkStatus();
}

// The latency-bound model: given, or fitted from a profile of the first
// mesh's solver (api::FitExchangeModel).
absl::StatusOr<ExchangeModel> LatencyModel(const std::vector<Mesh>& meshes) {
  const std::string profile = absl::GetFlag(FLAGS_profile);
  if (profile.empty()) {
    return ExchangeModel{absl::GetFlag(FLAGS_lat_bytes_per_face),
                         absl::GetFlag(FLAGS_lat_messages),
                         ExchangeModel::Source::kGiven};
  }
  ASSIGN_OR_RETURN(const graphs::Traffic t,
                   graphs::ReadTraffic(profile + ".mat"));
  // One part a line, or OpenFOAM's cellDecomposition.
  ASSIGN_OR_RETURN(
      const std::vector<int32_t> part,
      graphs::ReadPartitionFile(absl::GetFlag(FLAGS_profile_partition),
                                meshes.at(0).graph.num_vertices()));
  return api::FitExchangeModel(meshes.at(0).graph, part, t.graph,
                               profile + ".mat + .msgs.mat",
                               absl::GetFlag(FLAGS_exchanges));
}

int Main() {
  std::vector<Mesh> meshes;
  const std::vector<std::string> specs =
      absl::StrSplit(absl::GetFlag(FLAGS_meshes), ',', absl::SkipEmpty());
  const std::vector<std::string> machines =
      absl::StrSplit(absl::GetFlag(FLAGS_machines), ';', absl::SkipEmpty());
  for (const std::string& spec : specs) {
    absl::StatusOr<Mesh> m = LoadMesh(spec);
    if (!m.ok()) {
      std::fprintf(stderr, "%s\n", m.status().ToString().c_str());
      return 2;
    }
    meshes.push_back(*std::move(m));
  }
  absl::StatusOr<ExchangeModel> lat = LatencyModel(meshes);
  if (!lat.ok()) {
    std::fprintf(stderr, "%s\n", lat.status().ToString().c_str());
    return 2;
  }
  const ExchangeModel models[2] = {
      {absl::GetFlag(FLAGS_bw_bytes_per_face), absl::GetFlag(FLAGS_bw_messages),
       ExchangeModel::Source::kGiven},
      *lat};
  std::printf("bandwidth-bound: %s\nlatency-bound:   %s\n",
              core::DescribeExchange(models[0], meshes[0].graph).c_str(),
              core::DescribeExchange(models[1], meshes[0].graph).c_str());
  int bad = 0, failed = 0;
  for (const Mesh& mesh : meshes) {
    for (const std::string& machine : machines) {
      const absl::Status s = RunCase(mesh, machine, models, &bad);
      if (!s.ok()) {
        std::printf("  failed: %s\n", s.ToString().c_str());
        ++failed;
      }
    }
  }
  if (absl::GetFlag(FLAGS_check) && (bad > 0 || failed > 0)) {
    std::printf("check: %d rows over the imbalance bound, %d cases failed\n",
                bad, failed);
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace rankmap::bench

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  return rankmap::bench::Main();
}
