/* The plugin's edge cases and errors, through PETSc's own calls, in a program
 * that links the library (RankmapPetscRegister). Each case prints one line on
 * rank 0: "CASE: ok ..." or "CASE: error CODE MESSAGE", CODE the PETSc error
 * code MatPartitioningApply returned on every rank (a rank that disagrees is
 * "CASE: ranks disagree"). Errors come back, they never abort or hang.
 *
 *   mpirun -np 4 errors_test_main NETWORK_WITHOUT_THIS_HOST
 */
#include <petscmat.h>
#include <stdio.h>
#include <string.h>

#include "plugins/petsc/rankmap_petsc.h"

static char first_message[1024];

/* Keeps the first message of an error and returns its code (no printing). */
static PetscErrorCode Record(MPI_Comm comm, int line, const char *func,
                             const char *file, PetscErrorCode n,
                             PetscErrorType p, const char *mess, void *ctx) {
  (void)comm;
  (void)line;
  (void)func;
  (void)file;
  (void)ctx;
  if (p == PETSC_ERROR_INITIAL && mess)
    snprintf(first_message, sizeof first_message, "%s", mess);
  return n;
}

/* The adjacency of a rows x cols grid, distributed as `local` rows per rank. */
static PetscErrorCode Grid(PetscInt rows, PetscInt cols, PetscInt local,
                           Mat *adj) {
  PetscInt start = 0, *ia, *ja, k = 0;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(
      MPI_Exscan(&local, &start, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) start = 0;
  PetscCall(PetscMalloc1(local + 1, &ia));
  PetscCall(PetscMalloc1(4 * local + 1, &ja));
  ia[0] = 0;
  for (PetscInt i = 0; i < local; ++i) {
    const PetscInt v = start + i, r = v / cols, c = v % cols;
    if (r > 0) ja[k++] = v - cols;
    if (c > 0) ja[k++] = v - 1;
    if (c + 1 < cols) ja[k++] = v + 1;
    if (r + 1 < rows) ja[k++] = v + cols;
    ia[i + 1] = k;
  }
  PetscCall(
      MatCreateMPIAdj(PETSC_COMM_WORLD, local, rows * cols, ia, ja, NULL, adj));
  PetscFunctionReturn(0);
}

/* Partitions `adj` into `parts` with the options `opts` ("-name value" pairs,
 * set for this case only) and prints the outcome. */
static PetscErrorCode Case(const char *name, Mat adj, PetscInt parts,
                           const char *opts) {
  MatPartitioning part;
  IS is = NULL;
  PetscErrorCode code;
  PetscInt n = 0, placed = 0, all = 0, bad = 0, total = 0;
  PetscInt codes[2];
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (parts <= 0) parts = size;
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(MatPartitioningCreate(PETSC_COMM_WORLD, &part));
  PetscCall(MatPartitioningSetAdjacency(part, adj));
  PetscCall(MatPartitioningSetType(part, MATPARTITIONINGRANKMAP));
  PetscCall(MatPartitioningSetNParts(part, parts));
  PetscCall(MatPartitioningSetFromOptions(part));
  first_message[0] = '\0';
  PetscCall(PetscPushErrorHandler(Record, NULL));
  code = MatPartitioningApply(part, &is);
  PetscCall(PetscPopErrorHandler());
  codes[0] = code;
  codes[1] = -(PetscInt)code;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPIU_INT, MPI_MAX,
                             PETSC_COMM_WORLD));
  if (codes[0] != -codes[1]) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: ranks disagree\n", name));
  } else if (code) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: error %d %s\n", name,
                          (int)code, first_message));
  } else {
    const PetscInt *idx;
    PetscCall(ISGetLocalSize(is, &n));
    PetscCall(ISGetIndices(is, &idx));
    for (PetscInt i = 0; i < n; ++i) {
      if (idx[i] < 0 || idx[i] >= parts)
        ++bad;
      else
        ++placed;
    }
    PetscCall(ISRestoreIndices(is, &idx));
    PetscCallMPI(
        MPI_Allreduce(&placed, &all, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPIU_INT, MPI_SUM,
                               PETSC_COMM_WORLD));
    PetscCall(MatGetSize(adj, &total, NULL));
    PetscCall(PetscPrintf(
        PETSC_COMM_WORLD,
        "%s: ok, %d of %d vertices on parts [0, %d), %d elsewhere\n", name,
        (int)all, (int)total, (int)parts, (int)bad));
  }
  PetscCall(ISDestroy(&is));
  PetscCall(MatPartitioningDestroy(&part));
  PetscCall(PetscOptionsClear(NULL));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv) {
  Mat grid, lopsided, empty;
  PetscMPIInt rank, size;
  char opts[4096];

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(RankmapPetscRegister());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(Grid(16, 16, 256 / size + (rank < 256 % size), &grid));
  /* Rank 1 owns no vertex. */
  PetscCall(Grid(
      16, 16,
      rank == 1 ? 0 : 256 / (size - 1) + (rank - (rank > 1) < 256 % (size - 1)),
      &lopsided));
  PetscCall(Grid(0, 0, 0, &empty));

  PetscCall(Case("grid", grid, 0, "-mat_partitioning_view"));
  PetscCall(Case("rank-without-vertices", lopsided, 0, ""));
  PetscCall(Case("empty-graph", empty, 0, ""));
  snprintf(opts, sizeof opts, "-mat_partitioning_rankmap_network %s",
           argc > 1 ? argv[1] : "missing.net");
  PetscCall(Case("machine-without-the-hosts", grid, 0, opts));
  PetscCall(Case("parts-other-than-ranks", grid, 3, ""));
  PetscCall(Case("parts-on-a-named-machine", grid, 3,
                 "-mat_partitioning_rankmap_topology \"tleaf 1 3 1\""));
  PetscCall(Case("over-the-memory-budget", grid, 0,
                 "-mat_partitioning_rankmap_max_memory 1000"));
  PetscCall(
      Case("bad-exchange", grid, 0, "-mat_partitioning_rankmap_exchange 40"));
  PetscCall(Case("bad-algorithm", grid, 0,
                 "-mat_partitioning_rankmap_algorithm best"));

  PetscCall(MatDestroy(&grid));
  PetscCall(MatDestroy(&lopsided));
  PetscCall(MatDestroy(&empty));
  PetscCall(PetscFinalize());
  return 0;
}
