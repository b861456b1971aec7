/* One program with both installed C interfaces: rankmap/rankmap.h
 * (rankmap_options) and rankmap/mpi_bindings/rankmap_mpi.h
 * (rankmap_mpi_options).
 * Every rank maps a 4-process ring with the C API, then the job reorders
 * MPI_COMM_WORLD after a dense traffic matrix; rank 0 prints both results. */
#include <mpi.h>
#include <rankmap/mpi_bindings/rankmap_mpi.h>
#include <rankmap/rankmap.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* 0-2 and 1-3 exchange 100, 0-1 and 2-3 exchange 1 (both arcs listed). */
  const int64_t xadj[] = {0, 2, 4, 6, 8};
  const int32_t adjncy[] = {1, 2, 0, 3, 0, 3, 1, 2};
  const double adjwgt[] = {1, 100, 1, 100, 100, 1, 100, 1};
  rankmap_options options;
  rankmap_options_init(&options);
  int32_t mapping[4];
  double j = 0.0;
  char err[256];
  if (rankmap_map("tleaf 2 2 10 2 1", 4, xadj, adjncy, adjwgt, NULL, &options,
                  mapping, &j, err, sizeof err) != 0) {
    fprintf(stderr, "rankmap_map: %s\n", err);
    return 1;
  }

  double bytes[64] = {0};
  for (int i = 0; i < size && size <= 8; ++i)
    bytes[i * size + (i + 1) % size] = 8;
  rankmap_mpi_options mpi_options;
  rankmap_mpi_options_init(&mpi_options);
  mpi_options.topology = "tleaf 1 8 1";
  MPI_Comm reordered;
  const int code = rankmap_mpi_reorder_dense(MPI_COMM_WORLD, size, bytes,
                                             &mpi_options, &reordered);
  int new_size = 0;
  MPI_Comm_size(reordered, &new_size);
  if (me == 0) {
    printf("J = %g\n", j);
    printf("reorder: code %d, %d ranks\n", code, new_size);
  }
  MPI_Comm_free(&reordered);
  MPI_Finalize();
  return code == RANKMAP_SUCCESS ? 0 : 1;
}
