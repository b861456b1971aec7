/* Where the calling rank runs, as the launcher and advise tests read it:
 * "rank R host H cpus A,B,..." with H the node name Slurm gave the task when
 * there is one (SLURMD_NODENAME, as the profiler records it), else the host
 * name, and the CPUs sched_getaffinity allows, ascending ("?" when it fails).
 * Define _GNU_SOURCE before the first include (cpu_set_t).
 *
 *   char line[4096];
 *   PlacementLine(line, sizeof line, rank);
 */
#ifndef RANKMAP_MPI_BINDINGS_PLACEMENT_LINE_H_
#define RANKMAP_MPI_BINDINGS_PLACEMENT_LINE_H_

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void PlacementLine(char* line, int capacity, int rank) {
  char host[256] = "";
  const char* node = getenv("SLURMD_NODENAME");
  if (node != NULL && *node != '\0') {
    snprintf(host, sizeof host, "%s", node);
  } else {
    gethostname(host, sizeof host - 1);
  }
  int n = snprintf(line, capacity, "rank %d host %s cpus ", rank, host);
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) {
    snprintf(line + n, capacity - n, "?");
    return;
  }
  const char* sep = "";
  for (int i = 0; i < CPU_SETSIZE && n < capacity - 16; ++i) {
    if (!CPU_ISSET(i, &set)) continue;
    n += snprintf(line + n, capacity - n, "%s%d", sep, i);
    sep = ",";
  }
}

#endif /* RANKMAP_MPI_BINDINGS_PLACEMENT_LINE_H_ */
