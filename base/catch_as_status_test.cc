#include "base/catch_as_status.h"

#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::base {
namespace {

using ::testing::Not;

TEST(CatchAsStatusTest, PassesTheStepsResultThrough) {
  EXPECT_THAT(CatchAsStatus("step", [] { return absl::OkStatus(); }), IsOk());
  EXPECT_THAT(
      CatchAsStatus("step", [] { return absl::NotFoundError("f: missing"); }),
      StatusIs(absl::StatusCode::kNotFound, "f: missing"));
  EXPECT_THAT(CatchAsStatus("step", [] { return absl::StatusOr<int>(42); }),
              IsOkAndHolds(42));
}

TEST(CatchAsStatusTest, OutOfMemoryIsResourceExhausted) {
  const absl::StatusOr<std::vector<int>> r = CatchAsStatus(
      "build",
      []() -> absl::StatusOr<std::vector<int>> { throw std::bad_alloc(); });
  EXPECT_THAT(r, StatusIs(absl::StatusCode::kResourceExhausted,
                          "build: out of memory"));
}

TEST(CatchAsStatusTest, TheNoteIsAskedForOnlyWhenMemoryRanOut) {
  int asked = 0;
  auto note = [&] {
    ++asked;
    return std::string("mapping 10 processes");
  };
  EXPECT_THAT(
      CatchAsStatus(
          "map", []() -> absl::Status { throw std::bad_alloc(); }, note),
      StatusIs(absl::StatusCode::kResourceExhausted,
               "map: out of memory mapping 10 processes"));
  EXPECT_EQ(asked, 1);
  EXPECT_THAT(CatchAsStatus(
                  "map", [] { return absl::OkStatus(); }, note),
              IsOk());
  EXPECT_EQ(asked, 1);
}

TEST(CatchAsStatusTest, OtherExceptionsAreInternalErrorsWithTheirText) {
  EXPECT_THAT(CatchAsStatus("reorder",
                            []() -> absl::Status {
                              throw std::out_of_range("vector::at");
                            }),
              StatusIs(absl::StatusCode::kInternal,
                       "reorder: internal error: vector::at"));
  EXPECT_THAT(CatchAsStatus("reorder", []() -> absl::Status { throw 7; }),
              StatusIs(absl::StatusCode::kInternal,
                       "reorder: internal error: unknown exception"));
  EXPECT_THAT(CatchAsStatus("x", []() -> absl::Status { throw 7; }),
              Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::base
