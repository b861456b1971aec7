/* A job that does not end well, profiled by profile_mpi_test.sh through
 * LD_PRELOAD with RANKMAP_PROFILE_FLUSH=0: every rank sends 100 doubles to the
 * next one, then, after a barrier (every row is saved by then),
 *   abort: the last rank calls MPI_Abort(MPI_COMM_WORLD, 3) while the others
 *          wait in a receive that never completes;
 *   exit:  every rank returns from main without MPI_Finalize. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  int r, n;
  double d[100], dr[100];
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  memset(d, 0, sizeof(d));
  MPI_Irecv(dr, 100, MPI_DOUBLE, (r - 1 + n) % n, 1, MPI_COMM_WORLD, &req);
  MPI_Send(d, 100, MPI_DOUBLE, (r + 1) % n, 1, MPI_COMM_WORLD);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (argc > 1 && strcmp(argv[1], "abort") == 0) {
    if (r == n - 1) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(dr, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  return 0; /* no MPI_Finalize */
}
