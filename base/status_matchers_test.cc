#include "base/status_matchers.h"

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

using ::testing::_;
using ::testing::DescribeMatcher;
using ::testing::Eq;
using ::testing::Gt;
using ::testing::HasSubstr;
using ::testing::Matcher;
using ::testing::Not;
using ::testing::StringMatchResultListener;

// What the matcher says when it is asked about `value`.
template <typename T, typename M>
std::string Explain(const M& matcher, const T& value) {
  StringMatchResultListener listener;
  ::testing::ExplainMatchResult(matcher, value, &listener);
  return listener.str();
}

TEST(IsOkTest, MatchesOkStatusAndStatusOr) {
  EXPECT_THAT(absl::OkStatus(), IsOk());
  EXPECT_THAT(absl::StatusOr<int>(3), IsOk());
  EXPECT_THAT(absl::NotFoundError("x"), Not(IsOk()));
  EXPECT_THAT(absl::StatusOr<int>(absl::InternalError("y")), Not(IsOk()));
}

TEST(IsOkTest, FailurePrintsTheStatus) {
  EXPECT_EQ(Explain(IsOk(), absl::InvalidArgumentError("line 3: bad")),
            "which has status INVALID_ARGUMENT: line 3: bad");
  EXPECT_EQ(Explain(IsOk(), absl::StatusOr<int>(absl::NotFoundError("f"))),
            "which has status NOT_FOUND: f");
  EXPECT_EQ(Explain(IsOk(), absl::OkStatus()), "");
  EXPECT_EQ(DescribeMatcher<absl::Status>(IsOk()), "is OK");
  EXPECT_EQ(DescribeMatcher<absl::Status>(IsOk(), /*negation=*/true),
            "is not OK");
}

TEST(IsOkAndHoldsTest, MatchesTheValue) {
  EXPECT_THAT(absl::StatusOr<int>(7), IsOkAndHolds(7));
  EXPECT_THAT(absl::StatusOr<int>(7), IsOkAndHolds(Gt(5)));
  EXPECT_THAT(absl::StatusOr<int>(7), Not(IsOkAndHolds(8)));
  EXPECT_THAT(absl::StatusOr<std::string>("abc"),
              IsOkAndHolds(HasSubstr("b")));
  EXPECT_THAT(absl::StatusOr<int>(absl::UnknownError("u")),
              Not(IsOkAndHolds(_)));
}

TEST(IsOkAndHoldsTest, FailureSaysWhy) {
  const Matcher<const absl::StatusOr<int>&> holds_eight = IsOkAndHolds(Eq(8));
  EXPECT_EQ(Explain(holds_eight, absl::StatusOr<int>(7)), "which holds 7");
  EXPECT_EQ(Explain(holds_eight, absl::StatusOr<int>(absl::AbortedError("a"))),
            "which has status ABORTED: a");
  EXPECT_EQ(DescribeMatcher<const absl::StatusOr<int>&>(holds_eight),
            "is OK and has a value that is equal to 8");
}

TEST(StatusIsTest, MatchesCodeAndMessage) {
  const absl::Status bad = absl::InvalidArgumentError("graph.mat: line 3");
  EXPECT_THAT(bad, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(bad, StatusIs(absl::StatusCode::kInvalidArgument,
                            HasSubstr("line 3")));
  EXPECT_THAT(bad, StatusIs(absl::StatusCode::kInvalidArgument,
                            "graph.mat: line 3"));
  EXPECT_THAT(bad, Not(StatusIs(absl::StatusCode::kNotFound)));
  EXPECT_THAT(bad, Not(StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("line 4"))));
  EXPECT_THAT(absl::StatusOr<int>(absl::NotFoundError("f")),
              StatusIs(absl::StatusCode::kNotFound, "f"));
  EXPECT_THAT(absl::StatusOr<int>(1), StatusIs(absl::StatusCode::kOk));
}

TEST(StatusIsTest, FailurePrintsTheStatus) {
  EXPECT_EQ(Explain(StatusIs(absl::StatusCode::kNotFound),
                    absl::InternalError("boom")),
            "which has status INTERNAL: boom");
  EXPECT_EQ(DescribeMatcher<absl::Status>(
                StatusIs(absl::StatusCode::kNotFound, "f")),
            "has a status code that is equal to NOT_FOUND and a message that "
            "is equal to \"f\"");
}

}  // namespace
}  // namespace rankmap::base
