/* An MPI job that misbehaves in the ways `rankmap advise` must survive
 * (tests/launch/advise_hardening_test.sh and bench/attack):
 *
 *   misbehaving_job noise MIB CODE   rank 0 writes MIB MiB of lines to
 *                                    stderr, then "misbehaving_job: last
 *                                    words"; every rank exits with CODE
 *   misbehaving_job noinit           exits 0 without calling MPI_Init
 *   misbehaving_job hang             calls MPI_Init, then sleeps forever
 *   misbehaving_job crash            rank 0 aborts (SIGABRT) after MPI_Init
 *   misbehaving_job mpiabort         rank 0 calls MPI_Abort(MPI_COMM_WORLD, 3)
 *   misbehaving_job ok               MPI_Init, a barrier, MPI_Finalize */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "noinit") == 0) return 0;
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (strcmp(mode, "hang") == 0) {
    for (;;) sleep(1);
  }
  if (strcmp(mode, "crash") == 0 && rank == 0) abort();
  if (strcmp(mode, "mpiabort") == 0 && rank == 0) MPI_Abort(MPI_COMM_WORLD, 3);
  int code = 0;
  if (strcmp(mode, "noise") == 0 && argc == 4) {
    const long mib = atol(argv[2]);
    code = atoi(argv[3]);
    if (rank == 0) {
      static const char line[] = "noise noise noise noise noise noise noise\n";
      const long lines = mib * (1 << 20) / (long)(sizeof line - 1);
      for (long i = 0; i < lines; ++i) fputs(line, stderr);
      fputs("misbehaving_job: last words\n", stderr);
      fflush(stderr);
    }
  } else if (strcmp(mode, "ok") != 0 && strcmp(mode, "crash") != 0 &&
             strcmp(mode, "mpiabort") != 0) {
    if (rank == 0)
      fprintf(stderr,
              "usage: misbehaving_job noise MIB CODE|noinit|hang|crash|mpiabort|ok\n");
    code = 2;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return code;
}
