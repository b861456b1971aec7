/* A plain MPI program (it knows nothing of rankmap) that builds a 2D Cartesian
 * communicator with reorder = 1 and checks that neighbourhood collectives and
 * MPI_Cart_shift agree after the reordering. Run by cart_mpi_test.sh with
 * librankmap_reorder.so preloaded.
 *
 *   cart_mpi_test_main ROWS COLS PERIODIC_ROWS PERIODIC_COLS
 *
 * Checks on every rank of the grid: MPI_Neighbor_allgather of each process's
 * world rank delivers, in MPI's neighbour order (per dimension the negative
 * then the positive direction), exactly the world ranks MPI_Cart_shift names;
 * MPI_Neighbor_alltoall delivers to each neighbour the value addressed to it;
 * coordinates and ranks agree. Processes beyond the grid must get
 * MPI_COMM_NULL. Rank 0 prints "new_rank=a,b,..." (index = world rank, -1
 * outside the grid) and "cart OK n=N" or "cart FAILED n=N". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int me, n, failures;

static void check(int ok, const char* what) {
  if (!ok) {
    ++failures;
    fprintf(stderr, "rank %d: FAILED %s\n", me, what);
  }
}

static int world_of(MPI_Comm comm, int rank) {
  MPI_Group g, wg;
  int w = MPI_PROC_NULL;
  if (rank == MPI_PROC_NULL) return MPI_PROC_NULL;
  MPI_Comm_group(comm, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_translate_ranks(g, 1, &rank, wg, &w);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);
  return w;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc != 5) {
    if (me == 0) fprintf(stderr, "usage: %s ROWS COLS PR PC\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int dims[2] = {atoi(argv[1]), atoi(argv[2])};
  int periods[2] = {atoi(argv[3]), atoi(argv[4])};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart);
  int new_rank = -1;
  if (me >= dims[0] * dims[1]) {
    check(cart == MPI_COMM_NULL, "a process beyond the grid gets no grid");
  } else if (cart == MPI_COMM_NULL) {
    check(0, "a grid process got MPI_COMM_NULL");
  } else {
    MPI_Comm_rank(cart, &new_rank);
    int coords[2], back;
    MPI_Cart_coords(cart, new_rank, 2, coords);
    MPI_Cart_rank(cart, coords, &back);
    check(back == new_rank, "coords and rank agree");
    int expect[4], d;
    for (d = 0; d < 2; ++d) {
      int src, dst;
      MPI_Cart_shift(cart, d, 1, &src, &dst);
      expect[2 * d] = world_of(cart, src);
      expect[2 * d + 1] = world_of(cart, dst);
    }
    int got[4] = {-7, -7, -7, -7};
    MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, cart);
    for (d = 0; d < 4; ++d) {
      if (expect[d] == MPI_PROC_NULL) {
        check(got[d] == -7, "no data from a missing neighbour");
      } else {
        check(got[d] == expect[d], "allgather value is the shift neighbour's");
      }
    }
    /* Alltoall: the value sent to neighbour k is 1000 * sender + k; the
     * receiver at position j gets it from the neighbour listed there, which
     * addressed it in its own position for us (the opposite direction). */
    int send[4], recv[4] = {-7, -7, -7, -7};
    for (d = 0; d < 4; ++d) send[d] = 1000 * me + d;
    MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart);
    for (d = 0; d < 4; ++d) {
      if (expect[d] == MPI_PROC_NULL) continue;
      const int opposite = d ^ 1;
      int want = 1000 * expect[d] + opposite;
      /* A periodic extent of 2 lists one process in both directions: it
       * sends us both of its values, in MPI's order for that case. */
      if (expect[d] == expect[opposite] && dims[d / 2] == 2) {
        check(recv[d] / 1000 == expect[d], "alltoall from the neighbour");
        continue;
      }
      check(recv[d] == want, "alltoall value addressed to us");
    }
    MPI_Comm_free(&cart);
  }
  int* all = malloc(n * sizeof(int));
  MPI_Gather(&new_rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) {
    int i;
    printf("new_rank=");
    for (i = 0; i < n; ++i) printf("%d%s", all[i], i + 1 < n ? "," : "\n");
    printf("cart %s n=%d\n", total == 0 ? "OK" : "FAILED", n);
  }
  free(all);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
