/* C interface of mpi_bindings/: reorder the ranks of a communicator after its
 * traffic.
 *
 *   rankmap_mpi_options opts;
 *   rankmap_mpi_options_init(&opts);
 *   opts.algorithm = "tm";
 *   MPI_Comm fast;
 *   if (rankmap_mpi_reorder_dense(MPI_COMM_WORLD, n, bytes, &opts, &fast) !=
 * RANKMAP_SUCCESS) fprintf(stderr, "%s\n", rankmap_mpi_error_string());   //
 * same error on every rank
 *   ... use fast (identity-order duplicate of the input on failure), then
 * MPI_Comm_free(&fast);
 *
 * All functions are collective over `comm` and return the same code on every
 * rank; on failure *reordered is still a valid communicator (a duplicate of
 * comm in identity order), so callers may ignore errors. Every rank must pass
 * the same graph. Traffic is directed: entry (i, j) is what rank i sends to
 * rank j; both directions are summed. See reorder.h for the model and the
 * RANKMAP_TOPOLOGY / RANKMAP_NETWORK environment variables.
 */
#ifndef RANKMAP_MPI_BINDINGS_RANKMAP_MPI_H_
#define RANKMAP_MPI_BINDINGS_RANKMAP_MPI_H_

#include <mpi.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes: 0 on success, else the absl::StatusCode of the failure. */
enum {
  RANKMAP_SUCCESS = 0,
  RANKMAP_ERR_INVALID_ARGUMENT = 3,
  RANKMAP_ERR_UNIMPLEMENTED = 12,
  RANKMAP_ERR_INTERNAL = 13,
};

enum {
  RANKMAP_REBIND_NONE = 0,
  RANKMAP_REBIND_PU = 1,
  RANKMAP_REBIND_NUMA = 2
};

typedef struct rankmap_mpi_options {
  /* Engine algorithm ("tm", "portfolio", "identity", "round-robin", "random",
   * ...) or a preset ("fast", "default", "strong"); NULL: the engine default.
   */
  const char* algorithm;
  uint64_t seed;
  /* Machine to assume / network spec; NULL: RANKMAP_TOPOLOGY / RANKMAP_NETWORK.
   */
  const char* topology;
  const char* network;
  /* RANKMAP_REBIND_*. */
  int rebind;
  /* Non-zero: with rebind, bind memory to the NUMA nodes of the new CPUs too
   * (a memory binding the OS refuses is not an error). */
  int bind_memory;
} rankmap_mpi_options;

/* Fills defaults: engine default algorithm, seed 1, environment topology, no
 * re-binding, no memory binding. */
void rankmap_mpi_options_init(rankmap_mpi_options* options);

/* Graph as CSR over n = size of comm processes: the arcs of process u are
 * adjncy[xadj[u] .. xadj[u+1]) with weights adjwgt (bytes; NULL: 1 each). */
int rankmap_mpi_reorder(MPI_Comm comm, int n, const int64_t* xadj,
                        const int32_t* adjncy, const double* adjwgt,
                        const rankmap_mpi_options* options,
                        MPI_Comm* reordered);

/* Graph as a dense row-major n x n matrix of bytes (diagonal ignored). */
int rankmap_mpi_reorder_dense(MPI_Comm comm, int n, const double* bytes,
                              const rankmap_mpi_options* options,
                              MPI_Comm* reordered);

/* Message of the calling thread's last failure ("" after a success). */
const char* rankmap_mpi_error_string(void);

#ifdef __cplusplus
}
#endif

#endif /* RANKMAP_MPI_BINDINGS_RANKMAP_MPI_H_ */
