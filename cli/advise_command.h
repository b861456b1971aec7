// `rankmap advise`: from an unmodified MPI job to a faster launch in one
// command, with the gain predicted first.
//
//   rankmap advise [flags] -- mpirun -np 64 ./app args
//   rankmap advise --from-profile run/profile.mat [--placement P] [flags]
//
// 1. runs the launch line once with the traffic profiler preloaded
//    (cli/job_profile.h), for the whole run or its first --profile-seconds;
//    or reads a profile made earlier (--from-profile);
// 2. reads where each rank ran (the profile's .placement: host and CPUs);
// 3. takes the machine from --topology or builds it (cli/advise_machine.h);
// 4. maps the traffic with the present placement as the order to beat
//    (core/strategies/present_order.h), and prints both side by side: J, the
//    share of bytes crossing each level, the busiest link, and a predicted time
//    per iteration: SMPI's simulation of the profile's own messages on the
//    machine's links when the tree has links, the Hockney model otherwise;
// 5. when the predicted gain is above --min-gain, writes the launch file of
//    the same launcher (rankfile, Slurm hostfile and binding, Hydra hostfile
//    and binding, or a `rankmap bind` wrapper) and prints the command to
//    rerun; otherwise says the present placement is within that margin and
//    writes nothing (exit 0);
// 6. --report F.html: the comparison on one page with both placements'
//    pictures.
#ifndef RANKMAP_CLI_ADVISE_COMMAND_H_
#define RANKMAP_CLI_ADVISE_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cli/inputs.h"

namespace rankmap::cli {

struct AdviseCommand {
  // The machine: topology empty to build one; node, leaf, level costs as
  // for map.
  Inputs inputs;
  std::string network;  // a network spec over the job's hosts
  // Measure the links first (rankmap calibrate under the same launch line)
  // and price the job on them.
  bool calibrate = false;
  std::vector<std::string> launch;  // the launch line after --
  std::string from_profile;         // instead of running: a profile's .mat
  std::string placement;            // its .placement (default: beside it)
  std::string launcher;             // openmpi | hydra | slurm; "": detect
  double profile_seconds = 0;       // 0: the whole run
  double min_gain = 0.03;
  std::string output = "rankmap-advise";  // directory for every file
  std::string report;                     // HTML page; "": none
  int64_t iterations = 10;                // simulated iterations
  uint64_t seed = 1;
  int32_t threads = 1;
  bool quiet = false;
};

// Prints the comparison and the advice on `out`. Errors: those of the
// steps above, one line each; nothing is written when one occurs after the
// profile.
absl::Status RunAdvise(const AdviseCommand& cmd, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_ADVISE_COMMAND_H_
