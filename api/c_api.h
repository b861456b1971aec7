/* C interface to the rankmap engine, for partitioners and tools written in C.
 *
 *   rankmap_options opts;
 *   rankmap_options_init(&opts);
 *   opts.seed = 7;
 *   char err[256];
 *   double j;
 *   if (rankmap_map("tleaf 3 4 100 2 10 8 1", n, xadj, adjncy, adjwgt, NULL,
 * &opts, mapping, &j, err, sizeof err) != 0) { fprintf(stderr, "%s\n", err); }
 *
 * The graph is CSR with 0-based ids: xadj has n + 1 entries, adjncy and adjwgt
 * have xadj[n]. Each arc (u, v, w) counts w / 2 toward the edge {u, v}: a
 * symmetric CSR (the METIS convention, both arcs with weight w) gives w(u, v) =
 * w; directed traffic gives the mean of both directions. vwgt (optional, n
 * entries) weighs vertices for n-to-1 mapping. mapping receives n leaf indexes
 * (logical leaf order of the topology; tleaf mixed-radix numbering for tleaf
 * targets). Returns 0 on success, non-zero on error with a one-line message in
 * err (truncated to errlen).
 */
#ifndef RANKMAP_API_C_API_H_
#define RANKMAP_API_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rankmap_options {
  /* "portfolio" (default), "tm", "multisection", "identity", "round-robin",
   * "random", "mpipp", "scotch". */
  const char* algorithm;
  /* "fast", "default" (when NULL), "strong". */
  const char* preset;
  uint64_t seed;
  int32_t threads;
  /* Processes per leaf (oversubscription); 1 by default. */
  int32_t capacity;
  /* n-to-1 mapping (more vertices than slots): allowed imbalance, 0.03 by
   * default. */
  double imbalance;
} rankmap_options;

void rankmap_options_init(rankmap_options* options);

/* Maps the n vertices of the CSR graph onto the leaves of `topology` (any
 * description accepted by the rankmap command: "this", an hwloc synthetic
 * string, an XML file, a tleaf line or file, a network spec). On success writes
 * mapping[0..n) and, when j != NULL, the cost J. xadj is validated whole
 * before xadj[n] sizes anything; a graph or topology beyond the memory budget
 * (half of physical memory, less under `ulimit -v`) is an error, and so is
 * running out of memory: no C++ exception ever reaches the caller. */
int rankmap_map(const char* topology, int32_t n, const int64_t* xadj,
                const int32_t* adjncy, const double* adjwgt, const double* vwgt,
                const rankmap_options* options, int32_t* mapping, double* j,
                char* err, size_t errlen);

/* rankmap_map with speeds (heterogeneous partitions): process_speed[u] is the
 * speed vertex u's share of the work was computed for, and u is mapped onto a
 * leaf of that speed (equal within 1e-9, relative); an entry that is not > 0
 * leaves u free. Leaf speeds come from the topology: hwloc CPU kinds on hybrid
 * CPUs (1 for the least efficient kind, 2, ...), a network spec's `speed`
 * directive, else 1. process_speed NULL is rankmap_map. Extra errors: a speed
 * no leaf has, more vertices of a speed than slots of it, more vertices than
 * slots. A separate function so rankmap_options keeps its size (ABI). */
int rankmap_map_speeds(const char* topology, int32_t n, const int64_t* xadj,
                       const int32_t* adjncy, const double* adjwgt,
                       const double* vwgt, const double* process_speed,
                       const rankmap_options* options, int32_t* mapping,
                       double* j, char* err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* RANKMAP_API_C_API_H_ */
