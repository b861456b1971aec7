// `rankmap simulate`: run the communication of a graph, with its processes
// placed by a mapping, on a simulated machine (SimGrid SMPI, sim/simulate.h),
// and print the simulated time per iteration.
//
//   rankmap simulate --topology "tleaf 2 16 10Gbps:2us 24 40GBps:0.2us"
//       --comm app.grf --mapping m.txt --iterations 10   (one command line)
//
// The machine is the --topology itself when it is a SimGrid platform file,
// else the platform written from its tree (which must carry links: tleaf link
// levels or a network spec with link directives); SimGrid's loader checks it
// first (sim/platform_check.h). The program that runs is rankmap's replay
// program, found beside the rankmap binary: message by message when the graph
// comes with message counts (--messages FILE, or app.msgs.mat beside app.mat;
// sim/message_plan.h), one message per pair and direction otherwise. The
// output says which:
//
//   64 processes, 192 edges, 10 iterations on the calibrated SMPI model
//   messages from app.msgs.mat: 76800 per iteration in 200 rounds
//   simulated time per iteration  0.00624786 s
#ifndef RANKMAP_CLI_SIMULATE_COMMAND_H_
#define RANKMAP_CLI_SIMULATE_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cli/inputs.h"
#include "sim/simulate.h"
#include "topology/tree.h"

namespace rankmap::cli {

struct SimulateCommand {
  Inputs inputs;
  std::string mapping;  // plain mapping file (required)
  int64_t iterations = 10;
  std::string smpi_model = "calibrated";  // calibrated | exact
  // Message counts are inputs.messages: "" the file beside --comm
  // (app.msgs.mat) when there is one, "none", or a graph file of counts.
};

// Errors: bad inputs, a mapping that does not fit the tree and graph, a
// topology without links, SMPI missing (naming the Debian package) or the
// simulation failing.
absl::Status RunSimulate(const SimulateCommand& cmd, std::ostream& out);

// The simulator of `tree`, read from `in.topology`: that file when it is a
// SimGrid platform, else a platform written from the tree.
absl::StatusOr<sim::Simulator> SimulatorFor(const Inputs& in,
                                            const topology::Tree& tree);

// The most --iterations a command simulates.
inline constexpr int64_t kMaxIterations = 1000;

// The most messages one replay of a command simulates over its run: its time
// grows with them (SimGrid simulates on the order of 10^5 messages a second
// on an idle core of this kind of machine, 2.5 x 10^4 on a loaded one: 10^6
// took 44 s), so larger counts are divided and the divisor is said
// (sim/message_plan.h). advise replays twice, each within half.
inline constexpr int64_t kCommandReplayMessages = 250'000;

// Checks --iterations (1 to kMaxIterations) and --smpi_model.
absl::StatusOr<sim::SimulateOptions> ParseSimulateOptions(
    int64_t iterations, const std::string& smpi_model);

// The plan of the replay of `in.comm` (sim::PlanReplay). Errors: no --comm,
// PlanReplay's.
absl::StatusOr<sim::ReplayPlan> PlanReplayOf(const Inputs& in,
                                             const sim::SimulateOptions& opts);

// The line saying where the counts came from and what an iteration sends:
// "messages from app.msgs.mat: 76800 per iteration in 200 rounds", or
// "messages: one per pair and direction, 384 per iteration in 1 round (no
// counts: no app.msgs.mat beside the graph)".
std::string MessagesLine(const sim::ReplayPlan& plan, const Inputs& in,
                         const sim::SimulateOptions& opts);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_SIMULATE_COMMAND_H_
