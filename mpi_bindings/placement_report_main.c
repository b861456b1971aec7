/* Where this MPI rank runs, one line: "rank R host H cpus A,B,..." (the CPUs
 * sched_getaffinity allows, ascending). The launcher tests (tests/launch)
 * start it through mpirun, mpiexec.hydra and srun and compare every rank's
 * line with the mapping. Rank 0 collects the lines so they come out in rank
 * order. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpi_bindings/rank_lines.h"

enum { kLine = 4096 };

int main(int argc, char** argv) {
  int rank, i;
  char line[kLine], host[256] = "";
  cpu_set_t set;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  gethostname(host, sizeof host - 1);
  int n = snprintf(line, sizeof line, "rank %d host %s cpus ", rank, host);
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) {
    n += snprintf(line + n, sizeof line - n, "?");
  } else {
    const char* sep = "";
    for (i = 0; i < CPU_SETSIZE && n < kLine - 16; ++i) {
      if (!CPU_ISSET(i, &set)) continue;
      n += snprintf(line + n, sizeof line - n, "%s%d", sep, i);
      sep = ",";
    }
  }
  PrintInRankOrder(line, kLine);
  MPI_Finalize();
  return 0;
}
