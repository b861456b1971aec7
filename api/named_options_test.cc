#include "api/named_options.h"

#include <string>
#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::api {
namespace {

using ::rankmap::base::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

// The fields a preset sets, to compare two resolutions.
std::vector<double> PresetFields(const core::MappingOptions& o) {
  return {static_cast<double>(o.algorithm),
          static_cast<double>(o.multisection.metis_effort),
          static_cast<double>(o.multisection.partition_attempts),
          static_cast<double>(o.refine.swap_rounds),
          static_cast<double>(o.refine.greedy_sweeps),
          static_cast<double>(o.refine.fm_passes),
          static_cast<double>(o.mpipp.starts),
          static_cast<double>(o.mpipp.rounds),
          o.imbalance,
          o.keep_margin};
}

TEST(ResolveOptions, DefaultsAreTheDefaultPreset) {
  auto o = ResolveOptions(NamedOptions{});
  ASSERT_THAT(o, IsOk());
  EXPECT_EQ(PresetFields(*o), PresetFields(core::MappingOptions{}));
  EXPECT_EQ(o->objective, core::ObjectiveKind::kAuto);
  EXPECT_EQ(o->seed, 1u);
  EXPECT_EQ(o->threads, 1);
  EXPECT_TRUE(o->present.empty());
  EXPECT_EQ(o->report, nullptr);
}

TEST(ResolveOptions, ThePresetThenTheAlgorithmThenTheRest) {
  NamedOptions names;
  names.preset = "fast";
  names.algorithm = "multisection";
  names.objective = "time";
  names.keep_margin = 0.1;
  names.present = {3, 2, 1, 0};
  names.seed = 42;
  names.threads = 2;
  names.imbalance = 0.1;
  auto o = ResolveOptions(names);
  ASSERT_THAT(o, IsOk());
  EXPECT_EQ(o->algorithm, core::Algorithm::kMultisection);  // named wins
  EXPECT_EQ(o->refine.swap_rounds, 2);  // the fast preset's, kept
  EXPECT_EQ(o->multisection.metis_effort, 0);
  EXPECT_EQ(o->objective, core::ObjectiveKind::kTime);
  EXPECT_EQ(o->keep_margin, 0.1);
  EXPECT_EQ(o->present, (std::vector<int32_t>{3, 2, 1, 0}));
  EXPECT_EQ(o->seed, 42u);
  EXPECT_EQ(o->threads, 2);
  EXPECT_EQ(o->imbalance, 0.1);
  // Without an algorithm the preset's stands: fast is TreeMatch.
  names.algorithm.clear();
  EXPECT_EQ(ResolveOptions(names)->algorithm, core::Algorithm::kTreeMatch);
  names.objective = "j";
  EXPECT_EQ(ResolveOptions(names)->objective, core::ObjectiveKind::kJ);
}

TEST(ResolveOptions, BadNamesAndValuesAreTheEnginesErrors) {
  auto message = [](NamedOptions names) {
    return std::string(ResolveOptions(names).status().message());
  };
  NamedOptions n;
  n.preset = "turbo";
  EXPECT_EQ(message(n),
            "unknown preset 'turbo' (expected fast, default, strong)");
  n = {};
  n.algorithm = "best";
  EXPECT_THAT(message(n), HasSubstr("unknown algorithm 'best' (expected "
                                    "portfolio, tm, multisection"));
  n = {};
  n.objective = "fastest";
  EXPECT_EQ(message(n), "unknown objective 'fastest' (expected auto, j, time)");
  n = {};
  n.keep_margin = 1.5;
  EXPECT_THAT(message(n), HasSubstr("keep_margin is 1.5"));
  n = {};
  n.threads = -1;
  EXPECT_THAT(message(n), HasSubstr("threads is -1"));
  n = {};
  n.imbalance = -0.5;
  EXPECT_THAT(message(n), HasSubstr("imbalance is -0.5"));
}

TEST(PresetOrAlgorithm, OneNameResolvesAsTheTwoFieldsWould) {
  for (std::string_view preset : core::PresetNames()) {
    NamedOptions names;
    names.preset = std::string(preset);
    auto one = PresetOrAlgorithm(preset);
    ASSERT_THAT(one, IsOk());
    EXPECT_EQ(PresetFields(*one), PresetFields(*ResolveOptions(names)))
        << preset;
  }
  for (const core::AlgorithmInfo& a : core::Algorithms()) {
    NamedOptions names;
    names.algorithm = std::string(a.name);
    auto one = PresetOrAlgorithm(a.name);
    ASSERT_THAT(one, IsOk());
    EXPECT_EQ(one->algorithm, a.algorithm);
    EXPECT_EQ(PresetFields(*one), PresetFields(*ResolveOptions(names)))
        << a.name;
  }
  // strong is a preset (32 refinement rounds), tm an algorithm on default's.
  EXPECT_EQ(PresetOrAlgorithm("strong")->refine.swap_rounds, 32);
  EXPECT_EQ(PresetOrAlgorithm("tm")->refine.swap_rounds, 8);
}

TEST(PresetOrAlgorithm, ANameThatIsNeitherListsBoth) {
  EXPECT_EQ(PresetOrAlgorithm("nope").status().message(),
            "unknown algorithm 'nope' (expected portfolio, tm, multisection, "
            "multilevel, scotch, mpipp, identity, round-robin, random, or a "
            "preset: fast, default, strong)");
  EXPECT_THAT(PresetOrAlgorithm(""), Not(IsOk()));
}

}  // namespace
}  // namespace rankmap::api
