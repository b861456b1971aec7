#include "cli/commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/arg_parsers.h"
#include "cli/mapping_io.h"
#include "cli/progress.h"
#include "cli/svg.h"
#include "core/mapper.h"
#include "core/mapping.h"
#include "graphs/frontends/matrix_frontend.h"
#include "graphs/frontends/stencil.h"
#include "graphs/graphs.h"
#include "models/channel_params.h"
#include "models/cost_model.h"
#include "models/flow.h"
#include "topology/tleaf.h"
#include "topology/topology.h"
#include "topology/tree_ops.h"

namespace rankmap::cli {
namespace {

absl::StatusOr<topology::Tree> LoadTree(const Inputs& in) {
  topology::LoadOptions opts;
  if (in.leaf == "core") {
    opts.leaf = topology::LeafKind::kCore;
  } else if (in.leaf != "pu") {
    return absl::InvalidArgumentError(
        absl::StrCat("--leaf: expected pu or core, found '", in.leaf, "'"));
  }
  if (in.oversubscribe < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--oversubscribe: expected a capacity >= 1, found ", in.oversubscribe));
  }
  opts.level_costs = in.level_costs;
  opts.allowed_pus = in.allowed;
  opts.capacity = in.oversubscribe;
  return topology::LoadTopology(in.topology, opts);
}

absl::StatusOr<graphs::CommGraph> LoadGraph(const Inputs& in) {
  if (in.comm.empty())
    return absl::InvalidArgumentError(
        "--comm: a communication graph file is required");
  ASSIGN_OR_RETURN(graphs::GraphFormat format,
                   graphs::ParseGraphFormat(in.comm_format));
  return graphs::ReadGraphFile(in.comm, format);
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

absl::Status WritePictures(const std::string& prefix,
                           const topology::Tree& tree,
                           const graphs::CommGraph& graph,
                           const core::Mapping& mapping, int32_t group_depth,
                           std::ostream& out) {
  const std::string matrix_path = absl::StrCat(prefix, ".matrix.svg");
  const std::string tree_path = absl::StrCat(prefix, ".tree.svg");
  RETURN_IF_ERROR(WriteText(matrix_path, MatrixHeatmapSvg(graph, mapping)));
  RETURN_IF_ERROR(WriteText(tree_path, TreeSvg(tree, mapping, group_depth)));
  out << "pictures: " << matrix_path << " " << tree_path << "\n";
  return absl::OkStatus();
}

// Name of a tree level for reports: the kind of the first node found at that
// depth.
std::string LevelName(const topology::Tree& tree, int32_t depth) {
  for (topology::NodeId v = tree.num_nodes() - 1; v >= 0; --v) {
    if (tree.depth(v) == depth) return tree.kind(v);
  }
  return "?";
}

bool IsNToOne(const topology::Tree& tree, const graphs::CommGraph& graph) {
  return graph.num_vertices() > tree.Capacity(tree.root());
}

// J of a mapping after checking it: one-to-one (capacities respected) or, with
// more processes than slots, n-to-1 (every leaf's load within the imbalance
// bound).
absl::StatusOr<double> CheckedJ(const topology::Tree& tree,
                                const graphs::CommGraph& graph,
                                const core::Mapping& mapping,
                                double imbalance) {
  if (IsNToOne(tree, graph)) {
    RETURN_IF_ERROR(
        core::ValidatePartitionMapping(tree, graph, mapping, imbalance));
    return core::ComputeJ(tree, graph, mapping);
  }
  ASSIGN_OR_RETURN(core::CostReport cost, core::Cost(tree, graph, mapping));
  return cost.j;
}

// Predicted seconds of one halo-style exchange (every edge both ways, one
// phase) under a communication time model; parameters from a file or the
// per-level defaults.
absl::StatusOr<double> PredictExchange(const std::string& model_name,
                                       const std::string& params_path,
                                       const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const core::Mapping& mapping) {
  ASSIGN_OR_RETURN(models::Model model, models::ParseModel(model_name));
  models::ModelParams params = models::DefaultModelParams(tree);
  if (!params_path.empty()) {
    ASSIGN_OR_RETURN(params, models::ReadModelParams(params_path, tree));
  }
  return models::PredictTime(model, params, tree, models::HaloFlow(graph),
                             mapping);
}

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
    auto j = CheckedJ(tree, graph, *row.mapping, opts.imbalance);
    if (!j.ok()) {
      row.mapping = j.status();
    } else {
      row.j = *j;
    }
  }
  return row;
}

// `model` empty: rows in a fixed order, "vs best" by J. Otherwise each row also
// gets the predicted exchange time under that model, rows are ranked by it and
// "vs best" compares it.
absl::Status PrintComparison(const topology::Tree& tree,
                             const graphs::CommGraph& graph,
                             const core::MappingOptions& base,
                             std::ostream& out, core::Mapping* best_mapping,
                             const std::string& model = "",
                             const std::string& params = "") {
  const std::pair<const char*, core::Algorithm> algorithms[] = {
      {"portfolio", core::Algorithm::kPortfolio},
      {"tm", core::Algorithm::kTreeMatch},
      {"multisection", core::Algorithm::kMultisection},
      {"scotch", core::Algorithm::kScotch},
      {"mpipp", core::Algorithm::kMpipp},
      {"identity", core::Algorithm::kIdentity},
      {"round-robin", core::Algorithm::kRoundRobin},
      {"random", core::Algorithm::kRandom},
  };
  std::vector<Row> rows;
  std::vector<double> predicted;
  double identity = 0.0;
  for (const auto& [name, algorithm] : algorithms) {
    core::MappingOptions opts = base;
    opts.algorithm = algorithm;
    rows.push_back(RunOne(name, tree, graph, opts));
    Row& r = rows.back();
    if (!r.mapping.ok()) {
      if (r.mapping.status().code() == absl::StatusCode::kInvalidArgument)
        return r.mapping.status();
      predicted.push_back(INFINITY);
      continue;
    }
    if (algorithm == core::Algorithm::kIdentity) identity = r.j;
    if (model.empty()) {
      predicted.push_back(r.j);
      continue;
    }
    absl::StatusOr<double> t =
        PredictExchange(model, params, tree, graph, *r.mapping);
    if (!t.ok()) return t.status();
    predicted.push_back(*t);
  }
  // Rank: by predicted time with a model, else keep the fixed order; the best
  // row by the ranking quantity (J without a model).
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (!model.empty()) {
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
  if (!model.empty())
    out << absl::StrFormat(" %15s", absl::StrCat(model, " (s)"));
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
    // With a model the time column is not last: keep it last so golden tests
    // can mask it.
    if (!model.empty()) {
      out << absl::StrFormat("%-13s %16.6g %12.3f %10.3f %15.6g %9.3f\n",
                             r.name, r.j, vs_identity, vs_best, predicted[i],
                             r.seconds);
    } else {
      out << absl::StrFormat("%-13s %16.6g %12.3f %10.3f %9.3f\n", r.name, r.j,
                             vs_identity, vs_best, r.seconds);
    }
  }
  return absl::OkStatus();
}

// A 2D 5-point stencil on an r x c process grid as square as possible, ranks
// shuffled (a stand-in for an application whose launcher numbered ranks without
// regard to the grid).
absl::StatusOr<graphs::CommGraph> DemoStencil(int32_t n, uint64_t seed,
                                              double bytes) {
  int32_t r = static_cast<int32_t>(std::sqrt(static_cast<double>(n)));
  while (r > 1 && n % r != 0) --r;
  const int32_t c = n / r;
  std::vector<int32_t> perm(n);
  for (int32_t i = 0; i < n; ++i) perm[i] = i;
  std::mt19937_64 rng(seed);
  std::shuffle(perm.begin(), perm.end(), rng);
  graphs::CommGraphBuilder b(n);
  for (int32_t i = 0; i < r; ++i) {
    for (int32_t j = 0; j < c; ++j) {
      if (i + 1 < r)
        RETURN_IF_ERROR(
            b.AddEdge(perm[i * c + j], perm[(i + 1) * c + j], bytes));
      if (j + 1 < c)
        RETURN_IF_ERROR(b.AddEdge(perm[i * c + j], perm[i * c + j + 1], bytes));
    }
  }
  return std::move(b).Build();
}

}  // namespace

int ExitCodeFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return 0;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kResourceExhausted:
    case absl::StatusCode::kUnimplemented:
      return 2;
    default:
      return 1;
  }
}

absl::Status RunMap(const MapCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
  ASSIGN_OR_RETURN(core::MappingOptions opts,
                   core::MappingOptions::Preset(cmd.preset));
  ASSIGN_OR_RETURN(opts.algorithm, core::ParseAlgorithm(cmd.algorithm));
  ASSIGN_OR_RETURN(MappingFormat format, ParseMappingFormat(cmd.format));
  opts.seed = cmd.seed;
  opts.threads = cmd.threads;
  core::Mapping mapping;
  {
    Progress progress(
        absl::StrCat("mapping ", graph.num_vertices(), " processes onto ",
                     tree.num_leaves(), " leaves"),
        cmd.quiet);
    ASSIGN_OR_RETURN(mapping, core::Map(tree, graph, opts));
  }
  ASSIGN_OR_RETURN(const double j,
                   CheckedJ(tree, graph, mapping, opts.imbalance));
  const std::string text =
      FormatMapping(tree, mapping, format, cmd.algorithm, j);
  if (cmd.output.empty()) {
    out << text;
  } else {
    RETURN_IF_ERROR(WriteText(cmd.output, text));
    out << absl::StrFormat("%s: %d processes on %d leaves%s, J = %.6g",
                           cmd.output, graph.num_vertices(), tree.num_leaves(),
                           IsNToOne(tree, graph) ? " (n-to-1)" : "", j);
    if (!IsNToOne(tree, graph)) {
      const double id_j = core::ComputeJ(tree, graph, core::Slots(tree));
      out << absl::StrFormat(" (identity %.6g, ratio %.3f)", id_j,
                             id_j > 0 ? j / id_j : 1.0);
    }
    out << "\n";
  }
  if (!cmd.svg.empty()) {
    RETURN_IF_ERROR(WritePictures(cmd.svg, tree, graph, mapping,
                                  cmd.svg_group_depth,
                                  cmd.output.empty() ? std::cerr : out));
  }
  return absl::OkStatus();
}

absl::Status RunEval(const EvalCommand& cmd, std::ostream& out) {
  if (!cmd.model.empty())
    RETURN_IF_ERROR(models::ParseModel(cmd.model).status());
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
  if (cmd.mapping.empty())
    return absl::InvalidArgumentError("--mapping: a mapping file is required");
  ASSIGN_OR_RETURN(core::Mapping mapping, ReadMappingFile(cmd.mapping));
  if (IsNToOne(tree, graph)) {
    // n-to-1 (a partition): capacities are shares, checked against the default
    // imbalance.
    const double imbalance = core::MappingOptions().imbalance;
    if (absl::Status s =
            core::ValidatePartitionMapping(tree, graph, mapping, imbalance);
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(cmd.mapping, ": ", std::string(s.message())));
    }
    out << absl::StrFormat("processes        %d (n-to-1 on %d leaves)\n",
                           graph.num_vertices(), tree.num_leaves());
    out << absl::StrFormat("J                %.10g\n",
                           core::ComputeJ(tree, graph, mapping));
    return absl::OkStatus();
  }
  if (absl::Status s =
          core::ValidateMapping(tree, graph.num_vertices(), mapping);
      !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(cmd.mapping, ": ", std::string(s.message())));
  }
  ASSIGN_OR_RETURN(core::CostReport cost, core::Cost(tree, graph, mapping));
  out << absl::StrFormat("processes        %d\n", graph.num_vertices());
  out << absl::StrFormat("leaves           %d\n", tree.num_leaves());
  out << absl::StrFormat("J                %.10g\n", cost.j);
  out << absl::StrFormat("hop-bytes        %.10g\n", cost.hop_bytes);
  out << absl::StrFormat(
      "max link volume  %.10g (above node %d, %s)\n", cost.max_link_volume,
      cost.max_link_node,
      cost.max_link_node >= 0 ? tree.kind(cost.max_link_node) : "-");
  out << "volume by level of the common ancestor:\n";
  for (int32_t d = 0; d < static_cast<int32_t>(cost.level_volume.size()); ++d) {
    out << absl::StrFormat(
        "  depth %d %-10s %.10g\n", d,
        d == tree.height() ? "same leaf" : LevelName(tree, d),
        cost.level_volume[d]);
  }
  if (!cmd.model.empty()) {
    ASSIGN_OR_RETURN(
        const double seconds,
        PredictExchange(cmd.model, cmd.params, tree, graph, mapping));
    out << absl::StrFormat(
        "predicted time   %.6g s per exchange (%s model, every edge both "
        "ways in one phase)\n",
        seconds, cmd.model);
  }
  return absl::OkStatus();
}

absl::Status RunCompare(const CompareCommand& cmd, std::ostream& out) {
  if (!cmd.model.empty())
    RETURN_IF_ERROR(models::ParseModel(cmd.model).status());
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
  ASSIGN_OR_RETURN(core::MappingOptions opts,
                   core::MappingOptions::Preset(cmd.preset));
  opts.seed = cmd.seed;
  opts.threads = cmd.threads;
  out << absl::StrFormat("%d processes, %d edges, %d leaves\n",
                         graph.num_vertices(), graph.num_edges(),
                         tree.num_leaves());
  core::Mapping best;
  {
    Progress progress("comparing algorithms", cmd.quiet);
    RETURN_IF_ERROR(
        PrintComparison(tree, graph, opts, out, &best, cmd.model, cmd.params));
  }
  if (!cmd.svg.empty())
    RETURN_IF_ERROR(WritePictures(cmd.svg, tree, graph, best, 1, out));
  return absl::OkStatus();
}

absl::Status RunTopology(const TopologyCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  if (cmd.format == "text") {
    out << topology::DrawTree(tree);
  } else if (cmd.format == "json") {
    out << topology::ToJson(tree) << "\n";
  } else if (cmd.format == "tleaf") {
    ASSIGN_OR_RETURN(std::string line, topology::WriteTleaf(tree));
    out << line << "\n";
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--format: unknown topology format '", cmd.format,
                     "' (expected text, json, tleaf)"));
  }
  return absl::OkStatus();
}

absl::Status RunDemo(const DemoCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  core::MappingOptions opts;
  opts.seed = cmd.seed;
  const int32_t n = static_cast<int32_t>(tree.Capacity(tree.root()));
  out << "== this machine (" << cmd.inputs.topology
      << "): " << tree.num_leaves() << " leaves, height " << tree.height()
      << "\n"
      << topology::DrawTree(tree);
  ASSIGN_OR_RETURN(graphs::CommGraph stencil,
                   DemoStencil(n, cmd.seed, 8.0 * 1024));
  out << "== a 2D 5-point stencil with " << n
      << " processes (8 KiB halos, ranks shuffled), one per slot\n";
  RETURN_IF_ERROR(PrintComparison(tree, stencil, opts, out, nullptr));
  // A built-in cluster shows what mapping buys when the machine itself is
  // small: 4 nodes of 2 sockets x 8 cores, link costs 100 / 10 / 1 (distances
  // 1, 11, 111).
  ASSIGN_OR_RETURN(topology::Tree cluster,
                   topology::LoadTopology("tleaf 3 4 100 2 10 8 1"));
  ASSIGN_OR_RETURN(graphs::CommGraph big,
                   DemoStencil(cluster.num_leaves(), cmd.seed, 8.0 * 1024));
  out << "== the same stencil pattern with " << cluster.num_leaves()
      << " processes on a built-in cluster: tleaf 3 4 100 2 10 8 1\n";
  return PrintComparison(cluster, big, opts, out, nullptr);
}

}  // namespace rankmap::cli

namespace rankmap::cli {

absl::Status RunFrontend(const FrontendCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(std::vector<double> speeds, LoadSpeeds(cmd.speeds));
  graphs::CommGraph graph;
  if (cmd.kind == "summa" || cmd.kind == "square-corner") {
    graphs::MatrixFrontendOptions o;
    o.speeds = speeds;
    o.n = cmd.n;
    o.block = cmd.block;
    o.element_size = cmd.element_size;
    ASSIGN_OR_RETURN(o.partitioner,
                     graphs::ParseSummaPartitioner(cmd.partitioner));
    ASSIGN_OR_RETURN(o.flow, graphs::ParseSummaFlow(cmd.flow));
    ASSIGN_OR_RETURN(o.link, graphs::ParseLinkModel(cmd.link));
    ASSIGN_OR_RETURN(o.shape, graphs::ParseTwoWayChoice(cmd.shape));
    if (!cmd.clusters.empty()) {
      ASSIGN_OR_RETURN(o.clusters,
                       ParseList<int32_t>(cmd.clusters, "clusters"));
      ASSIGN_OR_RETURN(o.bandwidth,
                       ParseList<double>(cmd.bandwidth, "bandwidth"));
      for (int32_t c : o.clusters)
        o.num_clusters = std::max(o.num_clusters, c + 1);
    }
    ASSIGN_OR_RETURN(graphs::MatrixFrontendResult r,
                     cmd.kind == "summa" ? graphs::SummaFrontend(o)
                                         : graphs::SquareCornerFrontend(o));
    out << r.report;
    graph = std::move(r.graph);
  } else if (cmd.kind == "stencil") {
    graphs::StencilOptions o;
    ASSIGN_OR_RETURN(o.grid, ParseGridShape(cmd.grid));
    o.points = cmd.stencil;
    o.halo = cmd.halo;
    ASSIGN_OR_RETURN(
        o.periodic,
        ParsePeriodic(cmd.periodic, static_cast<int32_t>(o.grid.size())));
    o.procs = cmd.procs;
    if (!cmd.proc_grid.empty()) {
      ASSIGN_OR_RETURN(o.proc_grid, ParseProcessGrid(cmd.proc_grid));
    }
    o.slabs = cmd.slabs;
    o.speeds = speeds;
    o.element_size = cmd.element_size;
    ASSIGN_OR_RETURN(graph, graphs::StencilGraph(o));
    out << absl::StrFormat(
        "stencil %s, %d-point, halo %d: %d processes, %d edges, %.10g bytes "
        "per iteration\n",
        cmd.grid, cmd.stencil, cmd.halo, graph.num_vertices(),
        graph.num_edges(), graph.TotalVolume());
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("frontend: unknown kind '", cmd.kind,
                     "' (expected summa, square-corner, stencil)"));
  }
  if (!cmd.output.empty()) {
    ASSIGN_OR_RETURN(graphs::GraphFormat format,
                     graphs::ParseGraphFormat(cmd.graph_format));
    RETURN_IF_ERROR(graphs::WriteGraphFile(graph, cmd.output, format));
    out << "graph written to " << cmd.output << "\n";
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
