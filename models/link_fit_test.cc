#include "models/link_fit.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"

namespace rankmap::models {
namespace {

// Four ranks on four hosts... the platform of the oracle, by hand: hosts of
// two ranks (loopback 40 GB/s, 0.5 us), host links 1.25 GB/s, 2 us, two
// switches whose links carry 2.5 GB/s after 5 us. Ranks 0, 1 on n0, 2 on n1
// (same switch), 3 on n2 (the other switch). One-way times with the
// latencies multiplied by lat and the bandwidths by bw (SMPI's factors, or
// 1).
std::string Probe(double lat, double bw, double acks) {
  std::string out =
      "link-probe 1 4\nrank 0 n0 0\nrank 1 n0 1\nrank 2 n1 0\nrank 3 n2 0\n"
      "group n0 0\ngroup n1 0\ngroup n2 1\n";
  auto pingpong = [&](int peer, double latency, double bandwidth) {
    for (double b : {1.0, 8.0, 64.0, 128.0, 262144.0, 1048576.0}) {
      absl::StrAppend(&out, absl::StrFormat("pingpong 0 %d %.0f %.12e\n", peer,
                                            b, latency * lat + b / (bandwidth * bw)));
    }
  };
  pingpong(1, 0.5e-6, 40e9 / acks);
  pingpong(2, 4e-6, 1.25e9);
  pingpong(3, 14e-6, 1.25e9);
  // Two flows of 2 MiB over n0's link; four hosts... here one host per
  // switch is enough to reveal nothing: two flows at 2.5 GB/s would fit.
  absl::StrAppend(&out, absl::StrFormat("stream host 1 4194304 %.12e 0:2\n",
                                        4e-6 * lat + 4194304 / (1.25e9 * bw)));
  absl::StrAppend(&out, absl::StrFormat("stream switch 2 4194304 %.12e 0:3 2:3\n",
                                        14e-6 * lat + 4194304 / (2.5e9 * bw)));
  return out;
}

void ExpectLinks(const LinkFit& fit) {
  EXPECT_NEAR(fit.node.bandwidth, 40e9, 40e9 * 1e-6);
  EXPECT_NEAR(fit.node.latency, 0.5e-6, 1e-12);
  EXPECT_NEAR(fit.cluster.bandwidth, 1.25e9, 1.25e9 * 1e-6);
  EXPECT_NEAR(fit.cluster.latency, 2e-6, 1e-12);
  EXPECT_NEAR(fit.network.bandwidth, 2.5e9, 2.5e9 * 1e-3);
  EXPECT_NEAR(fit.network.latency, 5e-6, 1e-12);
}

TEST(LinkFitTest, RecoversTheLinksOfEachLevel) {
  absl::StatusOr<LinkProbe> p = ParseLinkProbe(Probe(1, 1, 1), "p.txt");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->hosts, (std::vector<std::string>{"n0", "n1", "n2"}));
  EXPECT_EQ(p->group, (std::vector<int32_t>{0, 0, 1}));
  absl::StatusOr<LinkFit> fit = FitLinks(*p, {{1, "Core"}}, core::LinkModel::kExact);
  ASSERT_TRUE(fit.ok()) << fit.status();
  ASSERT_EQ(fit->levels.size(), 3u);
  EXPECT_EQ(fit->levels[0].name, "Core");
  EXPECT_EQ(fit->levels[1].name, "switch");
  EXPECT_EQ(fit->levels[2].name, "network");
  ExpectLinks(*fit);
  EXPECT_EQ(FormatHockneyParams(*fit).substr(0, 1), "#");
  EXPECT_NE(FormatHockneyParams(*fit).find("level switch hockney alpha=4e-06 "
                                           "beta=8e-10"),
            std::string::npos);
}

// Under SMPI's model the times carry its factors (and a loopback's
// acknowledgements): the links written are the nominal ones.
TEST(LinkFitTest, NominalLinksUnderSmpisModel) {
  const double lat = core::SmpiLatencyFactor(128);
  const double bw = core::SmpiBandwidthFactor(262144);
  absl::StatusOr<LinkProbe> p = ParseLinkProbe(Probe(lat, bw, 1.05), "p.txt");
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<LinkFit> fit = FitLinks(*p, {}, core::LinkModel::kSmpi);
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_EQ(fit->levels[0].name, "intranode");
  ExpectLinks(*fit);
}

// A busy machine: the larger messages were not slower. The bandwidth is the
// largest message's rate past the latency, and a note says so.
TEST(LinkFitTest, NoiseIsANoteNotAnError) {
  std::string text = Probe(1, 1, 1);
  text += "pingpong 0 1 4194304 1e-5\n";  // faster than the 1 MB one
  absl::StatusOr<LinkProbe> p = ParseLinkProbe(text, "p.txt");
  ASSERT_TRUE(p.ok()) << p.status();
  absl::StatusOr<LinkFit> fit = FitLinks(*p, {}, core::LinkModel::kExact);
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_EQ(fit->levels[0].name, "intranode");
  EXPECT_TRUE(fit->levels[0].noisy);
  EXPECT_NEAR(fit->levels[0].bandwidth, 4194304 / (1e-5 - 0.5e-6),
              1e-3 * fit->levels[0].bandwidth);
  ASSERT_FALSE(fit->notes.empty());
  EXPECT_NE(fit->notes[0].find("rank 0 and rank 1 (intranode): larger "
                               "messages were not slower"),
            std::string::npos);
}

TEST(LinkFitTest, BadProbesAreOneLineEach) {
  EXPECT_EQ(ParseLinkProbe("hello\n", "p.txt").status().message(),
            "p.txt:1: expected 'link-probe 1 <ranks>' (sim/link_probe)");
  EXPECT_EQ(ParseLinkProbe("link-probe 1 2\nrank 0 a 0\n", "p.txt")
                .status()
                .message(),
            "p.txt:1: no 'rank 1' line");
  EXPECT_EQ(ParseLinkProbe("link-probe 1 1\nrank 0 a 0\ngroup a 0\npingpong 0 "
                           "5 1 1\n",
                           "p.txt")
                .status()
                .message(),
            "p.txt:4: field 3: expected a rank below 1");
  EXPECT_EQ(ParseLinkProbe("link-probe 1 1\nrank 0 a 0\n", "p.txt")
                .status()
                .message(),
            "p.txt:2: no group for host a");
  absl::StatusOr<LinkProbe> one =
      ParseLinkProbe("link-probe 1 2\nrank 0 a 0\nrank 1 a 1\ngroup a 0\n", "p");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(FitLinks(*one, {}, core::LinkModel::kExact).status().message(),
            "calibrate: every rank ran on one host; run ranks on two hosts or "
            "more to measure the network");
}

}  // namespace
}  // namespace rankmap::models
