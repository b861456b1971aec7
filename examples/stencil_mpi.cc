// A 2D Jacobi stencil over a px x py grid of processes, and the three ways
// rankmap places it:
//
//   (a) profile, map, relaunch (no source change):
//       LD_PRELOAD=librankmap_profile.so RANKMAP_PROFILE_OUT=st mpirun -np 8
//       stencil_mpi run 20 stencil_mpi map st.grf "tleaf 3 2 100 2 10 2 1" 1 -
//       # J before/after stencil_mpi map st.grf this 4 st.rankfile # launchable
//       here mpirun --use-hwthread-cpus --mca rmaps_rank_file_physical 1
//       --rankfile st.rankfile -np 8 stencil_mpi run 20
//   (b) the program's own MPI_Dist_graph_create_adjacent(reorder = 1), with
//       librankmap_reorder.so linked or preloaded:      stencil_mpi dist 20
//   (c) the library call mpi_bindings::Reorder:           stencil_mpi api 20
//
// The MPI modes print the model cost J (core::Cost on the RANKMAP_TOPOLOGY
// tree, the job packed on its first slots) of the launch order and of the order
// the program ends up using, and a checksum of the result that must not depend
// on the order (it is gathered and summed in logical rank order). They also
// print, for both orders, the halo exchange time per iteration predicted by
// models/cost_model.h (same tree and placement; `--model`, hockney by default;
// `--params FILE`, else DefaultModelParams) and the measured one (slowest
// process, exchange alone, no computation); J and the predictions are -1
// without RANKMAP_TOPOLOGY:
//   stencil_mpi api 20 --model taulop --params machine.params
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "base/cpu_list.h"
#include "core/mapper.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "graphs/graphs.h"
#include "launch/launch.h"
#include "models/channel_params.h"
#include "models/cost_model.h"
#include "models/flow.h"
#include "mpi_bindings/reorder.h"
#include "topology/binding.h"
#include "topology/topology.h"

namespace rankmap::examples {
namespace {

constexpr int kNx = 24;  // local rows: left/right halos are kNx doubles
constexpr int kNy = 96;  // local columns: up/down halos are kNy doubles

struct Grid {
  int px = 1, py = 1;
  int Rank(int i, int j) const {
    if (i < 0 || i >= px || j < 0 || j >= py) return MPI_PROC_NULL;
    return i * py + j;
  }
};

Grid MakeGrid(int n) {
  int dims[2] = {0, 0};
  MPI_Dims_create(n, 2, dims);
  return {dims[0], dims[1]};
}

// Per iteration, logical rank p sends kNy doubles up and down and kNx doubles
// left/right.
graphs::CommGraph StencilGraph(const Grid& g) {
  graphs::CommGraphBuilder b(static_cast<int64_t>(g.px) * g.py);
  for (int i = 0; i < g.px; ++i) {
    for (int j = 0; j < g.py; ++j) {
      const int p = g.Rank(i, j);
      const int vertical[2] = {g.Rank(i - 1, j), g.Rank(i + 1, j)};
      const int horizontal[2] = {g.Rank(i, j - 1), g.Rank(i, j + 1)};
      for (int q : vertical) {
        if (q != MPI_PROC_NULL) (void)b.AddEdge(p, q, 8.0 * kNy);
      }
      for (int q : horizontal) {
        if (q != MPI_PROC_NULL) (void)b.AddEdge(p, q, 8.0 * kNx);
      }
    }
  }
  return std::move(b).Build().value();
}

// The job on RANKMAP_TOPOLOGY: the tree with only its first n slots used (one
// process each) and those slots. Errors: no or bad topology, too few slots.
struct Placement {
  topology::Tree tree;
  std::vector<topology::LeafId> slots;
};

absl::StatusOr<Placement> LoadPlacement(int n) {
  const char* desc = std::getenv("RANKMAP_TOPOLOGY");
  if (desc == nullptr) return absl::NotFoundError("RANKMAP_TOPOLOGY not set");
  absl::StatusOr<topology::Tree> tree = topology::LoadTopology(desc);
  if (!tree.ok()) return tree.status();
  std::vector<topology::LeafId> slots = core::Slots(*tree);
  if (static_cast<int>(slots.size()) < n) {
    return absl::InvalidArgumentError(
        absl::StrCat("stencil_mpi: ", n, " processes, ", slots.size(),
                     " slots in RANKMAP_TOPOLOGY"));
  }
  slots.resize(n);
  std::vector<int32_t> capacity(tree->num_leaves(), 0);
  for (topology::LeafId s : slots) ++capacity[s];
  absl::StatusOr<topology::Tree> used = tree->WithCapacities(capacity);
  if (!used.ok()) return used.status();
  return Placement{*std::move(used), std::move(slots)};
}

// The process of world rank q plays logical rank logical_of[q] and sits on the
// q-th slot.
core::Mapping MappingOf(const Placement& placement,
                        const std::vector<int>& logical_of) {
  core::Mapping mapping(logical_of.size());
  for (size_t q = 0; q < logical_of.size(); ++q) {
    mapping[logical_of[q]] = placement.slots[q];
  }
  return mapping;
}

// J of the order logical_of; -1 without a usable topology.
double ModelCost(const absl::StatusOr<Placement>& placement,
                 const graphs::CommGraph& graph,
                 const std::vector<int>& logical_of) {
  if (!placement.ok()) return -1;
  absl::StatusOr<core::CostReport> r =
      core::Cost(placement->tree, graph, MappingOf(*placement, logical_of));
  return r.ok() ? r->j : -1;
}

// Model seconds of one halo exchange in the order logical_of; -1 without a
// usable topology or on a model error.
double PredictedExchange(const absl::StatusOr<Placement>& placement,
                         models::Model model, const models::ModelParams& params,
                         const models::Flow& flow,
                         const std::vector<int>& logical_of) {
  if (!placement.ok()) return -1;
  absl::StatusOr<double> t = models::PredictTime(
      model, params, placement->tree, flow, MappingOf(*placement, logical_of));
  return t.ok() ? *t : -1;
}

// Process p's halo partners and buffers; Exchange() is one iteration's
// messages: kNy doubles up and down, kNx doubles left and right.
class Halo {
 public:
  Halo(const Grid& g, int p) {
    const int ci = p / g.py, cj = p % g.py;
    up_ = g.Rank(ci - 1, cj);
    down_ = g.Rank(ci + 1, cj);
    left_ = g.Rank(ci, cj - 1);
    right_ = g.Rank(ci, cj + 1);
  }

  // u: (kNx + 2) x (kNy + 2) row-major with a one-cell ghost frame; fills the
  // ghost cells from the neighbours' borders.
  void Exchange(MPI_Comm comm, std::vector<double>& u) {
    constexpr int w = kNy + 2;
    auto at = [&](int i, int j) -> double& { return u[i * w + j]; };
    MPI_Sendrecv(&at(1, 1), kNy, MPI_DOUBLE, up_, 0, &at(kNx + 1, 1), kNy,
                 MPI_DOUBLE, down_, 0, comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&at(kNx, 1), kNy, MPI_DOUBLE, down_, 1, &at(0, 1), kNy,
                 MPI_DOUBLE, up_, 1, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < kNx; ++i) {
      send_l_[i] = at(i + 1, 1);
      send_r_[i] = at(i + 1, kNy);
    }
    MPI_Sendrecv(send_l_.data(), kNx, MPI_DOUBLE, left_, 2, recv_r_.data(), kNx,
                 MPI_DOUBLE, right_, 2, comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv(send_r_.data(), kNx, MPI_DOUBLE, right_, 3, recv_l_.data(),
                 kNx, MPI_DOUBLE, left_, 3, comm, MPI_STATUS_IGNORE);
    for (int i = 0; i < kNx; ++i) {
      if (left_ != MPI_PROC_NULL) at(i + 1, 0) = recv_l_[i];
      if (right_ != MPI_PROC_NULL) at(i + 1, kNy + 1) = recv_r_[i];
    }
  }

 private:
  int up_ = MPI_PROC_NULL, down_ = MPI_PROC_NULL;
  int left_ = MPI_PROC_NULL, right_ = MPI_PROC_NULL;
  std::vector<double> send_l_ = std::vector<double>(kNx);
  std::vector<double> send_r_ = std::vector<double>(kNx);
  std::vector<double> recv_l_ = std::vector<double>(kNx);
  std::vector<double> recv_r_ = std::vector<double>(kNx);
};

// Measured seconds per halo exchange on `comm` (logical rank = rank in comm):
// `iterations` exchanges alone after one warm-up, timed from a barrier, the
// slowest process's time (max over comm) divided by iterations.
double MeasureExchange(MPI_Comm comm, const Grid& g, int iterations) {
  int p = 0;
  MPI_Comm_rank(comm, &p);
  Halo halo(g, p);
  std::vector<double> u((kNx + 2) * (kNy + 2), 1.0);
  halo.Exchange(comm, u);
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) halo.Exchange(comm, u);
  const double local = MPI_Wtime() - t0;
  double slowest = 0.0;
  MPI_Allreduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return iterations > 0 ? slowest / iterations : 0.0;
}

// Jacobi iterations on `comm` (logical rank = rank in comm); returns the
// checksum on world rank 0 of the sum of every process's interior, added in
// logical rank order.
double Run(MPI_Comm comm, const Grid& g, int iterations) {
  int p = 0, n = 0;
  MPI_Comm_rank(comm, &p);
  MPI_Comm_size(comm, &n);
  const int ci = p / g.py, cj = p % g.py;
  const int w = kNy + 2;
  std::vector<double> u((kNx + 2) * w, 0.0), v = u;
  auto at = [&](std::vector<double>& a, int i, int j) -> double& {
    return a[i * w + j];
  };
  for (int i = 1; i <= kNx; ++i) {
    for (int j = 1; j <= kNy; ++j) {
      const double gi = ci * kNx + i, gj = cj * kNy + j;
      at(u, i, j) = std::sin(0.01 * gi) + std::cos(0.02 * gj);
    }
  }
  Halo halo(g, p);
  for (int it = 0; it < iterations; ++it) {
    halo.Exchange(comm, u);
    for (int i = 1; i <= kNx; ++i) {
      for (int j = 1; j <= kNy; ++j) {
        at(v, i, j) = 0.25 * (at(u, i - 1, j) + at(u, i + 1, j) +
                              at(u, i, j - 1) + at(u, i, j + 1));
      }
    }
    std::swap(u, v);
  }
  double local = 0.0;
  for (int i = 1; i <= kNx; ++i) {
    for (int j = 1; j <= kNy; ++j) local += at(u, i, j);
  }
  std::vector<double> all(n);
  MPI_Gather(&local, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, comm);
  double sum = 0.0;
  for (double x : all) sum += x;  // logical order: rank order of comm
  // Hand the checksum to world rank 0 (logical rank 0 may live elsewhere).
  int world_me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_me);
  int holder = p == 0 ? world_me : -1, root = 0;
  MPI_Allreduce(&holder, &root, 1, MPI_INT, MPI_MAX, comm);
  MPI_Bcast(&sum, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
  return sum;
}

struct RunOptions {
  std::string mode;
  int iterations = 0;
  models::Model model = models::Model::kHockney;
  std::string params_path;  // empty: DefaultModelParams
};

int MpiMain(const RunOptions& run) {
  const std::string& mode = run.mode;
  const int iterations = run.iterations;
  int me = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const Grid g = MakeGrid(n);
  const graphs::CommGraph graph = StencilGraph(g);
  const absl::StatusOr<Placement> placement = LoadPlacement(n);
  models::ModelParams params;
  if (placement.ok()) {
    absl::StatusOr<models::ModelParams> read =
        run.params_path.empty()
            ? absl::StatusOr<models::ModelParams>(
                  models::DefaultModelParams(placement->tree))
            : models::ReadModelParams(run.params_path, placement->tree);
    if (!read.ok()) {  // every process reads the same file: all stop here
      if (me == 0) {
        std::fprintf(stderr, "stencil_mpi: %s\n",
                     std::string(read.status().message()).c_str());
      }
      return 2;
    }
    params = *std::move(read);
  }
  const models::Flow flow = models::HaloFlow(graph, /*iterations=*/1);
  MPI_Comm work = MPI_COMM_WORLD;
  MPI_Comm owned = MPI_COMM_NULL;
  std::string note;
  if (mode == "dist") {
    // Each process declares its halo partners with their volumes; reorder = 1.
    const int ci = me / g.py, cj = me % g.py;
    std::vector<int> nbrs, weights;
    const int cand[4] = {g.Rank(ci - 1, cj), g.Rank(ci + 1, cj),
                         g.Rank(ci, cj - 1), g.Rank(ci, cj + 1)};
    const int vol[4] = {8 * kNy, 8 * kNy, 8 * kNx, 8 * kNx};
    for (int k = 0; k < 4; ++k) {
      if (cand[k] != MPI_PROC_NULL) {
        nbrs.push_back(cand[k]);
        weights.push_back(vol[k]);
      }
    }
    MPI_Dist_graph_create_adjacent(
        MPI_COMM_WORLD, static_cast<int>(nbrs.size()), nbrs.data(),
        weights.data(), static_cast<int>(nbrs.size()), nbrs.data(),
        weights.data(), MPI_INFO_NULL, 1, &owned);
    work = owned;
  } else if (mode == "api") {
    mpi_bindings::ReorderOptions options;
    mpi_bindings::ReorderOutcome out =
        mpi_bindings::ReorderDetailed(MPI_COMM_WORLD, graph, options);
    if (!out.status.ok())
      note = " (reorder failed: " + std::string(out.status.message()) + ")";
    owned = out.comm;
    work = owned;
  }
  int logical = 0;
  MPI_Comm_rank(work, &logical);
  std::vector<int> logical_of(n);
  MPI_Allgather(&logical, 1, MPI_INT, logical_of.data(), 1, MPI_INT,
                MPI_COMM_WORLD);
  std::vector<int> identity(n);
  for (int q = 0; q < n; ++q) identity[q] = q;
  // Where each process runs, for checking a rankfile launch.
  absl::StatusOr<std::vector<int32_t>> pus = topology::CurrentBindingPus();
  const std::string mine = pus.ok() ? base::FormatCpuList(*pus) : "?";
  char buf[64] = {};
  std::snprintf(buf, sizeof(buf), "%s", mine.c_str());
  std::vector<char> all(static_cast<size_t>(n) * sizeof(buf));
  MPI_Gather(buf, sizeof(buf), MPI_CHAR, all.data(), sizeof(buf), MPI_CHAR, 0,
             MPI_COMM_WORLD);

  const double checksum = Run(work, g, iterations);
  const double measured_identity =
      MeasureExchange(MPI_COMM_WORLD, g, iterations);
  const double measured_reordered = MeasureExchange(work, g, iterations);
  if (me == 0) {
    std::string order, bindings;
    for (int q = 0; q < n; ++q) {
      order += std::to_string(logical_of[q]) + (q + 1 < n ? "," : "");
      bindings += std::string(&all[q * sizeof(buf)]) + (q + 1 < n ? " " : "");
    }
    std::printf("mode=%s grid=%dx%d J before=%.0f after=%.0f order=%s%s\n",
                mode.c_str(), g.px, g.py, ModelCost(placement, graph, identity),
                ModelCost(placement, graph, logical_of), order.c_str(),
                note.c_str());
    const double predicted[2] = {
        PredictedExchange(placement, run.model, params, flow, identity),
        PredictedExchange(placement, run.model, params, flow, logical_of)};
    const double measured[2] = {measured_identity, measured_reordered};
    const char* names[2] = {"identity", "reordered"};
    for (int k = 0; k < 2; ++k) {
      std::printf(
          "exchange %s: predicted %.3e s, measured %.3e s per iteration "
          "(model %s)\n",
          names[k], predicted[k], measured[k], models::ModelName(run.model));
    }
    std::printf("bindings=%s\n", bindings.c_str());
    std::printf("checksum=%.12e\n", checksum);
  }
  if (owned != MPI_COMM_NULL) MPI_Comm_free(&owned);
  return 0;
}

// stencil_mpi map GRAPH TOPOLOGY CAPACITY RANKFILE|-
int MapMain(const std::string& graph_path, const std::string& desc,
            int capacity, const std::string& rankfile) {
  absl::StatusOr<graphs::CommGraph> graph = graphs::ReadGraphFile(graph_path);
  topology::LoadOptions lo;
  lo.capacity = capacity;
  absl::StatusOr<topology::Tree> tree = topology::LoadTopology(desc, lo);
  if (!graph.ok() || !tree.ok()) {
    std::fprintf(
        stderr, "stencil_mpi map: %s\n",
        std::string((graph.ok() ? tree.status() : graph.status()).message())
            .c_str());
    return 2;
  }
  std::vector<topology::LeafId> slots = core::Slots(*tree);
  const int n = graph->num_vertices();
  if (static_cast<int>(slots.size()) < n) {
    std::fprintf(stderr, "stencil_mpi map: %d processes, %zu slots\n", n,
                 slots.size());
    return 2;
  }
  core::Mapping packed(slots.begin(), slots.begin() + n);
  core::MappingOptions options;
  absl::StatusOr<core::Mapping> mapped = core::Map(*tree, *graph, options);
  if (!mapped.ok()) {
    std::fprintf(stderr, "stencil_mpi map: %s\n",
                 std::string(mapped.status().message()).c_str());
    return 2;
  }
  const double before = core::Cost(*tree, *graph, packed)->j;
  const double after = core::Cost(*tree, *graph, *mapped)->j;
  std::printf("map %s on '%s': J before=%.0f after=%.0f\n", graph_path.c_str(),
              desc.c_str(), before, after);
  if (rankfile != "-") {
    absl::StatusOr<launch::LaunchPlan> plan = launch::PlanLaunch(
        launch::LaunchFormat::kRankfile, *tree, *mapped, rankfile);
    absl::Status s =
        plan.ok() ? launch::WriteLaunchFiles(*plan) : plan.status();
    if (!s.ok()) {
      std::fprintf(stderr, "stencil_mpi map: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
  }
  return 0;
}

}  // namespace
}  // namespace rankmap::examples

int main(int argc, char** argv) {
  using namespace rankmap::examples;
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "map" && argc == 6) {
    return MapMain(argv[2], argv[3], std::atoi(argv[4]), argv[5]);
  }
  if ((mode == "run" || mode == "dist" || mode == "api") && argc >= 3) {
    RunOptions run;
    run.mode = mode;
    run.iterations = std::atoi(argv[2]);
    bool ok = run.iterations >= 0;
    for (int i = 3; ok && i < argc; i += 2) {
      const std::string flag = argv[i];
      if (i + 1 >= argc) {
        ok = false;
      } else if (flag == "--model") {
        absl::StatusOr<rankmap::models::Model> model =
            rankmap::models::ParseModel(argv[i + 1]);
        if (!model.ok()) {
          std::fprintf(stderr, "stencil_mpi: %s\n",
                       std::string(model.status().message()).c_str());
          return 2;
        }
        run.model = *model;
      } else if (flag == "--params") {
        run.params_path = argv[i + 1];
      } else {
        ok = false;
      }
    }
    if (ok) {
      MPI_Init(&argc, &argv);
      const int rc = MpiMain(run);
      MPI_Finalize();
      return rc;
    }
  }
  std::fprintf(stderr,
               "usage: %s run|dist|api ITERATIONS [--model hockney|lmo|hloggp|"
               "taulop] [--params FILE]\n"
               "       %s map GRAPH TOPOLOGY CAPACITY RANKFILE|-\n",
               argv[0], argv[0]);
  return 2;
}
