// Multi-rank checks of Reorder / rankmap_mpi_reorder*, run by
// reorder_mpi_test.sh under mpirun.
//
//   reorder_mpi_test_main permutation ALGORITHM ARITIES COSTS   e.g. random
//   2,2,2 100,10,1 reorder_mpi_test_main errors
//
// `permutation` expects RANKMAP_TOPOLOGY to describe the same tree as
// ARITIES/COSTS (a tleaf: ARITIES top-down, COSTS the links below each
// level): rank 0 checks that the new ranks are a permutation and recomputes,
// from ARITIES and COSTS alone, the J of the launch and of the placement the
// new ranks make; both must equal the costs Reorder reports. Every API
// (C++, C dense, C CSR) must give the same new rank. Exit status 0 on success
// on every rank.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "base/cpu_list.h"
#include "core/mapper.h"
#include "mpi_bindings/rankmap_mpi.h"
#include "mpi_bindings/reorder.h"
#include "tests/factories.h"
#include "topology/binding.h"

namespace rankmap::mpi_bindings {
namespace {

int me = 0, n = 0;
int failures = 0;

void Check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED %s\n", me, what.c_str());
  }
}

// A fixed graph every rank builds alike: random partners plus a heavy ring.
graphs::CommGraph KnownGraph(int size) {
  graphs::CommGraphBuilder b(size);
  graphs::CommGraph r = testing::MakeRandomGraph(size, size > 2 ? 2 : 1, 3);
  for (int u = 0; u < size; ++u) {
    for (size_t k = 0; k < r.neighbors(u).size(); ++k) {
      (void)b.AddEdge(u, r.neighbors(u)[k], r.weights(u)[k]);
    }
    (void)b.AddEdge(u, (u + 3) % size, 1000.0 * (1 + u % 3));
  }
  return std::move(b).Build().value();
}

std::vector<int64_t> ParseInts(const std::string& s) {
  std::vector<int64_t> v;
  for (absl::string_view part : absl::StrSplit(s, ',')) {
    int64_t x = 0;
    if (!absl::SimpleAtoi(part, &x)) std::abort();
    v.push_back(x);
  }
  return v;
}

int Permutation(const std::string& algorithm, const std::string& arities,
                const std::string& costs) {
  graphs::CommGraph graph = KnownGraph(n);
  ReorderOptions options;
  options.mapping.algorithm = core::ParseAlgorithm(algorithm).value();
  options.mapping.seed = 42;
  ReorderOutcome out = ReorderDetailed(MPI_COMM_WORLD, graph, options);
  Check(out.status.ok(), "reorder: " + std::string(out.status.message()));
  int new_rank = -1;
  MPI_Comm_rank(out.comm, &new_rank);
  Check(new_rank == out.new_rank[me],
        "communicator rank equals the broadcast permutation");

  // The reordered communicator works: the sum of old ranks seen in new-rank
  // order.
  int sum = 0;
  MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, out.comm);
  Check(sum == n * (n - 1) / 2, "allreduce over the reordered communicator");

  // Same through the C API with the dense matrix.
  std::vector<double> dense(static_cast<size_t>(n) * n, 0.0);
  for (int u = 0; u < n; ++u) {
    for (size_t k = 0; k < graph.neighbors(u).size(); ++k) {
      // Each undirected weight split over both directions: the builder sums
      // them back.
      dense[static_cast<size_t>(u) * n + graph.neighbors(u)[k]] =
          graph.weights(u)[k] / 2;
    }
  }
  rankmap_mpi_options c;
  rankmap_mpi_options_init(&c);
  c.algorithm = algorithm.c_str();
  c.seed = 42;
  MPI_Comm c_comm;
  int code =
      rankmap_mpi_reorder_dense(MPI_COMM_WORLD, n, dense.data(), &c, &c_comm);
  Check(code == RANKMAP_SUCCESS,
        std::string("C API: ") + rankmap_mpi_error_string());
  int c_rank = -1;
  MPI_Comm_rank(c_comm, &c_rank);
  Check(c_rank == new_rank, "C API gives the same new rank");
  MPI_Comm_free(&c_comm);

  // And through the C API with CSR arrays (each arc carries half its edge's
  // volume).
  std::vector<int64_t> xadj(graph.xadj().begin(), graph.xadj().end());
  std::vector<int32_t> adjncy(graph.adjncy().begin(), graph.adjncy().end());
  std::vector<double> half(graph.adjwgt().begin(), graph.adjwgt().end());
  for (double& w : half) w /= 2;
  code = rankmap_mpi_reorder(MPI_COMM_WORLD, n, xadj.data(), adjncy.data(),
                             half.data(), &c, &c_comm);
  Check(code == RANKMAP_SUCCESS,
        std::string("C CSR API: ") + rankmap_mpi_error_string());
  MPI_Comm_rank(c_comm, &c_rank);
  Check(c_rank == new_rank, "C CSR API gives the same new rank");
  MPI_Comm_free(&c_comm);

  std::vector<int> all(n);
  MPI_Gather(&new_rank, 1, MPI_INT, all.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (me == 0) {
    // Independent recomputation: the job occupies the first n leaves (packed),
    // one each, so old rank r sits on leaf r and the engine's mapping is the
    // inverse of the new ranks: process p (new rank p) runs on leaf m[p],
    // all[m[p]] = p. J is recomputed here from the arities and link costs, by
    // mixed-radix digits, without the engine or topology/.
    std::vector<int> m(n, -1);
    for (int r = 0; r < n; ++r) {
      if (all[r] >= 0 && all[r] < n && m[all[r]] < 0) m[all[r]] = r;
    }
    Check(std::find(m.begin(), m.end(), -1) == m.end(),
          "new ranks are a permutation of 0..n-1");
    const std::vector<int64_t> a = ParseInts(arities);
    const std::vector<int64_t> c = ParseInts(costs);
    // Distance of leaves x and y: the link costs from the depth where their
    // digits first differ down to the leaves.
    auto distance = [&](int64_t x, int64_t y) {
      std::vector<int64_t> dx(a.size()), dy(a.size());
      for (size_t i = a.size(); i-- > 0;) {
        dx[i] = x % a[i];
        dy[i] = y % a[i];
        x /= a[i];
        y /= a[i];
      }
      size_t d = 0;
      while (d < a.size() && dx[d] == dy[d]) ++d;
      double sum = 0;
      for (size_t i = d; i < a.size(); ++i) sum += static_cast<double>(c[i]);
      return sum;
    };
    double before = 0, after = 0;
    for (int u = 0; u < n; ++u) {
      for (size_t k = 0; k < graph.neighbors(u).size(); ++k) {
        const int v = graph.neighbors(u)[k];
        if (v <= u) continue;  // each edge once
        before += graph.weights(u)[k] * distance(u, v);
        if (m[u] >= 0 && m[v] >= 0) {
          after += graph.weights(u)[k] * distance(m[u], m[v]);
        }
      }
    }
    auto near = [](double x, double y) {
      return std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(y));
    };
    Check(near(out.cost_before, before),
          "reported cost before (J of the launch)");
    Check(near(out.cost_after, after),
          "reported cost after (J of the new ranks' placement)");
    std::string perm;
    for (int q = 0; q < n; ++q)
      perm += std::to_string(all[q]) + (q + 1 < n ? "," : "");
    std::printf("permutation %s n=%d new_rank=[%s] J %.0f -> %.0f\n",
                algorithm.c_str(), n, perm.c_str(), before, after);
  }
  MPI_Comm_free(&out.comm);
  return 0;
}

// No override: the tree comes from hwloc (this machine, the PUs the ranks may
// use) and the engine runs with its defaults; with PU re-binding every process
// ends on one PU, the one of its slot, and slots are spread over the allowed
// PUs.
int Hwloc() {
  graphs::CommGraph graph = KnownGraph(n);
  ReorderOptions options;
  options.read_environment = false;
  options.rebind = Rebind::kPu;
  const int allowed =
      static_cast<int>(topology::CurrentBindingPus().value().size());
  ReorderOutcome out = ReorderDetailed(MPI_COMM_WORLD, graph, options);
  Check(out.status.ok(), "hwloc reorder: " + std::string(out.status.message()));
  int new_rank = -1;
  MPI_Comm_rank(out.comm, &new_rank);
  Check(new_rank == out.new_rank[me],
        "communicator rank equals the permutation");
  std::vector<int32_t> sorted = out.new_rank;
  std::sort(sorted.begin(), sorted.end());
  for (int q = 0; q < n; ++q) Check(sorted[q] == q, "permutation");
  Check(out.cost_after <= out.cost_before || n <= 2,
        "engine does not worsen J");
  absl::StatusOr<std::vector<int32_t>> pus = topology::CurrentBindingPus();
  Check(pus.ok() && pus->size() == 1,
        "bound to exactly one PU after re-binding");
  int pu = pus.ok() && !pus->empty() ? pus->front() : -1;
  std::vector<int> all(n);
  MPI_Gather(&pu, 1, MPI_INT, all.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (me == 0) {
    std::sort(all.begin(), all.end());
    const int distinct =
        static_cast<int>(std::unique(all.begin(), all.end()) - all.begin());
    std::printf("hwloc n=%d J %.0f -> %.0f, %d distinct PUs\n", n,
                out.cost_before, out.cost_after, distinct);
    Check(distinct == std::min(n, allowed), "processes spread over the PUs");
  }
  MPI_Comm_free(&out.comm);
  return 0;
}

// Re-binding with memory: each process's CPU is its slot's PU and its memory
// policy binds it to that PU's NUMA node, as hwloc reads them back; the
// outcome says so (or, where the OS refuses memory policies, says why not).
int HwlocMemory() {
  graphs::CommGraph graph = KnownGraph(n);
  ReorderOptions options;
  options.read_environment = false;
  options.rebind = Rebind::kPu;
  options.bind_memory = true;
  ReorderOutcome out = ReorderDetailed(MPI_COMM_WORLD, graph, options);
  Check(out.status.ok(), "memory rebind: " + std::string(out.status.message()));
  absl::StatusOr<std::vector<int32_t>> pus = topology::CurrentBindingPus();
  Check(pus.ok() && pus->size() == 1, "bound to one PU");
  const std::string cpus = "cpus " + std::to_string(pus->front()) + " ";
  Check(out.binding.rfind(cpus, 0) == 0,
        "binding names the PU: " + out.binding);
  absl::StatusOr<topology::MemoryBinding> mem =
      topology::CurrentMemoryBinding();
  Check(mem.ok(), "memory binding readable");
  if (out.binding.find("memory numa") != std::string::npos) {
    Check(mem->policy == "bind", "policy bind, got " + mem->policy);
    Check(out.binding.find("memory numa " +
                           base::FormatCpuList(mem->numa_nodes)) !=
              std::string::npos,
          "reported nodes are the bound ones: " + out.binding);
  } else {
    Check(out.binding.find("memory not bound: ") != std::string::npos,
          "a refusal says why: " + out.binding);
  }
  if (me == 0) std::printf("hwloc-memory n=%d %s\n", n, out.binding.c_str());
  MPI_Comm_free(&out.comm);
  return 0;
}

// An error returned on every rank with the same text, and an identity
// duplicate.
void ExpectAgreedError(const ReorderOutcome& out,
                       const std::string& must_contain,
                       const std::string& what) {
  const std::string msg(out.status.message());
  Check(!out.status.ok(), what + ": expected an error");
  Check(msg.find(must_contain) != std::string::npos,
        what + ": message '" + msg + "'");
  int len = static_cast<int>(msg.size()), max_len = 0, min_len = 0;
  MPI_Allreduce(&len, &max_len, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&len, &min_len, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  Check(max_len == min_len, what + ": same message on every rank");
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(out.comm, MPI_COMM_WORLD, &result);
  Check(result == MPI_CONGRUENT, what + ": identity-order duplicate");
}

int Errors() {
  ReorderOptions options;
  options.mapping.algorithm = core::Algorithm::kRoundRobin;
  const int odd_one = n > 1 ? 1 : 0;

  // A graph of the wrong size on one rank.
  graphs::CommGraph good = KnownGraph(n);
  graphs::CommGraph small = testing::MakeGrid2D(1, n + 1);
  ReorderOutcome out =
      ReorderDetailed(MPI_COMM_WORLD, me == odd_one ? small : good, options);
  ExpectAgreedError(out,
                    "rank " + std::to_string(odd_one) + ": graph has " +
                        std::to_string(n + 1) +
                        " vertices but the communicator has " +
                        std::to_string(n),
                    "size mismatch");
  MPI_Comm_free(&out.comm);

  // A different graph (same size) on the last rank.
  if (n > 1) {
    graphs::CommGraph other = testing::MakeGrid2D(1, n, 7.0);
    out = ReorderDetailed(MPI_COMM_WORLD, me == n - 1 ? other : good, options);
    ExpectAgreedError(out, "rank " + std::to_string(n - 1) + ": graph differs",
                      "other graph");
    MPI_Comm_free(&out.comm);
  }

  // The same edges with two weights traded on the last rank: a sum of the
  // weights agrees, the SHA-256 of the arrays does not.
  if (n > 2) {
    graphs::CommGraphBuilder b(n), same(n);
    for (int u = 0; u < n; ++u) {
      const double w =
          me == n - 1 && u < 2 ? 1000.0 * (2 - u) : 1000.0 * (1 + u);
      (void)b.AddEdge(u, (u + 1) % n, w);
      (void)same.AddEdge(u, (u + 1) % n, 1000.0 * (1 + u));
    }
    graphs::CommGraph traded = std::move(b).Build().value();
    graphs::CommGraph ring = std::move(same).Build().value();
    Check(traded.TotalVolume() == ring.TotalVolume(), "same total volume");
    out = ReorderDetailed(MPI_COMM_WORLD, me == n - 1 ? traded : ring, options);
    ExpectAgreedError(out, "rank " + std::to_string(n - 1) + ": graph differs",
                      "traded weights");
    MPI_Comm_free(&out.comm);
  }

  // Options: every rank's count, not only rank 0's.
  if (n > 1) {
    ReorderOptions other = options;
    if (me == odd_one) other.mapping.seed = 7;
    out = ReorderDetailed(MPI_COMM_WORLD, good, other);
    ExpectAgreedError(out,
                      "rank " + std::to_string(odd_one) +
                          ": options differ from rank 0's: seed is 7 here but "
                          "1 on rank 0",
                      "other seed");
    MPI_Comm_free(&out.comm);
    other = options;
    if (me == odd_one) other.topology = "tleaf 1 64 1";
    out = ReorderDetailed(MPI_COMM_WORLD, good, other);
    ExpectAgreedError(out, "options differ from rank 0's: topology is",
                      "other topology");
    MPI_Comm_free(&out.comm);
    other = options;
    if (me == odd_one) other.mapping.imbalance = -1;
    out = ReorderFromEdges(
        MPI_COMM_WORLD, std::vector<LocalEdge>{{me, (me + 1) % n, 1.0}}, other);
    ExpectAgreedError(
        out,
        "rank " + std::to_string(odd_one) + ": map: option imbalance is -1",
        "bad imbalance");
    MPI_Comm_free(&out.comm);
  }

  // A topology too small for the job: found on rank 0, reported everywhere.
  options.topology = "tleaf 1 1 1";
  out = ReorderDetailed(MPI_COMM_WORLD, good, options);
  if (n > 1) {
    ExpectAgreedError(out, "has 1 slots but the job has", "small topology");
  } else {
    Check(out.status.ok(), "one process fits one slot");
  }
  MPI_Comm_free(&out.comm);

  // The StatusOr front door reports the same error and creates nothing.
  absl::StatusOr<MPI_Comm> c =
      Reorder(MPI_COMM_WORLD, me == odd_one ? small : good, {});
  Check(!c.ok(), "Reorder returns the error");

  // C API: a negative weight on rank 0, an unknown algorithm on the last rank.
  std::vector<double> dense(static_cast<size_t>(n) * n, 1.0);
  if (me == 0 && n > 1) dense[1] = -5.0;
  rankmap_mpi_options copt;
  rankmap_mpi_options_init(&copt);
  copt.algorithm = "round-robin";
  MPI_Comm reordered;
  int code = rankmap_mpi_reorder_dense(MPI_COMM_WORLD, n, dense.data(), &copt,
                                       &reordered);
  if (n > 1) {
    Check(code == RANKMAP_ERR_INVALID_ARGUMENT, "C API negative weight code");
    Check(std::string(rankmap_mpi_error_string()).find("rank 0:") == 0,
          std::string("C API message: ") + rankmap_mpi_error_string());
  }
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(reordered, MPI_COMM_WORLD, &result);
  Check(result == MPI_CONGRUENT, "C API identity duplicate");
  MPI_Comm_free(&reordered);
  dense.assign(dense.size(), 1.0);
  if (me == n - 1) copt.algorithm = "no-such-algorithm";
  code = rankmap_mpi_reorder_dense(MPI_COMM_WORLD, n, dense.data(), &copt,
                                   &reordered);
  Check(code == RANKMAP_ERR_INVALID_ARGUMENT, "C API unknown algorithm code");
  Check(std::string(rankmap_mpi_error_string()).find("unknown algorithm") !=
            std::string::npos,
        std::string("C API message: ") + rankmap_mpi_error_string());
  MPI_Comm_free(&reordered);

  // Bad edges on one rank through the distributed variant.
  std::vector<LocalEdge> edges = {{me, (me + 1) % n, 10.0}};
  if (me == odd_one) edges.push_back({me, n + 5, 1.0});
  out = ReorderFromEdges(MPI_COMM_WORLD, edges, options);
  ExpectAgreedError(out, "rank " + std::to_string(odd_one) + ": bad edge",
                    "bad edge");
  MPI_Comm_free(&out.comm);
  if (me == 0) std::printf("errors n=%d checked\n", n);
  return 0;
}

// RANKMAP_TOPOLOGY names a file that crashes hwloc 2.9 (an object without its
// complete_cpuset): every rank gets the error, none dies.
int BadTopology(const std::string& expected) {
  ReorderOptions options;
  ReorderOutcome out = ReorderDetailed(MPI_COMM_WORLD, KnownGraph(n), options);
  ExpectAgreedError(out, expected, "malformed XML topology");
  MPI_Comm_free(&out.comm);
  if (me == 0)
    std::printf("bad topology n=%d: %s\n", n,
                std::string(out.status.message()).c_str());
  return 0;
}

// RANKMAP_TOPOLOGY: a network spec of 2 nodes x 2 cores whose second node is
// 4x faster; the override puts rank r on slot r. Vertices 0 and 1 were given
// work for speed 4, so the two processes on the fast node (old ranks 2 and 3)
// must get new ranks 0 and 1; without speeds identity keeps them on 2 and 3.
int Speeds() {
  if (n != 4) {
    Check(false, "speeds: run with 4 processes");
    return 1;
  }
  ReorderOptions options;
  options.mapping.algorithm = core::Algorithm::kIdentity;
  const graphs::CommGraph g = KnownGraph(n);
  ReorderOutcome plain = ReorderDetailed(MPI_COMM_WORLD, g, options);
  Check(plain.status.ok(), "speeds: plain: " + plain.status.ToString());
  Check(plain.new_rank == std::vector<int32_t>{0, 1, 2, 3},
        "speeds: identity without speeds");
  MPI_Comm_free(&plain.comm);

  options.process_speed = {4, 4, 1, 1};
  ReorderOutcome fast = ReorderDetailed(MPI_COMM_WORLD, g, options);
  Check(fast.status.ok(), "speeds: " + fast.status.ToString());
  Check(fast.new_rank[2] < 2 && fast.new_rank[3] < 2,
        "speeds: the fast node's processes get new ranks 0 and 1");
  int new_me = -1;
  MPI_Comm_rank(fast.comm, &new_me);
  Check(new_me == fast.new_rank[me], "speeds: communicator follows new_rank");
  MPI_Comm_free(&fast.comm);

  options.process_speed = {4, 4, 4, 1};
  ExpectAgreedError(ReorderDetailed(MPI_COMM_WORLD, g, options),
                    "3 processes need speed 4 but the topology has 2 slots",
                    "speeds: too many fast");
  options.process_speed = me == 1 ? std::vector<double>{1, 1, 4, 4}
                                  : std::vector<double>{4, 4, 1, 1};
  ExpectAgreedError(ReorderDetailed(MPI_COMM_WORLD, g, options),
                    "rank 1: options differ from rank 0's: process_speed",
                    "speeds: ranks disagree");
  return 0;
}

}  // namespace
}  // namespace rankmap::mpi_bindings

int main(int argc, char** argv) {
  using namespace rankmap::mpi_bindings;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "permutation" && argc == 5) {
    Permutation(argv[2], argv[3], argv[4]);
  } else if (mode == "hwloc") {
    Hwloc();
  } else if (mode == "hwloc-memory") {
    HwlocMemory();
  } else if (mode == "errors") {
    Errors();
  } else if (mode == "speeds") {
    Speeds();
  } else if (mode == "bad-topology" && argc == 3) {
    BadTopology(argv[2]);
  } else {
    if (me == 0)
      std::fprintf(stderr, "usage: %s permutation ALG ARITIES COSTS | errors\n",
                   argv[0]);
    ++failures;
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
