/* A program with a start-up phase unlike its steady state, for
 * profile_window_mpi_test.sh. Usage: profile_window_test_main MODE ITERATIONS
 *
 * Start-up: rank 0 broadcasts 46,000 bytes; every rank sends 1,000 bytes to
 * every other rank.
 * Each iteration: two 340-byte messages to rank + 1 and one 1,000-byte message
 * to rank - 1 (Isend/Irecv, Waitall), then MPI_Allreduce of one double.
 * Tail: MPI_Gather of 10,000 bytes to rank 0, then rank 0 prints every rank's
 * "rank R host H cpus A,B,..." line (placement_report's format).
 *
 * MODE marks: nothing else (the profiler is told to end iterations at
 * MPI_Allreduce). MODE pcontrol: MPI_Pcontrol(0) before the start-up,
 * MPI_Pcontrol(1) before each iteration's sends and MPI_Pcontrol(0) after its
 * Allreduce, so that only iterations are profiled. */
#define _GNU_SOURCE
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_bindings/rank_lines.h"

enum { kLine = 4096, kStartup = 46000, kSmall = 340, kLarge = 1000 };

static void StartUp(int rank, int size) {
  static char bcast[kStartup], out[kLarge], in[kLarge];
  MPI_Request* reqs = malloc(sizeof(MPI_Request) * 2 * size);
  MPI_Status* stats = malloc(sizeof(MPI_Status) * 2 * size);
  int n = 0;
  MPI_Bcast(bcast, kStartup, MPI_CHAR, 0, MPI_COMM_WORLD);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == rank) continue;
    /* Every receive lands in the same buffer: only the traffic matters. */
    MPI_Irecv(in, kLarge, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &reqs[n++]);
    MPI_Isend(out, kLarge, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &reqs[n++]);
  }
  MPI_Waitall(n, reqs, stats);
  free(stats);
  free(reqs);
}

static void Iteration(int rank, int size) {
  static char small[2][kSmall], large[kLarge], in_small[2][kSmall],
      in_large[kLarge];
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request reqs[6];
  MPI_Status stats[6];
  double x = rank, sum = 0;
  MPI_Irecv(in_small[0], kSmall, MPI_CHAR, left, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Irecv(in_small[1], kSmall, MPI_CHAR, left, 3, MPI_COMM_WORLD, &reqs[1]);
  MPI_Irecv(in_large, kLarge, MPI_CHAR, right, 4, MPI_COMM_WORLD, &reqs[2]);
  MPI_Isend(small[0], kSmall, MPI_CHAR, right, 2, MPI_COMM_WORLD, &reqs[3]);
  MPI_Isend(small[1], kSmall, MPI_CHAR, right, 3, MPI_COMM_WORLD, &reqs[4]);
  MPI_Isend(large, kLarge, MPI_CHAR, left, 4, MPI_COMM_WORLD, &reqs[5]);
  MPI_Waitall(6, reqs, stats);
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void Tail(int rank, int size) {
  static char gather[10000];
  char* all = rank == 0 ? malloc((size_t)size * sizeof gather) : NULL;
  MPI_Gather(gather, sizeof gather, MPI_CHAR, all, sizeof gather, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  free(all);
  char line[kLine], host[256] = "";
  cpu_set_t set;
  gethostname(host, sizeof host - 1);
  int n = snprintf(line, sizeof line, "rank %d host %s cpus ", rank, host);
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const char* sep = "";
    for (int i = 0; i < CPU_SETSIZE && n < kLine - 16; ++i) {
      if (!CPU_ISSET(i, &set)) continue;
      n += snprintf(line + n, sizeof line - n, "%s%d", sep, i);
      sep = ",";
    }
  }
  PrintInRankOrder(line, kLine);
}

int main(int argc, char** argv) {
  int rank, size;
  if (argc != 3) {
    fprintf(stderr, "usage: %s marks|pcontrol ITERATIONS\n", argv[0]);
    return 2;
  }
  const int pcontrol = strcmp(argv[1], "pcontrol") == 0;
  const int iterations = atoi(argv[2]);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (pcontrol) MPI_Pcontrol(0);
  StartUp(rank, size);
  for (int it = 0; it < iterations; ++it) {
    if (pcontrol) MPI_Pcontrol(1);
    Iteration(rank, size);
    if (pcontrol) MPI_Pcontrol(0);
  }
  Tail(rank, size);
  MPI_Finalize();
  return 0;
}
