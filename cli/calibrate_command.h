// `rankmap calibrate -- <launch line>`: measures the links a job's ranks use,
// under the user's own launcher, and writes them as a network spec that map,
// advise and simulate read (topology/network.h).
//
//   rankmap calibrate --output links.net -- mpirun -np 16 --host a:8,b:8
//   rankmap calibrate --output links.net -- smpirun -np 16 -platform p.xml
//       -hostfile hosts                  (a simulated machine, links known)
//   rankmap calibrate --from-probe links.net.probe --output links.net
//
// The launch line is the user's without the program (a program given is
// replaced): rankmap runs its probe (sim/link_probe.cc) in its place, the
// build the launcher runs (Open MPI's mpirun: Open MPI; mpiexec.hydra:
// MPICH; srun: the program's MPI when one is given, else Open MPI; smpirun:
// SMPI). The probe measures ping-pongs from rank 0 to a rank at each
// distance (inside its host, under its switch, under another switch) and
// concurrent streams over shared links, and exports each host's hardware;
// models/link_fit.h fits the links. Written beside the spec: OUTPUT.probe
// (the measurements), OUTPUT.hwloc/<host>.xml (each host's hardware, not
// under smpirun), OUTPUT.params (Hockney per distance, for eval --params).
// The spec lists every host the ranks ran on under the switch its latencies
// put it in, each with its own hardware (or core:<ranks on it> under
// smpirun), and the links measured. Printed: one line per distance (latency,
// bandwidth) and the links written.
#ifndef RANKMAP_CLI_CALIBRATE_COMMAND_H_
#define RANKMAP_CLI_CALIBRATE_COMMAND_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "launch/launch_line.h"

namespace rankmap::cli {

struct CalibrateCommand {
  std::vector<std::string> launch;  // the launch line, after --
  std::string output = "rankmap-calibrate.net";
  std::string from_probe;  // a probe's output made earlier
  std::string launcher;    // openmpi | hydra | slurm, when not told
  // How links are written: calibrated (nominal, as SMPI's default model
  // reads them) | exact (as measured).
  std::string smpi_model = "calibrated";
  bool quick = false;
};

absl::Status RunCalibrate(const CalibrateCommand& cmd, std::ostream& out);

// What advise --calibrate runs: the probe under `launch` (a user's launch
// line, its program replaced), writing the spec to `output`. Returns the
// spec's path. Errors: RunCalibrate's.
absl::StatusOr<std::string> CalibrateLinks(const std::vector<std::string>& launch,
                                           const std::string& output,
                                           std::optional<launch::Launcher> launcher,
                                           std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_CALIBRATE_COMMAND_H_
