#include "topology/binding.h"

#include <algorithm>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(FormatPuListTest, CompressesRanges) {
  EXPECT_EQ(FormatPuList(std::vector<int32_t>{8, 0, 1, 2, 3, 3}), "0-3,8");
  EXPECT_EQ(FormatPuList(std::vector<int32_t>{5}), "5");
  EXPECT_EQ(FormatPuList(std::vector<int32_t>{1, 3, 4}), "1,3-4");
  EXPECT_EQ(FormatPuList(std::vector<int32_t>{}), "");
}

TEST(ParsePuListTest, ParsesAndRoundTrips) {
  absl::StatusOr<std::vector<int32_t>> v = ParsePuList("0-3,8");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_THAT(*v, ElementsAre(0, 1, 2, 3, 8));
  EXPECT_EQ(FormatPuList(*v), "0-3,8");
  EXPECT_TRUE(ParsePuList("")->empty());
}

TEST(ParsePuListTest, NamesTheBadColumn) {
  absl::StatusOr<std::vector<int32_t>> v = ParsePuList("0-x");
  ASSERT_FALSE(v.ok());
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("at column 3"));
  EXPECT_FALSE(ParsePuList("3-1").ok());
  EXPECT_FALSE(ParsePuList("1,,2").ok());
  EXPECT_FALSE(ParsePuList("99999999999").ok());
}

TEST(BindingTest, CurrentBindingIsNonEmptyAndSorted) {
  absl::StatusOr<std::vector<int32_t>> pus = CurrentBindingPus();
  ASSERT_TRUE(pus.ok()) << pus.status();
  ASSERT_FALSE(pus->empty());
  EXPECT_TRUE(std::is_sorted(pus->begin(), pus->end()));
}

TEST(BindingTest, BindToOnePuThenRestore) {
  absl::StatusOr<std::vector<int32_t>> before = CurrentBindingPus();
  ASSERT_TRUE(before.ok()) << before.status();
  const int32_t last = before->back();
  ASSERT_TRUE(BindToPus(std::vector<int32_t>{last}).ok());
  absl::StatusOr<std::vector<int32_t>> now = CurrentBindingPus();
  ASSERT_TRUE(now.ok());
  EXPECT_THAT(*now, ElementsAre(last));
  // Binding to the NUMA node of that PU widens the set again and keeps the PU
  // in it.
  ASSERT_TRUE(BindToNumaOf(last).ok());
  now = CurrentBindingPus();
  ASSERT_TRUE(now.ok());
  EXPECT_TRUE(std::binary_search(now->begin(), now->end(), last));
  ASSERT_TRUE(BindToPus(*before).ok());
  EXPECT_EQ(*CurrentBindingPus(), *before);
}

TEST(BindingTest, RejectsUnknownPus) {
  EXPECT_FALSE(BindToPus(std::vector<int32_t>{}).ok());
  absl::Status s = BindToPus(std::vector<int32_t>{1 << 20});
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("no PU with os index 1048576"));
  EXPECT_FALSE(BindToNumaOf(-1).ok());
}

}  // namespace
}  // namespace rankmap::topology
