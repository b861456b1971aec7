/* Known point-to-point traffic for tracers (tests/traces): rank r sends
 * 100 * (r + 1) bytes to rank r + 1 with MPI_Send and 8 bytes to rank r + 2
 * with MPI_Isend (both modulo the job size, skipped when they are r itself),
 * and receives what it is sent. Nothing else moves between ranks except
 * MPI_Init and MPI_Finalize. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int me, n;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  char* buf = calloc(100 * (size_t)(n + 1), 1);
  char* in = calloc(100 * (size_t)(n + 1), 1);
  const int next = (me + 1) % n, second = (me + 2) % n;
  const int prev = (me + n - 1) % n, before = (me + n - 2) % n;
  MPI_Request req[2];
  int pending = 0;
  if (second != me) {
    MPI_Isend(buf, 8, MPI_CHAR, second, 2, MPI_COMM_WORLD, &req[pending++]);
  }
  if (next != me) {
    MPI_Request r;
    MPI_Irecv(in, 100 * (prev + 1), MPI_CHAR, prev, 1, MPI_COMM_WORLD, &r);
    MPI_Send(buf, 100 * (me + 1), MPI_CHAR, next, 1, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  if (before != me) {
    MPI_Recv(in, 8, MPI_CHAR, before, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Waitall(pending, req, MPI_STATUSES_IGNORE);
  free(buf);
  free(in);
  MPI_Finalize();
  return 0;
}
