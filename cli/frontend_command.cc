#include "cli/frontend_command.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "cli/arg_parsers.h"
#include "graphs/frontends/matrix_frontend.h"
#include "graphs/frontends/mpdata.h"
#include "graphs/frontends/stencil.h"
#include "graphs/frontends/wave2d.h"
#include "graphs/graphs.h"
#include "tiling/network_volume.h"
#include "tiling/partition_io.h"
#include "tiling/speed_function.h"
#include "tiling/speeds_file.h"

namespace rankmap::cli {

namespace {

absl::StatusOr<graphs::CommGraph> Wave2D(const FrontendCommand& cmd,
                                         std::vector<double> speeds,
                                         std::ostream& report) {
  ASSIGN_OR_RETURN(const std::vector<int64_t> grid, ParseGridShape(cmd.grid));
  if (grid.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("wave2d: --grid '", cmd.grid, "' needs 2 extents"));
  }
  if (speeds.empty()) {
    if (cmd.procs < 1) {
      return absl::InvalidArgumentError(
          "wave2d: --procs or --speeds is required");
    }
    speeds.assign(cmd.procs, 1.0);
  }
  ASSIGN_OR_RETURN(const tiling::ColumnTiling layout,
                   tiling::ColumnTilingFromSpeeds(grid[0], grid[1], speeds));
  ASSIGN_OR_RETURN(graphs::CommGraph graph,
                   graphs::Wave2DGraph(layout, cmd.element_size));
  report << absl::StrFormat(
      "wave2d %s, %d columns: %d processes, %d edges, %.10g bytes per "
      "iteration\n",
      cmd.grid, layout.columns.size(), graph.num_vertices(), graph.num_edges(),
      graph.TotalVolume());
  return graph;
}

absl::StatusOr<graphs::CommGraph> Mpdata(const FrontendCommand& cmd,
                                         std::ostream& report) {
  std::vector<int32_t> group;
  if (!cmd.clusters.empty()) {
    ASSIGN_OR_RETURN(group, ParseList<int32_t>(cmd.clusters, "clusters"));
  } else if (cmd.procs > 0) {
    group.assign(cmd.procs, 0);
  } else {
    return absl::InvalidArgumentError(
        "mpdata: --procs or --clusters is required");
  }
  graphs::MpdataNetwork net;
  for (int32_t g : group) net.num_groups = std::max(net.num_groups, g + 1);
  if (cmd.bandwidth.empty()) {
    net.horizontal.assign(net.num_groups * net.num_groups, 1.0);
  } else {
    ASSIGN_OR_RETURN(net.horizontal,
                     ParseList<double>(cmd.bandwidth, "bandwidth"));
  }
  if (cmd.bandwidth_v.empty()) {
    net.vertical = net.horizontal;
  } else {
    ASSIGN_OR_RETURN(net.vertical,
                     ParseList<double>(cmd.bandwidth_v, "bandwidth_v"));
  }
  ASSIGN_OR_RETURN(const std::vector<int64_t> extents,
                   ParseGridShape(cmd.domain));
  graphs::MpdataDomain domain;
  domain.n = extents[0];
  domain.m = extents[1];
  domain.l = extents.size() == 3 ? extents[2] : 1;
  domain.ihalo = domain.jhalo = cmd.halo;
  domain.element_size = cmd.element_size;
  if (cmd.periodic != "none" && cmd.periodic != "all") {
    return absl::InvalidArgumentError(absl::StrCat(
        "mpdata: --periodic '", cmd.periodic, "' (expected none or all)"));
  }
  domain.periodic = cmd.periodic == "all";
  ASSIGN_OR_RETURN(const std::vector<double> weights,
                   ParseList<double>(cmd.axis_weights, "axis_weights"));
  if (!weights.empty()) {
    if (weights.size() != 2) {
      return absl::InvalidArgumentError(
          "mpdata: --axis-weights takes two weights: horizontal,vertical");
    }
    domain.horizontal_weight = weights[0];
    domain.vertical_weight = weights[1];
  }
  graphs::MpdataOptions options;
  options.domain = static_cast<double>(domain.n);
  options.cyclic = domain.periodic;
  options.allow_1d = cmd.allow_1d;
  ASSIGN_OR_RETURN(const graphs::MpdataResult r,
                   graphs::ArrangeMpdata(group, net, options));
  ASSIGN_OR_RETURN(graphs::CommGraph graph,
                   graphs::MpdataHaloGraph(r.grid, domain));
  report << absl::StrFormat(
      "mpdata %s on a %dx%d arrangement of %d groups (cost %.6g): %d "
      "processes, %d edges, %.10g bytes per iteration\n",
      cmd.domain, r.grid.rows, r.grid.cols, net.num_groups, r.cost.total,
      graph.num_vertices(), graph.num_edges(), graph.TotalVolume());
  report << "arrangement (rows top to bottom):";
  for (int32_t i = 0; i < r.grid.rows; ++i) {
    report << (i == 0 ? " " : " | ");
    for (int32_t j = 0; j < r.grid.cols; ++j) {
      report << (j == 0 ? "" : " ") << r.grid.at(i, j);
    }
  }
  report << "\n";
  return graph;
}

}  // namespace

absl::Status RunFrontend(const FrontendCommand& cmd, std::ostream& out,
                         std::ostream& report) {
  ASSIGN_OR_RETURN(std::vector<double> speeds, LoadSpeeds(cmd.speeds));
  graphs::CommGraph graph;
  std::vector<double> process_speed;  // summa, square-corner: for map
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
    ASSIGN_OR_RETURN(o.arrange, graphs::ParseSummaArrange(cmd.arrange));
    ASSIGN_OR_RETURN(o.hop_norm, graphs::ParseHopNorm(cmd.hop_norm));
    ASSIGN_OR_RETURN(o.network, tiling::ParseNetworkKind(cmd.network));
    o.hub = cmd.hub;
    if (!cmd.speed_functions.empty()) {
      ASSIGN_OR_RETURN(o.speed_functions,
                       tiling::ReadSpeedFunctions(cmd.speed_functions));
    }
    if (!cmd.partition.empty()) {
      ASSIGN_OR_RETURN(o.partition, tiling::ReadPartitionFile(cmd.partition));
    }
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
    report << r.report;
    graph = std::move(r.graph);
    process_speed = std::move(r.process_speed);
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
    ASSIGN_OR_RETURN(o.axis_weights,
                     ParseList<double>(cmd.axis_weights, "axis_weights"));
    ASSIGN_OR_RETURN(graph, graphs::StencilGraph(o));
    report << absl::StrFormat(
        "stencil %s, %d-point, halo %d: %d processes, %d edges, %.10g bytes "
        "per iteration\n",
        cmd.grid, cmd.stencil, cmd.halo, graph.num_vertices(),
        graph.num_edges(), graph.TotalVolume());
  } else if (cmd.kind == "wave2d") {
    ASSIGN_OR_RETURN(graph, Wave2D(cmd, speeds, report));
  } else if (cmd.kind == "mpdata") {
    ASSIGN_OR_RETURN(graph, Mpdata(cmd, report));
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "frontend: unknown kind '", cmd.kind,
        "' (expected summa, square-corner, stencil, wave2d, mpdata)"));
  }
  ASSIGN_OR_RETURN(graphs::GraphFormat format,
                   graphs::ParseGraphFormat(cmd.graph_format));
  if (cmd.output.empty()) {
    ASSIGN_OR_RETURN(const std::string text,
                     graphs::FormatGraph(graph, format));
    out << text;
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(graphs::WriteGraphFile(graph, cmd.output, format));
  report << "graph written to " << cmd.output << "\n";
  if (!process_speed.empty()) {
    // `rankmap map --process-speeds` reads it back (tiling::ReadSpeedsFile).
    std::string text =
        "# speed each process's rectangle was computed for, one per line\n";
    for (double s : process_speed) absl::StrAppend(&text, s, "\n");
    const std::string path = cmd.output + ".speeds";
    RETURN_IF_ERROR(base::WriteFile(path, text));
    report << "process speeds written to " << path << "\n";
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
