/* Known collectives for profile_collectives_mpi_test.sh: every collective
 * the profiler models, blocking and non-blocking, on MPI_COMM_WORLD, at
 * block sizes of 1, 100, 3000 and 12000 doubles (8 bytes to 96 KB, across
 * the libraries' algorithm thresholds), with roots 0 and size - 1, in place
 * and not, with a commutative and a non-commutative operation. Nothing else
 * communicates (no communicator is created), so that Open MPI's monitoring
 * of the run sees exactly these calls. MPI_Alltoallv sends 8 * 10 * ((rank +
 * 2 * peer) % 3) bytes from rank to peer (empty blocks included). */
#include <mpi.h>
#include <stdlib.h>

enum { kMaxCount = 12000 };

static void Later(void* in, void* inout, int* len, MPI_Datatype* type) {
  double* a = in;
  double* b = inout;
  (void)type;
  for (int i = 0; i < *len; ++i) b[i] = a[i] - b[i];
}

static double *a, *b;
static int *counts, *displs, *scounts, *sdispls, *rcounts, *rdispls;

static void Wait(MPI_Request* req) { MPI_Wait(req, MPI_STATUS_IGNORE); }

/* Counts n + i for the v forms, at n + i element offsets. */
static void VCounts(int n, int size) {
  int off = 0;
  for (int i = 0; i < size; ++i) {
    counts[i] = n + i;
    displs[i] = off;
    off += n + i;
  }
}

static void Rooted(int n, int rank, int size, MPI_Op later) {
  const MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request q;
  const int roots[2] = {0, size - 1};
  for (int k = 0; k < (size > 1 ? 2 : 1); ++k) {
    const int root = roots[k];
    MPI_Bcast(a, n, MPI_DOUBLE, root, w);
    MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, root, w);
    MPI_Gather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, root, w);
    MPI_Gatherv(a, counts[rank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE,
                root, w);
    MPI_Scatter(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, root, w);
    MPI_Scatterv(a, counts, displs, MPI_DOUBLE, b, counts[rank], MPI_DOUBLE,
                 root, w);
    MPI_Ibcast(a, n, MPI_DOUBLE, root, w, &q);
    Wait(&q);
    MPI_Ireduce(a, b, n, MPI_DOUBLE, MPI_SUM, root, w, &q);
    Wait(&q);
    MPI_Igather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, root, w, &q);
    Wait(&q);
    MPI_Iscatter(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, root, w, &q);
    Wait(&q);
  }
  if (n <= 100) {
    MPI_Reduce(a, b, n, MPI_DOUBLE, later, size - 1, w);
    MPI_Ireduce(a, b, n, MPI_DOUBLE, later, size - 1, w, &q);
    Wait(&q);
  }
}

static void Everyone(int n, int rank, int size, MPI_Op later) {
  const MPI_Comm w = MPI_COMM_WORLD;
  MPI_Request q;
  (void)rank;
  MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, w);
  MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_DOUBLE, MPI_SUM, w);
  MPI_Allgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w);
  MPI_Allgatherv(a, counts[rank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, w);
  MPI_Reduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, w);
  MPI_Reduce_scatter_block(a, b, n, MPI_DOUBLE, MPI_SUM, w);
  MPI_Scan(a, b, n, MPI_DOUBLE, MPI_SUM, w);
  MPI_Exscan(a, b, n, MPI_DOUBLE, MPI_SUM, w);
  MPI_Iallreduce(a, b, n, MPI_DOUBLE, MPI_SUM, w, &q);
  Wait(&q);
  MPI_Iallgather(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w, &q);
  Wait(&q);
  MPI_Iallgatherv(a, counts[rank], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, w,
                  &q);
  Wait(&q);
  MPI_Ireduce_scatter(a, b, counts, MPI_DOUBLE, MPI_SUM, w, &q);
  Wait(&q);
  MPI_Ireduce_scatter_block(a, b, n, MPI_DOUBLE, MPI_SUM, w, &q);
  Wait(&q);
  MPI_Iscan(a, b, n, MPI_DOUBLE, MPI_SUM, w, &q);
  Wait(&q);
  MPI_Iexscan(a, b, n, MPI_DOUBLE, MPI_SUM, w, &q);
  Wait(&q);
  MPI_Alltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w);
  MPI_Ialltoall(a, n, MPI_DOUBLE, b, n, MPI_DOUBLE, w, &q);
  Wait(&q);
  if (n <= 100) {
    MPI_Allreduce(a, b, n, MPI_DOUBLE, later, w);
    MPI_Iallreduce(a, b, n, MPI_DOUBLE, later, w, &q);
    Wait(&q);
  }
}

static void Alltoallv(int rank, int size) {
  MPI_Request q;
  for (int j = 0; j < size; ++j) {
    scounts[j] = 10 * ((rank + 2 * j) % 3);
    rcounts[j] = 10 * ((j + 2 * rank) % 3);
    sdispls[j] = rdispls[j] = 30 * j;
  }
  MPI_Alltoallv(a, scounts, sdispls, MPI_DOUBLE, b, rcounts, rdispls,
                MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Ialltoallv(a, scounts, sdispls, MPI_DOUBLE, b, rcounts, rdispls,
                 MPI_DOUBLE, MPI_COMM_WORLD, &q);
  Wait(&q);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Op later;
  MPI_Request q;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Op_create(Later, /*commute=*/0, &later);
  const size_t elements = (size_t)(kMaxCount + size) * size + 64;
  a = calloc(elements, sizeof(double));
  b = calloc(elements, sizeof(double));
  int* ints = malloc(sizeof(int) * 6 * size);
  counts = ints, displs = ints + size, scounts = ints + 2 * size;
  sdispls = ints + 3 * size, rcounts = ints + 4 * size;
  rdispls = ints + 5 * size;
  const int sizes[] = {1, 100, 3000, kMaxCount};
  for (int k = 0; k < 4; ++k) {
    VCounts(sizes[k], size);
    Rooted(sizes[k], rank, size, later);
    Everyone(sizes[k], rank, size, later);
  }
  Alltoallv(rank, size);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Ibarrier(MPI_COMM_WORLD, &q);
  Wait(&q);
  MPI_Op_free(&later);
  free(ints);
  free(b);
  free(a);
  MPI_Finalize();
  return 0;
}
