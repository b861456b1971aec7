/* rankmap's partitioners for PETSc: MatPartitioning type "rankmap" and
 * PetscPartitioner type "rankmap" (used by DMPlexDistribute), which partition
 * the graph onto the machine the job runs on, rank p's part on the leaf where
 * rank p runs, and choose the partition by the predicted time of one exchange
 * (README, "From your partitioner").
 *
 * Without recompiling the application: run it with
 *   -dll_append /path/to/librankmap_petsc.so -mat_partitioning_type rankmap
 * (PETSc calls PetscDLLibraryRegister_rankmap_petsc when it opens the
 * library), or -petscpartitioner_type rankmap for DMPlex distribution.
 * Programs that link the library call RankmapPetscRegister() once after
 * PetscInitialize instead.
 *
 * Options (prefix -mat_partitioning_rankmap_ or -petscpartitioner_rankmap_):
 *   algorithm A        a preset (fast, default, strong) or an algorithm
 *   imbalance R        allowed imbalance of each part (0.03)
 *   topology T         the machine to assume (tleaf, hwloc XML or synthetic,
 *                      network spec): rank r on its r-th slot
 *   network SPEC       a network spec over the job's hosts
 *   exchange B,M       one exchange: B bytes per unit of edge weight and M
 *                      messages per neighbouring pair, each way (8,1)
 *   exchange_profile P.mat,PART[,K]   the model fitted from a profile
 *   objective auto|j|time
 *   seed S
 *   compare TYPE       also partition with this type (ptscotch) and report
 *                      both on the same machine
 *   write PREFIX       rank 0 writes the graph and the partitions
 *   max_memory BYTES   what the partition may use on rank 0 (a graph whose
 *                      gathered size is over it is refused before the gather)
 * -mat_partitioning_view / -petscpartitioner_view print the machine, J, the
 * imbalance, the model and the predicted exchanges.
 */
#ifndef RANKMAP_PLUGINS_PETSC_RANKMAP_PETSC_H_
#define RANKMAP_PLUGINS_PETSC_RANKMAP_PETSC_H_

#include <petscsys.h>

#define MATPARTITIONINGRANKMAP "rankmap"
#define PETSCPARTITIONERRANKMAP "rankmap"

/* Registers both types; call after PetscInitialize (again after each
 * PetscInitialize: PETSc forgets registrations at PetscFinalize). */
PETSC_EXTERN PetscErrorCode RankmapPetscRegister(void);

#endif /* RANKMAP_PLUGINS_PETSC_RANKMAP_PETSC_H_ */
