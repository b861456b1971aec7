#include "cli/choice.h"

#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

TEST(PresentVerdict, SaysKeptOrReplacedWithTheFigures) {
  core::MapReport r;
  EXPECT_EQ(PresentVerdict(r, Choice{}), "");
  r.weighed = true;
  r.objective = "time";
  r.decided_by = "T";
  r.kept_present = true;
  r.present_cost = 1.0e-3;
  r.best_cost = 0.996e-3;
  r.chosen_cost = 1.0e-3;
  EXPECT_EQ(PresentVerdict(r, Choice{}),
            "present order (identity): kept; the best mapping found is 0.4% "
            "faster, within the margin of 2.0% (T 0.000996 s against "
            "0.001 s)");
  r.best_cost = 1.2e-3;
  Choice mine;
  mine.present = "now.txt";
  EXPECT_EQ(PresentVerdict(r, mine),
            "present order (now.txt): kept; the best mapping found is no "
            "faster (T 0.0012 s against 0.001 s)");
  r.kept_present = false;
  r.chosen_cost = 0.9e-3;
  r.moved = 12;
  EXPECT_EQ(PresentVerdict(r, Choice{}),
            "present order (identity): replaced; this mapping is 10.0% faster "
            "(T 0.0009 s against 0.001 s), 12 processes moved");
  // Decided by the predicted time: only that figure, for both orders.
  r.decided_by = "predicted";
  r.chosen_estimate = 2e-4;
  r.present_estimate = 3e-4;
  EXPECT_EQ(PresentVerdict(r, Choice{}),
            "present order (identity): replaced; this mapping is 33.3% faster "
            "(predicted 0.0002 s against 0.0003 s per iteration), 12 "
            "processes moved");
  r.kept_present = true;
  r.best_estimate = 2.97e-4;
  r.chosen_estimate = 3e-4;
  EXPECT_EQ(PresentVerdict(r, Choice{}),
            "present order (identity): kept; the best mapping found is 1.0% "
            "faster, within the margin of 2.0% (predicted 0.000297 s against "
            "0.0003 s per iteration)");
  r.kept_present = false;
  r.objective = "J";
  r.decided_by = "J";
  EXPECT_EQ(PresentVerdict(r, Choice{}), "") << "J against the identity";
  r.present_cost = 200;
  r.chosen_cost = 150;
  r.present_refined = true;
  EXPECT_EQ(PresentVerdict(r, mine),
            "present order (now.txt): replaced by its refinement; this "
            "mapping is 25.0% lower (J 150 against 200), 12 processes moved");
}

TEST(ApplyExchange, ReadsTheModelOrRefusesItInOneLine) {
  const graphs::CommGraph g;
  core::MappingOptions o;
  Choice c;
  ASSERT_TRUE(ApplyExchange(c, g, &o).ok());
  EXPECT_EQ(o.exchange.source, core::ExchangeModel::Source::kDefault);
  c.exchange = "40,2.5";
  ASSERT_TRUE(ApplyExchange(c, g, &o).ok());
  EXPECT_EQ(o.exchange.bytes_per_unit, 40);
  EXPECT_EQ(o.exchange.messages_per_pair, 2.5);
  EXPECT_EQ(o.exchange.source, core::ExchangeModel::Source::kGiven);
  c.exchange = "40,x";
  EXPECT_NE(ApplyExchange(c, g, &o).message().find("--exchange '40,x'"),
            std::string::npos);
  c.exchange = "1,1";
  c.exchange_profile = "run.mat,run.part";
  EXPECT_NE(ApplyExchange(c, g, &o).message().find("give one of them"),
            std::string::npos);
  c.exchange.clear();
  c.exchange_profile = "missing.mat,missing.part";
  EXPECT_NE(ApplyExchange(c, g, &o).message().find("missing.mat"),
            std::string::npos);
}

TEST(PartitionVerdict, NamesTheWinnerAndTheModel) {
  core::PartitionReport r;
  EXPECT_EQ(PartitionVerdict(r), "");
  r.weighed = true;
  r.objective = "time";
  r.model =
      "40 B per unit of edge weight and 1 message per neighbouring "
      "pair, each way (given)";
  r.status_quo = {.seconds = 8e-3, .pairs = 2};
  const core::ExchangePrediction m = {.seconds = 2e-3, .pairs = 3};
  r.candidates = {{"status quo", r.status_quo}, {"machine-aware", m}};
  r.winner = "machine-aware";
  r.chosen = m;
  EXPECT_EQ(PartitionVerdict(r),
            "partition: machine-aware; one exchange predicted 0.002 s, "
            "0.250x the status quo's (3 against 2 neighbouring pairs)\n"
            "exchange model: 40 B per unit of edge weight and 1 message per "
            "neighbouring pair, each way (given); by time");
  r.winner = "status quo";
  r.chosen = r.status_quo;
  r.candidates[1].prediction.seconds = 8.1e-3;
  EXPECT_EQ(PartitionVerdict(r).substr(0, PartitionVerdict(r).find('\n')),
            "partition: the status quo (as onto a complete graph) kept; one "
            "exchange predicted 0.008 s, machine-aware's 1.012x (3 against 2 "
            "neighbouring pairs)");
}

}  // namespace
}  // namespace rankmap::cli
