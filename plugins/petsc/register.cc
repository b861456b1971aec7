// Registration of both types: RankmapPetscRegister() for programs that link
// the library, PetscDLLibraryRegister_rankmap_petsc() for PETSc itself when
// -dll_append opens librankmap_petsc.so (PETSc calls
// PetscDLLibraryRegister_<name> of lib<name>.so).
#include <petscmat.h>
#include <petscpartitioner.h>

#include "plugins/petsc/rankmap_petsc.h"

namespace rankmap::plugins::petsc {
extern "C" PetscErrorCode MatPartitioningCreate_Rankmap(MatPartitioning);
extern "C" PetscErrorCode PetscPartitionerCreate_Rankmap(PetscPartitioner);
}  // namespace rankmap::plugins::petsc

PetscErrorCode RankmapPetscRegister(void) {
  PetscFunctionBegin;
  PetscCall(MatPartitioningRegister(
      MATPARTITIONINGRANKMAP,
      rankmap::plugins::petsc::MatPartitioningCreate_Rankmap));
  PetscCall(PetscPartitionerRegister(
      PETSCPARTITIONERRANKMAP,
      rankmap::plugins::petsc::PetscPartitionerCreate_Rankmap));
  PetscFunctionReturn(0);
}

PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_rankmap_petsc(void) {
  return RankmapPetscRegister();
}
