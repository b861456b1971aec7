#include "graphs/frontends/stencil.h"

#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::graphs {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

using tiling::ColumnTiling;
using tiling::GridBox;
using tiling::GridPartition;

CommGraph Graph(const GridPartition& p, std::vector<bool> periodic, Stencil s,
                int32_t halo = 1, double elem = 8.0) {
  auto g = HaloGraph(p, periodic, s, halo, elem);
  EXPECT_THAT(g, IsOk());
  return g.ok() ? *std::move(g) : CommGraph();
}

GridPartition Blocks(std::vector<int64_t> extent, std::vector<int64_t> procs) {
  auto p = tiling::BlockPartition(extent, procs);
  EXPECT_THAT(p, IsOk());
  return *std::move(p);
}

// ---- Hand-checked cases of the issue
// -------------------------------------------------------

// 4 x 4 grid, 2 x 2 processes (ranks 0 1 / 2 3), 8-byte elements. Each
// neighbour pair sends 2 cells = 16 bytes each way, so the symmetric CommGraph
// weight is 32.
TEST(StencilTest, FivePointTwoByTwo) {
  GridPartition p = Blocks({4, 4}, {2, 2});
  auto msgs = HaloMessages(p, {}, Stencil::k5Point);
  ASSERT_THAT(msgs, IsOk());
  ASSERT_EQ(msgs->size(), 8u);
  for (const HaloMessage& m : *msgs)
    EXPECT_EQ(m.cells, 2) << m.src << "->" << m.dst;
  CommGraph g = Graph(p, {}, Stencil::k5Point);
  EXPECT_EQ(g.num_edges(), 4);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 1), 32.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 2), 32.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(1, 3), 32.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(2, 3), 32.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 3), 0.0);
  EXPECT_DOUBLE_EQ(g.TotalVolume(), 4 * 32.0);
}

// The 9-point stencil adds the diagonal corner neighbours: one cell (8 bytes)
// each way.
TEST(StencilTest, NinePointAddsCorners) {
  GridPartition p = Blocks({4, 4}, {2, 2});
  CommGraph g = Graph(p, {}, Stencil::k9Point);
  EXPECT_EQ(g.num_edges(), 6);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 1), 32.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 3), 16.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(1, 2), 16.0);
}

// Direction-aware weights on the 4 x 4 grid of 2 x 2 blocks: left/right
// neighbours (apart along dimension 1, the strided one in a row-major array)
// weigh 12.8 per byte, up/down 1, the 9-point corner the larger of the two.
TEST(StencilTest, AxisWeightsFollowTheCrossedDimension) {
  GridPartition p = Blocks({4, 4}, {2, 2});
  const std::vector<double> w = {1.0, 12.8};
  auto g = HaloGraph(p, {}, Stencil::k9Point, 1, 8.0, w);
  ASSERT_THAT(g, IsOk());
  EXPECT_DOUBLE_EQ(g->EdgeWeight(0, 1), 32.0 * 12.8);  // side by side
  EXPECT_DOUBLE_EQ(g->EdgeWeight(0, 2), 32.0);         // one above the other
  EXPECT_DOUBLE_EQ(g->EdgeWeight(0, 3), 16.0 * 12.8);  // corner
  StencilOptions o;
  o.grid = {4, 4};
  o.procs = 4;
  o.axis_weights = {2.0, 1.0};
  auto via_options = StencilGraph(o);
  ASSERT_THAT(via_options, IsOk());
  EXPECT_DOUBLE_EQ(via_options->EdgeWeight(0, 2), 64.0);
  EXPECT_DOUBLE_EQ(via_options->EdgeWeight(0, 1), 32.0);
  EXPECT_THAT(
      HaloGraph(p, {}, Stencil::k5Point, 1, 8.0, std::vector<double>{1.0}),
      Not(IsOk()));
  EXPECT_THAT(
      HaloGraph(p, {}, Stencil::k5Point, 1, 8.0, std::vector<double>{1.0, 0.0}),
      Not(IsOk()));
}

// Periodic wrap: on a 2 x 2 process grid the wrap neighbour is the same process
// as the interior one, so every face contact doubles (4 cells each way -> 64)
// and each diagonal pair touches at all four corners (4 cells each way -> 64).
TEST(StencilTest, PeriodicAddsWrapEdges) {
  GridPartition p = Blocks({4, 4}, {2, 2});
  CommGraph g5 = Graph(p, {true, true}, Stencil::k5Point);
  EXPECT_EQ(g5.num_edges(), 4);
  EXPECT_DOUBLE_EQ(g5.EdgeWeight(0, 1), 64.0);
  EXPECT_DOUBLE_EQ(g5.EdgeWeight(0, 2), 64.0);
  CommGraph g9 = Graph(p, {true, true}, Stencil::k9Point);
  EXPECT_DOUBLE_EQ(g9.EdgeWeight(0, 3), 64.0);
  EXPECT_DOUBLE_EQ(g9.EdgeWeight(0, 1), 64.0);
  // Only the rows wrap: face contacts along rows double, columns do not.
  CommGraph rows = Graph(p, {true, false}, Stencil::k5Point);
  EXPECT_DOUBLE_EQ(rows.EdgeWeight(0, 2), 64.0);
  EXPECT_DOUBLE_EQ(rows.EdgeWeight(0, 1), 32.0);
  // 1 x 4 ring of 4 processes on 4 x 8: 0 and 3 become neighbours through the
  // wrap.
  CommGraph ring =
      Graph(Blocks({4, 8}, {1, 4}), {false, true}, Stencil::k5Point);
  EXPECT_EQ(ring.num_edges(), 4);
  EXPECT_DOUBLE_EQ(ring.EdgeWeight(0, 3), 2 * 4 * 8.0);
}

// Uneven division: 10 x 7 on 3 x 2 gives rows {4, 3, 3} and columns {4, 3}.
TEST(StencilTest, UnevenBlocks) {
  GridPartition p = Blocks({10, 7}, {3, 2});
  EXPECT_EQ(p.cuts[0], (std::vector<int64_t>{0, 4, 7, 10}));
  EXPECT_EQ(p.cuts[1], (std::vector<int64_t>{0, 4, 7}));
  CommGraph g = Graph(p, {}, Stencil::k5Point, 1, 1.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 1), 2 * 4.0);  // 4 rows
  EXPECT_DOUBLE_EQ(g.EdgeWeight(2, 3), 2 * 3.0);  // 3 rows
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 2), 2 * 4.0);  // 4 columns
  EXPECT_DOUBLE_EQ(g.EdgeWeight(3, 5), 2 * 3.0);  // 3 columns
  EXPECT_EQ(g.num_edges(), 7);
}

// Halo width 2 on blocks one cell thick reaches the second neighbour along the
// axis.
TEST(StencilTest, WideHaloReachesSecondNeighbour) {
  GridPartition p = Blocks({1, 4}, {1, 4});
  CommGraph g = Graph(p, {}, Stencil::k5Point, 2, 1.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 1), 2.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 2), 2.0);
  EXPECT_DOUBLE_EQ(g.EdgeWeight(0, 3), 0.0);
}

// 4 x 4 x 4 on 2 x 2 x 2: the 27-point stencil links all 28 pairs (12 faces of
// 4 cells, 12 edges of 2 cells, 4 corners of 1 cell); the 7-point only the 12
// face pairs.
TEST(StencilTest, ThreeDimensionalStencils) {
  GridPartition p = Blocks({4, 4, 4}, {2, 2, 2});
  CommGraph g27 = Graph(p, {}, Stencil::k27Point, 1, 1.0);
  EXPECT_EQ(g27.num_edges(), 28);
  EXPECT_DOUBLE_EQ(g27.EdgeWeight(0, 1), 8.0);  // face
  EXPECT_DOUBLE_EQ(g27.EdgeWeight(0, 3), 4.0);  // edge
  EXPECT_DOUBLE_EQ(g27.EdgeWeight(0, 7), 2.0);  // corner
  EXPECT_DOUBLE_EQ(g27.TotalVolume(), 12 * 8.0 + 12 * 4.0 + 4 * 2.0);
  CommGraph g7 = Graph(p, {}, Stencil::k7Point, 1, 1.0);
  EXPECT_EQ(g7.num_edges(), 12);
  EXPECT_DOUBLE_EQ(g7.TotalVolume(), 12 * 8.0);
}

TEST(StencilTest, SlabsFormAChain) {
  StencilOptions o;
  o.grid = {64, 64};
  o.procs = 8;
  o.slabs = true;
  auto g = StencilGraph(o);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_edges(), 7);
  for (int i = 0; i + 1 < 8; ++i)
    EXPECT_DOUBLE_EQ(g->EdgeWeight(i, i + 1), 2 * 64 * 8.0);
  o.periodic = {true, false};
  g = StencilGraph(o);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_edges(), 8);
  EXPECT_DOUBLE_EQ(g->EdgeWeight(0, 7), 2 * 64 * 8.0);
}

// The CLI example: 1024 x 1024, 5-point, 64 processes -> 8 x 8 blocks of 128 x
// 128; 112 neighbour pairs, each 128 cells of 8 bytes each way.
TEST(StencilTest, CliExample) {
  StencilOptions o;
  o.grid = {1024, 1024};
  o.points = 5;
  o.procs = 64;
  auto g = StencilGraph(o);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 64);
  EXPECT_EQ(g->num_edges(), 112);
  EXPECT_DOUBLE_EQ(g->EdgeWeight(0, 1), 2048.0);
  EXPECT_DOUBLE_EQ(g->EdgeWeight(0, 8), 2048.0);
  EXPECT_DOUBLE_EQ(g->TotalVolume(), 112 * 2048.0);
}

// ---- Brute-force oracle
// ----------------------------------------------------------------------

// Enumerates every cell of every box and every stencil offset, collects the
// distinct ghost positions (unwrapped coordinates outside the box), wraps them
// and looks up their owner.
std::map<std::pair<int32_t, int32_t>, int64_t> BruteForce(
    const GridPartition& p, const std::vector<bool>& periodic, Stencil s,
    int32_t h) {
  const int dims = p.dims;
  std::array<int64_t, 3> ext = {1, 1, 1};
  for (int d = 0; d < dims; ++d) ext[d] = p.extent[d];
  std::vector<int32_t> owner(ext[0] * ext[1] * ext[2], -1);
  for (size_t q = 0; q < p.boxes.size(); ++q) {
    const GridBox& b = p.boxes[q];
    for (int64_t x = b.lo[0]; x < b.hi[0]; ++x)
      for (int64_t y = b.lo[1]; y < b.hi[1]; ++y)
        for (int64_t z = b.lo[2]; z < b.hi[2]; ++z)
          owner[(x * ext[1] + y) * ext[2] + z] = q;
  }
  std::vector<std::array<int64_t, 3>> offsets;
  const int64_t hz = dims == 3 ? h : 0;
  for (int64_t a = -h; a <= h; ++a)
    for (int64_t b = -h; b <= h; ++b)
      for (int64_t c = -hz; c <= hz; ++c) {
        const int nonzero = (a != 0) + (b != 0) + (c != 0);
        if (nonzero == 0) continue;
        if (!StencilHasDiagonals(s) && nonzero > 1) continue;
        offsets.push_back({a, b, c});
      }
  std::map<std::pair<int32_t, int32_t>, int64_t> out;
  for (size_t q = 0; q < p.boxes.size(); ++q) {
    const GridBox& b = p.boxes[q];
    std::set<std::array<int64_t, 3>> ghosts;
    for (int64_t x = b.lo[0]; x < b.hi[0]; ++x)
      for (int64_t y = b.lo[1]; y < b.hi[1]; ++y)
        for (int64_t z = b.lo[2]; z < b.hi[2]; ++z)
          for (const auto& o : offsets) {
            std::array<int64_t, 3> g = {x + o[0], y + o[1], z + o[2]};
            bool inside = true;
            for (int d = 0; d < 3; ++d)
              inside = inside && g[d] >= b.lo[d] && g[d] < b.hi[d];
            if (!inside) ghosts.insert(g);
          }
    for (auto g : ghosts) {
      bool exists = true;
      for (int d = 0; d < 3; ++d) {
        if (g[d] >= 0 && g[d] < ext[d]) continue;
        if (d < dims && !periodic.empty() && periodic[d]) {
          g[d] = (g[d] % ext[d] + ext[d]) % ext[d];
        } else {
          exists = false;
        }
      }
      if (!exists) continue;
      const int32_t src = owner[(g[0] * ext[1] + g[1]) * ext[2] + g[2]];
      if (src != static_cast<int32_t>(q)) ++out[{src, static_cast<int32_t>(q)}];
    }
  }
  return out;
}

void ExpectMatchesOracle(const GridPartition& p,
                         const std::vector<bool>& periodic, Stencil s,
                         int32_t h, const std::string& what) {
  auto msgs = HaloMessages(p, periodic, s, h);
  ASSERT_THAT(msgs, IsOk()) << what << ": " << msgs.status();
  std::map<std::pair<int32_t, int32_t>, int64_t> got;
  for (const HaloMessage& m : *msgs) got[{m.src, m.dst}] += m.cells;
  EXPECT_EQ(got, BruteForce(p, periodic, s, h)) << what;
}

// A random column tiling of rows x cols with `procs` processes in random order.
ColumnTiling RandomTiling(int64_t rows, int64_t cols, int32_t procs,
                          std::mt19937_64& rng) {
  ColumnTiling t;
  t.rows = rows;
  t.cols = cols;
  const int32_t ncols =
      1 + static_cast<int32_t>(rng() % std::min<int64_t>(cols, procs));
  std::vector<int32_t> per(ncols, 1);
  for (int32_t k = ncols; k < procs; ++k) per[rng() % ncols]++;
  std::vector<int32_t> ids(procs);
  for (int32_t i = 0; i < procs; ++i) ids[i] = i;
  std::shuffle(ids.begin(), ids.end(), rng);
  auto split = [&](int64_t total, int32_t parts) {
    std::vector<int64_t> cut = {0, total};
    std::set<int64_t> inner;
    while (static_cast<int32_t>(inner.size()) < parts - 1)
      inner.insert(1 + rng() % (total - 1));
    cut.insert(cut.begin() + 1, inner.begin(), inner.end());
    std::vector<int64_t> sizes;
    for (size_t i = 0; i + 1 < cut.size(); ++i)
      sizes.push_back(cut[i + 1] - cut[i]);
    return sizes;
  };
  std::vector<int64_t> widths =
      ncols == 1 ? std::vector<int64_t>{cols} : split(cols, ncols);
  int32_t next = 0;
  for (int32_t j = 0; j < ncols; ++j) {
    ColumnTiling::Column c;
    c.width = widths[j];
    std::vector<int64_t> hs =
        per[j] == 1 ? std::vector<int64_t>{rows} : split(rows, per[j]);
    for (int64_t hgt : hs) c.cells.push_back({ids[next++], hgt});
    t.columns.push_back(c);
  }
  return t;
}

TEST(StencilTest, BlocksMatchBruteForce) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    const bool three = trial % 2 == 1;
    std::vector<int64_t> ext, pg;
    for (int d = 0; d < (three ? 3 : 2); ++d) {
      ext.push_back(2 + static_cast<int64_t>(rng() % (three ? 6 : 11)));
      pg.push_back(
          1 + static_cast<int64_t>(rng() % std::min<int64_t>(ext.back(), 4)));
    }
    GridPartition p = Blocks(ext, pg);
    std::vector<bool> per;
    for (size_t d = 0; d < ext.size(); ++d) per.push_back(rng() % 2 == 0);
    const int32_t h = 1 + static_cast<int32_t>(rng() % 2);
    for (Stencil s :
         three ? std::vector<Stencil>{Stencil::k7Point, Stencil::k27Point}
               : std::vector<Stencil>{Stencil::k5Point, Stencil::k9Point}) {
      ExpectMatchesOracle(p, per, s, h,
                          "blocks trial " + std::to_string(trial));
      ExpectMatchesOracle(p, {}, s, h,
                          "blocks (open) trial " + std::to_string(trial));
    }
  }
}

TEST(StencilTest, ColumnTilingsMatchBruteForce) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 40; ++trial) {
    const int64_t rows = 3 + rng() % 10, cols = 3 + rng() % 10;
    const int32_t procs =
        1 + static_cast<int32_t>(rng() % std::min<int64_t>(rows, 9));
    auto p =
        tiling::ColumnTilingPartition(RandomTiling(rows, cols, procs, rng));
    ASSERT_THAT(p, IsOk());
    EXPECT_TRUE(p->cuts.empty());
    const int32_t h = 1 + static_cast<int32_t>(rng() % 3);
    std::vector<bool> per = {rng() % 2 == 0, rng() % 2 == 0};
    ExpectMatchesOracle(*p, per, Stencil::k5Point, h,
                        "tiling " + std::to_string(trial));
    ExpectMatchesOracle(*p, per, Stencil::k9Point, h,
                        "tiling " + std::to_string(trial));
  }
}

// The tensor neighbour search and the all-pairs search agree on the same boxes.
TEST(StencilTest, TensorAndGeneralPathsAgree) {
  GridPartition p = Blocks({9, 7, 5}, {3, 2, 2});
  GridPartition general = p;
  general.cuts.clear();
  for (Stencil s : {Stencil::k7Point, Stencil::k27Point}) {
    auto a = HaloMessages(p, {true, false, true}, s, 2);
    auto b = HaloMessages(general, {true, false, true}, s, 2);
    ASSERT_THAT(a, IsOk());
    ASSERT_THAT(b, IsOk());
    EXPECT_EQ(*a, *b);
  }
}

// ---- Heterogeneous partitions, parsing, errors
// ------------------------------------

// Through the options: the graph has one vertex per speed and is connected.
TEST(StencilTest, SpeedsGiveOneConnectedVertexEach) {
  const std::vector<double> speeds = {5, 1, 2, 8, 3, 1, 4, 2, 6, 1};
  StencilOptions o;
  o.grid = {100, 90};
  o.speeds = speeds;
  auto g = StencilGraph(o);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 10);
  for (int v = 0; v < 10; ++v) EXPECT_GT(g->degree(v), 0);
  o.procs = 7;
  EXPECT_THAT(StencilGraph(o), Not(IsOk()));
}

// A column-based matrix partition read as boxes gets the halos the oracle
// counts (the boxes themselves are checked in tiling/grid_partition_test.cc).
TEST(StencilTest, MatrixPartitionsAsBoxes) {
  auto layout =
      tiling::ColumnBasedPartition(std::vector<double>{4, 3, 2, 1, 1});
  ASSERT_THAT(layout, IsOk());
  auto rects = tiling::ToIntegerPartition(*layout, 40, 30);
  ASSERT_THAT(rects, IsOk());
  auto boxes = tiling::MatrixPartitionBoxes(*rects);
  ASSERT_THAT(boxes, IsOk());
  ExpectMatchesOracle(*boxes, {}, Stencil::k9Point, 1, "column-based");
}

TEST(StencilTest, StencilsByPointCount) {
  EXPECT_EQ(*StencilFromPoints(27), Stencil::k27Point);
  EXPECT_EQ(*StencilFromPoints(9), Stencil::k9Point);
  EXPECT_EQ(StencilDims(*StencilFromPoints(7)), 3);
  EXPECT_TRUE(StencilHasDiagonals(*StencilFromPoints(9)));
  EXPECT_FALSE(StencilHasDiagonals(*StencilFromPoints(5)));
  EXPECT_EQ(std::string(StencilFromPoints(13).status().message()),
            "stencil: unknown stencil '13' (expected 5, 9, 7 or 27)");
}

TEST(StencilTest, RejectsBadInput) {
  GridPartition p = Blocks({4, 4}, {2, 2});
  EXPECT_THAT(HaloMessages(p, {}, Stencil::k7Point),
              Not(IsOk()));  // 3D stencil, 2D grid
  EXPECT_THAT(HaloMessages(p, {}, Stencil::k5Point, 0), Not(IsOk()));  // halo 0
  EXPECT_THAT(HaloMessages(p, {true}, Stencil::k5Point),
              Not(IsOk()));  // periodic length
  EXPECT_THAT(HaloMessages(p, {true, true}, Stencil::k5Point, 5), Not(IsOk()));
  EXPECT_THAT(HaloGraph(p, {}, Stencil::k5Point, 1, -8), Not(IsOk()));
  // Overlapping boxes (and a gap elsewhere, so the volume matches).
  GridPartition overlap = p;
  overlap.cuts.clear();
  overlap.boxes[1].lo[1] = 1;
  overlap.boxes[1].hi[1] = 3;
  EXPECT_THAT(HaloMessages(overlap, {}, Stencil::k5Point), Not(IsOk()));
  // Boxes that do not cover the grid.
  GridPartition gap = p;
  gap.cuts.clear();
  gap.boxes[3].hi[1] = 3;
  EXPECT_THAT(HaloMessages(gap, {}, Stencil::k5Point), Not(IsOk()));
  // Cuts that disagree with the boxes.
  GridPartition wrong = p;
  std::swap(wrong.boxes[0], wrong.boxes[3]);
  EXPECT_THAT(HaloMessages(wrong, {}, Stencil::k5Point), Not(IsOk()));
  StencilOptions o;
  o.grid = {16, 16, 16};
  o.points = 5;
  o.procs = 8;
  EXPECT_THAT(StencilGraph(o), Not(IsOk()));
  o.points = 7;
  EXPECT_THAT(StencilGraph(o), IsOk());
  o.procs = 0;
  EXPECT_THAT(StencilGraph(o), Not(IsOk()));
  o.proc_grid = {2, 2, 2};
  EXPECT_THAT(StencilGraph(o), IsOk());
  o.procs = 9;
  EXPECT_THAT(StencilGraph(o), Not(IsOk()));
}

// A halo that reaches every box makes P^2 messages: they are counted against
// the budget as they are found, and refused long before P^2.
TEST(StencilTest, HugeHalosStopAtTheBudget) {
  StencilOptions o;
  o.grid = {1000, 1000};
  o.procs = 10000;
  o.points = 9;
  o.halo = 1000;
  o.max_memory_bytes = 16 << 20;
  auto g = StencilGraph(o);
  ASSERT_THAT(g, Not(IsOk()));
  EXPECT_EQ(g.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(absl::StrContains(
      g.status().message(), "stencil: the halo exchange of 10000 processes"))
      << g.status();
  // A star reaches along one axis at a time: the same halo on 100 x 100
  // blocks gives each block its row and its column, 198 neighbours.
  o.points = 5;
  o.max_memory_bytes = 0;
  auto star = StencilGraph(o);
  ASSERT_THAT(star, IsOk());
  EXPECT_EQ(star->num_edges(), 10000 * 198 / 2);
}

// Column tilings take the bucket search: 5,000 processes of mixed speeds
// (the all-pairs test took 2.5e7 steps, 50,000 took minutes).
TEST(StencilTest, ColumnTilingsAtScale) {
  StencilOptions o;
  o.grid = {3000, 3000};
  for (int i = 0; i < 5000; ++i) o.speeds.push_back(1 + i % 7);
  auto g = StencilGraph(o);
  ASSERT_THAT(g, IsOk());
  EXPECT_EQ(g->num_vertices(), 5000);
  for (int v = 0; v < 5000; ++v) EXPECT_GT(g->degree(v), 0) << v;
}

}  // namespace
}  // namespace rankmap::graphs
