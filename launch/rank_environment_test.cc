#include "launch/rank_environment.h"

#include <map>
#include <string>

#include "base/status_matchers.h"
#include "gtest/gtest.h"

namespace rankmap::launch {
namespace {

using ::rankmap::base::IsOk;
using ::testing::Not;

std::map<std::string, std::string>* env() {
  static auto* e = new std::map<std::string, std::string>;
  return e;
}

const char* Lookup(const char* name) {
  auto it = env()->find(name);
  return it == env()->end() ? nullptr : it->second.c_str();
}

TEST(RankEnvironmentTest, LauncherVariablesBeforeSlurmProcid) {
  *env() = {{"SLURM_PROCID", "0"}, {"PMI_RANK", "3"}};
  absl::StatusOr<ProcessRank> r = RankFromEnvironment(Lookup);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->rank, 3);
  EXPECT_EQ(r->variable, "PMI_RANK");
  *env() = {{"PMIX_RANK", "2"}, {"OMPI_COMM_WORLD_RANK", "1"}};
  EXPECT_EQ(RankFromEnvironment(Lookup)->variable, "OMPI_COMM_WORLD_RANK");
  *env() = {{"SLURM_PROCID", "5"}};
  EXPECT_EQ(RankFromEnvironment(Lookup)->rank, 5);
  EXPECT_EQ(RankFromEnvironment(Lookup)->size, -1);
}

TEST(RankEnvironmentTest, SizeFromTheSameLauncher) {
  *env() = {{"PMI_RANK", "1"}, {"PMI_SIZE", "4"}, {"SLURM_NTASKS", "9"}};
  EXPECT_EQ(RankFromEnvironment(Lookup)->size, 4);
  *env() = {{"SLURM_PROCID", "1"},
            {"SLURM_STEP_NUM_TASKS", "2"},
            {"SLURM_NTASKS", "9"}};
  EXPECT_EQ(RankFromEnvironment(Lookup)->size, 2);
  *env() = {{"PMIX_RANK", "0"}, {"PMI_SIZE", "4"}};
  EXPECT_EQ(RankFromEnvironment(Lookup)->size, -1);
  *env() = {{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "2"}};
  EXPECT_EQ(RankFromEnvironment(Lookup).status().message(),
            "OMPI_COMM_WORLD_SIZE='2' is not a job size above rank 2");
}

TEST(RankEnvironmentTest, MissingOrMalformed) {
  *env() = {};
  absl::StatusOr<ProcessRank> r = RankFromEnvironment(Lookup);
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  *env() = {{"PMI_RANK", "x1"}};
  EXPECT_EQ(RankFromEnvironment(Lookup).status().message(),
            "PMI_RANK='x1' is not a rank");
  *env() = {{"PMI_RANK", "-1"}};
  EXPECT_THAT(RankFromEnvironment(Lookup), Not(IsOk()));
  // An empty value counts as unset.
  *env() = {{"OMPI_COMM_WORLD_RANK", ""}, {"PMI_RANK", "0"}};
  EXPECT_EQ(RankFromEnvironment(Lookup)->variable, "PMI_RANK");
}

}  // namespace
}  // namespace rankmap::launch
