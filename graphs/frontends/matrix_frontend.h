// Library entry for `rankmap frontend summa|square-corner`: speeds and
// parameters in; the partition, a printable report (partition, SHP, TVC,
// per-pair volumes, arrangement costs) and the communication graph out. The CLI
// only parses flags and writes files.
//
//   MatrixFrontendOptions o;
//   o.speeds = {8, 1};
//   o.n = 4500;
//   ASSIGN_OR_RETURN(MatrixFrontendResult r, SquareCornerFrontend(o));
//   std::cout << r.report;            // "... TVC 13500000 elements ..."
//   RETURN_IF_ERROR(WriteGraphFile(r.graph, "scp.grf"));
//
// Units: the matrix is n x n elements cut into b x b blocks (n divisible by b);
// partitions are computed on the (n/b) x (n/b) block grid; volumes are reported
// in elements and the graph in bytes (element_size bytes per element).
#ifndef RANKMAP_GRAPHS_FRONTENDS_MATRIX_FRONTEND_H_
#define RANKMAP_GRAPHS_FRONTENDS_MATRIX_FRONTEND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/frontends/summa.h"
#include "tiling/arrangement.h"
#include "tiling/network_volume.h"
#include "tiling/partition.h"
#include "tiling/speed_function.h"
#include "tiling/volume.h"

namespace rankmap::graphs {

enum class SummaPartitioner { kColumnDp, kGrid };

// Limits of the options: the matrix side in elements (areas and volumes of
// the block grid then fit 64 bits; their totals in elements and bytes are
// checked), and the processors, whose every pair's volume is computed and
// reported.
inline constexpr int64_t kMaxMatrixSide = (int64_t{1} << 31) - 1;
inline constexpr int64_t kMaxMatrixProcessors = 16384;

struct MatrixFrontendOptions {
  std::vector<double> speeds;  // relative speeds, one per processor (rank)
  int64_t n = 0;               // matrix side in elements
  int64_t block = 1;           // block side b
  int32_t element_size = 8;    // bytes per element

  // summa
  SummaPartitioner partitioner = SummaPartitioner::kColumnDp;
  PivotFlow flow = PivotFlow::kRing;
  // FPM-BR instead of the constant speeds: one speed function per processor
  // (problem size in blocks); `speeds` may then be empty.
  std::vector<tiling::SpeedFunction> speed_functions;
  // A partition of the (n/b) x (n/b) block grid computed elsewhere
  // (partition_io.h), used as is: no partitioner runs and `speeds` may be
  // empty. n = 0 takes the partition's size.
  std::optional<tiling::Partition> partition;
  // Optional platform: cluster of each processor and, optionally, a
  // cluster-pair bandwidth matrix (num_clusters^2, row-major). When given, the
  // partition is rearranged (Algorithm 1 or 2, see `arrange`) and the report
  // shows the costs before and after and the resulting rank order.
  std::vector<int32_t> clusters;
  int32_t num_clusters = 0;
  std::vector<double> bandwidth;
  // The arrangement algorithm; unset: Algorithm 2 with a bandwidth matrix,
  // Algorithm 1 (hop cost) with clusters only (tiling/platform_arrangement.h).
  std::optional<tiling::ArrangeAlgorithm> arrange;
  tiling::HopNorm hop_norm = tiling::HopNorm::kSum;

  // square-corner
  tiling::LinkModel link = tiling::LinkModel::kSerial;
  // Forced layout; unset: Becker's choice (tiling/square_corner_choice.h).
  std::optional<tiling::MatrixShape> shape;
  // Three processors: the network the shapes are compared on (Becker 6.1):
  // fully connected, or a star whose hub relays the other two's traffic.
  tiling::Network::Kind network = tiling::Network::Kind::kFullyConnected;
  int32_t hub =
      -1;  // star: the hub processor; -1 = the fastest (Becker's rule)

  // Bound on what may be allocated, in bytes; 0: base::MemoryBudget()'s
  // default. Checked from the processor count before anything is built.
  int64_t max_memory_bytes = 0;
};

struct MatrixFrontendResult {
  tiling::Partition partition;   // on the block grid; owner = processor
  tiling::VolumeMatrix volumes;  // owner-computes volumes, in elements
  CommGraph graph;               // bytes per multiplication
  // New rank r runs on processor rank_order[r] (identity without a platform).
  std::vector<int32_t> rank_order;
  // Speed each process's (graph vertex's) rectangle was computed for, as given
  // in options.speeds: speed-aware mapping keeps the process on a leaf of that
  // speed (core/model/slot_classes.h). Empty when the partition came from speed
  // functions or a file.
  std::vector<double> process_speed;
  std::string report;
};

// Heterogeneous SUMMA: column-based DP (constant speeds or FPM-BR), grid-based
// or a given partition of the block grid, the chosen flow, optional
// topology-aware arrangement. Errors: bad speeds or speed functions, n or b <
// 1, n above kMaxMatrixSide, n % b != 0, a block grid too small for the
// partition, more than kMaxMatrixProcessors processors or more than the memory
// budget allows for their pairs, a given partition of another size or not
// column-based, malformed platform data, volumes above 2^63 - 1 bytes.
absl::StatusOr<MatrixFrontendResult> SummaFrontend(
    const MatrixFrontendOptions& options);

// Square-Corner for 2 or 3 processors: the layout Becker's rules choose, or
// the forced one (tiling/square_corner_choice.h), its volumes as the report
// and its graph. Errors: not 2 or 3 speeds, bad speeds or sizes, a forced
// infeasible Square-Corner, a hub outside [0, 3).
absl::StatusOr<MatrixFrontendResult> SquareCornerFrontend(
    const MatrixFrontendOptions& options);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_FRONTENDS_MATRIX_FRONTEND_H_
