#include "cli/frontend_command.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/arg_parsers.h"
#include "graphs/frontends/matrix_frontend.h"
#include "graphs/frontends/stencil.h"
#include "graphs/graphs.h"

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
