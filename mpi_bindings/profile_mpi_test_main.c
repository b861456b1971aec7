/* A plain MPI program with known traffic, profiled by profile_mpi_test.sh
 * through LD_PRELOAD. profile_expected.cc computes the exact matrix these calls
 * must produce under the model of profile.h; keep the two in step. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  int r, n, i;
  MPI_Request req[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);

  /* 1. Blocking send: 100 doubles to r + 1. */
  double d[100], dr[100];
  memset(d, 0, sizeof(d));
  MPI_Irecv(dr, 100, MPI_DOUBLE, (r - 1 + n) % n, 1, MPI_COMM_WORLD, &req[0]);
  MPI_Send(d, 100, MPI_DOUBLE, (r + 1) % n, 1, MPI_COMM_WORLD);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);

  /* 2. Non-blocking send: 10 ints to r + 2. */
  int v[10] = {0}, vr[10];
  MPI_Irecv(vr, 10, MPI_INT, (r - 2 + 2 * n) % n, 2, MPI_COMM_WORLD, &req[0]);
  MPI_Isend(v, 10, MPI_INT, (r + 2) % n, 2, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);

  /* 3. Persistent send of 3 chars to r + 3, started twice. */
  char c[3] = {0}, cr[3];
  MPI_Send_init(c, 3, MPI_CHAR, (r + 3) % n, 3, MPI_COMM_WORLD, &req[2]);
  for (i = 0; i < 2; ++i) {
    MPI_Irecv(cr, 3, MPI_CHAR, (r - 3 + 3 * n) % n, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Start(&req[2]);
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&req[2]);

  /* 4. Sendrecv: 5 floats to r - 1. */
  float f[5] = {0}, fr[5];
  MPI_Sendrecv(f, 5, MPI_FLOAT, (r - 1 + n) % n, 4, fr, 5, MPI_FLOAT,
               (r + 1) % n, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  /* 5. Broadcast of 7 ints from rank 1 (rank 0 alone). */
  int b[7] = {0};
  MPI_Bcast(b, 7, MPI_INT, n > 1 ? 1 : 0, MPI_COMM_WORLD);

  /* 6. Sub-communicator by parity, ranks in reverse order: allreduce of 4
   * doubles and one int to the next sub-rank. */
  MPI_Comm sub;
  int sr, sn, x = 0, xr;
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, -r, &sub);
  MPI_Comm_rank(sub, &sr);
  MPI_Comm_size(sub, &sn);
  double a[4] = {1, 2, 3, 4}, ar[4];
  MPI_Allreduce(a, ar, 4, MPI_DOUBLE, MPI_SUM, sub);
  MPI_Irecv(&xr, 1, MPI_INT, (sr - 1 + sn) % sn, 6, sub, &req[0]);
  MPI_Send(&x, 1, MPI_INT, (sr + 1) % sn, 6, sub);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  MPI_Comm_free(&sub);

  /* 7. Alltoall of 2 ints per peer; 8. gather of one double to rank 0; a
   * barrier. */
  int t[2 * 64] = {0}, tr[2 * 64];
  if (n <= 64) MPI_Alltoall(t, 2, MPI_INT, tr, 2, MPI_INT, MPI_COMM_WORLD);
  double g = r, gr[64];
  if (n <= 64)
    MPI_Gather(&g, 1, MPI_DOUBLE, gr, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Finalize();
  return 0;
}
