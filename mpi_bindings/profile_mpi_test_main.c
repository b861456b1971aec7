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

  /* 9. Neighbourhood collectives on a distributed graph (no reordering): out-
   * neighbours r + 1 and r + 3; alltoall of 3 ints per neighbour, allgather of
   * one double, non-blocking alltoallv of 1 and 2 doubles, alltoallw of 1 int
   * and 1 double. */
  int dst[2] = {(r + 1) % n, (r + 3) % n};
  int src[2] = {(r - 1 + n) % n, (r - 3 + 3 * n) % n};
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  int ni[6] = {0}, nir[6];
  MPI_Neighbor_alltoall(ni, 3, MPI_INT, nir, 3, MPI_INT, graph);
  double nd = 1, ndr[2];
  MPI_Neighbor_allgather(&nd, 1, MPI_DOUBLE, ndr, 1, MPI_DOUBLE, graph);
  double vs[3] = {0}, vrecv[4];
  int scounts[2] = {1, 2}, sdispls[2] = {0, 1}, rcounts[2] = {2, 2},
      rdispls[2] = {0, 2};
  MPI_Request nreq;
  /* Each rank's block j goes to dst[j]; receive sizes follow the senders:
   * from r - 1 (its block 0) 1 double, from r - 3 (its block 1) 2. */
  rcounts[0] = 1;
  MPI_Ineighbor_alltoallv(vs, scounts, sdispls, MPI_DOUBLE, vrecv, rcounts,
                          rdispls, MPI_DOUBLE, graph, &nreq);
  MPI_Wait(&nreq, MPI_STATUS_IGNORE);
  MPI_Datatype wtypes[2] = {MPI_INT, MPI_DOUBLE};
  int wcounts[2] = {1, 1};
  MPI_Aint wsd[2] = {0, 8}, wrd[2] = {0, 8};
  char wbuf[16] = {0}, wrbuf[16];
  MPI_Datatype rtypes[2] = {MPI_INT, MPI_DOUBLE};
  MPI_Neighbor_alltoallw(wbuf, wcounts, wsd, wtypes, wrbuf, wcounts, wrd,
                         rtypes, graph);
  MPI_Comm_free(&graph);

  /* 10. A non-periodic 1D Cartesian communicator: alltoall of 1 int to r - 1
   * and r + 1 where they exist (MPI_PROC_NULL at the ends is not counted). */
  MPI_Comm cart;
  int dims[1] = {n}, periods[1] = {0};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
  int ci[2] = {0}, cir[2];
  MPI_Neighbor_alltoall(ci, 1, MPI_INT, cir, 1, MPI_INT, cart);
  MPI_Comm_free(&cart);

  /* 11. One-sided, in one fence epoch on a window of 256 bytes per rank (ranks
   * of the window in reverse world order): put 5 ints to window rank w + 1,
   * get 3 doubles from w + 2, accumulate 2 ints into w + 3, fetch-and-add one
   * int at w + 1. Disjoint target regions, so the epoch is race-free. */
  MPI_Comm rev;
  MPI_Comm_split(MPI_COMM_WORLD, 0, -r, &rev);
  int w, wn;
  MPI_Comm_rank(rev, &w);
  MPI_Comm_size(rev, &wn);
  char* base;
  MPI_Win win;
  MPI_Win_allocate(256, 1, MPI_INFO_NULL, rev, &base, &win);
  memset(base, 0, 256);
  int pi[5] = {0}, ai[2] = {1, 1}, one = 1, old;
  double gd[3];
  MPI_Win_fence(0, win);
  MPI_Put(pi, 5, MPI_INT, (w + 1) % wn, 0, 5, MPI_INT, win);
  MPI_Get(gd, 3, MPI_DOUBLE, (w + 2) % wn, 64, 3, MPI_DOUBLE, win);
  MPI_Accumulate(ai, 2, MPI_INT, (w + 3) % wn, 128, 2, MPI_INT, MPI_SUM, win);
  MPI_Fetch_and_op(&one, &old, MPI_INT, (w + 1) % wn, 192, MPI_SUM, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  MPI_Comm_free(&rev);

  /* 12. Non-blocking gather of one int to rank 0, non-blocking scan of one
   * double (r -> r + 1), alltoallw of one short to every peer. */
  int gi = r, gir[64];
  double sd = r, sdr;
  MPI_Request creq[2];
  if (n <= 64) {
    MPI_Igather(&gi, 1, MPI_INT, gir, 1, MPI_INT, 0, MPI_COMM_WORLD, &creq[0]);
    MPI_Iscan(&sd, &sdr, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &creq[1]);
    MPI_Waitall(2, creq, MPI_STATUSES_IGNORE);
    short ws[64] = {0}, wr[64];
    int wc[64], wdisp[64];
    MPI_Datatype wt[64];
    for (i = 0; i < n; ++i) {
      wc[i] = 1;
      wdisp[i] = i * (int)sizeof(short);
      wt[i] = MPI_SHORT;
    }
    MPI_Alltoallw(ws, wc, wdisp, wt, wr, wc, wdisp, wt, MPI_COMM_WORLD);
  }

  MPI_Finalize();
  return 0;
}
