// mesh_halo: the halo exchange of an unstructured-mesh code. The mesh (any
// graph rankmap reads; METIS .graph files are meshes) is partitioned by a
// partition file in METIS's format (line i: the part of vertex i - 1), and
// rank r owns part r, numbered as the partitioner numbered it. Every
// iteration each rank sends each neighbouring part the values (doubles) of
// its vertices adjacent to that part (graphs/frontends/mesh_halo.h), then
// updates its vertices.
//
//   mpirun -np 64 ./mesh_halo_mpi 4elt.graph 4elt.graph.part.64 --iterations=10
//   mesh_halo: 15606 vertices, 64 parts, 211 neighbour pairs, 10 iterations
//   time per iteration: 1.234567890e-04 s
//
// Rank 0 reads the files, computes the halo and sends every rank its
// neighbours, its send and receive counts and, with a real MPI, the vertex
// ids. A vertex carries --values-per-vertex doubles (1 by default). With a real
// MPI a value is a function of the vertex and the iteration,
// and every receiver checks each value it gets against its vertex id (a
// wrong halo list fails the run: "halo check failed"). Under SMPI the buffers
// are shared allocations and the update is --flops-per-vertex floating-point
// operations per owned vertex at the host's speed.
//
// As the steps of an iterative solver (CG: a sparse matrix-vector product,
// whose halo exchange is one message per neighbour each way, and two dot
// products): --exchanges=S runs S such steps per iteration, each an exchange,
// the update, then --allreduces=A MPI_Allreduce of one double (with a real
// MPI, each checked against the sum every rank contributes). A latency-bound
// code: many small messages per neighbour pair per iteration.
//
//   mesh_halo copter2.graph copter2.part.256 --exchanges=50 --allreduces=2
#include "graphs/frontends/mesh_halo.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "graphs/graphs.h"
#include "sim/program.h"

namespace rankmap::sim {
namespace {

struct Args {
  std::string mesh, parts;
  int64_t iterations = 10;
  double flops_per_vertex = 20;  // per exchange
  int values_per_vertex = 1;     // doubles per vertex (e.g. 5 for a CFD state)
  int exchanges = 1;             // solver steps per iteration
  int allreduces = 0;            // MPI_Allreduce of a double after each step
};

bool ParseArgs(int argc, char** argv, Args& a, std::string& error) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    bool ok = true;
    if (arg.rfind("--iterations=", 0) == 0) {
      ok = absl::SimpleAtoi(arg.substr(13), &a.iterations) &&
           a.iterations >= 1 && a.iterations <= 1000000;
    } else if (arg.rfind("--values-per-vertex=", 0) == 0) {
      ok = absl::SimpleAtoi(arg.substr(20), &a.values_per_vertex) &&
           a.values_per_vertex >= 1 && a.values_per_vertex <= 1024;
    } else if (arg.rfind("--exchanges=", 0) == 0) {
      ok = absl::SimpleAtoi(arg.substr(12), &a.exchanges) && a.exchanges >= 1 &&
           a.exchanges <= 100000;
    } else if (arg.rfind("--allreduces=", 0) == 0) {
      ok = absl::SimpleAtoi(arg.substr(13), &a.allreduces) &&
           a.allreduces >= 0 && a.allreduces <= 1000;
    } else if (arg.rfind("--flops-per-vertex=", 0) == 0) {
      ok = absl::SimpleAtod(arg.substr(19), &a.flops_per_vertex) &&
           a.flops_per_vertex >= 0;
    } else if (arg.rfind("--", 0) == 0) {
      ok = false;
    } else {
      files.push_back(arg);
    }
    if (!ok) {
      error = "mesh_halo: bad argument '" + arg + "'";
      return false;
    }
  }
  if (files.size() != 2) {
    error =
        "mesh_halo: usage: mesh_halo MESH PARTITION [--iterations=K] "
        "[--values-per-vertex=V] [--flops-per-vertex=F] [--exchanges=S] "
        "[--allreduces=A]";
    return false;
  }
  a.mesh = files[0];
  a.parts = files[1];
  return true;
}

// The value vertex v carries in iteration `it`.
double Value(int64_t v, int64_t it) {
  return static_cast<double>((v * 31 + it * 7) % 1000003);
}

// Per rank, packed: owned, number of neighbours k, then k triples (part,
// values sent, values received), then (real MPI only) the sent vertex ids of
// every neighbour in order, then the received ones.
std::string Pack(const rankmap::graphs::MeshHalo& halo, bool with_ids,
                 std::vector<std::vector<int32_t>>& out, int64_t& pairs) {
  const int32_t parts = halo.num_parts;
  // received[p]: (q, vertices of q that p receives), q increasing.
  std::vector<std::vector<std::pair<int32_t, const std::vector<int32_t>*>>>
      received(parts);
  for (int32_t q = 0; q < parts; ++q) {
    for (const auto& [p, vertices] : halo.sends[q])
      received[p].push_back({q, &vertices});
  }
  pairs = 0;
  out.assign(parts, {});
  for (int32_t p = 0; p < parts; ++p) {
    // Neighbours: the union of the parts p sends to and receives from.
    std::vector<int32_t> nbrs;
    for (const auto& s : halo.sends[p]) nbrs.push_back(s.first);
    for (const auto& r : received[p]) nbrs.push_back(r.first);
    std::sort(nbrs.begin(), nbrs.end());
    nbrs.erase(std::unique(nbrs.begin(), nbrs.end()), nbrs.end());
    pairs += static_cast<int64_t>(nbrs.size());
    std::vector<int32_t>& v = out[p];
    if (halo.owned[p] > INT32_MAX) return "a part above 2^31 - 1 vertices";
    v.push_back(static_cast<int32_t>(halo.owned[p]));
    v.push_back(static_cast<int32_t>(nbrs.size()));
    size_t si = 0, ri = 0;
    std::vector<const std::vector<int32_t>*> sent(nbrs.size()),
        got(nbrs.size());
    for (size_t k = 0; k < nbrs.size(); ++k) {
      const int32_t q = nbrs[k];
      sent[k] = si < halo.sends[p].size() && halo.sends[p][si].first == q
                    ? &halo.sends[p][si++].second
                    : nullptr;
      got[k] = ri < received[p].size() && received[p][ri].first == q
                   ? received[p][ri++].second
                   : nullptr;
      v.push_back(q);
      v.push_back(sent[k] ? static_cast<int32_t>(sent[k]->size()) : 0);
      v.push_back(got[k] ? static_cast<int32_t>(got[k]->size()) : 0);
    }
    if (!with_ids) continue;
    for (auto* list : sent) {
      if (list) v.insert(v.end(), list->begin(), list->end());
    }
    for (auto* list : got) {
      if (list) v.insert(v.end(), list->begin(), list->end());
    }
  }
  pairs /= 2;
  return "";
}

// One rank's side of the halo.
struct Halo {
  const std::vector<int>& peer;
  const std::vector<int>& send_count;
  const std::vector<int>& recv_count;
  const int32_t* send_ids;
  const int32_t* recv_ids;
  double* send;
  double* recv;
  size_t v;  // values per vertex
};

// One halo exchange: non-blocking receives from and sends to every
// neighbour, then a wait; with a real MPI (with_ids) the sent values are
// those of step `when` and the received ones are checked. Returns the number
// of wrong values.
int64_t Exchange(const Halo& h, int64_t when, bool with_ids,
                 std::vector<MPI_Request>& requests) {
  const double* send = h.send;
  const size_t v = h.v;
  const int32_t k = static_cast<int32_t>(h.peer.size());
  requests.clear();
  size_t so = 0, ro = 0, recv_total = 0;
  for (int32_t j = 0; j < k; ++j) {
    if (h.recv_count[j] > 0) {
      requests.emplace_back();
      MPI_Irecv(h.recv + ro * v, static_cast<int>(h.recv_count[j] * v),
                MPI_DOUBLE, h.peer[j], 0, MPI_COMM_WORLD, &requests.back());
    }
    ro += static_cast<size_t>(h.recv_count[j]);
  }
  recv_total = ro;
  for (int32_t j = 0; j < k; ++j) {
    if (h.send_count[j] > 0) {
      if (with_ids) {
        for (int i = 0; i < h.send_count[j]; ++i) {
          for (size_t c = 0; c < v; ++c)
            h.send[(so + i) * v + c] = Value(h.send_ids[so + i], when) + c;
        }
      }
      requests.emplace_back();
      MPI_Isend(send + so * v, static_cast<int>(h.send_count[j] * v),
                MPI_DOUBLE, h.peer[j], 0, MPI_COMM_WORLD, &requests.back());
    }
    so += static_cast<size_t>(h.send_count[j]);
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
              MPI_STATUSES_IGNORE);
  int64_t bad = 0;
  if (with_ids) {
    for (size_t i = 0; i < recv_total; ++i) {
      for (size_t c = 0; c < v; ++c)
        bad += h.recv[i * v + c] != Value(h.recv_ids[i], when) + c;
    }
  }
  return bad;
}

int Run(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef SMPI_SHARED_MALLOC
  const bool with_ids = false;
#else
  const bool with_ids = true;
#endif
  Args a;
  std::string error;
  if (!ParseArgs(argc, argv, a, error)) {
    if (rank == 0) std::fprintf(stderr, "%s\n", error.c_str());
    return 2;
  }
  std::vector<std::vector<int32_t>> packed;
  int64_t vertices = 0, pairs = 0;
  if (rank == 0) {
    auto mesh = rankmap::graphs::ReadGraphFile(a.mesh);
    if (!mesh.ok()) error = std::string(mesh.status().message());
    std::vector<int32_t> part;
    if (error.empty()) {
      vertices = mesh->num_vertices();
      auto p = rankmap::graphs::ReadPartitionFile(a.parts, vertices);
      if (!p.ok()) error = std::string(p.status().message());
      if (p.ok()) part = *std::move(p);
    }
    if (error.empty()) {
      int32_t most = -1;
      for (int32_t p : part) most = std::max(most, p);
      if (most + 1 != size) {
        error = a.parts + ": " + std::to_string(most + 1) + " parts, " +
                std::to_string(size) + " MPI ranks";
      }
    }
    if (error.empty()) {
      auto halo = rankmap::graphs::ComputeMeshHalo(*mesh, part, size);
      if (!halo.ok()) error = std::string(halo.status().message());
      if (halo.ok()) error = Pack(*halo, with_ids, packed, pairs);
    }
  }
  int failed = error.empty() ? 0 : 1;
  MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (failed) {
    if (rank == 0) std::fprintf(stderr, "mesh_halo: %s\n", error.c_str());
    return 2;
  }
  std::vector<int> counts(rank == 0 ? size : 0), displs(counts.size());
  std::vector<int32_t> flat;
  if (rank == 0) {
    for (int r = 0; r < size; ++r) {
      counts[r] = static_cast<int>(packed[r].size());
      displs[r] = static_cast<int>(flat.size());
      flat.insert(flat.end(), packed[r].begin(), packed[r].end());
    }
  }
  int mine = 0;
  MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int32_t> info(mine);
  MPI_Scatterv(flat.data(), counts.data(), displs.data(), MPI_INT, info.data(),
               mine, MPI_INT, 0, MPI_COMM_WORLD);
  [[maybe_unused]] const int32_t owned = info[0];
  const int32_t k = info[1];
  std::vector<int> peer(k), send_count(k), recv_count(k);
  size_t send_total = 0, recv_total = 0;
  for (int32_t j = 0; j < k; ++j) {
    peer[j] = info[2 + 3 * j];
    send_count[j] = info[3 + 3 * j];
    recv_count[j] = info[4 + 3 * j];
    send_total += static_cast<size_t>(send_count[j]);
    recv_total += static_cast<size_t>(recv_count[j]);
  }
  [[maybe_unused]] const int32_t* send_ids = info.data() + 2 + 3 * k;
  [[maybe_unused]] const int32_t* recv_ids = send_ids + send_total;
  const size_t v = static_cast<size_t>(a.values_per_vertex);
#ifdef SMPI_SHARED_MALLOC
  // One allocation per rank (see sim/stencil3d.cc).
  double* memory = static_cast<double*>(
      SMPI_SHARED_MALLOC(((send_total + recv_total) * v + 1) * sizeof(double)));
#else
  std::vector<double> storage((send_total + recv_total) * v + 1);
  double* memory = storage.data();
#endif
  double* send = memory;
  double* recv = memory + send_total * v;
  Halo h{peer, send_count, recv_count, send_ids, recv_ids, send, recv, v};
  std::vector<MPI_Request> requests;
  int64_t bad = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double start = 0;
  for (int64_t it = -1; it < a.iterations; ++it) {
    // One untimed iteration first (see sim/replay.cc).
    if (it == 0) start = MPI_Wtime();
    for (int step = 0; step < a.exchanges; ++step) {
      // Values of the step's exchange: one per step of the whole run.
      const int64_t when = it * a.exchanges + step;
      bad += Exchange(h, when, with_ids, requests);
#ifdef SMPI_SHARED_MALLOC
      smpi_execute_flops(a.flops_per_vertex * owned);
#endif
      for (int r = 0; r < a.allreduces; ++r) {
        const double mine_value = rank + 1.0 + r,
                     expected = size * (size + 1.0) / 2 +
                                static_cast<double>(size) * r;
        double sum = 0;
        MPI_Allreduce(&mine_value, &sum, 1, MPI_DOUBLE, MPI_SUM,
                      MPI_COMM_WORLD);
        if (with_ids) bad += sum != expected;
      }
    }
  }
  const double elapsed = MPI_Wtime() - start;
  double slowest = 0;
  int64_t all_bad = 0;
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&bad, &all_bad, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
#ifdef SMPI_SHARED_MALLOC
  SMPI_SHARED_FREE(memory);
#endif
  if (rank == 0) {
    std::printf(
        "mesh_halo: %lld vertices, %d parts, %lld neighbour pairs, "
        "%lld iterations",
        static_cast<long long>(vertices), size, static_cast<long long>(pairs),
        static_cast<long long>(a.iterations));
    if (a.exchanges != 1 || a.allreduces != 0) {
      std::printf(" of %d exchanges and %d allreduces", a.exchanges,
                  a.exchanges * a.allreduces);
    }
    std::printf("\n");
    if (all_bad != 0) {
      std::fprintf(stderr, "mesh_halo: halo check failed: %lld wrong values\n",
                   static_cast<long long>(all_bad));
    }
    PrintTimePerIteration(slowest / static_cast<double>(a.iterations));
  }
  int ok = all_bad == 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok ? 0 : 1;
}

}  // namespace

int RunProgram(int argc, char** argv) { return Run(argc, argv); }

}  // namespace rankmap::sim
