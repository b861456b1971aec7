#include "api/c_api.h"

#include <fstream>
#include <string>
#include <vector>

#include "core/mapper.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using ::testing::HasSubstr;

// The 4-cycle 0-1-2-3-0 with weight 5, as a symmetric CSR (both arcs listed).
struct Cycle {
  std::vector<int64_t> xadj = {0, 2, 4, 6, 8};
  std::vector<int32_t> adjncy = {1, 3, 0, 2, 1, 3, 0, 2};
  std::vector<double> adjwgt = std::vector<double>(8, 5.0);
};

TEST(CApi, MapsAndReportsJLikeTheCppApi) {
  Cycle c;
  rankmap_options opts;
  rankmap_options_init(&opts);
  opts.algorithm = "identity";
  std::vector<int32_t> mapping(4, -1);
  double j = 0;
  char err[128] = "";
  ASSERT_EQ(rankmap_map("tleaf 2 2 10 2 1", 4, c.xadj.data(), c.adjncy.data(),
                        c.adjwgt.data(), nullptr, &opts, mapping.data(), &j,
                        err, sizeof err),
            0)
      << err;
  EXPECT_EQ(mapping, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(j,
            120.0);  // the hand-computed identity cost of the foundation issue

  opts.algorithm = nullptr;  // portfolio: the cycle fits pairs 0-1 and 2-3 ...
                             // any optimum is 120
  ASSERT_EQ(rankmap_map("tleaf 2 2 10 2 1", 4, c.xadj.data(), c.adjncy.data(),
                        c.adjwgt.data(), nullptr, &opts, mapping.data(), &j,
                        err, sizeof err),
            0)
      << err;
  EXPECT_EQ(j, 120.0);
  std::vector<int32_t> sorted = mapping;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int32_t>{0, 1, 2, 3}));
}

TEST(CApi, SameResultAsCppMapOnAStencil) {
  graphs::CommGraph g = testing::Permute(testing::MakeGrid2D(8, 8, 3.0),
                                         testing::RandomPermutation(64, 5));
  std::vector<int64_t> xadj(g.xadj().begin(), g.xadj().end());
  std::vector<int32_t> adjncy(g.adjncy().begin(), g.adjncy().end());
  std::vector<double> adjwgt(g.adjwgt().begin(), g.adjwgt().end());
  rankmap_options opts;
  rankmap_options_init(&opts);
  opts.seed = 3;
  std::vector<int32_t> mapping(64);
  double j = 0;
  char err[128];
  ASSERT_EQ(rankmap_map("tleaf 3 4 100 2 10 8 1", 64, xadj.data(),
                        adjncy.data(), adjwgt.data(), nullptr, &opts,
                        mapping.data(), &j, err, sizeof err),
            0)
      << err;
  MappingOptions cpp;
  cpp.seed = 3;
  auto expected = Map(testing::MakeTleaf("3 4 100 2 10 8 1"), g, cpp);
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(mapping, *expected);
  EXPECT_EQ(j, ComputeJ(testing::MakeTleaf("3 4 100 2 10 8 1"), g, *expected));
}

TEST(CApi, ProcessSpeedsKeepVerticesOnLeavesOfTheirSpeed) {
  // Two nodes of two cores, the second 4x faster.
  const std::string spec = ::testing::TempDir() + "/two_speeds.net";
  std::ofstream(spec) << "network\ncluster c\nspeed 1\n1 x core:2\nspeed 4\n"
                         "1 x core:2\n";
  Cycle c;
  rankmap_options opts;
  rankmap_options_init(&opts);
  opts.algorithm = "identity";
  std::vector<int32_t> mapping(4, -1);
  char err[256] = "";
  ASSERT_EQ(rankmap_map_speeds(spec.c_str(), 4, c.xadj.data(), c.adjncy.data(),
                               c.adjwgt.data(), nullptr, nullptr, &opts,
                               mapping.data(), nullptr, err, sizeof err),
            0)
      << err;
  EXPECT_EQ(mapping, (std::vector<int32_t>{0, 1, 2, 3}));
  const double speeds[] = {4, 4, 1, 1};
  ASSERT_EQ(rankmap_map_speeds(spec.c_str(), 4, c.xadj.data(), c.adjncy.data(),
                               c.adjwgt.data(), nullptr, speeds, &opts,
                               mapping.data(), nullptr, err, sizeof err),
            0)
      << err;
  for (int u = 0; u < 4; ++u) EXPECT_EQ(mapping[u] >= 2, speeds[u] == 4) << u;
  const double too_many_fast[] = {4, 4, 4, 0};
  EXPECT_NE(rankmap_map_speeds(spec.c_str(), 4, c.xadj.data(), c.adjncy.data(),
                               c.adjwgt.data(), nullptr, too_many_fast, &opts,
                               mapping.data(), nullptr, err, sizeof err),
            0);
  EXPECT_STREQ(err,
               "speeds: 3 processes need speed 4 but the topology has 2 slots "
               "of that speed");
}

TEST(CApi, ErrorsComeBackAsMessages) {
  Cycle c;
  std::vector<int32_t> mapping(4);
  char err[128] = "";
  EXPECT_NE(rankmap_map("tleaf 2 2", 4, c.xadj.data(), c.adjncy.data(),
                        c.adjwgt.data(), nullptr, nullptr, mapping.data(),
                        nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("tleaf"));
  c.adjncy[0] = 9;
  EXPECT_NE(rankmap_map("tleaf 2 2 10 2 1", 4, c.xadj.data(), c.adjncy.data(),
                        c.adjwgt.data(), nullptr, nullptr, mapping.data(),
                        nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("out of range"));
  c.adjncy[0] = 1;
  c.xadj[2] = 1;  // decreasing offsets
  EXPECT_NE(rankmap_map("tleaf 2 2 10 2 1", 4, c.xadj.data(), c.adjncy.data(),
                        c.adjwgt.data(), nullptr, nullptr, mapping.data(),
                        nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("decreases"));
  EXPECT_NE(rankmap_map(nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr,
                        nullptr, nullptr, err, sizeof err),
            0);
  rankmap_options opts;
  rankmap_options_init(&opts);
  opts.algorithm = "best";
  EXPECT_NE(rankmap_map("tleaf 2 2 10 2 1", 0, nullptr, nullptr, nullptr,
                        nullptr, &opts, nullptr, nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("unknown algorithm"));
}

TEST(CApi, AGarbageXadjEndIsRefusedBeforeAnythingIsReserved) {
  // xadj[n] = 2^40 on a 2-vertex graph: the builder must not reserve 2^40 arcs.
  const std::vector<int64_t> xadj = {0, 1, int64_t{1} << 40};
  const std::vector<int32_t> adjncy = {1};
  const std::vector<double> adjwgt = {1.0};
  std::vector<int32_t> mapping(2);
  char err[256] = "";
  EXPECT_NE(
      rankmap_map("tleaf 1 2 1", 2, xadj.data(), adjncy.data(), adjwgt.data(),
                  nullptr, nullptr, mapping.data(), nullptr, err, sizeof err),
      0);
  EXPECT_THAT(std::string(err),
              HasSubstr("rankmap_map: a graph of 2 vertices and 1099511627776 "
                        "arcs (xadj[n]) needs about 32.0 TiB"));
  // A topology beyond the budget is refused as well, without an exception.
  const std::vector<int64_t> ok_xadj = {0, 1, 2};
  const std::vector<int32_t> ok_adjncy = {1, 0};
  const std::vector<double> ok_adjwgt = {1.0, 1.0};
  EXPECT_NE(rankmap_map("tleaf 1 1073741824 1", 2, ok_xadj.data(),
                        ok_adjncy.data(), ok_adjwgt.data(), nullptr, nullptr,
                        mapping.data(), nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("needs about 256.0 GiB"));
}

}  // namespace
}  // namespace rankmap::core
