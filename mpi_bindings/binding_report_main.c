/* What hwloc says about this MPI rank's binding, one line:
 *   "rank R cpus A,B mems N policy P threads T places X"
 * CPUs from hwloc_get_cpubind, NUMA nodes and policy from hwloc_get_membind
 * (os indexes, ascending, comma-separated like hwloc-calc --intersect), T and X
 * from OMP_NUM_THREADS and OMP_PLACES ("-" when unset). The binder tests
 * (tests/launch/bind_launch_test.sh) start it under `rankmap bind` through
 * mpirun and mpiexec.hydra. Rank 0 prints every line in rank order. */
#include <hwloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_bindings/rank_lines.h"

enum { kLine = 4096 };

static const char* PolicyName(hwloc_membind_policy_t p) {
  switch (p) {
    case HWLOC_MEMBIND_DEFAULT:
      return "default";
    case HWLOC_MEMBIND_FIRSTTOUCH:
      return "firsttouch";
    case HWLOC_MEMBIND_BIND:
      return "bind";
    case HWLOC_MEMBIND_INTERLEAVE:
      return "interleave";
    case HWLOC_MEMBIND_NEXTTOUCH:
      return "nexttouch";
    default:
      return "mixed";
  }
}

static void List(hwloc_const_bitmap_t set, char* out, size_t size) {
  int i, n = 0;
  out[0] = '\0';
  for (i = hwloc_bitmap_first(set); i >= 0 && n < (int)size - 16;
       i = hwloc_bitmap_next(set, i)) {
    n += snprintf(out + n, size - n, "%s%d", n > 0 ? "," : "", i);
  }
}

static const char* Env(const char* name) {
  const char* v = getenv(name);
  return v != NULL && *v != '\0' ? v : "-";
}

int main(int argc, char** argv) {
  int rank;
  char line[kLine], cpus[1024] = "?", mems[1024] = "?";
  const char* policy = "?";
  hwloc_topology_t topo;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  hwloc_membind_policy_t p;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  hwloc_topology_init(&topo);
  hwloc_topology_load(topo);
  if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0)
    List(set, cpus, sizeof cpus);
  if (hwloc_get_membind(topo, set, &p, HWLOC_MEMBIND_BYNODESET) == 0) {
    List(set, mems, sizeof mems);
    policy = PolicyName(p);
  }
  snprintf(line, sizeof line,
           "rank %d cpus %s mems %s policy %s threads %s places %s", rank, cpus,
           mems, policy, Env("OMP_NUM_THREADS"), Env("OMP_PLACES"));
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
  PrintInRankOrder(line, kLine);
  MPI_Finalize();
  return 0;
}
