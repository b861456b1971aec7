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
// Every platform is checked with SimGrid's own loader when the Simulator is
// created (sim/platform_check.h). A mapping becomes a hostfile
// (sim/smpi_hostfile.h): rank r runs on the host of leaf mapping[r]. Replay
// runs rankmap's replay program (sim/replay.cc: the traffic of every pair of
// the graph each iteration, non-blocking; message by message, in exchange
// rounds, when the graph comes with message counts, sim/message_plan.h), Run
// any other SMPI program. Simulated times are deterministic: the same inputs
// give the same seconds on any machine.
//
//   opts.messages = "app.msgs.mat";   // or "" (beside the graph), "none"
//   ASSIGN_OR_RETURN(ReplayPlan plan, PlanReplay("app.mat", opts));
//   // plan.messages_per_iteration, plan.rounds: what one iteration sends
//   ASSIGN_OR_RETURN(double seconds, sim.Replay(plan, mapping, opts));
#ifndef RANKMAP_SIM_SIMULATE_H_
#define RANKMAP_SIM_SIMULATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "base/temp_dir.h"
#include "core/model/mapping.h"
#include "sim/message_plan.h"
#include "sim/smpirun.h"
#include "topology/tree.h"

namespace rankmap::sim {

struct SimulateOptions {
  int64_t iterations = 10;
  SmpiModel model = SmpiModel::kCalibrated;
  std::string graph_format = "auto";  // as graphs::ParseGraphFormat reads it
  // Message counts, as graphs::TrafficOptions takes them: "" the file beside
  // the graph (app.msgs.mat beside app.mat or app.grf) when there is one,
  // "none", or a file of counts in any graph format.
  std::string messages;
  std::string messages_format = "auto";
  // The replay's work: at most this many simulated messages over the run;
  // counts above it are divided (sim/message_plan.h: ReplayDivisor), and
  // what cannot be divided is refused naming it.
  int64_t max_messages = kMaxReplayMessages;
};

// A replay as it will run: the traffic read, its messages planned and checked
// against the bounds of sim/message_plan.h.
struct ReplayPlan {
  std::string graph;         // absolute path
  std::string graph_format;  // as given
  std::string messages;      // the counts' file (absolute), "" without counts
  std::string messages_format;
  int32_t processes = 0;
  int64_t edges = 0;
  int64_t messages_per_iteration = 0;  // every pair, both directions
  int32_t rounds = 0;                  // exchange rounds per iteration
  double bytes_per_iteration = 0;
  // Message counts divided by it for the replay (1: as recorded); the times
  // are a whole iteration's.
  int64_t divisor = 1;
};

// Reads the graph in `graph_path` and its counts as `options` says and plans
// the replay. Errors: the readers' (file and line), a bad format name, the
// bounds of sim/message_plan.h (messages per iteration, message size, and
// options.iterations times the messages of an iteration), each naming the
// file. O(size of the files).
absl::StatusOr<ReplayPlan> PlanReplay(const std::string& graph_path,
                                      const SimulateOptions& options);

class Simulator {
 public:
  // `platform`: a SimGrid platform file whose host ids are the tree's host
  // names (the file the tree was read from); empty: the platform is written
  // from the tree. Either is checked with SimGrid's loader (CheckPlatform).
  // The tree must outlive the Simulator. Errors: those of
  // WriteSimGridPlatform and CheckPlatform, a temporary directory that cannot
  // be made.
  static absl::StatusOr<Simulator> Create(const topology::Tree& tree,
                                          const std::string& platform = "");

  // Seconds per iteration of the replay of `plan` (one vertex per mapped
  // process) for options.iterations timed iterations under options.model.
  // Errors: an invalid mapping (ValidateMapping), a mapping of another
  // process count, the work bound (CheckReplayWork), leaves without host
  // names, smpirun or the program missing or failing.
  absl::StatusOr<double> Replay(const ReplayPlan& plan,
                                const core::Mapping& mapping,
                                const SimulateOptions& options) const;
  // The same for the graph in `graph_path` (PlanReplay, then Replay).
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
