#include "core/model/options.h"

#include <limits>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::core {
namespace {

TEST(OptionsTest, TheTableRoundTripsEveryName) {
  std::set<std::string> names;
  for (const AlgorithmInfo& a : Algorithms()) {
    EXPECT_EQ(ParseAlgorithm(a.name).value(), a.algorithm) << a.name;
    EXPECT_EQ(AlgorithmName(a.algorithm), a.name);
    EXPECT_FALSE(a.summary.empty()) << a.name;
    names.insert(std::string(a.name));
  }
  EXPECT_EQ(names.size(), 9u);
  // The engine's strategies come first, the baselines after them.
  EXPECT_EQ(Algorithms().front().algorithm, Algorithm::kPortfolio);
  EXPECT_FALSE(Algorithms()[3].baseline);
  EXPECT_TRUE(Algorithms()[4].baseline);
  EXPECT_EQ(AlgorithmNameList(),
            "portfolio | tm | multisection | multilevel | scotch | mpipp | "
            "identity | round-robin | random");
}

TEST(OptionsTest, UnknownNamesListTheValidOnes) {
  absl::StatusOr<Algorithm> a = ParseAlgorithm("nope");
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("unknown algorithm 'nope' (expected "
                                      "portfolio, tm, multisection"),
            absl::string_view::npos)
      << a.status();
  EXPECT_EQ(MappingOptions::Preset("turbo").status().message(),
            "unknown preset 'turbo' (expected fast, default, strong)");
}

TEST(OptionsTest, PresetNamesAreThePresetsAndNoAlgorithm) {
  std::vector<std::string> names;
  for (std::string_view p : PresetNames()) {
    EXPECT_TRUE(MappingOptions::Preset(p).ok()) << p;
    // One string may name either (api::PresetOrAlgorithm): never both.
    EXPECT_FALSE(ParseAlgorithm(p).ok()) << p;
    names.emplace_back(p);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"fast", "default", "strong"}));
}

TEST(OptionsTest, PresetsSetTheirFields) {
  const MappingOptions def = MappingOptions::Preset("default").value();
  EXPECT_EQ(def.algorithm, Algorithm::kPortfolio);
  EXPECT_EQ(def.refine.swap_rounds, 8);
  const MappingOptions fast = MappingOptions::Preset("fast").value();
  EXPECT_EQ(fast.algorithm, Algorithm::kTreeMatch);
  EXPECT_TRUE(fast.treematch.exact_pairing);  // heavy-edge pairing
  EXPECT_EQ(fast.refine.swap_rounds, 2);
  EXPECT_EQ(fast.refine.fm_passes, 2);
  // The strong preset spends more METIS effort and refinement than default.
  const MappingOptions strong = MappingOptions::Preset("strong").value();
  EXPECT_EQ(strong.multisection.metis_effort, 2);
  EXPECT_EQ(strong.refine.swap_rounds, 32);
  EXPECT_EQ(strong.mpipp.starts, 4);
  EXPECT_EQ(strong.treematch.exhaustive_limit, 0);
}

TEST(OptionsTest, ValidationNamesTheField) {
  EXPECT_TRUE(ValidateOptions(MappingOptions{}).ok());
  MappingOptions o;
  o.refine.fm_passes = -1;
  EXPECT_NE(ValidateOptions(o).message().find("refine.fm_passes is -1"),
            absl::string_view::npos);
  o = MappingOptions{};
  o.imbalance = -0.5;
  EXPECT_FALSE(ValidateOptions(o).ok());
  o.imbalance = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(ValidateOptions(o).ok());
}

}  // namespace
}  // namespace rankmap::core
