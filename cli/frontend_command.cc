#include "cli/frontend_command.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "cli/arg_parsers.h"
#include "tiling/partition_io.h"
#include "tiling/speed_function.h"

namespace rankmap::cli {

namespace {

// ---- Flags to options: every value goes through cli/arg_parsers.h ----

// An integer flag, `fallback` when its text is empty.
absl::StatusOr<int64_t> Integer(FlagText flag, std::string_view name,
                                int64_t fallback) {
  const std::string text = flag(name);
  if (text.empty()) return fallback;
  return ParseInteger(text, name);
}

absl::StatusOr<int32_t> Integer32(FlagText flag, std::string_view name,
                                  int32_t fallback) {
  ASSIGN_OR_RETURN(const int64_t v, Integer(flag, name, fallback));
  if (v < INT32_MIN || v > INT32_MAX) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", std::string(name), ": ", v, " is out of the 32-bit range"));
  }
  return static_cast<int32_t>(v);
}

absl::StatusOr<bool> Boolean(FlagText flag, std::string_view name) {
  const std::string text = flag(name);
  bool v = false;
  if (!text.empty() && !absl::SimpleAtob(text, &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", std::string(name),
                     ": expected true or false, found '", text, "'"));
  }
  return v;
}

// Parses a non-empty flag with `parse`, else keeps `value`.
template <typename T, typename Parse>
absl::Status Choice(FlagText flag, std::string_view name, Parse parse,
                    T& value) {
  const std::string text = flag(name);
  if (text.empty()) return absl::OkStatus();
  ASSIGN_OR_RETURN(value, parse(text));
  return absl::OkStatus();
}

absl::StatusOr<graphs::MatrixFrontendOptions> MatrixOptions(FlagText flag) {
  graphs::MatrixFrontendOptions o;
  ASSIGN_OR_RETURN(o.speeds, LoadSpeeds(flag("speeds")));
  ASSIGN_OR_RETURN(o.n, Integer(flag, "n", o.n));
  ASSIGN_OR_RETURN(o.block, Integer(flag, "block", o.block));
  ASSIGN_OR_RETURN(o.element_size,
                   Integer32(flag, "element_size", o.element_size));
  RETURN_IF_ERROR(
      Choice(flag, "partitioner", ParseSummaPartitioner, o.partitioner));
  RETURN_IF_ERROR(Choice(flag, "flow", ParseSummaFlow, o.flow));
  RETURN_IF_ERROR(Choice(flag, "link", ParseLinkModel, o.link));
  RETURN_IF_ERROR(Choice(flag, "shape", ParseTwoWayChoice, o.shape));
  RETURN_IF_ERROR(Choice(flag, "arrange", ParseSummaArrange, o.arrange));
  RETURN_IF_ERROR(Choice(flag, "hop_norm", ParseHopNorm, o.hop_norm));
  RETURN_IF_ERROR(Choice(flag, "network", ParseNetworkKind, o.network));
  ASSIGN_OR_RETURN(o.hub, Integer32(flag, "hub", o.hub));
  if (const std::string path = flag("speed_functions"); !path.empty()) {
    ASSIGN_OR_RETURN(o.speed_functions, tiling::ReadSpeedFunctions(path));
  }
  if (const std::string path = flag("partition"); !path.empty()) {
    ASSIGN_OR_RETURN(o.partition, tiling::ReadPartitionFile(path));
  }
  // A bandwidth matrix only with the clusters it is indexed by.
  if (const std::string clusters = flag("clusters"); !clusters.empty()) {
    ASSIGN_OR_RETURN(o.clusters, ParseList<int32_t>(clusters, "clusters"));
    ASSIGN_OR_RETURN(o.bandwidth,
                     ParseList<double>(flag("bandwidth"), "bandwidth"));
    for (int32_t c : o.clusters) {
      if (c < 0 || c == INT32_MAX) {  // num_clusters = c + 1 must fit
        return absl::InvalidArgumentError(absl::StrCat(
            "--clusters: cluster ", c, " is outside [0, 2147483646]"));
      }
      o.num_clusters = std::max(o.num_clusters, c + 1);
    }
  }
  return o;
}

absl::StatusOr<graphs::StencilOptions> StencilOptionsFrom(FlagText flag) {
  graphs::StencilOptions o;
  ASSIGN_OR_RETURN(o.speeds, LoadSpeeds(flag("speeds")));
  if (const std::string grid = flag("grid"); !grid.empty()) {
    ASSIGN_OR_RETURN(o.grid, ParseGridShape(grid));
  }
  ASSIGN_OR_RETURN(o.points, Integer32(flag, "stencil", o.points));
  ASSIGN_OR_RETURN(o.halo, Integer32(flag, "halo", o.halo));
  if (const std::string periodic = flag("periodic"); !periodic.empty()) {
    ASSIGN_OR_RETURN(
        o.periodic,
        ParsePeriodic(periodic, static_cast<int32_t>(o.grid.size())));
  }
  ASSIGN_OR_RETURN(o.procs, Integer(flag, "procs", o.procs));
  if (const std::string proc_grid = flag("proc_grid"); !proc_grid.empty()) {
    ASSIGN_OR_RETURN(o.proc_grid, ParseProcessGrid(proc_grid));
  }
  ASSIGN_OR_RETURN(o.slabs, Boolean(flag, "slabs"));
  ASSIGN_OR_RETURN(const int32_t element_size,
                   Integer32(flag, "element_size", 8));
  o.element_size = element_size;
  ASSIGN_OR_RETURN(o.axis_weights,
                   ParseList<double>(flag("axis_weights"), "axis_weights"));
  return o;
}

absl::StatusOr<graphs::Wave2DOptions> Wave2DOptionsFrom(FlagText flag) {
  graphs::Wave2DOptions o;
  ASSIGN_OR_RETURN(o.speeds, LoadSpeeds(flag("speeds")));
  if (const std::string grid = flag("grid"); !grid.empty()) {
    ASSIGN_OR_RETURN(o.grid, ParseGridShape(grid));
  }
  ASSIGN_OR_RETURN(o.procs, Integer(flag, "procs", o.procs));
  ASSIGN_OR_RETURN(const int32_t element_size,
                   Integer32(flag, "element_size", 8));
  o.element_size = element_size;
  return o;
}

absl::StatusOr<graphs::MpdataFrontendOptions> MpdataOptionsFrom(FlagText flag) {
  graphs::MpdataFrontendOptions o;
  if (const std::string clusters = flag("clusters"); !clusters.empty()) {
    ASSIGN_OR_RETURN(o.group, ParseList<int32_t>(clusters, "clusters"));
  } else {
    ASSIGN_OR_RETURN(o.procs, Integer(flag, "procs", 0));
    if (o.procs <= 0) {
      return absl::InvalidArgumentError(
          "mpdata: --procs or --clusters is required");
    }
  }
  ASSIGN_OR_RETURN(o.horizontal_bandwidth,
                   ParseList<double>(flag("bandwidth"), "bandwidth"));
  ASSIGN_OR_RETURN(o.vertical_bandwidth,
                   ParseList<double>(flag("bandwidth_v"), "bandwidth_v"));
  if (const std::string domain = flag("domain"); !domain.empty()) {
    ASSIGN_OR_RETURN(o.domain, ParseGridShape(domain));
  }
  ASSIGN_OR_RETURN(o.halo, Integer(flag, "halo", o.halo));
  ASSIGN_OR_RETURN(const int32_t element_size,
                   Integer32(flag, "element_size", 8));
  o.element_size = element_size;
  const std::string periodic = flag("periodic");
  if (!periodic.empty() && periodic != "none" && periodic != "all") {
    return absl::InvalidArgumentError(absl::StrCat(
        "mpdata: --periodic '", periodic, "' (expected none or all)"));
  }
  o.periodic = periodic == "all";
  ASSIGN_OR_RETURN(const std::vector<double> weights,
                   ParseList<double>(flag("axis_weights"), "axis_weights"));
  if (!weights.empty()) {
    if (weights.size() != 2) {
      return absl::InvalidArgumentError(
          "mpdata: --axis-weights takes two weights: horizontal,vertical");
    }
    o.horizontal_weight = weights[0];
    o.vertical_weight = weights[1];
  }
  ASSIGN_OR_RETURN(o.allow_1d, Boolean(flag, "allow_1d"));
  return o;
}

absl::StatusOr<OpenFoamCase> OpenFoamCaseFrom(FlagText flag) {
  OpenFoamCase c;
  c.dir = flag("case");
  if (c.dir.empty()) {
    return absl::InvalidArgumentError(
        "openfoam: --case is required (the case directory, holding "
        "constant/polyMesh or processor* directories)");
  }
  c.mesh.region = flag("region");
  return c;
}

absl::StatusOr<FrontendKind> ParseKind(std::string_view kind) {
  if (kind == "summa") return FrontendKind::kSumma;
  if (kind == "square-corner") return FrontendKind::kSquareCorner;
  if (kind == "stencil") return FrontendKind::kStencil;
  if (kind == "wave2d") return FrontendKind::kWave2D;
  if (kind == "mpdata") return FrontendKind::kMpdata;
  if (kind == "openfoam") return FrontendKind::kOpenFoam;
  return absl::InvalidArgumentError(absl::StrCat(
      "frontend: unknown kind '", std::string(kind),
      "' (expected summa, square-corner, stencil, wave2d, mpdata, openfoam)"));
}

// ---- Running a front end: its graph and its report ----

absl::StatusOr<graphs::CommGraph> RunStencil(const graphs::StencilOptions& o,
                                             std::ostream& report) {
  ASSIGN_OR_RETURN(graphs::CommGraph graph, graphs::StencilGraph(o));
  report << absl::StrFormat(
      "stencil %s, %d-point, halo %d: %d processes, %d edges, %.10g bytes "
      "per iteration\n",
      absl::StrJoin(o.grid, "x"), o.points, o.halo, graph.num_vertices(),
      graph.num_edges(), graph.TotalVolume());
  return graph;
}

absl::StatusOr<graphs::CommGraph> RunWave2D(const graphs::Wave2DOptions& o,
                                            std::ostream& report) {
  ASSIGN_OR_RETURN(graphs::Wave2DResult r, graphs::Wave2DFrontend(o));
  report << absl::StrFormat(
      "wave2d %s, %d columns: %d processes, %d edges, %.10g bytes per "
      "iteration\n",
      absl::StrJoin(o.grid, "x"), r.tiling.columns.size(),
      r.graph.num_vertices(), r.graph.num_edges(), r.graph.TotalVolume());
  return std::move(r.graph);
}

absl::StatusOr<graphs::CommGraph> RunMpdata(
    const graphs::MpdataFrontendOptions& o, std::ostream& report) {
  ASSIGN_OR_RETURN(graphs::MpdataFrontendResult r, graphs::MpdataFrontend(o));
  const graphs::MpdataGrid& grid = r.arrangement.grid;
  report << absl::StrFormat(
      "mpdata %s on a %dx%d arrangement of %d groups (cost %.6g): %d "
      "processes, %d edges, %.10g bytes per iteration\n",
      absl::StrJoin(o.domain, "x"), grid.rows, grid.cols, r.num_groups,
      r.arrangement.cost.total, r.graph.num_vertices(), r.graph.num_edges(),
      r.graph.TotalVolume());
  report << "arrangement (rows top to bottom):";
  for (int32_t i = 0; i < grid.rows; ++i) {
    report << (i == 0 ? " " : " | ");
    for (int32_t j = 0; j < grid.cols; ++j) {
      report << (j == 0 ? "" : " ") << grid.at(i, j);
    }
  }
  report << "\n";
  return std::move(r.graph);
}

absl::StatusOr<graphs::CommGraph> RunOpenFoam(const OpenFoamCase& c,
                                              std::ostream& report) {
  ASSIGN_OR_RETURN(graphs::PolyMeshGraph m,
                   graphs::ReadPolyMesh(c.dir, c.mesh));
  report << absl::StrFormat(
      "openfoam %s%s: %d cells, %d edges (%d internal faces, %d cyclic face "
      "pairs",
      c.dir, c.mesh.region.empty() ? "" : " region " + c.mesh.region, m.cells,
      m.graph.num_edges(), m.internal_faces, m.cyclic_faces);
  if (m.pieces > 1) {
    report << absl::StrFormat(
        ", %d processor face pairs joining %d pieces, cells numbered %s",
        m.processor_faces, m.pieces,
        m.cell_addressing ? "by cellProcAddressing" : "piece by piece");
  }
  report << "), weight = shared faces\n";
  for (const std::string& line : m.uncoupled) {
    report << "note: patch " << line << "\n";
  }
  return std::move(m.graph);
}

// `rankmap map --process-speeds` reads it back (tiling::ReadSpeedsFile).
absl::Status WriteProcessSpeeds(const std::vector<double>& speeds,
                                const std::string& path, std::ostream& report) {
  std::string text =
      "# speed each process's rectangle was computed for, one per line\n";
  for (double s : speeds) absl::StrAppend(&text, s, "\n");
  RETURN_IF_ERROR(base::WriteFile(path, text));
  report << "process speeds written to " << path << "\n";
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FrontendCommand> ParseFrontendCommand(std::string_view kind,
                                                     FlagText flag) {
  FrontendCommand cmd;
  ASSIGN_OR_RETURN(cmd.kind, ParseKind(kind));
  cmd.output = flag("output");
  if (const std::string format = flag("graph_format"); !format.empty()) {
    ASSIGN_OR_RETURN(cmd.graph_format, graphs::ParseGraphFormat(format));
  }
  switch (cmd.kind) {
    case FrontendKind::kSumma:
    case FrontendKind::kSquareCorner: {
      ASSIGN_OR_RETURN(cmd.options, MatrixOptions(flag));
      break;
    }
    case FrontendKind::kStencil: {
      ASSIGN_OR_RETURN(cmd.options, StencilOptionsFrom(flag));
      break;
    }
    case FrontendKind::kWave2D: {
      ASSIGN_OR_RETURN(cmd.options, Wave2DOptionsFrom(flag));
      break;
    }
    case FrontendKind::kMpdata: {
      ASSIGN_OR_RETURN(cmd.options, MpdataOptionsFrom(flag));
      break;
    }
    case FrontendKind::kOpenFoam: {
      ASSIGN_OR_RETURN(cmd.options, OpenFoamCaseFrom(flag));
      break;
    }
  }
  return cmd;
}

absl::Status RunFrontend(const FrontendCommand& cmd, std::ostream& out,
                         std::ostream& report) {
  graphs::CommGraph graph;
  std::vector<double> process_speed;  // summa, square-corner: for map
  switch (cmd.kind) {
    case FrontendKind::kSumma:
    case FrontendKind::kSquareCorner: {
      const auto& o = std::get<graphs::MatrixFrontendOptions>(cmd.options);
      ASSIGN_OR_RETURN(graphs::MatrixFrontendResult r,
                       cmd.kind == FrontendKind::kSumma
                           ? graphs::SummaFrontend(o)
                           : graphs::SquareCornerFrontend(o));
      report << r.report;
      graph = std::move(r.graph);
      process_speed = std::move(r.process_speed);
      break;
    }
    case FrontendKind::kStencil: {
      ASSIGN_OR_RETURN(
          graph,
          RunStencil(std::get<graphs::StencilOptions>(cmd.options), report));
      break;
    }
    case FrontendKind::kWave2D: {
      ASSIGN_OR_RETURN(
          graph,
          RunWave2D(std::get<graphs::Wave2DOptions>(cmd.options), report));
      break;
    }
    case FrontendKind::kMpdata: {
      ASSIGN_OR_RETURN(
          graph, RunMpdata(std::get<graphs::MpdataFrontendOptions>(cmd.options),
                           report));
      break;
    }
    case FrontendKind::kOpenFoam: {
      ASSIGN_OR_RETURN(
          graph, RunOpenFoam(std::get<OpenFoamCase>(cmd.options), report));
      break;
    }
  }
  if (cmd.output.empty()) {
    ASSIGN_OR_RETURN(const std::string text,
                     graphs::FormatGraph(graph, cmd.graph_format));
    out << text;
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(graphs::WriteGraphFile(graph, cmd.output, cmd.graph_format));
  report << "graph written to " << cmd.output << "\n";
  if (!process_speed.empty()) {
    RETURN_IF_ERROR(
        WriteProcessSpeeds(process_speed, cmd.output + ".speeds", report));
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
