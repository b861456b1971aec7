#include "launch/local_binding.h"

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "launch/test_trees.h"

namespace rankmap::launch {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(LocalBindingTest, ListWrapperOrNothing) {
  // Ranks 0, 1 on alpha (PUs 0, 2), ranks 2, 3 on beta (PUs 1, 3).
  const JobPlacement job = testing::Place(testing::TwoHosts(), {0, 1, 2, 3});
  absl::StatusOr<LocalBinding> b =
      ChooseLocalBinding(job, {{0, 1}, {2, 3}}, BindingMode::kAuto, "h", "t");
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(b->kind, LocalBinding::Kind::kWrapper);
  EXPECT_EQ(b->wrapper, "h.bind.sh");
  // One group: its own list.
  b = ChooseLocalBinding(job, {{0, 1}}, BindingMode::kMask, "h", "t");
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(b->kind, LocalBinding::Kind::kList);
  EXPECT_THAT(b->list, ElementsAre(ElementsAre(0), ElementsAre(2)));
  b = ChooseLocalBinding(job, {{0, 1}}, BindingMode::kWrapper, "h", "t");
  EXPECT_EQ(b->kind, LocalBinding::Kind::kWrapper);
  b = ChooseLocalBinding(job, {{0, 1}}, BindingMode::kNone, "h", "t");
  EXPECT_EQ(b->kind, LocalBinding::Kind::kNone);
  LaunchPlan plan;
  ASSERT_THAT(AddWrapperFile(job, *b, &plan), IsOk());
  EXPECT_TRUE(plan.files.empty());
  b = ChooseLocalBinding(job, {{0, 1}}, BindingMode::kWrapper, "h", "t");
  ASSERT_THAT(AddWrapperFile(job, *b, &plan), IsOk());
  ASSERT_EQ(plan.files.size(), 1u);
  EXPECT_EQ(plan.files[0].path, "h.bind.sh");
  EXPECT_TRUE(plan.files[0].executable);
}

TEST(LocalBindingTest, RanksWithoutPusCannotBeBound) {
  JobPlacement job;
  job.ranks = {{"a-0", {}, 0, false}};
  job.hosts = {"a-0"};
  absl::StatusOr<LocalBinding> b =
      ChooseLocalBinding(job, {{0}}, BindingMode::kAuto, "h", "launch/x");
  ASSERT_THAT(b, Not(IsOk()));
  EXPECT_THAT(b.status().message(), HasSubstr("launch/x: ranks without PU"));
  EXPECT_THAT(ChooseLocalBinding(job, {{0}}, BindingMode::kNone, "h", "x"),
              IsOk());
}

}  // namespace
}  // namespace rankmap::launch
