// `rankmap map`: maps the processes of a communication graph onto a topology
// and writes the mapping (plain or JSON, cli/mapping_io.h; or what a launcher
// reads, cli/launch_output.h), with more processes than slots as an n-to-1
// partition.
//
//   MapCommand cmd;
//   cmd.inputs.topology = "tleaf 2 2 10 2 1";
//   cmd.inputs.comm = "cycle4.edges";
//   cmd.output = "m.txt";
//   RETURN_IF_ERROR(RunMap(cmd, std::cout));  // "m.txt: 4 processes on ..."
#ifndef RANKMAP_CLI_MAP_COMMAND_H_
#define RANKMAP_CLI_MAP_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "cli/choice.h"
#include "cli/inputs.h"

namespace rankmap::cli {

struct MapCommand {
  Inputs inputs;
  std::string algorithm;  // empty: the preset's (portfolio for default)
  std::string preset = "default";
  uint64_t seed = 1;
  int32_t threads = 1;
  std::string output;  // empty: stdout
  std::string format = "plain";
  std::string bind = "auto";  // launch formats: auto | mask | wrapper | none
  std::string svg;     // tree, matrix and volume pictures prefix; empty: none
  std::string report;  // HTML report with numbers and pictures; empty: none
  int32_t svg_group_depth = 1;
  bool quiet = false;     // no progress line
  bool progress = false;  // a progress line even when stderr is no terminal
  // Leaves per process (topology/leaf_groups.h): the mapping is computed on
  // groups of k leaves; plain and JSON outputs give each process's first leaf
  // of the full tree (what `rankmap bind --threads-per-process k` reads),
  // launch formats bind each rank to all its PUs, and the OpenMP settings
  // for the binder are printed.
  int32_t threads_per_process = 1;
  // "gpu" or "nic": processes keep to the leaves local to their device
  // (cli/near_devices.h); the topology must be an hwloc XML export or
  // "this". Empty: no device constraint.
  std::string near;
  // Which processes need which device (cli/near_devices.h); empty: process i
  // takes device i.
  std::string near_processes;
  // Speeds file (cli/process_speeds.h): each process stays on a leaf of its
  // speed; empty: no constraint. Not with `near`.
  std::string process_speeds;
  // n-to-1 (more processes than leaves): the allowed imbalance of the parts.
  double imbalance = 0.03;
  // Objective, present order and margin (cli/choice.h).
  Choice choice;
};

// Writes the mapping to `output`, or to `out` when `output` is empty. With an
// output file, `out` gets one summary line (J, and against identity when
// one-to-one), the message counts read, how the present order compared
// (cli/choice.h) and the names of the pictures and report; without one, those
// lines go to stderr so that `out` holds only the mapping; so do the device
// lines of --near. Errors: bad inputs, options or format; --near on a
// topology without such devices or with too few, or whose localities are too
// small; a mapping that fails validation; unwritable files.
absl::Status RunMap(const MapCommand& cmd, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_MAP_COMMAND_H_
