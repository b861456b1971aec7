// The options of each launcher advise reads (launch/launch_line.h), taken
// from the launcher's own documentation: `mpirun --help all` of Open MPI 4.1,
// `mpiexec.hydra --help` of MPICH 4.0 (with the spellings Hydra still takes:
// -hostfile, -machinefile, -host, -binding, -bootstrap, -l), and the srun(1)
// manual of Slurm 22.05 (its --help leaves out the affinity options).
// //launch:launcher_options_test checks every option of each --help is here.
//
//   OptionMatch m = FindOption(Launcher::kSlurm, "-n4");
//   // m.spec->name == "-n", m.inline_value == "4"
//
// Spellings, as each launcher reads them: Open MPI takes a long option with
// one dash or two (-map-by, --map-by) and no "=value"; Hydra takes one dash
// or two and "=value" (--np=4); srun takes "--name=value" or "--name value",
// short options with the value attached or apart (-n4, -n 4) and short
// options without a value grouped (-lK), and options with an optional value
// only attached (--exclusive=user).
#ifndef RANKMAP_LAUNCH_LAUNCHER_OPTIONS_H_
#define RANKMAP_LAUNCH_LAUNCHER_OPTIONS_H_

#include <span>
#include <string>
#include <string_view>

#include "launch/launch_line.h"

namespace rankmap::launch {

// What an option does to the launch: kept in the rerun, placing ranks
// (replaced by the mapping's own options), giving the process count, or
// running several programs (refused).
enum class OptionRole { kKeep, kPlace, kCount, kRefuse };

struct OptionSpec {
  std::string_view name;  // as the table spells it
  // Values that follow the option as separate words; -1: an optional value,
  // taken only when attached ("--exclusive=user").
  int values;
  OptionRole role;
};

// Every option of `launcher`, as listed above.
std::span<const OptionSpec> LauncherOptions(Launcher launcher);

struct OptionMatch {
  const OptionSpec* spec = nullptr;  // nullptr: the launcher has no such option
  bool has_inline = false;           // "--map-by=core", "-n4"
  std::string inline_value;
  // srun's grouped short options ("-lK"): all without a value, kept.
  bool grouped_flags = false;
};

// The option `word` (which starts with '-') is, with the launcher's
// spellings.
OptionMatch FindOption(Launcher launcher, std::string_view word);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_LAUNCHER_OPTIONS_H_
