/* A halo exchange whose neighbours are `stride` ranks apart, for the tests of
 * `rankmap advise` (tests/launch): rank r exchanges `messages` messages of
 * `bytes` bytes each way with ranks r + stride and r - stride (mod size) per
 * iteration, `iterations` times, then prints where it ran, one line per rank
 * in rank order: "rank R host H cpus A,B,..." (H: the node name Slurm gave the
 * task when there is one, else the host name, as the profiler records it;
 * the CPUs sched_getaffinity allows).
 *
 *   mpirun -np 8 ./halo_report 4 20 256 10
 *
 * With stride size / 2 on a packed launch every neighbour sits on another
 * node; with stride 1 the packed order is already the best. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpi_bindings/placement_line.h"
#include "mpi_bindings/rank_lines.h"

enum { kLine = 4096 };

static void Exchange(int rank, int size, int stride, int bytes, int messages,
                     char* send, char* recv) {
  const int up = (rank + stride) % size, down = (rank - stride + size) % size;
  MPI_Request req[4];
  for (int m = 0; m < messages; ++m) {
    MPI_Irecv(recv, bytes, MPI_BYTE, down, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(recv + bytes, bytes, MPI_BYTE, up, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(send, bytes, MPI_BYTE, up, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(send, bytes, MPI_BYTE, down, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
  }
}

int main(int argc, char** argv) {
  int rank, size, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 5) {
    if (rank == 0)
      fprintf(stderr, "usage: halo_report STRIDE ITERATIONS BYTES MESSAGES\n");
    MPI_Finalize();
    return 2;
  }
  const int stride = atoi(argv[1]), iterations = atoi(argv[2]);
  const int bytes = atoi(argv[3]), messages = atoi(argv[4]);
  char* send = calloc((size_t)bytes + 1, 1);
  char* recv = calloc(2 * (size_t)bytes + 1, 1);
  for (i = 0; i < iterations; ++i)
    Exchange(rank, size, stride, bytes, messages, send, recv);
  free(send);
  free(recv);
  char line[kLine];
  PlacementLine(line, kLine, rank);
  PrintInRankOrder(line, kLine);
  MPI_Finalize();
  return 0;
}
