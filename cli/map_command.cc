#include "cli/map_command.h"

#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "api/named_options.h"
#include "api/partition.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "cli/evaluation.h"
#include "cli/launch_output.h"
#include "cli/leaf_numbering.h"
#include "cli/mapping_io.h"
#include "cli/near_devices.h"
#include "cli/openfoam_output.h"
#include "cli/outputs.h"
#include "cli/process_speeds.h"
#include "cli/progress_line.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "core/model/options.h"
#include "launch/launch.h"
#include "topology/io_devices.h"
#include "topology/leaf_groups.h"

namespace rankmap::cli {
namespace {

// --format openfoam: the `manual` decomposition's labelList
// (cli/openfoam_output.h).
constexpr char kOpenFoamFormat[] = "openfoam";

// The OpenMP settings of each rank (what `rankmap bind --threads-per-process`
// sets), so a launcher's own binding can be followed by the right threads.
void PrintThreadPlaces(const topology::Tree& full,
                       const topology::LeafGroups& groups,
                       const core::Mapping& mapping, std::ostream& out) {
  out << "threads: " << groups.k
      << " per process; rankmap bind --threads-per-process " << groups.k
      << " sets for each rank:\n";
  for (size_t r = 0; r < mapping.size(); ++r) {
    std::vector<std::vector<int32_t>> leaves;
    const core::LeafId first = groups.first[mapping[r]];
    for (core::LeafId l = first; l < first + groups.k; ++l)
      leaves.emplace_back(full.pus(l).begin(), full.pus(l).end());
    out << "  rank " << r << ": "
        << launch::FormatThreadPlaces(launch::ThreadPlacesOf(leaves)) << "\n";
  }
}

// The devices of --near and the classes that keep processes next to them.
absl::StatusOr<NearDevices> NearDevicesFor(const MapCommand& cmd,
                                           const topology::Tree& tree,
                                           int32_t num_processes) {
  ASSIGN_OR_RETURN(const topology::DeviceClass cls,
                   topology::ParseDeviceClass(cmd.near));
  if (!cmd.inputs.hierarchy.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--near ", cmd.near,
                     ": --hierarchy is not an hwloc machine (an XML export or "
                     "'this'); only those list I/O devices"));
  }
  ASSIGN_OR_RETURN(std::vector<topology::IoDevice> devices,
                   topology::IoDevicesOf(cmd.inputs.topology, cls));
  std::vector<int32_t> device_of;
  if (!cmd.near_processes.empty() && !devices.empty()) {
    ASSIGN_OR_RETURN(const std::string text,
                     base::ReadFile(cmd.near_processes, "--near-processes"));
    ASSIGN_OR_RETURN(device_of, ParseNearProcesses(text, cmd.near_processes,
                                                   devices, num_processes));
  }
  return AssignNearDevices(tree, std::move(devices), std::move(device_of),
                           num_processes, cmd.near, cmd.inputs.topology);
}

// Combinations of flags and inputs map refuses before mapping.
absl::Status CheckMapRequest(const MapCommand& cmd,
                             const topology::LeafGroups* groups,
                             const topology::Tree& tree,
                             const graphs::CommGraph& graph) {
  // Two processes on one group would share their threads' cores: with threads
  // per process a mapping is one-to-one.
  if (groups && graph.num_vertices() > tree.Capacity(tree.root())) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--threads-per-process %d: %d processes need %d leaves, the topology "
        "has room for %d groups of %d",
        groups->k, graph.num_vertices(),
        graph.num_vertices() * int64_t{groups->k}, tree.Capacity(tree.root()),
        groups->k));
  }
  if (cmd.near.empty() && !cmd.near_processes.empty()) {
    return absl::InvalidArgumentError(
        "--near-processes: goes with --near gpu|nic");
  }
  // Slot classes hold one class per process: device and speed would need
  // their intersection.
  if (!cmd.near.empty() && !cmd.process_speeds.empty()) {
    return absl::InvalidArgumentError(
        "--process-speeds: cannot be combined with --near");
  }
  return absl::OkStatus();
}

// core::Map under the progress line, with the slot classes of --near or
// --process-speeds when given; n-to-1 without them, the partitioners' call
// (api::Partition), which reports its choice into *partition.
absl::StatusOr<core::Mapping> ComputeMapping(
    const MapCommand& cmd, const topology::Tree& tree,
    const graphs::CommGraph& graph, const std::optional<NearDevices>& near,
    core::MappingOptions opts, core::PartitionReport* partition) {
  ProgressLine progress(
      absl::StrCat("mapping ", graph.num_vertices(), " processes onto ",
                   tree.num_leaves(), " leaves"),
      ProgressModeFor(cmd.quiet, cmd.progress));
  opts.progress = &progress;
  if (near) return core::Map(tree, graph, opts, near->classes);
  if (!cmd.process_speeds.empty()) {
    ASSIGN_OR_RETURN(
        const core::SlotClasses classes,
        LoadProcessClasses(cmd.process_speeds, tree, graph.num_vertices()));
    return core::Map(tree, graph, opts, classes);
  }
  if (core::IsNTo1(tree, graph)) {
    ASSIGN_OR_RETURN(api::PartitionOutcome out,
                     api::Partition(tree, graph, opts));
    *partition = std::move(out.choice);
    return std::move(out.mapping);
  }
  return core::Map(tree, graph, opts);
}

// What map writes: the mapping in the numbering of its format, and what the
// summary line and the formats say about it.
struct MapResult {
  const topology::Tree* tree = nullptr;  // the mapped tree (groups with k > 1)
  const graphs::CommGraph* graph = nullptr;
  core::Mapping mapping;  // on `tree`
  // Plain and JSON name leaves of the full tree (each process's first one
  // with threads per process), in the caller's numbering (--allowed); the
  // SMPI hostfile names hosts and needs the tree's own numbers.
  const topology::Tree* written_tree = nullptr;
  core::Mapping written;
  std::vector<std::string> device;  // --near: each process's device name
  std::string_view algorithm;
  double j = 0;
};

MapResult ResultOf(const MapCommand& cmd, const topology::Tree& full,
                   const topology::LeafGroups* groups,
                   const graphs::CommGraph& graph, core::Mapping mapping,
                   MappingFormat format, const std::optional<NearDevices>& near,
                   const core::MappingOptions& opts, double j) {
  MapResult r;
  r.tree = groups ? &groups->tree : &full;
  r.graph = &graph;
  r.written = mapping;
  if (groups) {
    for (core::LeafId& l : r.written) l = groups->first[l];
  }
  r.written_tree = &full;
  if (format != MappingFormat::kSmpi)
    r.written = LeafNumbering::For(cmd.inputs, full).ToCaller(r.written);
  if (near) {
    r.device.resize(mapping.size());
    for (size_t u = 0; u < mapping.size(); ++u) {
      const int32_t d = near->device_of_process[u];
      if (d >= 0) r.device[u] = near->devices[d].name;
    }
  }
  r.mapping = std::move(mapping);
  r.algorithm = core::AlgorithmName(opts.algorithm);
  r.j = j;
  return r;
}

// "m.txt: 4 processes on 4 leaves, J = 120 (identity 120, ratio 1.000)".
std::string SummaryLine(const MapCommand& cmd, const MapResult& r) {
  const topology::Tree& tree = *r.tree;
  const graphs::CommGraph& graph = *r.graph;
  std::string line =
      absl::StrFormat("%s: %d processes on %d leaves%s, J = %.6g", cmd.output,
                      graph.num_vertices(), tree.num_leaves(),
                      core::IsNTo1(tree, graph) ? " (n-to-1)" : "", r.j);
  if (!core::IsNTo1(tree, graph)) {
    const double id_j =
        core::ComputeJ(tree, graph, core::Slots(tree, graph.num_vertices()));
    absl::StrAppendFormat(&line, " (identity %.6g, ratio %.3f)", id_j,
                          id_j > 0 ? r.j / id_j : 1.0);
  }
  return line;
}

// The mapping on `out`, or into --output with the summary line on `out`.
absl::Status WriteMapping(const MapCommand& cmd, const MapResult& r,
                          MappingFormat format, bool launch_format,
                          base::FileBatch& files, std::ostream& out) {
  if (cmd.output.empty() && launch_format) {
    return WriteLaunchFormat(cmd.format, cmd.bind, *r.tree, r.mapping, "",
                             files, out);
  }
  // OpenFOAM's processors are the mapped tree's leaves in its own order.
  if (cmd.format == kOpenFoamFormat) {
    if (cmd.output.empty()) {
      return WriteOpenFoamDecomposition(*r.tree, r.mapping, "", out, std::cerr);
    }
    std::ostringstream notes;
    RETURN_IF_ERROR(
        WriteOpenFoamDecomposition(*r.tree, r.mapping, cmd.output, out, notes));
    out << SummaryLine(cmd, r) << "\n" << notes.str();
    return absl::OkStatus();
  }
  // Launch files are checked (a tree without hosts is refused) before the
  // summary line; their command line follows it.
  std::ostringstream launch_line;
  if (launch_format) {
    RETURN_IF_ERROR(WriteLaunchFormat(cmd.format, cmd.bind, *r.tree, r.mapping,
                                      cmd.output, files, launch_line));
  } else {
    ASSIGN_OR_RETURN(const std::string text,
                     FormatMapping(*r.written_tree, r.written, format,
                                   r.algorithm, r.j, r.device));
    if (cmd.output.empty()) {
      out << text;
      return absl::OkStatus();
    }
    RETURN_IF_ERROR(WriteText(files, cmd.output, text));
  }
  out << SummaryLine(cmd, r) << "\n" << launch_line.str();
  return absl::OkStatus();
}

// --report: the numbers of the mapping and the pictures on one page.
absl::Status WriteMapReport(const MapCommand& cmd, const MapResult& r,
                            const core::CostReport& cost,
                            base::FileBatch& files, std::ostream& names) {
  const topology::Tree& tree = *r.tree;
  const graphs::CommGraph& graph = *r.graph;
  Facts facts = {{"algorithm", std::string(r.algorithm)},
                 {"preset", cmd.preset}};
  for (auto& f : MappingFacts(tree, graph, cost)) facts.push_back(f);
  if (!core::IsNTo1(tree, graph)) {
    const double id_j = core::ComputeJ(tree, graph, core::Slots(tree));
    facts.push_back(
        {"identity J", absl::StrFormat("%.10g (ratio %.3f)", id_j,
                                       id_j > 0 ? r.j / id_j : 1.0)});
  }
  return WriteReport(files, cmd.report,
                     absl::StrCat("rankmap map: ", cmd.inputs.comm, " on ",
                                  cmd.inputs.topology),
                     facts, tree, graph, r.mapping, cost, cmd.svg_group_depth,
                     names);
}

// What follows the mapping, on stderr when the mapping went to stdout: the
// message counts, the present order's verdict, the devices, the threads'
// places, the pictures and the report.
absl::Status WriteNotes(const MapCommand& cmd, const MapResult& r,
                        const core::CostReport& cost,
                        const graphs::Traffic& traffic,
                        const core::MapReport& choice_report,
                        const core::PartitionReport& partition,
                        const std::optional<NearDevices>& near,
                        const topology::Tree& full,
                        const topology::LeafGroups* groups,
                        base::FileBatch& files, std::ostream& out) {
  std::ostream& names = cmd.output.empty() ? std::cerr : out;
  for (const std::string& line :
       {MessagesLine(traffic), PresentVerdict(choice_report, cmd.choice),
        PartitionVerdict(partition)}) {
    if (!line.empty()) names << line << "\n";
  }
  if (near) PrintNearDevices(*near, names);
  if (groups) PrintThreadPlaces(full, *groups, r.mapping, names);
  if (!cmd.svg.empty()) {
    RETURN_IF_ERROR(WritePictures(files, cmd.svg, *r.tree, *r.graph, r.mapping,
                                  cost, cmd.svg_group_depth, names));
  }
  if (!cmd.report.empty())
    RETURN_IF_ERROR(WriteMapReport(cmd, r, cost, files, names));
  return absl::OkStatus();
}

}  // namespace

absl::Status RunMap(const MapCommand& cmd, std::ostream& out) {
  ASSIGN_OR_RETURN(topology::Tree full, LoadTree(cmd.inputs));
  // With k threads per process, processes are mapped onto groups of k leaves.
  std::optional<topology::LeafGroups> groups;
  if (cmd.threads_per_process != 1) {
    ASSIGN_OR_RETURN(groups,
                     topology::GroupLeaves(full, cmd.threads_per_process));
  }
  const topology::LeafGroups* group_of = groups ? &*groups : nullptr;
  const topology::Tree& tree = groups ? groups->tree : full;
  ASSIGN_OR_RETURN(const graphs::Traffic traffic,
                   LoadTraffic(cmd.inputs, MapBytes(tree, cmd.threads)));
  const graphs::CommGraph& graph = traffic.graph;
  RETURN_IF_ERROR(CheckCostRangeOf(cmd.inputs, tree, graph));
  // The preset sets defaults; an explicit --algorithm wins.
  ASSIGN_OR_RETURN(core::MappingOptions opts,
                   api::ResolveOptions({.preset = cmd.preset,
                                        .algorithm = cmd.algorithm,
                                        .seed = cmd.seed,
                                        .threads = cmd.threads,
                                        .imbalance = cmd.imbalance}));
  RETURN_IF_ERROR(ApplyChoice(cmd.choice, cmd.inputs, tree, &opts));
  RETURN_IF_ERROR(ApplyExchange(cmd.choice, graph, &opts));
  core::MapReport choice_report;
  opts.report = &choice_report;
  RETURN_IF_ERROR(CheckMapRequest(cmd, group_of, tree, graph));
  std::optional<NearDevices> near;
  if (!cmd.near.empty()) {
    ASSIGN_OR_RETURN(near, NearDevicesFor(cmd, tree, graph.num_vertices()));
  }
  const bool launch_format = IsLaunchFormat(cmd.format);
  if (launch_format)
    RETURN_IF_ERROR(CheckLaunchableTopology(cmd.inputs, cmd.format));
  MappingFormat format = MappingFormat::kPlain;
  if (!launch_format && cmd.format != kOpenFoamFormat) {
    ASSIGN_OR_RETURN(format, ParseMappingFormat(cmd.format));
  }
  core::PartitionReport partition;
  ASSIGN_OR_RETURN(core::Mapping mapping,
                   ComputeMapping(cmd, tree, graph, near, opts, &partition));
  ASSIGN_OR_RETURN(const core::CostReport cost,
                   core::CheckedCost(tree, graph, mapping, opts.imbalance));
  const MapResult result =
      ResultOf(cmd, full, group_of, graph, std::move(mapping), format, near,
               opts, cost.j);
  // Every file at once, once all are ready; what names them is said after.
  base::FileBatch files;
  std::ostringstream said;
  RETURN_IF_ERROR(
      WriteMapping(cmd, result, format, launch_format, files, said));
  RETURN_IF_ERROR(WriteNotes(cmd, result, cost, traffic, choice_report,
                             partition, near, full, group_of, files, said));
  RETURN_IF_ERROR(files.Commit());
  out << said.str();
  return absl::OkStatus();
}

}  // namespace rankmap::cli
