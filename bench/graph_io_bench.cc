// Writes and reads a 3D 7-point stencil (default 100^3 = 1,000,000 vertices,
// 2,970,000 edges) in METIS format and prints the time of each step and the
// peak resident memory of the read next to the CSR size.
//
//   ./bazelw run -c opt //bench:graph_io_bench -- [side] [path]
//
// The peak of the read is measured alone: the generated graph is freed first
// and the kernel's high-water mark is reset (/proc/self/clear_refs), so the
// figure is the file text plus what the reader allocates.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>

#include "graphs/comm_graph.h"
#include "graphs/graphs.h"
#include "graphs/operations.h"

namespace {

using rankmap::graphs::CommGraph;
using rankmap::graphs::CommGraphBuilder;

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

// VmHWM (peak resident set) from /proc/self/status, in MiB; -1 when
// unavailable.
double PeakRssMiB() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmHWM:") {
      double kib = 0;
      status >> kib;
      return kib / 1024.0;
    }
    std::getline(status, key);
  }
  return -1;
}

// Resets VmHWM to the current RSS (Linux >= 4.0); false when not permitted.
bool ResetPeakRss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  return static_cast<bool>(clear.flush());
}

double CsrMiB(const CommGraph& g) {
  const double bytes = 8.0 * (g.num_vertices() + 1) + 12.0 * g.num_arcs() +
                       8.0 * g.vwgt().size();
  return bytes / (1 << 20);
}

CommGraph Stencil(int32_t side) {
  const int64_t n = int64_t{side} * side * side;
  CommGraphBuilder b(n);
  b.Reserve(3 * n);
  auto id = [side](int64_t i, int64_t j, int64_t k) {
    return (i * side + j) * side + k;
  };
  for (int32_t i = 0; i < side; ++i) {
    for (int32_t j = 0; j < side; ++j) {
      for (int32_t k = 0; k < side; ++k) {
        if (i + 1 < side) (void)b.AddEdge(id(i, j, k), id(i + 1, j, k), 1.0);
        if (j + 1 < side) (void)b.AddEdge(id(i, j, k), id(i, j + 1, k), 1.0);
        if (k + 1 < side) (void)b.AddEdge(id(i, j, k), id(i, j, k + 1), 1.0);
      }
    }
  }
  auto g = std::move(b).Build();
  if (!g.ok()) {
    std::fprintf(stderr, "build failed: %s\n",
                 std::string(g.status().message()).c_str());
    std::exit(1);
  }
  return *std::move(g);
}

}  // namespace

int main(int argc, char** argv) {
  const int32_t side = argc > 1 ? std::atoi(argv[1]) : 100;
  const std::string path =
      argc > 2 ? argv[2] : "/tmp/rankmap_graph_io_bench.graph";
  if (side < 2 || side > 1000) {
    std::fprintf(stderr, "usage: graph_io_bench [side in 2..1000] [path]\n");
    return 2;
  }

  auto t = std::chrono::steady_clock::now();
  std::uint64_t edges = 0;
  double csr_mib = 0;
  {
    const CommGraph g = Stencil(side);
    edges = static_cast<std::uint64_t>(g.num_edges());
    csr_mib = CsrMiB(g);
    std::printf("generate  %d^3 stencil: n=%d m=%llu  %.2f s  (CSR %.1f MiB)\n",
                side, g.num_vertices(), static_cast<unsigned long long>(edges),
                Seconds(t), csr_mib);
    t = std::chrono::steady_clock::now();
    absl::Status s = rankmap::graphs::WriteGraphFile(
        g, path, rankmap::graphs::GraphFormat::kMetis);
    if (!s.ok()) {
      std::fprintf(stderr, "write failed: %s\n",
                   std::string(s.message()).c_str());
      return 1;
    }
    std::ifstream file(path, std::ios::ate | std::ios::binary);
    std::printf("write     METIS %s: %.1f MiB  %.2f s\n", path.c_str(),
                static_cast<double>(file.tellg()) / (1 << 20), Seconds(t));
  }

  const double before = PeakRssMiB();
  const bool reset = ResetPeakRss();
  const double baseline = PeakRssMiB();
  t = std::chrono::steady_clock::now();
  auto back = rankmap::graphs::ReadGraphFile(path);
  const double read_s = Seconds(t);
  if (!back.ok()) {
    std::fprintf(stderr, "read failed: %s\n",
                 std::string(back.status().message()).c_str());
    return 1;
  }
  const double peak = PeakRssMiB();
  std::printf("read      METIS (detected): n=%d m=%lld  %.2f s\n",
              back->num_vertices(), static_cast<long long>(back->num_edges()),
              read_s);
  if (reset) {
    std::printf(
        "memory    read peak RSS %.1f MiB above a %.1f MiB baseline (CSR %.1f "
        "MiB)\n",
        peak - baseline, baseline, csr_mib);
  } else {
    std::printf(
        "memory    process peak RSS %.1f MiB (could not reset; earlier peak "
        "%.1f MiB)\n",
        peak, before);
  }
  std::printf("stats     %s\n",
              rankmap::graphs::FormatStats(rankmap::graphs::ComputeStats(*back))
                  .c_str());
  std::remove(path.c_str());
  return static_cast<std::uint64_t>(back->num_edges()) == edges ? 0 : 1;
}
