// What the two PETSc types share: their options (read from PETSc's options
// database under their prefix), the report of their last partition, the
// conversion of a Status into a PETSc error, and the boundary that keeps C++
// exceptions out of PETSc's C callers.
//
//   PetscOptionsHeadBegin(PetscOptionsObject, "rankmap options");
//   PetscCall(ReadOptions(PetscOptionsObject, "mat_partitioning", &state));
//   PetscOptionsHeadEnd();
//   ...
//   return PetscErrorOf(comm, PartitionJob(...));
#ifndef RANKMAP_PLUGINS_PETSC_PETSC_GLUE_H_
#define RANKMAP_PLUGINS_PETSC_PETSC_GLUE_H_

#include <petscsys.h>
#include <petscviewer.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "plugins/petsc/job_partition.h"

namespace rankmap::plugins::petsc {

// One partitioner object's state (the `data` of the PETSc object).
struct RankmapState {
  JobPartitionOptions options;
  std::string compare;              // a PETSc type to compare with; "": none
  std::vector<std::string> report;  // the last partition's, on rank 0
};

// Reads -<word>_rankmap_* into *state (the object's prefix applies). Call
// between PetscOptionsHeadBegin and PetscOptionsHeadEnd.
PetscErrorCode ReadOptions(PetscOptionItems* PetscOptionsObject,
                           const char* word, RankmapState* state);

// The report, one line each, or the options when nothing was partitioned yet.
PetscErrorCode ViewState(const RankmapState& state, PetscViewer viewer);

// `s` as a PETSc error on `comm` (0 when OK): invalid arguments as
// PETSC_ERR_ARG_WRONG, exhausted resources as PETSC_ERR_MEM, the rest as
// PETSC_ERR_LIB, with the message.
PetscErrorCode PetscErrorOf(MPI_Comm comm, const absl::Status& s);

// Runs `f` (returning a PetscErrorCode); an exception becomes a PETSc error.
template <typename F>
PetscErrorCode AtPetscBoundary(MPI_Comm comm, F f) {
  try {
    return f();
  } catch (const std::exception& e) {
    return PetscErrorOf(
        comm, absl::InternalError(std::string("rankmap: internal error: ") +
                                  e.what()));
  }
}

}  // namespace rankmap::plugins::petsc

#endif  // RANKMAP_PLUGINS_PETSC_PETSC_GLUE_H_
