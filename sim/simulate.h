// Front door of sim/: run a parallel program on a simulated machine (SimGrid's
// SMPI) with its processes placed by a mapping.
//
//   ASSIGN_OR_RETURN(Tree tree, LoadTopology("tleaf 2 16 10Gbps:2us 24
//   40GBps:0s")); ASSIGN_OR_RETURN(Simulator sim, Simulator::Create(tree));
//   SimulateOptions opts;
//   opts.iterations = 10;
//   ASSIGN_OR_RETURN(double seconds, sim.Replay("app.grf", mapping, opts));
//
// The machine is a SimGrid platform: the file the tree was read from, or the
// platform topology/simgrid_platform.h writes for the tree (into a temporary
// directory under $TEST_TMPDIR, $TMPDIR or /tmp, removed with the Simulator).
// A mapping becomes a hostfile (sim/smpi_hostfile.h): rank r runs on the host
// of leaf mapping[r]. Replay runs rankmap's replay program (sim/replay.cc:
// every edge of the graph sent both ways each iteration, non-blocking), Run
// any other SMPI program. Simulated times are deterministic: the same inputs
// give the same seconds on any machine.
#ifndef RANKMAP_SIM_SIMULATE_H_
#define RANKMAP_SIM_SIMULATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/temp_dir.h"
#include "core/mapping.h"
#include "sim/smpirun.h"
#include "topology/tree.h"

namespace rankmap::sim {

struct SimulateOptions {
  int64_t iterations = 10;
  SmpiModel model = SmpiModel::kCalibrated;
  std::string graph_format = "auto";  // as graphs::ParseGraphFormat reads it
};

class Simulator {
 public:
  // `platform`: a SimGrid platform file whose host ids are the tree's host
  // names (the file the tree was read from); empty: the platform is written
  // from the tree. The tree must outlive the Simulator. Errors: those of
  // WriteSimGridPlatform, a temporary directory that cannot be made.
  static absl::StatusOr<Simulator> Create(const topology::Tree& tree,
                                          const std::string& platform = "");

  // Seconds per iteration of the replay of the graph in `graph_path` (any
  // format rankmap reads; one vertex per mapped process). Errors: an invalid
  // mapping (ValidateMapping), leaves without host names, smpirun or the
  // program missing or failing.
  absl::StatusOr<double> Replay(const std::string& graph_path,
                                const core::Mapping& mapping,
                                const SimulateOptions& options) const;

  // Runs `program` (a path, e.g. from FindSmpiProgram) with `args`, one rank
  // per entry of `mapping`, and returns its output.
  absl::StatusOr<SmpiOutput> Run(
      const std::string& program, std::vector<std::string> args,
      const core::Mapping& mapping, SmpiModel model,
      std::vector<std::string> extra_flags = {}) const;

  const std::string& platform() const { return platform_; }
  // The temporary directory (hostfile, platform when written, outputs).
  const std::string& dir() const { return dir_.path(); }

 private:
  Simulator(const topology::Tree* tree, base::TempDir dir, std::string platform)
      : tree_(tree), dir_(std::move(dir)), platform_(std::move(platform)) {}

  const topology::Tree* tree_;
  base::TempDir dir_;
  std::string platform_;
};

}  // namespace rankmap::sim

#endif  // RANKMAP_SIM_SIMULATE_H_
