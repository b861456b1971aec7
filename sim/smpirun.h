// Running an SMPI program under smpirun: where smpirun and rankmap's SMPI
// programs are, the network model settings, and one run.
//
//   ASSIGN_OR_RETURN(std::string program, FindSmpiProgram("replay_smpi.so"));
//   SmpiRun run;
//   run.program = program;
//   run.args = {"g.grf", "--iterations=10"};
//   run.platform = "p.xml";
//   run.hostfile = "hosts";
//   run.ranks = 64;
//   run.work_dir = dir.path();
//   ASSIGN_OR_RETURN(SmpiOutput out, RunSmpi(run));
//
// Every run passes --cfg=smpi/privatization:no (rankmap's programs keep no
// mutable globals, and privatization would copy the program once per rank)
// and --cfg=smpi/simulate-computation:no (time between MPI calls is not
// measured on this machine, so simulated times are deterministic; programs
// that compute say how long with smpi_execute_flops).
#ifndef RANKMAP_SIM_SMPIRUN_H_
#define RANKMAP_SIM_SMPIRUN_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::sim {

enum class SmpiModel {
  // SMPI's defaults: its calibrated piecewise bandwidth and latency factors,
  // TCP cross traffic and per-message overheads (what benchmarks use).
  kCalibrated,
  // The plain model for hand-checked times: CM02 with every factor 1, no
  // cross traffic, no TCP window bound, no send/receive overheads, every
  // message sent eagerly-free (no asynchronous small-message path). A message
  // of m bytes on a route then takes the sum of the latencies plus m over the
  // smallest bandwidth, to within 20 ns.
  kExact,
};

// The --cfg flags of a model (empty for kCalibrated).
std::vector<std::string> SmpiModelFlags(SmpiModel model);

// "calibrated" or "exact"; the error names both.
absl::StatusOr<SmpiModel> ParseSmpiModel(std::string_view name);

// smpirun on PATH. Error (FailedPrecondition): not installed, naming the
// Debian package libsimgrid-dev.
absl::StatusOr<std::string> FindSmpirun();

// One of sim/'s programs (sim/BUILD: replay_smpi.so, stencil3d_smpi.so, ...,
// platform_check), found beside the running binary: $RANKMAP_SIM_DIR, the
// binary's Bazel runfiles (<exe>.runfiles/rankmap/sim, $RUNFILES_DIR,
// $TEST_SRCDIR), then <exe dir>/../sim and <exe dir>. Error (NotFound) lists
// where it looked.
absl::StatusOr<std::string> FindSmpiProgram(std::string_view name);

struct SmpiRun {
  std::string program;            // the program's .so
  std::vector<std::string> args;  // its arguments
  std::string platform;           // SimGrid platform file
  std::string hostfile;           // line r: host of rank r
  int32_t ranks = 0;
  SmpiModel model = SmpiModel::kCalibrated;
  std::vector<std::string> extra_flags;  // more --cfg=... settings
  // Current directory and TMPDIR of smpirun (which writes temporary files).
  std::string work_dir;
};

struct SmpiOutput {
  std::string out;  // the program's standard output
  std::string err;  // SimGrid's and the program's standard error
};

// `path` as smpirun cannot misread it: as it is when it holds only
// characters no shell treats specially, else the name of a symbolic link to
// it made in `work_dir` (`name` plus the path's extension, e.g.
// "graph.grf"), relative, since smpirun runs there. smpirun is a shell
// script that passes paths on unquoted: a space would split one, "[x]" would
// match another file. Error: the link cannot be made.
absl::StatusOr<std::string> SmpiSafePath(const std::string& path,
                                         const std::string& work_dir,
                                         std::string_view name);

// Runs smpirun and waits; the platform, hostfile and program go through
// SmpiSafePath. Errors: smpirun missing (FindSmpirun), a work directory or
// an argument smpirun would split or expand, a run that exits with a
// non-zero status (the message quotes the last line of its error output), a
// run killed by a signal.
absl::StatusOr<SmpiOutput> RunSmpi(const SmpiRun& run);

// The number in the line "time per iteration: <seconds> s" of a program's
// output. Error: no such line.
absl::StatusOr<double> ParseTimePerIteration(std::string_view out);

}  // namespace rankmap::sim

#endif  // RANKMAP_SIM_SMPIRUN_H_
