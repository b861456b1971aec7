// Profiling a user's MPI job as it is launched: `rankmap advise -- mpirun
// -np 8 ./app` runs that line once with the traffic profiler preloaded
// (mpi_bindings/profile.h), the way the launcher passes environment to its
// ranks (launch/launch_line.h), and leaves prefix.mat, .msgs.mat, .grf and
// .placement behind.
//
//   JobProfileOptions o;
//   o.prefix = dir + "/profile";
//   ASSIGN_OR_RETURN(JobProfile job, ProfileJob(argv, o, std::cerr));
//   // job.line: the launch line read; job.flavour: "Open MPI" or "MPICH"
//
// The launcher is told by asking it (`mpirun --version` names Open MPI or
// Hydra; `srun` is Slurm's); the profiler build by what the program links
// (ldd: libmpi.so is Open MPI, libmpich.so MPICH): a program that links
// neither cannot be profiled by preloading, which is an error. With a time
// limit the job is stopped after that many seconds (SIGTERM to the launcher,
// which stops its ranks) and the rows the ranks saved on the way are merged
// into a partial profile (the ranks save every limit / 4 seconds).
#ifndef RANKMAP_CLI_JOB_PROFILE_H_
#define RANKMAP_CLI_JOB_PROFILE_H_

#include <optional>
#include <ostream>
#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "launch/launch_line.h"

namespace rankmap::cli {

struct JobProfileOptions {
  std::string prefix;   // where the profile's files go
  double seconds = 0;   // 0: the whole run
  // The launcher, when its name and `--version` do not tell.
  std::optional<launch::Launcher> launcher;
};

struct JobProfile {
  launch::LaunchLine line;
  std::string flavour;  // "Open MPI" or "MPICH"
  std::string library;  // the profiler that was preloaded
  bool stopped = false;  // the time limit stopped the job
  std::string partial;   // why the profile is partial, or ""
};

// The launcher `exe` is, by its name (srun, mpiexec.hydra) or by what
// `exe --version` says. Errors (naming `command`): a launcher rankmap does
// not know.
absl::StatusOr<launch::Launcher> DetectLauncher(const std::string& exe,
                                                std::string_view command);

// The program's path: as given when it has a '/', else from PATH. Errors: not
// an executable file.
absl::StatusOr<std::string> ResolveProgram(const std::string& program);

// "Open MPI" or "MPICH", from the libraries the program links (ldd). Errors:
// neither.
absl::StatusOr<std::string> MpiFlavour(const std::string& program);

// A failed job's standard error without what the launcher wraps around the
// program's own lines (help boxes, "[host:pid]" notes).
std::string ProgramLines(const std::string& err);

// The directory of the hosts' hardware the profiler kept beside a profile's
// .mat (prefix.hwloc, mpi_bindings/profile_output.h), or "" when there is
// none.
std::string ProfileHardware(const std::string& mat);

// "openmpi", "hydra" or "slurm" (the --launcher flag).
absl::StatusOr<launch::Launcher> ParseLauncher(std::string_view name);

// Runs the job and waits (its standard output and error go to
// prefix.out / prefix.err). Errors, one line each: a launcher advise does not
// know, a program it cannot find or that is not dynamically linked against
// MPI, a job that fails (its exit status and the last lines of its standard
// error), a job that ends without a profile.
absl::StatusOr<JobProfile> ProfileJob(std::span<const std::string> argv,
                                      const JobProfileOptions& options,
                                      std::ostream& log);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_JOB_PROFILE_H_
