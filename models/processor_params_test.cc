#include "models/processor_params.h"

#include <vector>

#include "base/status_matchers.h"
#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::models {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

TEST(ResolveProcessorsTest, LeafHostAndHostOs) {
  // Hosts n0, n1 of two PUs each, os indexes 0 and 2.
  const topology::Tree t = testing::MakeHostsTree(2, 2);
  EXPECT_EQ(*ResolveProcessors("2", t), (std::vector<LeafId>{2}));
  EXPECT_EQ(*ResolveProcessors("n1", t), (std::vector<LeafId>{2, 3}));
  EXPECT_EQ(*ResolveProcessors("n0:2", t), (std::vector<LeafId>{1}));
  EXPECT_THAT(ResolveProcessors("4", t), Not(IsOk()));
  EXPECT_THAT(ResolveProcessors("n2", t), Not(IsOk()));
  EXPECT_THAT(ResolveProcessors("n0:5", t), Not(IsOk()));
  EXPECT_THAT(ResolveProcessors("n0:x", t), Not(IsOk()));
  // A tree without host names: ":<os>".
  topology::TreeBuilder b;
  const auto r = b.AddRoot("Machine");
  b.SetOsIndex(b.AddChild(r, "PU"), 1);
  b.SetOsIndex(b.AddChild(r, "PU"), 0);
  const topology::Tree one = *std::move(b).Build();
  EXPECT_EQ(*ResolveProcessors(":0", one), (std::vector<LeafId>{1}));
}

TEST(PointParamsTest, SparseSymmetricLookups) {
  PointParams p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.FindProcessor(1), nullptr);
  EXPECT_EQ(p.FindPair(1, 2), nullptr);
  p.processor(1).lmo_c = 3.0;
  p.pair(3, 0).lmo_rate = 5.0;
  p.pair(2, 1).hloggp_G = 7.0;
  p.pair(0, 3).lmo_l = 6.0;
  EXPECT_FALSE(p.empty());
  EXPECT_EQ(*p.FindProcessor(1)->lmo_c, 3.0);
  EXPECT_EQ(p.FindProcessor(2), nullptr);
  EXPECT_EQ(p.FindProcessor(7), nullptr);
  EXPECT_EQ(*p.FindPair(0, 3)->lmo_rate, 5.0);
  EXPECT_EQ(*p.FindPair(3, 0)->lmo_l, 6.0);
  EXPECT_EQ(*p.FindPair(1, 2)->hloggp_G, 7.0);
  EXPECT_EQ(p.FindPair(0, 1), nullptr);
}

}  // namespace
}  // namespace rankmap::models
