// The commands of `rankmap`: each one's name, one-line summary, usage operand,
// flags (its FlagTable, cli/command_flags.h) and how a command line becomes a
// run of its cli/*_command.h function. main() only dispatches; `rankmap
// --help` and `rankmap <command> --help` are generated from here.
//
//   const Command* command = FindCommand("map");
//   ASSIGN_OR_RETURN(Invocation invocation, command->parse(args));
//   if (invocation.help) std::cout << CommandHelp(*command);
//   else RETURN_IF_ERROR(invocation.run());
#ifndef RANKMAP_CLI_COMMANDS_H_
#define RANKMAP_CLI_COMMANDS_H_

#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "cli/flag_table.h"

namespace rankmap::cli {

// A parsed command line: the command's help was asked for, or `run` runs the
// command as the flags say (on std::cout, bind on std::cerr).
struct Invocation {
  bool help = false;
  std::function<absl::Status()> run;
};

struct Command {
  std::string_view name;
  std::string_view summary;
  std::string_view operand;  // after the name in the usage line, or empty
  absl::Span<const FlagInfo> (*flags)();
  // The words after the command's name: its operand, its flags and, for bind
  // and advise, `--` and a program. Errors are InvalidArgument, one line
  // naming the command (cli/flag_table.h).
  absl::StatusOr<Invocation> (*parse)(absl::Span<const std::string> args);
};

// Every command, in the order `rankmap --help` lists them.
absl::Span<const Command> Commands();

// The command called `name`, or nullptr.
const Command* FindCommand(std::string_view name);

// `rankmap --help`: the commands and their summaries.
std::string Usage();

// `rankmap <command> --help`: its usage line, summary and flags.
std::string CommandHelp(const Command& command);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_COMMANDS_H_
