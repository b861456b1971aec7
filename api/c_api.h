/* C interface to the rankmap engine, for partitioners and tools written in C.
 * Installed as <rankmap/c_api.h> (also through <rankmap/rankmap.h>).
 *
 *   rankmap_options opts;
 *   rankmap_options_init(&opts);
 *   opts.seed = 7;
 *   char err[256];
 *   double j;
 *   if (rankmap_map("tleaf 3 4 100 2 10 8 1", n, xadj, adjncy, adjwgt, NULL,
 *                   &opts, mapping, &j, err, sizeof err) != 0) {
 *     fprintf(stderr, "%s\n", err);
 *   }
 *
 * The graph is CSR with 0-based ids: xadj has n + 1 entries, adjncy and adjwgt
 * have xadj[n]. Each arc (u, v, w) counts w / 2 toward the edge {u, v}: a
 * symmetric CSR (the METIS convention, both arcs with weight w) gives w(u, v) =
 * w; directed traffic gives the mean of both directions. vwgt (optional, n
 * entries) weighs vertices for n-to-1 mapping. mapping receives n leaf indexes
 * (logical leaf order of the topology; tleaf mixed-radix numbering for tleaf
 * targets). Returns 0 on success, non-zero on error with a one-line message in
 * err (truncated to errlen). Options and names are read as the rankmap command
 * reads them (api/named_options.h): the preset, then the algorithm.
 *
 * Message counts and the order the job has now (rankmap_map_traffic): with a
 * count of messages per arc (adjmsg, beside adjwgt, halved like the bytes) on
 * a topology with links, the engine minimises predicted time instead of J
 * (objective "auto"), and the present order (rankmap_choice.present, the
 * identity when NULL) is kept unless a mapping is predicted better by more
 * than rankmap_choice.keep_margin; rankmap_report says what happened.
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
   * "random", "mpipp", "scotch"; NULL: the preset's. */
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

/* How a mapping is chosen against the order the job has now
 * (rankmap_map_traffic). */
typedef struct rankmap_choice {
  /* "auto" (when NULL: predicted time where the graph has message counts and
   * the topology has links, J elsewhere), "j", "time" (an error without
   * counts or links). */
  const char* objective;
  /* The order the job has now: n leaf indexes, a valid one-to-one mapping;
   * NULL: the identity (packed) order. */
  const int32_t* present;
  /* Relative lead in predicted time a mapping needs to replace the present
   * order; 0.02 by default. */
  double keep_margin;
} rankmap_choice;

void rankmap_choice_init(rankmap_choice* choice);

/* What happened to the present order (rankmap_report.verdict). */
enum {
  RANKMAP_PRESENT_NOT_WEIGHED = 0, /* not the portfolio, n-to-1, speeds */
  RANKMAP_PRESENT_KEPT = 1,
  RANKMAP_PRESENT_REPLACED = 2,
  RANKMAP_PRESENT_REPLACED_BY_REFINEMENT = 3 /* present order, refined */
};

/* How the present order compared (filled by rankmap_map_traffic). Costs are
 * J, or T in seconds under the time objective (messages x latency + bytes /
 * bandwidth per route); estimates are the predicted time of one iteration in
 * seconds (core/objective/link_load.h; 0 without links), by which the present
 * order is kept or replaced on a tree with links. */
typedef struct rankmap_report {
  int32_t verdict;       /* RANKMAP_PRESENT_* */
  char verdict_name[32]; /* "not weighed", "kept", "replaced", ... */
  char objective[8];     /* "J" or "time"; "" when not weighed */
  double present_cost, present_estimate;
  double best_cost, best_estimate; /* the best mapping other than the present */
  double chosen_cost, chosen_estimate; /* the result */
  int64_t moved; /* processes on another leaf than in the present order */
} rankmap_report;

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

/* rankmap_map_speeds with message counts, the objective and the present
 * order. adjmsg (optional, xadj[n] entries beside adjwgt): the messages of
 * each arc, counted like the bytes (each arc m / 2 toward its edge); a pair
 * may have messages and no bytes. choice NULL: rankmap_choice_init's values.
 * report (optional) receives how the present order compared; with
 * process_speed, an algorithm other than the portfolio or more vertices than
 * slots the present order is not weighed. Every NULL extra gives
 * rankmap_map_speeds' result. Extra errors: an unknown objective, "time"
 * without counts or links, a keep_margin outside [0, 1), a present order that
 * is not a one-to-one mapping, message counts that are negative or not finite.
 */
int rankmap_map_traffic(const char* topology, int32_t n, const int64_t* xadj,
                        const int32_t* adjncy, const double* adjwgt,
                        const double* adjmsg, const double* vwgt,
                        const double* process_speed,
                        const rankmap_options* options,
                        const rankmap_choice* choice, int32_t* mapping,
                        double* j, rankmap_report* report, char* err,
                        size_t errlen);

/* n-to-1 partitioning for partitioners (rankmap_partition): the traffic of
 * one exchange between parts, by which the partition is chosen. Each part
 * sends every neighbouring part (one it shares edges with) bytes_per_unit x
 * (their edge weight) bytes in messages_per_pair messages, and receives as
 * much. With `profile` the model is fitted from a profile of the application
 * instead (api/partition.h: FitExchangeModel). */
typedef struct rankmap_exchange {
  /* Each way, per unit of edge weight; < 0: the default (1). */
  double bytes_per_unit;
  /* Each way, per neighbouring pair of parts; < 0: the default (1). */
  double messages_per_pair;
  /* The profile of the application's ranks, app.mat (its message counts in
   * app.msgs.mat beside it); NULL: none. */
  const char* profile;
  /* With profile: the rank of each vertex in the profiled run, one per line
   * (METIS's partition format). */
  const char* profile_partition;
  /* With profile: how many exchanges it holds (1 by default). */
  int64_t profile_exchanges;
} rankmap_exchange;

void rankmap_exchange_init(rankmap_exchange* exchange);

/* What rankmap_partition chose. Seconds are the link-load estimate of one
 * exchange (0 when the topology has no links); costs are T in seconds
 * (messages x latency + bytes / bandwidth summed over pairs) under time, J of
 * the exchange's bytes under J. */
typedef struct rankmap_partition_report {
  int32_t weighed;   /* 0 when n <= slots (one vertex a slot) */
  char objective[8]; /* "time" or "J" */
  char winner[32];   /* "machine-aware", "status quo", "scotch" */
  char model[256];   /* the model in words and where it came from */
  char note[128];    /* why J, when the objective is J */
  double status_quo_seconds, chosen_seconds;
  double status_quo_cost, chosen_cost;
  int64_t status_quo_pairs, chosen_pairs; /* neighbouring pairs of parts */
  double j;         /* J of the partition on the topology */
  double imbalance; /* largest relative excess over a leaf's share */
} rankmap_partition_report;

/* Partitions the n vertices of the CSR graph (rankmap_map's conventions; vwgt
 * optional) onto the leaves of `topology`, n-to-1 when n exceeds its slots:
 * part[v] receives the leaf of vertex v, each leaf's vertex weight within
 * options->imbalance of its share. The partition is chosen by the predicted
 * time of one exchange among the machine-aware partition, the status quo (the
 * graph partitioned as if onto a complete graph, part p on leaf p) and
 * Scotch's mapping, and is never predicted slower than the status quo.
 * exchange NULL: the default model (named in report->model). choice
 * (optional): objective and keep_margin (its present order is not used).
 * report (optional). Extra errors: rankmap_map's, a profile without message
 * counts or whose ranks the profiled partition does not fit, a
 * profile_partition of another length than n. See the README section "From
 * your partitioner". */
int rankmap_partition(const char* topology, int32_t n, const int64_t* xadj,
                      const int32_t* adjncy, const double* adjwgt,
                      const double* vwgt, const rankmap_options* options,
                      const rankmap_choice* choice,
                      const rankmap_exchange* exchange, int32_t* part,
                      rankmap_partition_report* report, char* err,
                      size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* RANKMAP_API_C_API_H_ */
