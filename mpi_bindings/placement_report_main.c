/* Where this MPI rank runs, one line: "rank R host H cpus A,B,..." (the CPUs
 * sched_getaffinity allows, ascending). The launcher tests (tests/launch)
 * start it through mpirun, mpiexec.hydra and srun and compare every rank's
 * line with the mapping. Rank 0 collects the lines so they come out in rank
 * order. */
#define _GNU_SOURCE
#include <mpi.h>

#include "mpi_bindings/placement_line.h"
#include "mpi_bindings/rank_lines.h"

enum { kLine = 4096 };

int main(int argc, char** argv) {
  int rank;
  char line[kLine];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PlacementLine(line, kLine, rank);
  PrintInRankOrder(line, kLine);
  MPI_Finalize();
  return 0;
}
