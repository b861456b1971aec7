// rankmap: command-line front end. The commands, their flags and their help
// are in cli/commands.h; main() dispatches, turns errors into one line on
// stderr and an exit code, and keeps exceptions inside the command.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/version.h"
#include "cli/commands.h"
#include "cli/exit_code.h"
#include "cli/stop_signals.h"
#include "topology/shown.h"

namespace {

using rankmap::cli::Command;
using rankmap::cli::Invocation;

// One line, whatever the message quotes (a path or a word with a line
// break in it).
int Fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "rankmap: %s\n",
               rankmap::topology::OneLine(message).c_str());
  return code;
}

// Under `bazel run` the process starts in the runfiles tree: relative paths
// given by the caller mean the caller's directory.
bool ToCallersDirectory() {
  const char* wd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (wd == nullptr || *wd == '\0' || chdir(wd) == 0) return true;
  Fail(absl::StrCat(wd, ": cannot change to the caller's directory (",
                    std::strerror(errno), ")"));
  return false;
}

// `rankmap`, `rankmap --help`, `rankmap help [COMMAND]`.
int Help(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs(rankmap::cli::Usage().c_str(), stderr);
    return 2;
  }
  if (args[0] == "help" && args.size() >= 2) {
    const Command* command = rankmap::cli::FindCommand(args[1]);
    if (command == nullptr) {
      return Fail(absl::StrCat("unknown command '", args[1], "' (try --help)"));
    }
    std::fputs(rankmap::cli::CommandHelp(*command).c_str(), stdout);
    return 0;
  }
  std::fputs(rankmap::cli::Usage().c_str(), stdout);
  return 0;
}

// The command's boundary: an exception (std::bad_alloc above all) is one
// line and exit 1, never std::terminate.
int Run(const std::string& name, const Invocation& invocation) {
  // bind execs the program: it must not hand it blocked signals.
  if (name != "bind") rankmap::cli::StopOnSignals(name);
  absl::Status status;
  try {
    status = invocation.run();
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    return Fail(absl::StrCat(name,
                             ": out of memory (the inputs need more "
                             "than this machine or `ulimit -v` allows)"),
                1);
  } catch (const std::exception& e) {
    std::cout.flush();
    return Fail(absl::StrCat(name, ": internal error: ", e.what()), 1);
  }
  std::cout.flush();
  if (!status.ok()) {
    return Fail(std::string(status.message()),
                rankmap::cli::ExitCodeFor(status));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (!ToCallersDirectory()) return 2;
  // hwloc prints multi-line boxes about odd XML on stderr; errors here are one
  // line (a user's own setting wins).
  setenv("HWLOC_HIDE_ERRORS", "2", /*overwrite=*/0);
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--version" || args[0] == "version")) {
    std::printf("%s\n", rankmap::base::VersionString().c_str());
    return 0;
  }
  if (args.empty() || args[0] == "--help" || args[0] == "help") {
    return Help(args);
  }
  const Command* command = rankmap::cli::FindCommand(args[0]);
  if (command == nullptr) {
    return Fail(absl::StrCat("unknown command '", args[0], "' (try --help)"));
  }
  absl::StatusOr<Invocation> invocation =
      command->parse(absl::MakeConstSpan(args).subspan(1));
  if (!invocation.ok()) return Fail(std::string(invocation.status().message()));
  if (invocation->help) {
    std::fputs(rankmap::cli::CommandHelp(*command).c_str(), stdout);
    return 0;
  }
  return Run(args[0], *invocation);
}
