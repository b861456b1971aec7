#include "cli/commands.h"

#include <algorithm>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "cli/command_flags.h"
#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

TEST(CommandsTest, NamesAreUniqueAndFound) {
  std::set<std::string_view> names;
  for (const Command& c : Commands()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_EQ(FindCommand(c.name), &c);
  }
  EXPECT_EQ(names.size(), 10u);
  EXPECT_EQ(FindCommand("mapp"), nullptr);
}

// Every table: one row per name, canonical names, help for every flag, and
// defaults that parse (a command with no flags runs on them).
TEST(CommandsTest, EveryTableIsWellFormed) {
  for (const Command& c : Commands()) {
    std::set<std::string_view> names;
    for (const FlagInfo& f : c.flags()) {
      EXPECT_TRUE(names.insert(f.name).second) << c.name << " --" << f.name;
      EXPECT_EQ(f.name.find('-'), std::string_view::npos) << f.name;
      EXPECT_FALSE(f.help.empty()) << c.name << " --" << f.name;
    }
    const std::vector<std::string> args =
        c.name == "frontend" ? std::vector<std::string>{"stencil"}
                             : std::vector<std::string>{};
    absl::StatusOr<Invocation> invocation = c.parse(args);
    ASSERT_TRUE(invocation.ok()) << c.name << ": " << invocation.status();
    EXPECT_FALSE(invocation->help);
    EXPECT_TRUE(invocation->run != nullptr);
  }
}

TEST(CommandsTest, DefaultsOfDerivedFields) {
  MapCommand map;
  ASSERT_TRUE(MapFlags().SetDefaults(map).ok());
  EXPECT_EQ(map.inputs.topology, "this");
  EXPECT_EQ(map.inputs.slots_per_leaf, 1);
  EXPECT_EQ(map.format, "plain");  // --format's default is empty
  EXPECT_EQ(map.bind, "auto");
  EXPECT_EQ(map.preset, "default");
  EXPECT_EQ(map.seed, 1u);
  EXPECT_GE(map.threads, 1);  // 0: the usable CPUs, at most 8
  EXPECT_LE(map.threads, 8);
  EXPECT_EQ(map.choice.objective, "auto");
  EXPECT_DOUBLE_EQ(map.choice.keep_margin, 0.02);

  TopologyCommand topology;
  ASSERT_TRUE(TopologyFlags().SetDefaults(topology).ok());
  EXPECT_EQ(topology.format, "text");

  // Empty keeps the struct's own default; a value replaces it.
  AdviseCommand advise;
  ASSERT_TRUE(AdviseFlags().SetDefaults(advise).ok());
  EXPECT_EQ(advise.output, "rankmap-advise");
  EXPECT_DOUBLE_EQ(advise.min_gain, 0.03);
  ASSERT_TRUE(AdviseFlags()
                  .Parse("advise", {"--output", "out", "--threads=3"}, advise)
                  .ok());
  EXPECT_EQ(advise.output, "out");
  EXPECT_EQ(advise.threads, 3);

  BindCommand bind;
  ASSERT_TRUE(BindFlags().SetDefaults(bind).ok());
  EXPECT_EQ(bind.bind, "cpu+mem");
}

TEST(CommandsTest, FrontendFlagsStayText) {
  FrontendFlagText text;
  ASSERT_TRUE(FrontendFlags().SetDefaults(text).ok());
  absl::StatusOr<CommandLine> line = FrontendFlags().Parse(
      "frontend", {"--grid", "4x4", "--slabs", "--procs", "abc"}, text);
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_EQ(text("grid"), "4x4");
  EXPECT_EQ(text("slabs"), "true");
  EXPECT_EQ(text("allow_1d"), "false");
  EXPECT_EQ(text("procs"), "abc");  // cli/arg_parsers.h refuses it, once
  EXPECT_EQ(text("n"), "0");
  EXPECT_EQ(text("no_such_flag"), "");
}

TEST(CommandsTest, FrontendNeedsAKindUnlessHelpIsAsked) {
  const Command* frontend = FindCommand("frontend");
  ASSERT_NE(frontend, nullptr);
  absl::StatusOr<Invocation> none = frontend->parse({});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "frontend: expected a kind: summa, square-corner, stencil, wave2d, "
            "mpdata or openfoam");
  EXPECT_FALSE(frontend->parse({std::string("--grid")}).ok());
  absl::StatusOr<Invocation> help = frontend->parse({std::string("-h")});
  ASSERT_TRUE(help.ok());
  EXPECT_TRUE(help->help);
  // An unknown kind is the front end's error, when it runs.
  absl::StatusOr<Invocation> fft = frontend->parse({std::string("fft")});
  ASSERT_TRUE(fft.ok());
  EXPECT_EQ(fft->run().message(),
            "frontend: unknown kind 'fft' (expected summa, square-corner, "
            "stencil, wave2d, mpdata, openfoam)");
}

TEST(CommandsTest, TopologyTakesItsOperand) {
  const Command* topology = FindCommand("topology");
  ASSERT_NE(topology, nullptr);
  absl::StatusOr<Invocation> invocation =
      topology->parse({"tleaf 1 2 1", "--format", "tleaf"});
  ASSERT_TRUE(invocation.ok()) << invocation.status();
  testing::internal::CaptureStdout();
  const absl::Status status = invocation->run();
  std::cout.flush();
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(out, "tleaf 1 2 1\n");
}

TEST(CommandsTest, FlagsOfAnotherCommandAreRefused) {
  absl::StatusOr<Invocation> map =
      FindCommand("map")->parse({"--mapping", "x"});
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.status().message(),
            "map: unknown flag --mapping (try rankmap map --help)");
}

TEST(CommandsTest, HelpIsGeneratedFromTheTable) {
  const std::string help = CommandHelp(*FindCommand("topology"));
  EXPECT_EQ(help.substr(0, help.find("flags:")),
            "usage: rankmap topology [T] [flags]\n"
            "draw the topology tree (text), or print it as json, tleaf or a "
            "SimGrid platform (simgrid)\n\n");
  EXPECT_NE(help.find("\n  --slots-per-leaf  processes each leaf can take "
                      "(oversubscription; also --oversubscribe) (default: "
                      "1)\n"),
            std::string::npos);
  // One line per flag of the table, in its order.
  const auto flags = FindCommand("topology")->flags();
  EXPECT_EQ(std::count(help.begin(), help.end(), '\n'),
            static_cast<long>(flags.size()) + 4);
  EXPECT_NE(help.find("\n  --format"), std::string::npos);
  EXPECT_EQ(help.find("--comm"), std::string::npos);
  const std::string usage = Usage();
  EXPECT_EQ(usage.substr(0, usage.find('\n')),
            "usage: rankmap <command> [flags]");
  for (const Command& c : Commands()) {
    EXPECT_NE(usage.find(absl::StrCat("\n  ", std::string(c.name))),
              std::string::npos);
  }
}

}  // namespace
}  // namespace rankmap::cli
