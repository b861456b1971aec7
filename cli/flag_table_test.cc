#include "cli/flag_table.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

struct Part {
  std::string where = "unset";
};

struct Toy {
  Part part;
  int32_t count = -7;
  uint64_t seed = 0;
  double margin = 0;
  bool quiet = true;
  std::string name;
  int32_t doubled = 0;
};

constexpr FlagSpec<std::string> kWhere{"where", "here", "where it runs"};
constexpr FlagSpec<int32_t> kCount{"count_per_leaf", "1", "how many",
                                   "oversubscribe", {.min = 1, .max = 64}};
constexpr FlagSpec<uint64_t> kSeed{"seed", "1", "random seed"};
constexpr FlagSpec<double> kMargin{"margin",
                                   "0.02",
                                   "a lead (default: 2%, written here)",
                                   {},
                                   {.min = 0, .max = 1, .max_open = true}};
constexpr FlagSpec<bool> kQuiet{"quiet", "false", "say nothing"};
constexpr FlagSpec<std::string> kName{"name", "", "a name"};
constexpr FlagSpec<int32_t> kDoubled{"doubled", "3", "twice the value"};

FlagTable<Toy> ToyTable() {
  FlagTable<Toy> t;
  t.Add(kWhere, &Toy::part, &Part::where)
      .Add(kCount, &Toy::count)
      .Add(kSeed, [](Toy& toy) -> uint64_t& { return toy.seed; })
      .Add(kMargin, &Toy::margin)
      .Add(kQuiet, &Toy::quiet)
      .Add(kName, &Toy::name)
      .Add(kDoubled, [](Toy& toy, int32_t v) { toy.doubled = 2 * v; });
  return t;
}

absl::StatusOr<CommandLine> Parse(std::vector<std::string> args, Toy& toy,
                                  bool takes_program = false) {
  const FlagTable<Toy> t = ToyTable();
  if (absl::Status s = t.SetDefaults(toy); !s.ok()) return s;
  return t.Parse("toy", args, toy, takes_program);
}

TEST(FlagTableTest, DefaultsFillEveryFieldThroughItsForm) {
  Toy toy;
  ASSERT_TRUE(ToyTable().SetDefaults(toy).ok());
  EXPECT_EQ(toy.part.where, "here");
  EXPECT_EQ(toy.count, 1);
  EXPECT_EQ(toy.seed, 1u);
  EXPECT_DOUBLE_EQ(toy.margin, 0.02);
  EXPECT_FALSE(toy.quiet);
  EXPECT_EQ(toy.name, "");
  EXPECT_EQ(toy.doubled, 6);
}

TEST(FlagTableTest, EverySpellingSetsItsField) {
  Toy toy;
  absl::StatusOr<CommandLine> line =
      Parse({"--where", "there", "--count-per-leaf=4", "--seed", "0x10",
             "--margin=0.5", "--quiet", "--name", "--x", "--doubled", "5"},
            toy);
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(toy.part.where, "there");
  EXPECT_EQ(toy.count, 4);
  EXPECT_EQ(toy.seed, 16u);  // absl's integers: hexadecimal too
  EXPECT_DOUBLE_EQ(toy.margin, 0.5);
  EXPECT_TRUE(toy.quiet);
  EXPECT_EQ(toy.name, "--x");  // a value, even when it looks like a flag
  EXPECT_EQ(toy.doubled, 10);
  EXPECT_FALSE(line->help);
  EXPECT_EQ(line->given,
            (std::set<std::string>{"where", "count_per_leaf", "seed", "margin",
                                   "quiet", "name", "doubled"}));
}

TEST(FlagTableTest, AliasUnderscoresAndNegation) {
  Toy toy;
  ASSERT_TRUE(
      Parse({"--oversubscribe", "3", "--quiet", "--noquiet"}, toy).ok());
  EXPECT_EQ(toy.count, 3);
  EXPECT_FALSE(toy.quiet);
  ASSERT_TRUE(Parse({"--count_per_leaf", "5", "--quiet=false"}, toy).ok());
  EXPECT_EQ(toy.count, 5);
  EXPECT_FALSE(toy.quiet);
}

TEST(FlagTableTest, LaterValuesWinAndNotGivenKeepsTheDefault) {
  Toy toy;
  absl::StatusOr<CommandLine> line = Parse({"--seed", "4", "--seed", "9"}, toy);
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(toy.seed, 9u);
  EXPECT_EQ(toy.part.where, "here");
  EXPECT_EQ(line->given, (std::set<std::string>{"seed"}));
}

TEST(FlagTableTest, ErrorsAreOneLineNamingCommandAndFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{"--mapping", "x"},
       "toy: unknown flag --mapping (try rankmap toy --help)"},
      {{"--no-such-flag"},
       "toy: unknown flag --no_such_flag (try rankmap toy --help)"},
      {{"--noseed"}, "toy: unknown flag --noseed (try rankmap toy --help)"},
      {{"--noquiet=1"}, "toy: unknown flag --noquiet (try rankmap toy --help)"},
      {{"--seed"}, "toy: flag --seed needs a value"},
      {{"--seed", "abc"},
       "toy: --seed: Illegal value 'abc' specified for flag 'seed'"},
      {{"--count-per-leaf=99999999999"},
       "toy: --count-per-leaf: Illegal value '99999999999' specified for flag "
       "'count_per_leaf'"},
      // Numbers: one check of range and finiteness for every numeric flag.
      {{"--count-per-leaf", "0"},
       "toy: --count-per-leaf: '0' is out of range: expected in [1, 64]"},
      {{"--count-per-leaf=65"},
       "toy: --count-per-leaf: '65' is out of range: expected in [1, 64]"},
      {{"--margin", "nan"}, "toy: --margin: 'nan' is not a finite number"},
      {{"--margin", "-inf"}, "toy: --margin: '-inf' is not a finite number"},
      {{"--margin", "1"},
       "toy: --margin: '1' is out of range: expected in [0, 1)"},
      {{"--margin", "-0.5"},
       "toy: --margin: '-0.5' is out of range: expected in [0, 1)"},
      {{"--quiet=maybe"},
       "toy: --quiet: Illegal value 'maybe' specified for flag 'quiet'"},
      {{"stray"}, "toy: unexpected argument 'stray'"},
      // `--` ends the flags only for commands that take a program.
      {{"--", "prog"}, "toy: unknown flag -- (try rankmap toy --help)"},
  };
  for (const Case& c : cases) {
    Toy toy;
    absl::StatusOr<CommandLine> line = Parse(c.args, toy);
    ASSERT_FALSE(line.ok()) << c.args[0];
    EXPECT_EQ(line.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(line.status().message(), c.message);
  }
}

TEST(FlagTableTest, HelpStopsTheScanAndTheProgramFollowsDashDash) {
  Toy toy;
  absl::StatusOr<CommandLine> line =
      Parse({"--seed", "2", "-h", "--bogus"}, toy);
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->help);
  // An error before --help wins.
  EXPECT_FALSE(Parse({"--bogus", "--help"}, toy).ok());
  line = Parse({"--seed", "3", "--", "a.out", "--seed", "x"}, toy,
               /*takes_program=*/true);
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(toy.seed, 3u);
  EXPECT_EQ(line->program, (std::vector<std::string>{"a.out", "--seed", "x"}));
}

TEST(FlagTableTest, HelpLinesWithDashesAndOneDefault) {
  EXPECT_EQ(FlagHelp(ToyTable().flags()),
            "  --where           where it runs (default: here)\n"
            "  --count-per-leaf  how many (default: 1)\n"
            "  --seed            random seed (default: 1)\n"
            "  --margin          a lead (default: 2%, written here)\n"
            "  --quiet           say nothing\n"
            "  --name            a name\n"
            "  --doubled         twice the value (default: 3)\n");
}

TEST(FlagTableTest, ABadDefaultIsAnInternalError) {
  FlagTable<Toy> t;
  t.Add(FlagSpec<int32_t>{"count", "many", "a count"}, &Toy::count);
  Toy toy;
  const absl::Status s = t.SetDefaults(toy);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(),
            "the default of --count: Illegal value 'many' specified for flag "
            "'count'");
}

}  // namespace
}  // namespace rankmap::cli
