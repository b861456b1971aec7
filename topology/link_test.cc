#include "topology/link.h"

#include <string>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Link, ParsesSimGridUnits) {
  EXPECT_EQ(*ParseBandwidth("10Gbps"), 1.25e9);
  EXPECT_EQ(*ParseBandwidth("1.25GBps"), 1.25e9);
  EXPECT_EQ(*ParseBandwidth("1GiBps"), 1073741824.0);
  EXPECT_EQ(*ParseBandwidth("8bps"), 1.0);
  EXPECT_EQ(*ParseBandwidth("100kBps"), 1e5);
  EXPECT_EQ(*ParseBandwidth("5e8"), 5e8);
  EXPECT_EQ(*ParseLatency("1.5us"), 1.5e-6);
  EXPECT_EQ(*ParseLatency("5us"), 5e-6);
  EXPECT_EQ(*ParseLatency("2ms"), 2e-3);
  EXPECT_EQ(*ParseLatency("0"), 0.0);
  EXPECT_EQ(*ParseLatency("3s"), 3.0);
  auto l = ParseLink("10Gbps:2us");
  ASSERT_THAT(l, IsOk());
  EXPECT_EQ(l->bandwidth, 1.25e9);
  EXPECT_EQ(l->latency, 2e-6);
}

TEST(Link, RefusesWhatIsNotALink) {
  for (const char* bad :
       {"", "fast", "-1Gbps", "0Gbps", "1Xbps", "Gbps", "inf", "nan"}) {
    EXPECT_THAT(ParseBandwidth(bad), Not(IsOk())) << bad;
  }
  for (const char* bad : {"", "-1us", "1 us", "1parsec", "us", "nan"}) {
    EXPECT_THAT(ParseLatency(bad), Not(IsOk())) << bad;
  }
  auto l = ParseLink("10Gbps");
  ASSERT_THAT(l, Not(IsOk()));
  EXPECT_THAT(std::string(l.status().message()),
              HasSubstr("expected <bandwidth>:<latency>"));
  l = ParseLink("10Gbps:soon", "level 2");
  ASSERT_THAT(l, Not(IsOk()));
  EXPECT_THAT(std::string(l.status().message()),
              HasSubstr("level 2 latency: expected a non-negative latency"));
}

TEST(Link, FormatsShortAndExact) {
  EXPECT_EQ(FormatBandwidth(1.25e9), "1.25GBps");
  EXPECT_EQ(FormatBandwidth(1e5), "100kBps");
  EXPECT_EQ(FormatBandwidth(26 * 1024 * 1024), "27262976Bps");
  EXPECT_EQ(FormatBandwidth(3.0), "3Bps");
  EXPECT_EQ(FormatLatency(*ParseLatency("1.5us")), "1.5us");
  EXPECT_EQ(FormatLatency(2e-3), "2ms");
  EXPECT_EQ(FormatLatency(0), "0s");
  EXPECT_EQ(FormatLink(Link{1.25e9, 5e-6}), "1.25GBps:5us");
  // Every value reads back as the same double.
  for (double bw : {1.25e9, 1e5, 3.0, 123456789.123, 1.0 / 3, 7e12, 0.5}) {
    EXPECT_EQ(*ParseBandwidth(FormatBandwidth(bw)), bw) << bw;
  }
  for (double lat : {1e-6, 1.5e-6, 2e-3, 1.0 / 3, 1e-10, 4e-6, 0.0, 12.0}) {
    EXPECT_EQ(*ParseLatency(FormatLatency(lat)), lat) << lat;
  }
}

TEST(Link, RouteCostIsReferenceMessageTimeInMicroseconds) {
  Route r;
  EXPECT_EQ(RouteCost(r), 0.0);
  r.Add(Link{1.25e9, 2e-6});
  r.Add(Link{});  // not given: not on the route
  r.Add(Link{2.5e9, 1e-6});
  EXPECT_EQ(r.latency, 3e-6);
  EXPECT_EQ(r.bandwidth, 1.25e9);
  // 3 us + 65536 B / 1.25e9 B/s = 3 + 52.4288 us.
  EXPECT_NEAR(RouteCost(r), 55.4288, 1e-9);
}

}  // namespace
}  // namespace rankmap::topology
