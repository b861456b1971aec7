#include "cli/commands.h"

#include <cstdlib>
#include <iostream>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/status_macros.h"
#include "cli/advise_command.h"
#include "cli/bind_command.h"
#include "cli/calibrate_command.h"
#include "cli/command_flags.h"
#include "cli/compare_command.h"
#include "cli/demo_command.h"
#include "cli/eval_command.h"
#include "cli/frontend_command.h"
#include "cli/map_command.h"
#include "cli/simulate_command.h"
#include "cli/topology_command.h"

namespace rankmap::cli {

namespace {

// The command `name` from its table's defaults and the flags of `args`;
// `run(command, line)` runs it (line: the program after `--`, the flags
// given).
template <typename C, typename Run>
absl::StatusOr<Invocation> Invoke(std::string_view name,
                                  const FlagTable<C>& table,
                                  absl::Span<const std::string> args, Run run,
                                  bool takes_program = false) {
  C command;
  RETURN_IF_ERROR(table.SetDefaults(command));
  ASSIGN_OR_RETURN(CommandLine line,
                   table.Parse(name, args, command, takes_program));
  if (line.help) return Invocation{true, nullptr};
  return Invocation{false,
                    [command = std::move(command), line = std::move(line),
                     run]() mutable { return run(command, line); }};
}

absl::StatusOr<Invocation> ParseMap(absl::Span<const std::string> args) {
  return Invoke("map", MapFlags(), args, [](MapCommand& c, const CommandLine&) {
    return RunMap(c, std::cout);
  });
}

absl::StatusOr<Invocation> ParseEval(absl::Span<const std::string> args) {
  return Invoke(
      "eval", EvalFlags(), args,
      [](EvalCommand& c, const CommandLine&) { return RunEval(c, std::cout); });
}

absl::StatusOr<Invocation> ParseCompare(absl::Span<const std::string> args) {
  return Invoke("compare", CompareFlags(), args,
                [](CompareCommand& c, const CommandLine&) {
                  return RunCompare(c, std::cout);
                });
}

absl::StatusOr<Invocation> ParseSimulate(absl::Span<const std::string> args) {
  return Invoke("simulate", SimulateFlags(), args,
                [](SimulateCommand& c, const CommandLine&) {
                  return RunSimulate(c, std::cout);
                });
}

absl::StatusOr<Invocation> ParseAdvise(absl::Span<const std::string> args) {
  auto run = [](AdviseCommand& c, const CommandLine& line) {
    c.launch = line.program;
    // The machine is built from where the job ran unless it is named.
    if (!line.given.count("topology")) {
      const char* t = std::getenv("RANKMAP_TOPOLOGY");
      c.inputs.topology = t != nullptr ? t : "";
    }
    return RunAdvise(c, std::cout);
  };
  return Invoke("advise", AdviseFlags(), args, run, /*takes_program=*/true);
}

absl::StatusOr<Invocation> ParseCalibrate(absl::Span<const std::string> args) {
  auto run = [](CalibrateCommand& c, const CommandLine& line) {
    c.launch = line.program;
    return RunCalibrate(c, std::cout);
  };
  return Invoke("calibrate", CalibrateFlags(), args, run,
                /*takes_program=*/true);
}

absl::StatusOr<Invocation> ParseBind(absl::Span<const std::string> args) {
  auto run = [](BindCommand& c, const CommandLine& line) {
    c.program = line.program;
    return RunBind(c, std::cerr);
  };
  return Invoke("bind", BindFlags(), args, run, /*takes_program=*/true);
}

// `rankmap topology T` is `rankmap topology --topology T`.
absl::StatusOr<Invocation> ParseTopology(absl::Span<const std::string> args) {
  std::vector<std::string> flags(args.begin(), args.end());
  if (!flags.empty() && flags[0].rfind('-', 0) != 0) {
    flags.insert(flags.begin(), "--topology");
  }
  return Invoke("topology", TopologyFlags(), flags,
                [](TopologyCommand& c, const CommandLine&) {
                  return RunTopology(c, std::cout);
                });
}

// `rankmap frontend KIND [flags]`; the report goes to stderr when the graph
// goes to stdout.
absl::StatusOr<Invocation> ParseFrontend(absl::Span<const std::string> args) {
  if (args.empty() || args[0].rfind('-', 0) == 0) {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      return Invocation{true, nullptr};
    }
    return absl::InvalidArgumentError(
        "frontend: expected a kind: summa, square-corner, stencil, wave2d, "
        "mpdata or openfoam");
  }
  auto run = [kind = args[0]](FrontendFlagText& text,
                              const CommandLine&) -> absl::Status {
    ASSIGN_OR_RETURN(const FrontendCommand c, ParseFrontendCommand(kind, text));
    return RunFrontend(c, std::cout, c.output.empty() ? std::cerr : std::cout);
  };
  return Invoke("frontend", FrontendFlags(), args.subspan(1), run);
}

absl::StatusOr<Invocation> ParseDemo(absl::Span<const std::string> args) {
  return Invoke(
      "demo", DemoFlags(), args,
      [](DemoCommand& c, const CommandLine&) { return RunDemo(c, std::cout); });
}

}  // namespace

absl::Span<const Command> Commands() {
  static const Command kCommands[] = {
      {"map", "map processes onto the topology and write the mapping", "",
       [] { return MapFlags().flags(); }, ParseMap},
      {"eval",
       "evaluate a given mapping: J, hop-bytes, per-level volume, largest link",
       "", [] { return EvalFlags().flags(); }, ParseEval},
      {"compare",
       "run every algorithm and baseline on the same input, one table", "",
       [] { return CompareFlags().flags(); }, ParseCompare},
      {"simulate",
       "run the graph's traffic placed by a mapping on a simulated machine "
       "(SimGrid SMPI) and print the time per iteration",
       "", [] { return SimulateFlags().flags(); }, ParseSimulate},
      {"advise",
       "profile an MPI job as launched (after --), predict the gain of a "
       "better placement, and write the launcher's file when it pays",
       "", [] { return AdviseFlags().flags(); }, ParseAdvise},
      {"calibrate",
       "measure the links between a job's ranks under its launcher (after --) "
       "and write them as a network spec",
       " -- LAUNCHER [OPTIONS]", [] { return CalibrateFlags().flags(); },
       ParseCalibrate},
      {"bind",
       "run as each rank under any launcher: bind CPUs and memory as the "
       "mapping says, then exec the program given after --",
       " -- PROGRAM [ARGS]", [] { return BindFlags().flags(); }, ParseBind},
      {"topology",
       "draw the topology tree (text), or print it as json, tleaf or a "
       "SimGrid platform (simgrid)",
       " [T]", [] { return TopologyFlags().flags(); }, ParseTopology},
      {"frontend",
       "write the communication graph of summa | square-corner | stencil | "
       "wave2d | mpdata, or the cell graph of an OpenFOAM case",
       " summa|square-corner|stencil|wave2d|mpdata|openfoam",
       [] { return FrontendFlags().flags(); }, ParseFrontend},
      {"demo",
       "map a built-in stencil onto this machine and a built-in cluster", "",
       [] { return DemoFlags().flags(); }, ParseDemo},
  };
  return kCommands;
}

const Command* FindCommand(std::string_view name) {
  for (const Command& c : Commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::string Usage() {
  std::string text = "usage: rankmap <command> [flags]\n\ncommands:\n";
  for (const Command& c : Commands()) {
    absl::StrAppendFormat(&text, "  %-10s %s\n", std::string(c.name),
                          std::string(c.summary));
  }
  absl::StrAppend(&text,
                  "\nrankmap <command> --help lists the flags of a command;\n"
                  "rankmap --version names the release and commit.\n");
  return text;
}

std::string CommandHelp(const Command& command) {
  return absl::StrCat("usage: rankmap ", std::string(command.name),
                      std::string(command.operand), " [flags]\n",
                      std::string(command.summary), "\n\nflags:\n",
                      FlagHelp(command.flags()));
}

}  // namespace rankmap::cli
