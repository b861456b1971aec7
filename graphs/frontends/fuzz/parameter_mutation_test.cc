// Seeded mutation testing of the front ends' parameters: valid options of
// every front end (SUMMA, Square-Corner, stencil, Wave2D, MPDATA) get one to
// three fields replaced by hostile values (counts near 2^31 and 2^63,
// negative, zero, NaN, infinities, extreme speeds, hostile lists); each run
// must return a graph whose weights are finite and non-negative, or refuse
// with InvalidArgument or ResourceExhausted, within a small memory budget and
// quickly (no loop may run for ever, nothing is allocated unsized). Runs in
// CI, also under ASan/UBSan; the cases that once looped, overflowed or
// exhausted memory are seeds of their own.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_matchers.h"
#include "base/text_mutation.h"
#include "graphs/comm_graph.h"
#include "graphs/frontends/matrix_frontend.h"
#include "graphs/frontends/mpdata.h"
#include "graphs/frontends/stencil.h"
#include "graphs/frontends/wave2d.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;

constexpr int kMutantsPerFrontEnd = 500;
constexpr int64_t kFuzzMemoryBudget = int64_t{32} << 20;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
const int64_t kCounts[] = {kMin,
                           -1,
                           0,
                           1,
                           2,
                           3,
                           5,
                           12,
                           64,
                           1000,
                           (int64_t{1} << 31) - 1,
                           int64_t{1} << 31,
                           int64_t{1} << 40,
                           int64_t{1} << 62,
                           kMax};
const double kReals[] = {-1.0,
                         0.0,
                         1e-320,
                         1e-300,
                         1e-100,
                         1.0,
                         12.8,
                         1e100,
                         1e300,
                         std::numeric_limits<double>::max(),
                         std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()};

template <typename T>
T Pick(std::mt19937_64& rng, const T* values, size_t n) {
  return values[rng() % n];
}
int64_t Count(std::mt19937_64& rng) {
  return Pick(rng, kCounts, std::size(kCounts));
}
int32_t Count32(std::mt19937_64& rng) {
  const int64_t v = Count(rng);
  return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX));
}
double Real(std::mt19937_64& rng) {
  return Pick(rng, kReals, std::size(kReals));
}
std::vector<double> Reals(std::mt19937_64& rng) {
  std::vector<double> v(rng() % 5);
  for (double& x : v) x = rng() % 2 ? Real(rng) : 1.0 + rng() % 4;
  return v;
}
std::vector<int64_t> Counts(std::mt19937_64& rng) {
  std::vector<int64_t> v(rng() % 4);
  for (int64_t& x : v) x = rng() % 2 ? Count(rng) : 1 + rng() % 64;
  return v;
}

// OK for a graph of finite, non-negative weights or a clean refusal;
// `accepted` tells which.
absl::Status CheckResult(const absl::StatusOr<CommGraph>& g,
                         bool* accepted = nullptr) {
  if (accepted != nullptr) *accepted = g.ok();
  if (!g.ok()) {
    const absl::StatusCode code = g.status().code();
    if (code == absl::StatusCode::kInvalidArgument ||
        code == absl::StatusCode::kResourceExhausted) {
      return absl::OkStatus();
    }
    return absl::InternalError(g.status().ToString());
  }
  for (VertexId v = 0; v < g->num_vertices(); ++v) {
    for (double w : g->weights(v)) {
      if (!std::isfinite(w) || w < 0) {
        return absl::InternalError(absl::StrCat("weight ", w));
      }
    }
  }
  return absl::OkStatus();
}

// One front end: seeds and a mutation of one field of its options.
template <typename Options>
struct FrontEnd {
  const char* name;
  std::vector<Options> seeds;
  std::vector<std::function<void(Options&, std::mt19937_64&)>> mutations;
  std::function<absl::StatusOr<CommGraph>(const Options&)> run;
};

template <typename Options>
void Exercise(const FrontEnd<Options>& f) {
  SCOPED_TRACE(f.name);
  for (const Options& seed : f.seeds) {
    ASSERT_THAT(CheckResult(f.run(seed)), IsOk());
  }
  std::mt19937_64 rng(base::EnvOr("RANKMAP_MUTATION_SEED", 20261126));
  const int64_t mutants = base::EnvOr("RANKMAP_MUTANTS", kMutantsPerFrontEnd);
  int64_t accepted = 0;
  for (int64_t i = 0; i < mutants; ++i) {
    Options o = f.seeds[i % f.seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 3);
    std::string what;
    for (int e = 0; e < edits; ++e) {
      const size_t k = rng() % f.mutations.size();
      f.mutations[k](o, rng);
      absl::StrAppend(&what, " ", k);
    }
    bool ok = false;
    const absl::Status s = CheckResult(f.run(o), &ok);
    ASSERT_THAT(s, IsOk()) << s.message() << " (mutant " << i << ", fields"
                           << what << ")";
    accepted += ok;
  }
  // Both outcomes occur: the mutants reach the graphs and the refusals.
  EXPECT_GT(accepted, mutants / 50);
  EXPECT_LT(accepted, mutants);
  std::printf("%s: %lld of %lld mutants accepted\n", f.name,
              static_cast<long long>(accepted),
              static_cast<long long>(mutants));
}

MatrixFrontendOptions Matrix(std::vector<double> speeds, int64_t n) {
  MatrixFrontendOptions o;
  o.speeds = std::move(speeds);
  o.n = n;
  o.max_memory_bytes = kFuzzMemoryBudget;
  return o;
}

std::vector<std::function<void(MatrixFrontendOptions&, std::mt19937_64&)>>
MatrixMutations() {
  return {
      [](auto& o, auto& rng) { o.n = Count(rng); },
      [](auto& o, auto& rng) { o.block = Count(rng); },
      [](auto& o, auto& rng) { o.element_size = Count32(rng); },
      [](auto& o, auto& rng) { o.speeds = Reals(rng); },
      [](auto& o, auto& rng) { o.hub = Count32(rng); },
      [](auto& o, auto& rng) {
        o.network = rng() % 2 ? tiling::Network::Kind::kStar
                              : tiling::Network::Kind::kFullyConnected;
      },
      [](auto& o, auto& rng) {
        o.flow = rng() % 2 ? PivotFlow::kRing : PivotFlow::kOneToAll;
        o.partitioner =
            rng() % 2 ? SummaPartitioner::kGrid : SummaPartitioner::kColumnDp;
      },
      [](auto& o, auto& rng) {
        o.clusters.clear();
        for (size_t i = 0; i < o.speeds.size(); ++i)
          o.clusters.push_back(rng() % 3 ? static_cast<int32_t>(i % 2)
                                         : Count32(rng));
        o.num_clusters = 2;
        o.bandwidth =
            rng() % 2 ? std::vector<double>{10, 1, 1, 10} : Reals(rng);
      },
      [](auto& o, auto& rng) {
        o.speed_functions.assign(1 + rng() % 3,
                                 tiling::SpeedFunction::Constant(Real(rng)));
      },
  };
}

TEST(ParameterMutationTest, SummaAndSquareCorner) {
  // Seeds: the README's and the seeds' cases, and the sizes that once looped
  // (n near 2^63) or wrapped (4e9 on Square-Corner).
  const std::vector<MatrixFrontendOptions> seeds = {
      Matrix({4, 4, 1, 1, 1, 1, 1, 1}, 64),
      Matrix({3, 2, 1}, 60),
      Matrix({8, 1}, 4500),
      Matrix({70, 15, 15}, 100),
      Matrix({2, 1}, kMax),
      Matrix({2, 1, 1}, 4000000000)};
  Exercise(FrontEnd<MatrixFrontendOptions>{
      "summa", seeds, MatrixMutations(),
      [](const MatrixFrontendOptions& o) -> absl::StatusOr<CommGraph> {
        auto r = SummaFrontend(o);
        if (!r.ok()) return r.status();
        return std::move(r->graph);
      }});
  Exercise(FrontEnd<MatrixFrontendOptions>{
      "square-corner", seeds, MatrixMutations(),
      [](const MatrixFrontendOptions& o) -> absl::StatusOr<CommGraph> {
        auto r = SquareCornerFrontend(o);
        if (!r.ok()) return r.status();
        return std::move(r->graph);
      }});
}

TEST(ParameterMutationTest, Stencil) {
  auto make = [](std::vector<int64_t> grid, int32_t points, int64_t procs) {
    StencilOptions o;
    o.grid = std::move(grid);
    o.points = points;
    o.procs = procs;
    // Small: the seed whose halo reaches every box runs to the budget.
    o.max_memory_bytes = kFuzzMemoryBudget / 8;
    return o;
  };
  std::vector<StencilOptions> seeds = {
      make({256, 256, 256}, 7, 512), make({4, 4}, 5, 4), make({64, 64}, 9, 16),
      make({1000, 1000}, 9, 2500)};
  seeds.back().halo = 1000;  // every box in reach: stopped by the budget
  seeds.push_back(make({100, 90}, 5, 0));
  seeds.back().speeds = {5, 1, 2, 8, 3, 1, 4, 2, 6, 1};
  Exercise(FrontEnd<StencilOptions>{
      "stencil",
      seeds,
      {
          [](auto& o, auto& rng) {
            if (!o.grid.empty()) o.grid[rng() % o.grid.size()] = Count(rng);
          },
          [](auto& o, auto& rng) { o.grid = Counts(rng); },
          [](auto& o, auto& rng) { o.procs = Count(rng); },
          [](auto& o, auto& rng) { o.proc_grid = Counts(rng); },
          [](auto& o, auto& rng) { o.halo = Count32(rng); },
          [](auto& o, auto& rng) { o.points = Count32(rng); },
          [](auto& o, auto& rng) { o.slabs = rng() % 2; },
          [](auto& o, auto& rng) {
            o.periodic.assign(rng() % 4, rng() % 2 == 0);
          },
          [](auto& o, auto& rng) { o.element_size = Real(rng); },
          [](auto& o, auto& rng) { o.axis_weights = Reals(rng); },
          [](auto& o, auto& rng) { o.speeds = Reals(rng); },
      },
      [](const StencilOptions& o) { return StencilGraph(o); }});
}

TEST(ParameterMutationTest, Wave2D) {
  auto make = [](int64_t rows, int64_t cols, int64_t procs) {
    Wave2DOptions o;
    o.grid = {rows, cols};
    o.procs = procs;
    return o;
  };
  std::vector<Wave2DOptions> seeds = {make(4, 4, 2), make(64, 64, 5),
                                      make(100000, 100000, int64_t{1} << 40)};
  seeds[1].speeds = {5, 3, 2, 1, 1};
  Exercise(FrontEnd<Wave2DOptions>{
      "wave2d",
      seeds,
      {
          [](auto& o, auto& rng) { o.grid = Counts(rng); },
          [](auto& o, auto& rng) {
            if (!o.grid.empty()) o.grid[rng() % o.grid.size()] = Count(rng);
          },
          [](auto& o, auto& rng) { o.procs = Count(rng); },
          [](auto& o, auto& rng) { o.speeds = Reals(rng); },
          [](auto& o, auto& rng) { o.element_size = Real(rng); },
      },
      [](const Wave2DOptions& o) -> absl::StatusOr<CommGraph> {
        auto r = Wave2DFrontend(o);
        if (!r.ok()) return r.status();
        return std::move(r->graph);
      }});
}

TEST(ParameterMutationTest, Mpdata) {
  auto make = [](int64_t procs) {
    MpdataFrontendOptions o;
    o.procs = procs;
    o.max_memory_bytes = kFuzzMemoryBudget;
    return o;
  };
  std::vector<MpdataFrontendOptions> seeds = {make(12), make(4), make(720720)};
  seeds[1].domain = {8, 8, 1};
  seeds.push_back(make(0));
  seeds.back().group = {0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 3};
  seeds.back().horizontal_bandwidth.assign(16, 0.5);
  seeds.push_back(make(0));
  seeds.back().group = {0, 100000};
  Exercise(FrontEnd<MpdataFrontendOptions>{
      "mpdata",
      seeds,
      {
          [](auto& o, auto& rng) { o.procs = Count(rng); },
          [](auto& o, auto& rng) {
            o.group.assign(rng() % 13, 0);
            for (int32_t& g : o.group) g = rng() % 3 ? rng() % 4 : Count32(rng);
          },
          [](auto& o, auto& rng) { o.horizontal_bandwidth = Reals(rng); },
          [](auto& o, auto& rng) { o.vertical_bandwidth = Reals(rng); },
          [](auto& o, auto& rng) { o.domain = Counts(rng); },
          [](auto& o, auto& rng) { o.halo = Count(rng); },
          [](auto& o, auto& rng) { o.element_size = Real(rng); },
          [](auto& o, auto& rng) {
            o.horizontal_weight = Real(rng);
            o.vertical_weight = Real(rng);
          },
          [](auto& o, auto& rng) {
            o.periodic = rng() % 2;
            o.allow_1d = rng() % 2;
          },
      },
      [](const MpdataFrontendOptions& o) -> absl::StatusOr<CommGraph> {
        auto r = MpdataFrontend(o);
        if (!r.ok()) return r.status();
        return std::move(r->graph);
      }});
}

}  // namespace
}  // namespace rankmap::graphs
