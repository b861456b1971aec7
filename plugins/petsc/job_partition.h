// The partition call of the PETSc plugin, without PETSc: a graph distributed
// by rows over a communicator, gathered on rank 0, partitioned onto the
// machine the job runs on (api::PartitionOntoRanks: rank p's part on the leaf
// where rank p runs) and scattered back.
//
// Both PETSc types (MatPartitioning and PetscPartitioner "rankmap") adapt
// their arguments to a LocalGraph and call PartitionJob; nothing here
// includes PETSc. Every step that can fail on one rank is agreed on by all
// (mpi_bindings::AgreeOnStatus), so an error never leaves a rank waiting in a
// collective: a rank without vertices, an empty graph, a machine without the
// job's hosts, a graph over the memory budget (refused from its counts before
// anything is gathered) all come back as the same Status on every rank.
//
//   LocalGraph g;                       // this rank's rows, global ids
//   JobPartitionOptions o;              // the options by name
//   JobPartition out;
//   RETURN_IF_ERROR(PartitionJob(comm, g, /*parts=*/size, o, nullptr, &out));
//   out.local_part[i];                  // the part (rank) of local row i
//   out.report;                         // what -mat_partitioning_view prints
#ifndef RANKMAP_PLUGINS_PETSC_JOB_PARTITION_H_
#define RANKMAP_PLUGINS_PETSC_JOB_PARTITION_H_

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace rankmap::plugins::petsc {

// This rank's rows of the graph. Rows are numbered consecutively over the
// ranks in rank order (rank r's first row is the sum of the row counts of the
// ranks before it); adjncy holds global row ids.
struct LocalGraph {
  std::vector<int64_t> xadj = {0};  // rows + 1 offsets into adjncy
  std::vector<int64_t> adjncy;      // global ids of the neighbours
  std::vector<double> adjwgt;       // per arc; empty: 1 each
  std::vector<double> vwgt;         // per row; empty: 1 each
};

// The options as PETSc's options database gives them (names, not values:
// rank 0 resolves them, so one rank's typo is every rank's error).
struct JobPartitionOptions {
  std::string algorithm;  // a preset or an algorithm (api::PresetOrAlgorithm)
  double imbalance = -1;  // < 0: the engine's default (3%)
  uint64_t seed = 1;
  std::string objective = "auto";  // auto | j | time
  // The machine: an override description (the job is taken to run on it,
  // rank r on its r-th slot) or a network spec over the job's hosts; both
  // empty: RANKMAP_TOPOLOGY / RANKMAP_NETWORK, Slurm's switches, else one
  // switch over the hosts' hwloc trees (mpi_bindings::GatherJobTree).
  std::string topology;
  std::string network;
  // The exchange model: "B,M", or a profile "PROFILE.mat,PART[,K]"
  // (api::ExchangeModelByName); both empty: 8 B (one double) per unit of
  // edge weight and 1 message per neighbouring pair, a MatMult's halo.
  std::string exchange;
  std::string exchange_profile;
  // When not empty, rank 0 writes PREFIX.graph (the gathered graph, METIS
  // format), PREFIX.part (each vertex's part), PREFIX.leaves (each vertex's
  // leaf of the machine tree), PREFIX.ranks (each rank's leaf),
  // PREFIX.exchange.mat and .msgs.mat (the modelled exchange between the
  // ranks, for `rankmap simulate --mapping PREFIX.ranks`) and, with a
  // compared partition, the same as PREFIX.compared.*.
  std::string write;
  // Memory the partition may use on rank 0, in bytes; 0: half of physical
  // memory (less under `ulimit -v`).
  int64_t max_memory_bytes = 0;
  // How the caller's users spell these options, for messages
  // ("-mat_partitioning_rankmap_").
  std::string option_prefix = "-mat_partitioning_rankmap_";
  // Name of the compared partition (e.g. "ptscotch"), for the report.
  std::string compared_name;
};

struct JobPartition {
  std::vector<int32_t> local_part;  // the part of each local row
  // What rank 0 reports (empty on the other ranks): the machine, J, the
  // imbalance, the model and the predicted exchanges, one line each.
  std::vector<std::string> report;
  // On rank 0: the edge weight between parts, and the largest part's vertex
  // weight over the smallest's (PETSc's "balance"; 0 with an empty part).
  double cut = 0.0;
  double balance = 0.0;
};

// Collective over `comm`. parts == communicator size: onto the job's
// machine; any other number: onto the machine options.topology names, whose
// leaves must number `parts` (part p on leaf p), else an error. compared
// (null on every rank, or on none: one part per local row), another
// partition of the same graph,
// reported beside (its J, imbalance and predicted exchange on the same
// machine). Errors, the same on every rank: bad local rows (an id out of
// range, a negative or non-finite weight), parts < 1, the machine's, the
// memory check's, the engine's.
absl::Status PartitionJob(MPI_Comm comm, const LocalGraph& local, int32_t parts,
                          const JobPartitionOptions& options,
                          const std::vector<int32_t>* compared,
                          JobPartition* out);

}  // namespace rankmap::plugins::petsc

#endif  // RANKMAP_PLUGINS_PETSC_JOB_PARTITION_H_
