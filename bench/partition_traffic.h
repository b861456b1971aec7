// The traffic of one halo exchange between the parts of a partition, for the
// partitioner benchmark (bench/partition.cc): the parts' exchange graph under
// a model (bytes a face, messages a neighbouring pair), and the model fitted
// from a profile of the real solver.
//
//   ExchangeModel bw{40, 1, "given"};
//   ASSIGN_OR_RETURN(CommGraph x, PartsExchange(mesh, part, leaves, bw));
//   // x: one vertex a part; w(p, q) = 2 x 40 x faces(p, q) bytes,
//   // 2 messages (one each way)
#ifndef RANKMAP_BENCH_PARTITION_TRAFFIC_H_
#define RANKMAP_BENCH_PARTITION_TRAFFIC_H_

#include <cstdint>
#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::bench {

// One exchange: each neighbouring pair of parts sends bytes_per_face x (the
// faces they share) and messages_per_pair messages, each way.
struct ExchangeModel {
  double bytes_per_face = 0;
  double messages_per_pair = 0;
  std::string source;  // "given", or the profile it was fitted from
};

// "40 B a face, 1 message a pair each way (given)".
std::string Describe(const ExchangeModel& model);

// The parts' exchange graph: vertex p is part p (parts in [0, parts)),
// w(p, q) the bytes of both directions, messages both directions. Errors:
// a part out of range, a mapping of another size. O(n + m).
absl::StatusOr<graphs::CommGraph> PartsExchange(const graphs::CommGraph& mesh,
                                                std::span<const int32_t> part,
                                                int32_t parts,
                                                const ExchangeModel& model);

// The message counts of `g` as the weights of a graph of the same arcs (what
// the replay reads as its message file).
graphs::CommGraph MessageGraph(const graphs::CommGraph& g);

// The model fitted from a profile of the solver: `prefix`.mat and
// `prefix`.msgs.mat (librankmap_profile.so) recorded on the ranks of the
// partition in `partition_path` (the part of each cell of `mesh`: one per
// line, or an OpenFOAM labelList such as decomposePar -cellDist's
// cellDecomposition). Over the neighbouring pairs of parts: bytes a face =
// their bytes / (2 x their shared faces), messages a pair = their messages /
// (2 x pairs), each divided by `exchanges` (the time steps profiled).
// Traffic between ranks that share no face (collectives) is left out.
// Errors: unreadable files (file:line), a partition of another size, a part
// outside the profile's ranks, a profile without message counts.
absl::StatusOr<ExchangeModel> FitFromProfile(const graphs::CommGraph& mesh,
                                             const std::string& prefix,
                                             const std::string& partition_path,
                                             int64_t exchanges);

}  // namespace rankmap::bench

#endif  // RANKMAP_BENCH_PARTITION_TRAFFIC_H_
