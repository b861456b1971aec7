#include "core/objective/link_load.h"

#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/tleaf.h"

namespace rankmap::core {
namespace {

// Two hosts of two cores: 1 GB/s, 1 us host links, 10 GB/s, 0.5 us
// loopbacks. Edges 0-1 (4 MB), 1-2 (2 MB), 2-3 (1 MB), 0-3 (6 MB).
graphs::CommGraph FourProcesses() {
  graphs::CommGraphBuilder b(4);
  EXPECT_TRUE(b.AddEdge(0, 1, 4e6).ok());
  EXPECT_TRUE(b.AddEdge(1, 2, 2e6).ok());
  EXPECT_TRUE(b.AddEdge(2, 3, 1e6).ok());
  EXPECT_TRUE(b.AddEdge(0, 3, 6e6).ok());
  return std::move(b).Build().value();
}

TEST(LinkLoadTest, HandComputedOnTwoHosts) {
  const topology::Tree t =
      topology::ParseTleaf("tleaf 2 2 1GBps:1us 2 10GBps:0.5us").value();
  ASSERT_TRUE(t.has_links());
  const graphs::CommGraph g = FourProcesses();
  // Packed: 1-2 and 0-3 cross, 8 MB on each host link, 4 MB each way:
  // 4e6 / 1e9 = 4 ms. Loopbacks: 4 MB / 10 GB/s and 1 MB / 10 GB/s. The
  // longest route: host link, host link, 2 us.
  const LinkLoad packed = EstimateLinkLoad(t, g, {0, 1, 2, 3});
  EXPECT_DOUBLE_EQ(packed.busiest, 4e-3);
  EXPECT_DOUBLE_EQ(packed.latency, 2e-6);
  EXPECT_DOUBLE_EQ(packed.seconds, 4.002e-3);
  // 0, 3 on the first host and 1, 2 on the second: 0-1 and 2-3 cross, 5 MB:
  // 2.5 ms.
  const LinkLoad paired = EstimateLinkLoad(t, g, {0, 2, 3, 1});
  EXPECT_DOUBLE_EQ(paired.busiest, 2.5e-3);
  EXPECT_DOUBLE_EQ(paired.seconds, 2.502e-3);
  // Only 0-1, inside the first host: the loopback carries both directions,
  // 4 MB / 10 GB/s, behind its 0.5 us.
  graphs::CommGraphBuilder b(2);
  ASSERT_TRUE(b.AddEdge(0, 1, 4e6).ok());
  const LinkLoad inside =
      EstimateLinkLoad(t, std::move(b).Build().value(), {0, 1});
  EXPECT_DOUBLE_EQ(inside.busiest, 4e-4);
  EXPECT_DOUBLE_EQ(inside.latency, 0.5e-6);
}

TEST(LinkLoadTest, ZeroWithoutLinks) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  const LinkLoad l = EstimateLinkLoad(t, FourProcesses(), {0, 1, 2, 3});
  EXPECT_EQ(l.seconds, 0.0);
  EXPECT_EQ(l.busiest, 0.0);
  EXPECT_EQ(l.latency, 0.0);
}

}  // namespace
}  // namespace rankmap::core
