// Front door of mpi_bindings/: give an MPI communicator ranks that follow the
// machine.
//
// Reorder() is collective over `comm`. Every rank reports its host name and
// binding; rank 0 builds the tree of the occupied slots (job_tree.h:
// RANKMAP_TOPOLOGY override, network spec, or hwloc), maps the communication
// graph with the engine and broadcasts the permutation with a status; the new
// communicator comes from MPI_Comm_split with the new rank as key. Processes do
// not move: rank numbers do, so that heavy talkers get neighbouring slots.
//
//   ReorderOptions opts;                       // engine defaults, RANKMAP_*
//   environment read absl::StatusOr<MPI_Comm> c = Reorder(MPI_COMM_WORLD,
//   graph, opts); MPI_Comm work = c.ok() ? *c : MPI_COMM_WORLD;   // every rank
//   takes the same branch
//
// Agreement: all ranks return the same status (an error found on one rank, e.g.
// a graph of the wrong size, is broadcast as "rank 3: ..."); nothing waits on a
// rank that failed, so errors never hang, and an exception in a rank's own
// work (std::bad_alloc) becomes such an error instead of terminating the job.
// The graph and the options are significant on every rank: all must pass the
// same graph (compared by the SHA-256 of its CSR arrays and weights) and the
// same options (each rank validates its own, then every option that changes
// the result, environment included, is compared with rank 0's and the first
// difference named); rank 0's copy is mapped.
//
// Environment (read on every rank when options.read_environment and the
// option is empty; the ranks must agree):
//   RANKMAP_TOPOLOGY  description of the machine to assume (synthetic, XML,
//   tleaf, network) RANKMAP_NETWORK   network spec placing the job's hosts
// Always read: SLURM_TOPOLOGY_ADDR(_PATTERN), set by Slurm in every task (the
// switches above each host, job_tree.h; used when no override applies), and
// RANKMAP_PRINT_TREE=1 (rank 0 prints the job's tree on stderr).
//
// Re-binding (options.rebind) moves each process to its new slot's PU or NUMA
// node; with options.bind_memory its memory policy follows (bound to the NUMA
// nodes of those CPUs, pages migrated where the kernel allows). A memory
// binding the OS refuses is not an error: ReorderOutcome::binding says what
// each rank got.
#ifndef RANKMAP_MPI_BINDINGS_REORDER_H_
#define RANKMAP_MPI_BINDINGS_REORDER_H_

#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/mapper.h"
#include "graphs/comm_graph.h"

namespace rankmap::mpi_bindings {

enum class Rebind {
  kNone,  // leave bindings as they are
  kPu,    // bind each process to the PU of its slot
  kNuma,  // bind each process to the NUMA node of its slot
};

struct ReorderOptions {
  core::MappingOptions mapping;
  std::string topology;  // overrides RANKMAP_TOPOLOGY
  std::string network;   // overrides RANKMAP_NETWORK
  bool read_environment = true;
  bool core_leaves = false;  // hwloc trees with cores as leaves
  // Re-binding needs a tree of the real machine; with an override it is
  // skipped.
  Rebind rebind = Rebind::kNone;
  // With rebind: bind memory to the NUMA nodes of the new CPUs too (the
  // "cpu+mem" of RANKMAP_BIND; rebind alone is "cpu").
  bool bind_memory = false;
  // Speed each process's share of the work was computed for, one per graph
  // vertex (= new rank); empty: none. Vertex u goes to a slot whose leaf has
  // that speed (hwloc CPU kinds, a network spec's `speed` directive;
  // core/model/slot_classes.h). Compared across ranks like the other options.
  std::vector<double> process_speed;
};

// Everything a reordering produced; identical on every rank except `comm`'s
// handle.
struct ReorderOutcome {
  absl::Status status;
  // The reordered communicator, or a duplicate of the input in identity order
  // on failure. Always valid; the caller frees it.
  MPI_Comm comm = MPI_COMM_NULL;
  // new_rank[old rank]: identity on failure.
  std::vector<int32_t> new_rank;
  // Model cost J as launched and after reordering (0 when unknown).
  double cost_before = 0.0;
  double cost_after = 0.0;
  // This rank's re-binding as applied ("cpus 3 memory numa 0 (bind,
  // migrate)", "cpus 3 memory not bound: <why>"); empty when none was done.
  std::string binding;
};

// Collective. Returns the reordered communicator (free it with MPI_Comm_free),
// or the same error on every rank. Errors: graph size differs from the
// communicator size, graphs differ between ranks, topology cannot be loaded or
// is too small, engine errors, re-binding refused.
absl::StatusOr<MPI_Comm> Reorder(MPI_Comm comm, const graphs::CommGraph& graph,
                                 const ReorderOptions& options);

// Same, always returning a usable communicator and the permutation and costs.
ReorderOutcome ReorderDetailed(MPI_Comm comm, const graphs::CommGraph& graph,
                               const ReorderOptions& options);

// One directed edge of the traffic the calling rank takes part in, in ranks of
// the communicator: `source` sends `bytes` to `destination`.
struct LocalEdge {
  int32_t source;
  int32_t destination;
  double bytes;
};

// Collective variant for distributed knowledge: each rank passes the edges it
// knows (typically its own sends); rank 0 gathers them all, sums duplicates in
// both directions and maps the resulting graph. Errors as above plus
// out-of-range ranks or bad weights on any rank.
// `local` is an error the caller already found in this rank's input; it is
// agreed on like the others.
ReorderOutcome ReorderFromEdges(MPI_Comm comm, std::span<const LocalEdge> edges,
                                const ReorderOptions& options,
                                const absl::Status& local = absl::OkStatus());

// Collective: returns `local` from every rank where it is not OK, prefixed with
// the lowest failing rank ("rank 3: ..."), identically on all ranks; OK when
// every rank passed OK.
absl::Status AgreeOnStatus(MPI_Comm comm, const absl::Status& local);

}  // namespace rankmap::mpi_bindings

#endif  // RANKMAP_MPI_BINDINGS_REORDER_H_
