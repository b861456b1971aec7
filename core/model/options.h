// MappingOptions: how the engine maps (algorithm, seed, effort of each
// strategy), as a plain value, and the table of algorithm names.
//
// Kept apart from core/mapper.h so that every strategy (treematch,
// multisection, refinement, baselines) can take its own options without
// depending on the dispatcher that calls them.
//
//   ASSIGN_OR_RETURN(MappingOptions o, MappingOptions::Preset("fast"));
//   o.seed = 42;
//   o.refine.swap_rounds = 4;
//
// Invariants: options are values; no global state; the same options and inputs
// give the same mapping on any machine (threads never change results).
#ifndef RANKMAP_CORE_MODEL_OPTIONS_H_
#define RANKMAP_CORE_MODEL_OPTIONS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/model/progress.h"

namespace rankmap::core {

enum class Algorithm {
  kTreeMatch,     // bottom-up grouping (TreeMatch) with the extensions of
                  // TreeMatchOptions
  kMultisection,  // top-down recursive multisection with METIS
  kMultilevel,    // the native multilevel engine (core/strategies/multilevel.h)
  kPortfolio,     // TreeMatch and the multisection, the lower J kept
  kIdentity,      // process i on the i-th slot in leaf order (packed)
  kRoundRobin,    // processes dealt over the root's subtrees in turn
  kRandom,        // a random one-to-one placement (seeded)
  kMpipp,         // MPIPP-style pairwise swap search from random starts
  kScotch,        // SCOTCH_graphMap on the equivalent target, strict balance
};

struct MapReport;        // core/model/map_report.h
struct PartitionReport;  // core/model/map_report.h

// The traffic of one exchange between the parts of an n-to-1 partition, the
// model by which core/strategies/partition_choice.h predicts its time: every
// part sends each neighbouring part (a part it shares edges with)
// bytes_per_unit x (the edge weight between them) bytes in messages_per_pair
// messages, and receives as much; traffic inside a part costs nothing. A mesh's
// halo exchange of 40 B a face, one message per neighbour and direction, is
// {40, 1} on the graph whose edge weights count shared faces.
struct ExchangeModel {
  enum class Source {
    kDefault,  // nobody gave it: 1 byte per unit, 1 message per pair; a graph
               // with message counts (app.msgs.mat) gives its own instead
    kGiven,    // by the caller (an option, a flag)
    kFitted,   // fitted from a profile of the application (api/partition.h)
  };
  double bytes_per_unit = 1.0;     // each way, per unit of edge weight
  double messages_per_pair = 1.0;  // each way, per neighbouring pair of parts
  Source source = Source::kDefault;
  // Where a fitted model came from ("app.mat + app.msgs.mat"); may be empty.
  std::string origin;
};

// "given", "fitted", "default".
std::string_view ExchangeSourceName(ExchangeModel::Source source);

// What the engine minimises (core/objective/time_objective.h).
enum class ObjectiveKind {
  kAuto,  // time when the graph has message counts and the tree has links
  kJ,     // J: bytes x tree distance
  kTime,  // messages x latency + bytes / bandwidth per route (needs both)
};

// Parses "auto", "j", "time"; the error lists them.
absl::StatusOr<ObjectiveKind> ParseObjective(std::string_view name);

// One row of the algorithm table.
struct AlgorithmInfo {
  std::string_view name;  // as the CLI and the C API spell it
  Algorithm algorithm;
  bool baseline;  // a comparison point, not one of the engine's strategies
  std::string_view summary;  // one line, for --help and reports
};

// Every algorithm, the engine's strategies first, then the baselines, in the
// order reports list them.
std::span<const AlgorithmInfo> Algorithms();

// Parses a name of the table; the error lists the valid names.
absl::StatusOr<Algorithm> ParseAlgorithm(std::string_view name);
std::string_view AlgorithmName(Algorithm a);
// "tm | multisection | ..." (for help texts).
std::string AlgorithmNameList(std::string_view separator = " | ");

// Bottom-up grouping (core/initial/treematch.h). With exact_pairing = false,
// split_arities = false, exhaustive_limit = 0 and refinement off, kTreeMatch is
// the paper's algorithm.
struct TreeMatchOptions {
  // Arity 2 as maximum-weight perfect matching: branch and bound on levels of
  // at most 20 units (optimal unless its node budget runs out), heavy-edge
  // matching + 2-opt re-pairing above. Boost's maximum_weighted_matching is
  // not used: the Debian 1.74 version can loop forever, crash or return
  // non-optimal matchings (boostorg/graph #199, #223, #399), and bad input
  // must never hang.
  bool exact_pairing = true;
  // Bounded exhaustive grouping for groups up to this size (0: off).
  int32_t exhaustive_limit = 0;
  // 12 -> 3*2*2, 16 -> 2*2*2*2 where that leaves less traffic above.
  bool split_arities = true;
};

// METIS multisection (core/initial/multisection.h,
// core/strategies/partition_map.h).
struct MultisectionOptions {
  // METIS attempts per split are multiplied by this; 2 or more also runs
  // k-way beside recursive bisection in one-to-one mode and keeps the smaller
  // cut; 0 runs one recursive bisection per split (two at the root).
  int32_t metis_effort = 1;
  // n-to-1: multisections run (half spreading the imbalance over the levels),
  // the lowest J kept.
  int32_t partition_attempts = 4;
};

// Local search after a strategy (decided once, by Map).
struct RefineOptions {
  bool enabled = true;
  // One-to-one: rounds of swap/move refinement (core/refine/refine.h).
  int32_t swap_rounds = 8;
  // n-to-1: sweeps of greedy vertex moves (core/refine/partition_refine.h).
  int32_t greedy_sweeps = 8;
  // n-to-1: FM rounds per level of the pair hierarchy
  // (core/refine/partition_refine.h).
  int32_t fm_passes = 8;
};

// The MPIPP baseline (core/baselines/baselines.h).
struct MpippOptions {
  int32_t starts = 1;  // random starts, each followed by swap search
  int32_t rounds = 8;  // swap-search rounds per start
};

struct MappingOptions {
  Algorithm algorithm = Algorithm::kPortfolio;
  uint64_t seed = 1;
  // Worker threads; results do not depend on this value. With 2 or more the
  // portfolio runs TreeMatch beside the multisection, n-to-1 refinements
  // overlap the next METIS run, and the multisection splits subtrees on that
  // many threads in programs where METIS can run on several (those linking
  // //core/split:metis_thread_rand, such as the rankmap command:
  // core/split/metis_rand.h). Map runs at most as many as the CPUs the process
  // may use.
  int32_t threads = 1;
  // n-to-1 mapping (more processes than slots): allowed imbalance of vertex
  // weight per leaf relative to its capacity share.
  double imbalance = 0.03;
  // Memory the engine may use for one Map call, in bytes (core/map_budget.h);
  // 0: base::MemoryBudget()'s default (half of physical memory, less under
  // `ulimit -v`).
  int64_t max_memory_bytes = 0;

  // Congestion: when > 0, the engine's result is then refined for
  // J + congestion_weight * (volume on the most loaded tree link), the link
  // model of the cost report (core/refine/congestion.h). J's unit per byte is
  // the tree's cost, so a weight of the root's cost trades one byte on the hot
  // link for one byte across the root.
  double congestion_weight = 0.0;
  // On trees with links (topology::Tree::has_links), the portfolio compares
  // its candidates by the link-load estimate (core/objective/link_load.h: the
  // busiest link's transfer time plus the largest route latency), J breaking
  // ties; false, or a tree without links: by J alone.
  bool link_aware_choice = true;

  // The portfolio (one-to-one) and the n-to-1 partition also run the
  // multilevel engine (core/strategies/multilevel.h) and keep its mapping when
  // it scores better: the strong preset (core/strategies/portfolio.h says why
  // not the default).
  bool portfolio_multilevel = false;

  // What the engine minimises; kAuto: predicted time where the inputs allow
  // it (message counts and links), J elsewhere.
  ObjectiveKind objective = ObjectiveKind::kAuto;
  // The order the user already has: one leaf per process (a valid one-to-one
  // mapping), empty for the identity (packed) order. The portfolio always
  // weighs it, and keeps it unless another mapping is predicted better: by
  // J (any lead) under J, by more than keep_margin in predicted time under
  // time (core/strategies/present_order.h). Other algorithms ignore it.
  // n-to-1, it places the status quo's parts instead
  // (core/strategies/partition_choice.h): part p of the partition as onto a
  // complete graph goes to leaf present[p], one entry per slot (PETSc's part
  // p runs where rank p runs); empty: part p on the p-th slot in leaf order.
  std::vector<int32_t> present;
  // Relative lead in predicted time a mapping needs to replace the present
  // order (time objective only).
  double keep_margin = 0.02;

  // n-to-1: the exchange whose predicted time chooses among the candidate
  // partitions (core/strategies/partition_choice.h): the machine-aware
  // partition, the status quo (the graph partitioned as if onto a complete
  // graph, parts in leaf order), and Scotch's machine-aware mapping when
  // scotch_candidate. The status quo is kept unless another is predicted faster
  // by more than keep_margin.
  ExchangeModel exchange;
  bool scotch_candidate = true;

  TreeMatchOptions treematch;
  MultisectionOptions multisection;
  RefineOptions refine;
  MpippOptions mpipp;

  // Where long phases report their progress (core/model/progress.h); null:
  // nowhere. Not owned; results do not depend on it.
  ProgressSink* progress = nullptr;
  // Where Map says what it chose and why (core/model/map_report.h);
  // null: nowhere. Not owned.
  MapReport* report = nullptr;
  // Where an n-to-1 Map says which partition it chose and the predicted time
  // of each candidate; null: nowhere. Not owned.
  PartitionReport* partition_report = nullptr;

  // Named presets: "default" (the values above: portfolio of TreeMatch and
  // multisection, TreeMatch refined only when it is within 2% of the refined
  // multisection; n-to-1: the multilevel engine from kMultilevelNTo1From
  // processes on, core/mapper.h); "fast" (TreeMatch alone, heavy-edge pairing, 2 refinement
  // rounds; n-to-1: one multisection with the least METIS effort, 2 FM
  // passes; a small fraction of default's time); "strong" (metis_effort 2, 32
  // refinement rounds, 4 MPIPP starts, the multilevel engine in the
  // portfolio; about 5x default's time). Exhaustive
  // grouping is in no preset: on the bench it did not pay.
  static absl::StatusOr<MappingOptions> Preset(std::string_view name);
};

// The names Preset accepts, in the order of effort: fast, default, strong.
std::span<const std::string_view> PresetNames();
// "fast, default, strong" (for errors and help texts).
std::string PresetNameList(std::string_view separator = ", ");

// OK when every count is non-negative and the imbalance is finite and >= 0;
// the error names the field.
absl::Status ValidateOptions(const MappingOptions& options);

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MODEL_OPTIONS_H_
