#include "topology/hostlist.h"

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(Hostlist, RangesListsAndPlainNames) {
  EXPECT_THAT(*ExpandHostlist("tux[0-3,12]"),
              ElementsAre("tux0", "tux1", "tux2", "tux3", "tux12"));
  EXPECT_THAT(*ExpandHostlist("login1"), ElementsAre("login1"));
  EXPECT_THAT(*ExpandHostlist("a[1-2],b,c[5]"),
              ElementsAre("a1", "a2", "b", "c5"));
  EXPECT_THAT(*ExpandHostlist("n[08-10]"), ElementsAre("n08", "n09", "n10"));
  EXPECT_THAT(*ExpandHostlist("r[1-2]n[1-2]-ib"),
              ElementsAre("r1n1-ib", "r1n2-ib", "r2n1-ib", "r2n2-ib"));
}

TEST(Hostlist, ErrorsNameTheColumn) {
  auto e = [](std::string_view s) {
    absl::StatusOr<std::vector<std::string>> r = ExpandHostlist(s);
    EXPECT_THAT(r, Not(IsOk())) << s;
    return std::string(r.status().message());
  };
  EXPECT_THAT(e("tux[0-3"), HasSubstr("'[' without ']' at column 4"));
  EXPECT_THAT(e("tux0-3]"), HasSubstr("']' without '[' at column 7"));
  EXPECT_THAT(e("tux[3-1]"),
              HasSubstr("range '3-1' ends below its start at column 5"));
  EXPECT_THAT(e("tux[a-b]"),
              HasSubstr("expected a number or a range a-b, found 'a-b'"));
  EXPECT_THAT(e("tux[]"), HasSubstr("found ''"));
  EXPECT_THAT(e("a,,b"), HasSubstr("empty host name at column 3"));
  EXPECT_THAT(e("a[1[2]]"), HasSubstr("nested '['"));
  EXPECT_THAT(e(""), HasSubstr("empty host name"));
  absl::StatusOr<std::vector<std::string>> big =
      ExpandHostlist("n[0-999999999]", 1000);
  ASSERT_THAT(big, Not(IsOk()));
  EXPECT_THAT(big.status().message(), HasSubstr("more than 1000 hosts"));
  EXPECT_THAT(ExpandHostlist("a[0-99]b[0-99]", 5000), Not(IsOk()));
  EXPECT_EQ(big.status().code(), absl::StatusCode::kResourceExhausted);
}

// Bytes are counted before names are made: a long literal times many
// numbers is refused at once (4M hosts of 10,000 characters would be 40 GB).
TEST(Hostlist, NameBytesAreCountedBeforeExpanding) {
  const std::string stem(10000, 'x');
  absl::StatusOr<std::vector<std::string>> r =
      ExpandHostlist(stem + "[0-4194303]");
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(r.status().message(),
              HasSubstr("': host names of more than 1.0 GiB at column 1"));
  EXPECT_THAT(r.status().message(),
              HasSubstr("hostlist '" + std::string(64, 'x') + "...'"));
  // 3 names of 4 characters: 3 x (32 + 1) + 12 = 111 bytes.
  r = ExpandHostlist("n[1-3]ab", 3, 111);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(HostlistBytes(*r), 111);
  EXPECT_EQ(ExpandHostlist("n[1-3]ab", 3, 110).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace rankmap::topology
