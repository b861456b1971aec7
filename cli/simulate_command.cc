#include "cli/simulate_command.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "cli/leaf_numbering.h"
#include "cli/mapping_reader.h"
#include "core/mapping.h"
#include "topology/simgrid_platform.h"

namespace rankmap::cli {

absl::StatusOr<sim::SimulateOptions> ParseSimulateOptions(
    int64_t iterations, const std::string& smpi_model) {
  // The simulation's work is iterations x messages: a million iterations of
  // one edge took a minute. The time per iteration settles within tens of
  // iterations (2 processes: 2.037e-07 s after 10, 2.027e-07 after 1,000).
  if (iterations < 1 || iterations > kMaxIterations) {
    return absl::InvalidArgumentError(
        absl::StrCat("--iterations: expected an integer in [1, ",
                     kMaxIterations, "], found ", iterations));
  }
  sim::SimulateOptions o;
  o.iterations = iterations;
  ASSIGN_OR_RETURN(o.model, sim::ParseSmpiModel(smpi_model));
  return o;
}

absl::StatusOr<sim::Simulator> SimulatorFor(const Inputs& in,
                                            const topology::Tree& tree) {
  if (base::IsRegularFile(in.topology)) {
    ASSIGN_OR_RETURN(const std::string text,
                     base::ReadFile(in.topology, "topology file"));
    if (topology::LooksLikeSimGridPlatform(text))
      return sim::Simulator::Create(tree, in.topology);
  }
  return sim::Simulator::Create(tree);
}

absl::Status RunSimulate(const SimulateCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(sim::SimulateOptions opts,
                   ParseSimulateOptions(cmd.iterations, cmd.smpi_model));
  opts.graph_format = cmd.inputs.comm_format;
  ASSIGN_OR_RETURN(const topology::Tree tree, LoadTree(cmd.inputs));
  ASSIGN_OR_RETURN(const graphs::CommGraph graph, LoadGraph(cmd.inputs));
  RETURN_IF_ERROR(CheckCostRangeOf(cmd.inputs, tree, graph));
  if (cmd.mapping.empty())
    return absl::InvalidArgumentError("--mapping: a mapping file is required");
  ASSIGN_OR_RETURN(const core::Mapping mapping,
                   ReadAnyMappingFile(cmd.mapping, tree,
                                      LeafNumbering::For(cmd.inputs, tree)));
  if (absl::Status s =
          core::ValidateMapping(tree, graph.num_vertices(), mapping);
      !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(cmd.mapping, ": ", std::string(s.message())));
  }
  ASSIGN_OR_RETURN(const sim::Simulator simulator,
                   SimulatorFor(cmd.inputs, tree));
  ASSIGN_OR_RETURN(const double seconds,
                   simulator.Replay(cmd.inputs.comm, mapping, opts));
  out << absl::StrFormat(
      "%d processes, %d edges, %d iterations on the %s SMPI model\n",
      graph.num_vertices(), graph.num_edges(), opts.iterations, cmd.smpi_model);
  out << absl::StrFormat("simulated time per iteration  %.6g s\n", seconds);
  return absl::OkStatus();
}

}  // namespace rankmap::cli
