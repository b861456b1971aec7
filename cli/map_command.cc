#include "cli/map_command.h"

#include <iostream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "cli/launch_output.h"
#include "cli/leaf_numbering.h"
#include "cli/mapping_io.h"
#include "cli/outputs.h"
#include "cli/progress.h"
#include "core/mapper.h"
#include "core/mapping.h"
#include "core/options.h"

namespace rankmap::cli {

absl::Status RunMap(const MapCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(graphs::CommGraph graph, LoadGraph(cmd.inputs));
  ASSIGN_OR_RETURN(core::MappingOptions opts,
                   core::MappingOptions::Preset(cmd.preset));
  // The preset sets defaults; an explicit --algorithm wins.
  if (!cmd.algorithm.empty()) {
    ASSIGN_OR_RETURN(opts.algorithm, core::ParseAlgorithm(cmd.algorithm));
  }
  const bool launch_format = IsLaunchFormat(cmd.format);
  MappingFormat format = MappingFormat::kPlain;
  if (!launch_format) {
    ASSIGN_OR_RETURN(format, ParseMappingFormat(cmd.format));
  }
  opts.seed = cmd.seed;
  opts.threads = cmd.threads;
  core::Mapping mapping;
  {
    ProgressLine progress(
        absl::StrCat("mapping ", graph.num_vertices(), " processes onto ",
                     tree.num_leaves(), " leaves"),
        ProgressModeFor(cmd.quiet, cmd.progress));
    opts.progress = &progress;
    ASSIGN_OR_RETURN(mapping, core::Map(tree, graph, opts));
    opts.progress = nullptr;
  }
  ASSIGN_OR_RETURN(const core::CostReport cost,
                   CheckedCost(tree, graph, mapping, opts.imbalance));
  const double j = cost.j;
  // Plain and JSON files name leaves in the caller's numbering (--allowed);
  // the SMPI hostfile names hosts and needs the tree's own.
  const LeafNumbering numbering = LeafNumbering::For(cmd.inputs, tree);
  auto written = [&](const core::Mapping& m) {
    return format == MappingFormat::kSmpi ? m : numbering.ToCaller(m);
  };
  if (cmd.output.empty()) {
    if (launch_format) {
      RETURN_IF_ERROR(
          WriteLaunchFormat(cmd.format, cmd.bind, tree, mapping, "", out));
    } else {
      ASSIGN_OR_RETURN(const std::string text,
                       FormatMapping(tree, written(mapping), format,
                                     core::AlgorithmName(opts.algorithm), j));
      out << text;
    }
  } else {
    // Launch files are checked (a tree without hosts is refused) before the
    // summary line; their command line follows it.
    std::ostringstream launch_line;
    if (launch_format) {
      RETURN_IF_ERROR(WriteLaunchFormat(cmd.format, cmd.bind, tree, mapping,
                                        cmd.output, launch_line));
    } else {
      ASSIGN_OR_RETURN(const std::string text,
                       FormatMapping(tree, written(mapping), format,
                                     core::AlgorithmName(opts.algorithm), j));
      RETURN_IF_ERROR(WriteText(cmd.output, text));
    }
    out << absl::StrFormat("%s: %d processes on %d leaves%s, J = %.6g",
                           cmd.output, graph.num_vertices(), tree.num_leaves(),
                           IsNToOne(tree, graph) ? " (n-to-1)" : "", j);
    if (!IsNToOne(tree, graph)) {
      const double id_j =
          core::ComputeJ(tree, graph, core::Slots(tree, graph.num_vertices()));
      out << absl::StrFormat(" (identity %.6g, ratio %.3f)", id_j,
                             id_j > 0 ? j / id_j : 1.0);
    }
    out << "\n" << launch_line.str();
  }
  std::ostream& names = cmd.output.empty() ? std::cerr : out;
  if (!cmd.svg.empty()) {
    RETURN_IF_ERROR(WritePictures(cmd.svg, tree, graph, mapping, cost,
                                  cmd.svg_group_depth, names));
  }
  if (!cmd.report.empty()) {
    Facts facts = {
        {"algorithm", std::string(core::AlgorithmName(opts.algorithm))},
        {"preset", cmd.preset}};
    for (auto& f : MappingFacts(tree, graph, cost)) facts.push_back(f);
    if (!IsNToOne(tree, graph)) {
      const double id_j = core::ComputeJ(tree, graph, core::Slots(tree));
      facts.push_back(
          {"identity J", absl::StrFormat("%.10g (ratio %.3f)", id_j,
                                         id_j > 0 ? j / id_j : 1.0)});
    }
    RETURN_IF_ERROR(WriteReport(cmd.report,
                                absl::StrCat("rankmap map: ", cmd.inputs.comm,
                                             " on ", cmd.inputs.topology),
                                facts, tree, graph, mapping, cost,
                                cmd.svg_group_depth, names));
  }
  return absl::OkStatus();
}

}  // namespace rankmap::cli
