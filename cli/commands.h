// The `rankmap` subcommands as functions of plain option structs, so they can
// be tested and called without flags. Each writes its report to `out` and
// returns a Status; the thin main() turns flags into these structs and a non-OK
// Status into one line on stderr and exit code 2 (bad input) or 1 (internal
// failure).
#ifndef RANKMAP_CLI_COMMANDS_H_
#define RANKMAP_CLI_COMMANDS_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"

namespace rankmap::cli {

// Where processes run and who talks to whom.
struct Inputs {
  std::string topology =
      "this";                 // see topology/topology.h for the accepted forms
  std::string leaf = "pu";    // pu | core
  std::string level_costs;    // "numa=100,pack=50"
  std::string allowed;        // allowed PUs (hwloc list syntax of os indexes)
  int32_t oversubscribe = 1;  // capacity per leaf
  std::string comm;           // communication graph file
  std::string comm_format = "auto";
};

struct MapCommand {
  Inputs inputs;
  std::string algorithm = "portfolio";
  std::string preset = "default";
  uint64_t seed = 1;
  int32_t threads = 1;
  std::string output;  // empty: stdout
  std::string format = "plain";
  std::string svg;  // heatmap + tree picture prefix; empty: none
  int32_t svg_group_depth = 1;
  bool quiet = false;
};

struct EvalCommand {
  Inputs inputs;
  std::string mapping;  // plain mapping file
  std::string model;    // empty, hockney, lmo, hloggp, taulop
  std::string params;   // model parameter file; empty: defaults per level
};

struct CompareCommand {
  Inputs inputs;
  std::string
      model;  // empty, or rank by predicted time: hockney, lmo, hloggp, taulop
  std::string params;  // model parameter file; empty: defaults per level
  std::string preset = "default";
  uint64_t seed = 1;
  int32_t threads = 1;
  std::string svg;
  bool quiet = false;
};

struct TopologyCommand {
  Inputs inputs;
  std::string format = "text";  // text | json | tleaf
};

struct DemoCommand {
  Inputs inputs;  // topology defaults to this machine; comm ignored
  uint64_t seed = 1;
  bool quiet = false;
};

struct FrontendCommand {
  std::string kind;  // summa | square-corner | stencil
  std::string
      output;  // graph file; format from its extension (or graph_format)
  std::string graph_format = "auto";
  std::string speeds;  // file of speeds, or an inline list "8,1,1"
  // summa / square-corner
  int64_t n = 0;
  int64_t block = 1;
  int32_t element_size = 8;
  std::string partitioner = "column-dp";
  std::string flow = "ring";
  std::string link = "serial";
  std::string shape = "hybrid";
  std::string clusters;   // cluster of each processor, "0,0,1"
  std::string bandwidth;  // cluster-pair bandwidths, row-major "10,1,1,10"
  // stencil
  std::string grid = "1024x1024";
  int32_t stencil = 5;
  int32_t halo = 1;
  std::string periodic = "none";
  int64_t procs = 0;
  std::string proc_grid;
  bool slabs = false;
};

absl::Status RunMap(const MapCommand& cmd, std::ostream& out);
absl::Status RunEval(const EvalCommand& cmd, std::ostream& out);
absl::Status RunCompare(const CompareCommand& cmd, std::ostream& out);
absl::Status RunTopology(const TopologyCommand& cmd, std::ostream& out);
absl::Status RunDemo(const DemoCommand& cmd, std::ostream& out);
absl::Status RunFrontend(const FrontendCommand& cmd, std::ostream& out);

// 2 for errors caused by the input (bad file, bad flag value), 1 for internal
// failures.
int ExitCodeFor(const absl::Status& status);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_COMMANDS_H_
