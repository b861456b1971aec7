// replay: performs the traffic of a communication graph, so that any graph
// rankmap reads (a profiled application's .mat, a front end's .grf, ...) can
// be run on a real or simulated machine under any mapping.
//
//   smpirun -np N -platform p.xml -hostfile h ./replay_smpi.so g.grf
//       --iterations=10
//   mpirun -np N ./replay_mpi app.mat --messages=app.msgs.mat --iterations=10
//
// Rank r is vertex r of the graph (N must equal the number of vertices). The
// message counts are read as graphs::ReadTraffic reads them: --messages=FILE
// (any graph format, --messages-format=F), --messages=none, or by default the
// file beside the graph (app.msgs.mat beside app.mat or app.grf) when there
// is one. An iteration sends what sim/message_plan.h says: with counts, each
// pair's recorded number of messages of its recorded mean size, in exchange
// rounds (in every round a rank posts non-blocking receives and sends for the
// neighbours that have a message in that round, then waits for them); without
// counts, TreeMatch's pattern program: every rank posts a non-blocking
// receive from and a non-blocking send to each neighbour, round(w / 2) bytes
// each way for an edge of weight w, then waits for all of them. Rank 0 reads
// the graph and sends every rank its neighbours, sizes and counts. After a
// barrier, one untimed iteration lets the ranks settle into the skew the
// exchange itself imposes (a barrier releases ranks at different times); then
// the timed iterations run, and the time is the largest over ranks, printed by
// rank 0:
//
//   replay: 64 processes, 192 edges, 10 iterations, 3145728 bytes per
//   iteration[, 12000 messages in 1000 rounds per iteration][, message
//   counts divided by 8]
//   time per iteration: 1.234567890e-04 s
//
// --divide=D replays a 1/D share of each pair's traffic per iteration
// (sim/message_plan.h) and prints D times its time: the time of a whole
// iteration, with D times less to simulate.
//
// Under SMPI the buffers are SMPI_SHARED_MALLOC'ed (the content does not
// matter, the simulated memory does not grow with the ranks) and the program
// keeps no mutable globals (smpirun --cfg=smpi/privatization:no). Errors
// (unreadable graph or counts, wrong process count, messages above 2^31 - 1
// bytes, more messages than the bounds of sim/message_plan.h) are printed by
// rank 0; every rank exits with status 2.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "graphs/graphs.h"
#include "graphs/traffic.h"
#include "sim/message_plan.h"

namespace {

struct Args {
  std::string graph;
  std::string format = "auto";
  std::string messages;  // "", "none" or a file (graphs::TrafficOptions)
  std::string messages_format = "auto";
  int64_t iterations = 10;
  int64_t divide = 1;
};

constexpr char kUsage[] =
    "usage: replay GRAPH [--iterations=K] [--format=F] "
    "[--messages=FILE|none] [--messages-format=F] [--divide=D]";

bool ParseArgs(int argc, char** argv, Args& a, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--iterations=", 0) == 0) {
      if (!absl::SimpleAtoi(arg.substr(13), &a.iterations) ||
          a.iterations < 1 || a.iterations > 1000000) {
        error = "replay: --iterations: expected an integer in [1, 1000000]";
        return false;
      }
    } else if (arg.rfind("--divide=", 0) == 0) {
      if (!absl::SimpleAtoi(arg.substr(9), &a.divide) || a.divide < 1) {
        error = "replay: --divide: expected an integer >= 1";
        return false;
      }
    } else if (arg.rfind("--format=", 0) == 0) {
      a.format = arg.substr(9);
    } else if (arg.rfind("--messages=", 0) == 0) {
      a.messages = arg.substr(11);
    } else if (arg.rfind("--messages-format=", 0) == 0) {
      a.messages_format = arg.substr(18);
    } else if (arg.rfind("--", 0) == 0 || !a.graph.empty()) {
      error = "replay: unexpected argument '" + arg + "' (" + kUsage + ")";
      return false;
    } else {
      a.graph = arg;
    }
  }
  if (a.graph.empty()) {
    error = std::string("replay: missing graph file (") + kUsage + ")";
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

// What rank 0 reads and scatters: per rank, its neighbours, message sizes and
// (with counts) each pair's messages, as CSR over ranks.
struct Traffic {
  std::vector<int> degree, neighbours, bytes, totals;
  int64_t edges = 0;
  rankmap::sim::MessagePlan plan;
};

// Rank 0: reads the graph and its counts. Returns an error message or "".
std::string Load(const Args& a, int size, Traffic& t) {
  rankmap::graphs::TrafficOptions options;
  auto format = rankmap::graphs::ParseGraphFormat(a.format);
  if (!format.ok()) return std::string(format.status().message());
  auto messages_format = rankmap::graphs::ParseGraphFormat(a.messages_format);
  if (!messages_format.ok())
    return std::string(messages_format.status().message());
  options.format = *format;
  options.messages = a.messages;
  options.messages_format = *messages_format;
  auto traffic = rankmap::graphs::ReadTraffic(a.graph, options);
  if (!traffic.ok()) return std::string(traffic.status().message());
  const rankmap::graphs::CommGraph& g = traffic->graph;
  if (g.num_vertices() != size) {
    return a.graph + ": " + std::to_string(g.num_vertices()) +
           " processes in the graph, " + std::to_string(size) + " MPI ranks";
  }
  auto plan = rankmap::sim::PlanMessages(g, a.graph, a.divide);
  if (!plan.ok()) return std::string(plan.status().message());
  auto work = rankmap::sim::CheckReplayWork(plan->messages, a.iterations);
  if (!work.ok()) return std::string(work.message());
  t.plan = *std::move(plan);
  t.edges = g.num_edges();
  t.degree.assign(size, 0);
  for (int v = 0; v < size; ++v) t.degree[v] = g.degree(v);
  t.neighbours.assign(g.adjncy().begin(), g.adjncy().end());
  t.bytes.assign(t.plan.size.begin(), t.plan.size.end());
  if (t.plan.from_counts)
    t.totals.assign(t.plan.total.begin(), t.plan.total.end());
  return "";
}

// Scatters rank 0's CSR arrays: every rank gets its `mine` entries.
void ScatterRows(const std::vector<int>& all, const std::vector<int>& degree,
                 const std::vector<int>& displs, std::vector<int>& mine) {
  MPI_Scatterv(all.data(), degree.data(), displs.data(), MPI_INT, mine.data(),
               static_cast<int>(mine.size()), MPI_INT, 0, MPI_COMM_WORLD);
}

// One iteration: the rounds of `walker`, each posting its receives (one
// region per neighbour), then its sends, then waiting for them.
void Iterate(rankmap::sim::RoundWalker& walker, const std::vector<int>& peer,
             const std::vector<int>& size_of, const std::vector<size_t>& offset,
             char* send, char* recv, std::vector<MPI_Request>& requests) {
  int32_t round = 0;
  std::vector<int32_t> receives, sends;
  walker.Restart();
  while (walker.Next(&round, &receives, &sends)) {
    int n = 0;
    for (int32_t k : receives) {
      MPI_Irecv(recv + offset[k], size_of[k], MPI_BYTE, peer[k], 0,
                MPI_COMM_WORLD, &requests[n++]);
    }
    for (int32_t k : sends) {
      MPI_Isend(send, size_of[k], MPI_BYTE, peer[k], 0, MPI_COMM_WORLD,
                &requests[n++]);
    }
    MPI_Waitall(n, requests.data(), MPI_STATUSES_IGNORE);
  }
}

int Run(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Args a;
  std::string error;
  Traffic t;
  if (!ParseArgs(argc, argv, a, error)) {
    // Every rank parses the same arguments and takes this branch.
    if (rank == 0) std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  if (rank == 0) error = Load(a, size, t);
  // 0: replay without counts, 1: failed, 2: with counts (then R follows).
  int state = !error.empty() ? 1 : t.plan.from_counts ? 2 : 0;
  MPI_Bcast(&state, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (state == 1) {
    if (rank == 0) std::fprintf(stderr, "replay: %s\n", error.c_str());
    return 2;
  }
  int rounds = t.plan.rounds;
  if (state == 2) MPI_Bcast(&rounds, 1, MPI_INT, 0, MPI_COMM_WORLD);
  // Each rank's neighbours, sizes and pair totals.
  int mine = 0;
  MPI_Scatter(t.degree.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0,
              MPI_COMM_WORLD);
  std::vector<int> displs;
  if (rank == 0) {
    displs.assign(size, 0);
    for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + t.degree[r - 1];
  }
  std::vector<int> peer(mine), size_of(mine), total(mine, 2);
  ScatterRows(t.neighbours, t.degree, displs, peer);
  ScatterRows(t.bytes, t.degree, displs, size_of);
  if (state == 2) ScatterRows(t.totals, t.degree, displs, total);
  std::vector<int32_t> recv_count(mine), send_count(mine);
  for (int k = 0; k < mine; ++k) {
    recv_count[k] = static_cast<int32_t>(
        rankmap::sim::DirectedCount(peer[k], rank, total[k]));
    send_count[k] = static_cast<int32_t>(
        rankmap::sim::DirectedCount(rank, peer[k], total[k]));
  }
  rankmap::sim::RoundWalker walker(recv_count, send_count, rounds);
  // One send buffer (read by every send) and one receive region per
  // neighbour (a round has at most one message from each).
  size_t largest = 0, all = 0;
  std::vector<size_t> offset(mine);
  for (int k = 0; k < mine; ++k) {
    offset[k] = all;
    largest = std::max(largest, static_cast<size_t>(size_of[k]));
    all += static_cast<size_t>(size_of[k]);
  }
  char* send = static_cast<char*>(Allocate(largest));
  char* recv = static_cast<char*>(Allocate(all));
  std::vector<MPI_Request> requests(2 * static_cast<size_t>(mine));
  MPI_Barrier(MPI_COMM_WORLD);
  double start = 0;
  for (int64_t it = -1; it < a.iterations; ++it) {
    if (it == 0) start = MPI_Wtime();
    Iterate(walker, peer, size_of, offset, send, recv, requests);
  }
  const double elapsed = MPI_Wtime() - start;
  double slowest = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf(
        "replay: %d processes, %lld edges, %lld iterations, %.0f bytes per "
        "iteration",
        size, static_cast<long long>(t.edges),
        static_cast<long long>(a.iterations), t.plan.bytes);
    if (t.plan.from_counts) {
      std::printf(", %lld messages in %d rounds per iteration",
                  static_cast<long long>(t.plan.messages), t.plan.rounds);
    }
    if (t.plan.divisor > 1) {
      std::printf(", message counts divided by %lld",
                  static_cast<long long>(t.plan.divisor));
    }
    std::printf("\ntime per iteration: %.9e s\n",
                slowest * static_cast<double>(t.plan.divisor) /
                    static_cast<double>(a.iterations));
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
