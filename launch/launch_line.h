// A user's own launch line (`mpirun ... ./app args`, `mpiexec.hydra ...`,
// `srun ...`), read so that rankmap can run the same job with the profiler
// preloaded and write the line that reruns it placed by a mapping.
//
//   ASSIGN_OR_RETURN(LaunchLine line, ParseLaunchLine(argv,
//   Launcher::kOpenMpi)); std::vector<std::string> profiled =
//       WithEnvironment(line, {{"LD_PRELOAD", lib}, {"RANKMAP_PROFILE_OUT",
//       p}});
//   // mpirun -x LD_PRELOAD=lib -x RANKMAP_PROFILE_OUT=p -np 8 ./app args
//
// The launcher is named by the caller (the words of argv[0] do not tell
// Open MPI's mpirun from MPICH's: `rankmap advise` asks the launcher). Each
// launcher's options are known by name (tables in launch_line.cc): those that
// take a value, and those that place ranks (mapping, binding, host lists),
// which the rerun replaces with the mapping's own. The program is the first
// word that is neither an option nor an option's value. Unknown options are
// taken to have no value (`--foo=bar` carries its own), and the caller
// checks that the program it finds is one.
#ifndef RANKMAP_LAUNCH_LAUNCH_LINE_H_
#define RANKMAP_LAUNCH_LAUNCH_LINE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "launch/launch_plan.h"

namespace rankmap::launch {

enum class Launcher {
  kOpenMpi,  // mpirun / mpiexec of Open MPI (4.x)
  kHydra,    // MPICH's mpiexec.hydra (also mpiexec.mpich, mpirun.mpich)
  kSlurm,    // srun
};

std::string LauncherName(Launcher launcher);

struct LaunchLine {
  Launcher launcher = Launcher::kOpenMpi;
  std::string executable;  // argv[0]
  // Options before the program, as given; `placement[i]` says whether
  // options[i] places or counts ranks, which a mapping's own launch line
  // does instead (its values follow it in `options`, marked the same).
  std::vector<std::string> options;
  std::vector<bool> placement;
  // The program and its arguments.
  std::vector<std::string> program;
  // Processes asked for (-np, -n, --ntasks), or -1 when not given.
  int64_t processes = -1;
};

// Errors: an empty line, no program after the options, an option missing
// its value, MPMD lines (`:` between programs) and application-context
// files, which run several programs.
absl::StatusOr<LaunchLine> ParseLaunchLine(std::span<const std::string> argv,
                                           Launcher launcher);

// The line with `env` exported to every rank, the launcher's way: `-x
// NAME=value` (Open MPI), `-genv NAME value` (Hydra), `--export` (Slurm:
// ALL plus the variables, merged into a given --export). As argv words.
// Error: a value srun's --export would split (a ',').
absl::StatusOr<std::vector<std::string>> WithEnvironment(
    const LaunchLine& line,
    const std::vector<std::pair<std::string, std::string>>& env);

// The options that stay when a mapping places the ranks: every option that
// neither places nor counts ranks, in order, with its values.
std::vector<std::string> KeptOptions(const LaunchLine& line);

// The command that reruns `line` placed by `placed` (a LaunchPlan's launch,
// launch/launch_plan.h): placed's variables, the user's own launcher
// (line.executable), the kept options, placed's words after its launcher's
// name, then the program and its arguments. Built word by word, so no text
// of a path or an argument can be taken for a launcher's name.
LaunchCommand RerunCommand(const LaunchLine& line, const LaunchCommand& placed);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_LAUNCH_LINE_H_
