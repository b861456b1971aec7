#include "cli/choice.h"

#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

TEST(PresentVerdict, SaysKeptOrReplacedWithTheFigures) {
  core::MapReport r;
  EXPECT_EQ(PresentVerdict(r, Choice{}), "");
  r.weighed = true;
  r.objective = "time";
  r.kept_present = true;
  r.present_cost = 1.0e-3;
  r.best_cost = 0.996e-3;
  r.chosen_cost = 1.0e-3;
  EXPECT_EQ(PresentVerdict(r, Choice{}),
            "present order (identity): kept; the best mapping found is 0.4% "
            "better, within the margin of 2.0% (T 0.000996 s against "
            "0.001 s)");
  r.best_cost = 1.2e-3;
  Choice mine;
  mine.present = "now.txt";
  EXPECT_EQ(PresentVerdict(r, mine),
            "present order (now.txt): kept; the best mapping found is no "
            "better (T 0.0012 s against 0.001 s)");
  r.kept_present = false;
  r.chosen_cost = 0.9e-3;
  r.moved = 12;
  EXPECT_EQ(PresentVerdict(r, Choice{}),
            "present order (identity): replaced; this mapping is 10.0% faster "
            "(T 0.0009 s against 0.001 s), 12 processes moved");
  r.chosen_estimate = 2e-4;
  r.present_estimate = 3e-4;
  EXPECT_EQ(PresentVerdict(r, Choice{}),
            "present order (identity): replaced; this mapping is 10.0% faster "
            "(T 0.0009 s against 0.001 s; one exchange about 0.0002 s against "
            "0.0003 s), 12 processes moved");
  r.chosen_estimate = r.present_estimate = 0;
  r.objective = "J";
  EXPECT_EQ(PresentVerdict(r, Choice{}), "") << "J against the identity";
  r.present_cost = 200;
  r.chosen_cost = 150;
  r.present_refined = true;
  EXPECT_EQ(PresentVerdict(r, mine),
            "present order (now.txt): replaced by its refinement; this "
            "mapping is 25.0% lower (J 150 against 200), 12 processes moved");
}

}  // namespace
}  // namespace rankmap::cli
