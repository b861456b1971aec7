// `rankmap bind`: a binder that runs inside each rank of a job under any
// launcher. It finds its rank in the environment (launch/rank_environment.h),
// binds its CPUs and memory to the leaves the mapping gives that rank, sets
// the OpenMP variables for its threads and execs the program.
//
//   mpirun -np 2 rankmap bind --mapping m.txt -- ./app args
//   mpiexec.hydra -n 2 rankmap bind --mapping m.txt -- ./app args
//   srun -n 2 rankmap bind --mapping m.txt -- ./app args
//
// Everything is checked before the process is bound: a bad input is one
// error and nothing runs, never a program bound halfway.
#ifndef RANKMAP_CLI_BIND_COMMAND_H_
#define RANKMAP_CLI_BIND_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "cli/inputs.h"

namespace rankmap::cli {

struct BindCommand {
  Inputs inputs;        // the machine the mapping's leaves belong to
  std::string mapping;  // any format `map` writes (cli/mapping_reader.h)
  std::string bind = "cpu+mem";  // none | cpu | cpu+mem
  // Leaves per process: process i owns leaves mapping[i] .. mapping[i]+k-1
  // (as `map --threads-per-process k` writes them), one thread each.
  int32_t threads_per_process = 1;
  bool verbose = false;              // one line on `err`: what was applied
  std::vector<std::string> program;  // what follows `--`
};

// Does not return when it succeeds: the process becomes `program`. Errors:
// no program or mapping, bad --bind or --threads-per-process, the inputs'
// errors, no rank in the environment, a rank the mapping lacks, leaves past
// the tree or on another host than this one, the OS refusing the CPU
// binding, a program that cannot be executed. A refused memory binding is a
// warning on `err` (the CPUs stay bound), not an error.
absl::Status RunBind(const BindCommand& cmd, std::ostream& err);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_BIND_COMMAND_H_
