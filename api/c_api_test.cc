#include "api/c_api.h"

#include <fstream>
#include <string>
#include <vector>

#include "api/partition.h"
#include "core/mapper.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"

namespace rankmap::api {
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
  core::MappingOptions cpp;
  cpp.seed = 3;
  auto expected = core::Map(testing::MakeTleaf("3 4 100 2 10 8 1"), g, cpp);
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(mapping, *expected);
  EXPECT_EQ(
      j, core::ComputeJ(testing::MakeTleaf("3 4 100 2 10 8 1"), g, *expected));
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

// Two hosts of two cores with links; 0-1 send 1,000 messages of 8 bytes, 0-2
// one of 100,000 bytes, 2-3 one of 10 (api/map_outcome_test.cc computes the
// times by hand). As a symmetric CSR: both arcs of each pair listed.
constexpr char kTwoHosts[] = "tleaf 2 2 25Gbps:1us 2 40GBps:0.5us";
struct Traffic {
  std::vector<int64_t> xadj = {0, 2, 3, 5, 6};
  std::vector<int32_t> adjncy = {1, 2, 0, 0, 3, 2};
  std::vector<double> adjwgt = {8000, 100000, 8000, 100000, 10, 10};
  std::vector<double> adjmsg = {1000, 1, 1000, 1, 1, 1};
};

TEST(CApi, MessageCountsChooseByTimeAndTheReportSaysWhy) {
  Traffic t;
  rankmap_options opts;
  rankmap_options_init(&opts);
  rankmap_choice choice;
  rankmap_choice_init(&choice);
  EXPECT_EQ(choice.objective, nullptr);
  EXPECT_EQ(choice.keep_margin, 0.02);
  std::vector<int32_t> mapping(4, -1);
  double j = 0;
  rankmap_report report;
  char err[256] = "";
  // A present order that splits 0 from 1: replaced, T from 2007.56 us to
  // 534.70 us.
  const int32_t present[] = {0, 2, 1, 3};
  choice.present = present;
  ASSERT_EQ(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), t.adjmsg.data(), nullptr,
                                nullptr, &opts, &choice, mapping.data(), &j,
                                &report, err, sizeof err),
            0)
      << err;
  EXPECT_EQ(mapping[0] / 2, mapping[1] / 2);
  EXPECT_EQ(report.verdict, RANKMAP_PRESENT_REPLACED);
  EXPECT_STREQ(report.verdict_name, "replaced");
  EXPECT_STREQ(report.objective, "time");
  EXPECT_NEAR(report.present_cost, 2007.5632e-6, 1e-12);
  EXPECT_NEAR(report.chosen_cost, 534.70025e-6, 1e-12);
  int64_t moved = 0;
  for (int p = 0; p < 4; ++p) moved += mapping[p] != present[p];
  EXPECT_EQ(report.moved, moved);
  // j is J (bytes x distance) whatever the objective: 0-1 and 2-3 on a host
  // (distance of the loopback's cost), 0-2 across.
  const topology::Tree tree = *topology::ParseTleaf(kTwoHosts);
  EXPECT_EQ(j, 8000 * tree.Distance(mapping[0], mapping[1]) +
                   100000 * tree.Distance(mapping[0], mapping[2]) +
                   10 * tree.Distance(mapping[2], mapping[3]));

  // The same request from C++ gives the same mapping.
  graphs::CommGraphBuilder b(4);
  ASSERT_TRUE(b.AddTraffic(0, 1, 8000, 1000).ok());
  ASSERT_TRUE(b.AddTraffic(0, 2, 100000, 1).ok());
  ASSERT_TRUE(b.AddTraffic(2, 3, 10, 1).ok());
  core::MappingOptions cpp;
  cpp.present = {0, 2, 1, 3};
  EXPECT_EQ(mapping, *core::Map(tree, *std::move(b).Build(), cpp));

  // By J, 0 goes with 2; the present order is weighed by J.
  choice.objective = "j";
  ASSERT_EQ(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), t.adjmsg.data(), nullptr,
                                nullptr, &opts, &choice, mapping.data(), &j,
                                &report, err, sizeof err),
            0)
      << err;
  EXPECT_EQ(mapping[0] / 2, mapping[2] / 2);
  EXPECT_STREQ(report.objective, "J");

  // Without counts the objective is J; insisting on time is an error.
  choice.objective = "time";
  EXPECT_NE(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), nullptr, nullptr, nullptr,
                                &opts, &choice, mapping.data(), &j, &report,
                                err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("needs message counts"));
  choice.objective = "fastest";
  EXPECT_NE(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), t.adjmsg.data(), nullptr,
                                nullptr, &opts, &choice, mapping.data(), &j,
                                &report, err, sizeof err),
            0);
  EXPECT_STREQ(err, "unknown objective 'fastest' (expected auto, j, time)");
}

TEST(CApi, TheOlderCallsAreTheNewOneWithoutExtras) {
  Traffic t;
  rankmap_options opts;
  rankmap_options_init(&opts);
  opts.seed = 9;
  std::vector<int32_t> old_call(4), new_call(4);
  double j_old = 0, j_new = 0;
  rankmap_report report;
  char err[256] = "";
  ASSERT_EQ(
      rankmap_map(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(), t.adjwgt.data(),
                  nullptr, &opts, old_call.data(), &j_old, err, sizeof err),
      0)
      << err;
  ASSERT_EQ(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), nullptr, nullptr, nullptr,
                                &opts, nullptr, new_call.data(), &j_new,
                                &report, err, sizeof err),
            0)
      << err;
  EXPECT_EQ(old_call, new_call);
  EXPECT_EQ(j_old, j_new);
  // No counts: J, and the identity was weighed by it.
  EXPECT_STREQ(report.objective, "J");
  EXPECT_NE(report.verdict, RANKMAP_PRESENT_NOT_WEIGHED);
  // An explicit baseline weighs nothing.
  opts.algorithm = "round-robin";
  ASSERT_EQ(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), t.adjmsg.data(), nullptr,
                                nullptr, &opts, nullptr, new_call.data(),
                                &j_new, &report, err, sizeof err),
            0)
      << err;
  EXPECT_EQ(report.verdict, RANKMAP_PRESENT_NOT_WEIGHED);
  EXPECT_STREQ(report.verdict_name, "not weighed");
  EXPECT_STREQ(report.objective, "");
}

TEST(CApi, BadCountsAndPresentOrdersAreRefused) {
  Traffic t;
  std::vector<int32_t> mapping(4);
  char err[256] = "";
  t.adjmsg[1] = -1;
  EXPECT_NE(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), t.adjmsg.data(), nullptr,
                                nullptr, nullptr, nullptr, mapping.data(),
                                nullptr, nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("message"));
  t.adjmsg[1] = 1;
  rankmap_choice choice;
  rankmap_choice_init(&choice);
  const int32_t twice[] = {0, 0, 1, 2};
  choice.present = twice;
  EXPECT_NE(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), t.adjmsg.data(), nullptr,
                                nullptr, nullptr, &choice, mapping.data(),
                                nullptr, nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("present order"));
  choice.present = nullptr;
  choice.keep_margin = 1.0;
  EXPECT_NE(rankmap_map_traffic(kTwoHosts, 4, t.xadj.data(), t.adjncy.data(),
                                t.adjwgt.data(), t.adjmsg.data(), nullptr,
                                nullptr, nullptr, &choice, mapping.data(),
                                nullptr, nullptr, err, sizeof err),
            0);
  EXPECT_THAT(std::string(err), HasSubstr("keep_margin"));
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
}  // namespace rankmap::api

namespace rankmap::api {
namespace {

// A symmetric CSR of a graph (both arcs of every edge).
struct Csr {
  std::vector<int64_t> xadj = {0};
  std::vector<int32_t> adjncy;
  std::vector<double> adjwgt;
};

Csr CsrOf(const graphs::CommGraph& g) {
  Csr c;
  for (graphs::VertexId u = 0; u < g.num_vertices(); ++u) {
    for (size_t e = 0; e < g.neighbors(u).size(); ++e) {
      c.adjncy.push_back(g.neighbors(u)[e]);
      c.adjwgt.push_back(g.weights(u)[e]);
    }
    c.xadj.push_back(static_cast<int64_t>(c.adjncy.size()));
  }
  return c;
}

// rankmap_partition gives what the C++ front door gives, with its report.
TEST(CApi, PartitionIsTheFrontDoorsPartition) {
  const char* machine = "tleaf 2 2 1GBps:2us 4 10GBps:0.5us";
  const graphs::CommGraph mesh = testing::Permute(
      testing::MakeGrid2D(16, 12), testing::RandomPermutation(192, 2));
  const Csr c = CsrOf(mesh);
  rankmap_exchange ex;
  rankmap_exchange_init(&ex);
  ex.bytes_per_unit = 40;
  std::vector<int32_t> part(192, -1);
  rankmap_partition_report r;
  char err[256] = "";
  ASSERT_EQ(rankmap_partition(machine, 192, c.xadj.data(), c.adjncy.data(),
                              c.adjwgt.data(), nullptr, nullptr, nullptr, &ex,
                              part.data(), &r, err, sizeof err),
            0)
      << err;
  core::MappingOptions o;
  o.exchange = {.bytes_per_unit = 40,
                .source = core::ExchangeModel::Source::kGiven};
  const PartitionOutcome out =
      Partition(topology::ParseTleaf(machine).value(), mesh, o).value();
  EXPECT_EQ(part, out.mapping);
  EXPECT_EQ(r.weighed, 1);
  EXPECT_STREQ(r.objective, "time");
  EXPECT_EQ(std::string(r.winner), out.choice.winner);
  EXPECT_THAT(r.model, HasSubstr("40 B per unit of edge weight and 1 message"));
  EXPECT_THAT(r.model, HasSubstr("(given)"));
  EXPECT_EQ(r.chosen_seconds, out.choice.chosen.seconds);
  EXPECT_EQ(r.status_quo_seconds, out.choice.status_quo.seconds);
  EXPECT_LE(r.chosen_seconds, r.status_quo_seconds);
  EXPECT_EQ(r.j, out.cost.j);
  EXPECT_LE(r.imbalance, 0.03 + 1e-12);
  // Without a model the report names the default.
  ASSERT_EQ(rankmap_partition(machine, 192, c.xadj.data(), c.adjncy.data(),
                              c.adjwgt.data(), nullptr, nullptr, nullptr,
                              nullptr, part.data(), &r, err, sizeof err),
            0)
      << err;
  EXPECT_THAT(r.model, HasSubstr("(default)"));
  // A profile without its partition, a bad topology: one-line errors.
  ex.profile = "run.mat";
  EXPECT_NE(rankmap_partition(machine, 192, c.xadj.data(), c.adjncy.data(),
                              c.adjwgt.data(), nullptr, nullptr, nullptr, &ex,
                              part.data(), &r, err, sizeof err),
            0);
  EXPECT_THAT(err, HasSubstr("profile_partition"));
  EXPECT_NE(rankmap_partition("tleaf 2 x", 192, c.xadj.data(), c.adjncy.data(),
                              c.adjwgt.data(), nullptr, nullptr, nullptr,
                              nullptr, part.data(), &r, err, sizeof err),
            0);
}

}  // namespace
}  // namespace rankmap::api
