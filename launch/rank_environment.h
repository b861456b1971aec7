// Which rank the calling process is, read from the variables launchers set,
// so one binder serves mpirun, mpiexec.hydra and srun alike.
//
//   ASSIGN_OR_RETURN(ProcessRank r, RankFromEnvironment(std::getenv));
//   r.rank      // 3
//   r.variable  // "PMI_RANK"
//   r.size      // 4, from PMI_SIZE (-1 when the launcher does not say)
//
// Order: OMPI_COMM_WORLD_RANK (Open MPI's mpirun), PMI_RANK (Hydra, and srun
// --mpi=pmi2), PMIX_RANK (PMIx launchers), SLURM_PROCID (srun). The
// launcher-specific ones come first because SLURM_PROCID leaks into jobs that
// mpirun or mpiexec starts inside an srun step, where it is the step's rank.
// The job's size comes from the same launcher's variable: OMPI_COMM_WORLD_SIZE,
// PMI_SIZE, none for PMIx, SLURM_STEP_NUM_TASKS or SLURM_NTASKS. Knowing it,
// every rank of a job started with the wrong count refuses alike, before any
// of them starts the program (which would wait for the missing ones).
#ifndef RANKMAP_LAUNCH_RANK_ENVIRONMENT_H_
#define RANKMAP_LAUNCH_RANK_ENVIRONMENT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace rankmap::launch {

struct ProcessRank {
  int32_t rank = 0;
  std::string variable;  // the variable it was read from
  int32_t size = -1;     // processes in the job; -1 when unknown
};

// `lookup` is getenv or a stand-in (returns nullptr for unset). Errors: none
// of the variables set (the message lists them), a value that is not a
// non-negative integer, a size that is not a positive integer above the rank
// (the messages name the variable and the value).
absl::StatusOr<ProcessRank> RankFromEnvironment(
    const char* (*lookup)(const char*));

// The same order as a POSIX shell expression for generated scripts:
// "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-${SLURM_PROCID:-}}}}".
std::string ShellRankExpression();

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_RANK_ENVIRONMENT_H_
