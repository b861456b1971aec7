// replay: performs the traffic of a communication graph, so that any graph
// rankmap reads (a profiled application's .mat, a front end's .grf, ...) can
// be run on a real or simulated machine under any mapping.
//
//   smpirun -np N -platform p.xml -hostfile h ./replay_smpi.so g.grf
//   --iterations=10 mpirun -np N ./replay_mpi g.grf --iterations=10
//
// Rank r is vertex r of the graph (N must equal the number of vertices). An
// iteration is TreeMatch's pattern program: every rank posts a non-blocking
// receive from and a non-blocking send to each neighbour, then waits for all
// of them. An edge of weight w (bytes, both directions summed, as rankmap
// stores graphs) carries round(w / 2) bytes each way. Rank 0 reads the graph
// and sends every rank its neighbours and sizes. After a barrier, one untimed
// iteration lets the ranks settle into the skew the exchange itself imposes
// (a barrier releases ranks at different times); then the timed iterations
// run, and the time is the largest over ranks, printed by rank 0:
//
//   replay: 64 processes, 192 edges, 10 iterations, 3145728 bytes per iteration
//   time per iteration: 1.234567890e-04 s
//
// Under SMPI the buffers are SMPI_SHARED_MALLOC'ed (the content does not
// matter, the simulated memory does not grow with the ranks) and the program
// keeps no mutable globals (smpirun --cfg=smpi/privatization:no). Errors
// (unreadable graph, wrong process count, messages above 2^31 - 1 bytes) are
// printed by rank 0; every rank exits with status 2.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "graphs/graphs.h"

namespace {

struct Args {
  std::string graph;
  std::string format = "auto";
  int64_t iterations = 10;
};

bool ParseArgs(int argc, char** argv, Args& a, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--iterations=", 0) == 0) {
      if (!absl::SimpleAtoi(arg.substr(13), &a.iterations) ||
          a.iterations < 1 || a.iterations > 1000000) {
        error = "replay: --iterations: expected an integer in [1, 1000000]";
        return false;
      }
    } else if (arg.rfind("--format=", 0) == 0) {
      a.format = arg.substr(9);
    } else if (arg.rfind("--", 0) == 0 || !a.graph.empty()) {
      error = "replay: unexpected argument '" + arg +
              "' (usage: replay GRAPH [--iterations=K] [--format=F])";
      return false;
    } else {
      a.graph = arg;
    }
  }
  if (a.graph.empty()) {
    error = "replay: missing graph file (usage: replay GRAPH [--iterations=K])";
    return false;
  }
  return true;
}

void* Allocate(size_t bytes) {
#ifdef SMPI_SHARED_MALLOC
  return SMPI_SHARED_MALLOC(std::max<size_t>(bytes, 1));
#else
  return std::calloc(std::max<size_t>(bytes, 1), 1);
#endif
}

void Release(void* p) {
#ifdef SMPI_SHARED_MALLOC
  SMPI_SHARED_FREE(p);
#else
  std::free(p);
#endif
}

// Rank 0: reads the graph and builds, per rank, its neighbours and message
// sizes (CSR over ranks). Returns an error message or "".
std::string Load(const Args& a, int size, std::vector<int>& counts,
                 std::vector<int>& neighbours, std::vector<int>& bytes,
                 int64_t& edges, double& volume) {
  auto format = rankmap::graphs::ParseGraphFormat(a.format);
  if (!format.ok()) return std::string(format.status().message());
  auto g = rankmap::graphs::ReadGraphFile(a.graph, *format);
  if (!g.ok()) return std::string(g.status().message());
  if (g->num_vertices() != size) {
    return a.graph + ": " + std::to_string(g->num_vertices()) +
           " processes in the graph, " + std::to_string(size) + " MPI ranks";
  }
  counts.assign(size, 0);
  edges = g->num_edges();
  volume = 0;
  for (int v = 0; v < size; ++v) {
    for (int64_t k = g->xadj()[v]; k < g->xadj()[v + 1]; ++k) {
      const double half = std::round(g->adjwgt()[k] / 2);
      if (half > 2147483647.0) {
        return a.graph + ": a message of " + std::to_string(half) +
               " bytes (above 2^31 - 1)";
      }
      neighbours.push_back(g->adjncy()[k]);
      bytes.push_back(static_cast<int>(half));
      volume += half;
      ++counts[v];
    }
  }
  return "";
}

int Run(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Args a;
  std::string error;
  std::vector<int> counts, neighbours, bytes;
  int64_t edges = 0;
  double volume = 0;
  if (!ParseArgs(argc, argv, a, error)) {
    // Every rank parses the same arguments and takes this branch.
    if (rank == 0) std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  if (rank == 0)
    error = Load(a, size, counts, neighbours, bytes, edges, volume);
  int failed = error.empty() ? 0 : 1;
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (failed) {
    if (rank == 0) std::fprintf(stderr, "replay: %s\n", error.c_str());
    return 2;
  }
  // Each rank's neighbours and sizes.
  int mine = 0;
  MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> displs;
  if (rank == 0) {
    displs.assign(size, 0);
    for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  }
  std::vector<int> peer(mine), size_of(mine);
  MPI_Scatterv(neighbours.data(), counts.data(), displs.data(), MPI_INT,
               peer.data(), mine, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatterv(bytes.data(), counts.data(), displs.data(), MPI_INT,
               size_of.data(), mine, MPI_INT, 0, MPI_COMM_WORLD);
  // One send buffer (read by every send) and one receive region per
  // neighbour.
  size_t largest = 0, total = 0;
  for (int s : size_of) {
    largest = std::max(largest, static_cast<size_t>(s));
    total += static_cast<size_t>(s);
  }
  char* send = static_cast<char*>(Allocate(largest));
  char* recv = static_cast<char*>(Allocate(total));
  std::vector<MPI_Request> requests(2 * static_cast<size_t>(mine));
  MPI_Barrier(MPI_COMM_WORLD);
  double start = 0;
  for (int64_t it = -1; it < a.iterations; ++it) {
    if (it == 0) start = MPI_Wtime();
    size_t offset = 0;
    for (int k = 0; k < mine; ++k) {
      MPI_Irecv(recv + offset, size_of[k], MPI_BYTE, peer[k], 0, MPI_COMM_WORLD,
                &requests[k]);
      offset += static_cast<size_t>(size_of[k]);
    }
    for (int k = 0; k < mine; ++k) {
      MPI_Isend(send, size_of[k], MPI_BYTE, peer[k], 0, MPI_COMM_WORLD,
                &requests[mine + k]);
    }
    MPI_Waitall(2 * mine, requests.data(), MPI_STATUSES_IGNORE);
  }
  const double elapsed = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf(
        "replay: %d processes, %lld edges, %lld iterations, %.0f bytes per "
        "iteration\n",
        size, static_cast<long long>(edges),
        static_cast<long long>(a.iterations), volume);
    std::printf("time per iteration: %.9e s\n",
                slowest / static_cast<double>(a.iterations));
    std::fflush(stdout);
  }
  Release(send);
  Release(recv);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rc = Run(argc, argv);
  MPI_Finalize();
  return rc;
}
