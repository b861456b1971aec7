// What a launch format produces: the files to write and the command that
// reads them.
//
//   LaunchPlan plan = ...;                  // from launch/launch.h
//   for (const LaunchFile& f : plan.files) WriteFile(f.path, f.contents);
//   std::cout << plan.command << " ./app\n";
//
// The command is kept as words (`launch`) and quoted once for the shell into
// `command`, so that a caller can rebuild it word by word (advise puts the
// user's own launcher and options in) without parsing text.
#ifndef RANKMAP_LAUNCH_LAUNCH_PLAN_H_
#define RANKMAP_LAUNCH_LAUNCH_PLAN_H_

#include <string>
#include <utility>
#include <vector>

namespace rankmap::launch {

struct LaunchFile {
  std::string path;
  std::string contents;
  bool executable = false;  // a wrapper script (mode 0755)
};

// A command up to the program: variables set for it, then its words.
struct LaunchCommand {
  // NAME=value assignments in front of the launcher (SLURM_HOSTFILE=...).
  std::vector<std::pair<std::string, std::string>> env;
  // The launcher's name, its options and, when one binds the ranks, a wrapper
  // script that stands in front of the program.
  std::vector<std::string> words;
};

// The command as POSIX shell text: each assignment NAME=<quoted value>, then
// each word quoted (base/shell_quote.h), all joined by spaces.
std::string ShellText(const LaunchCommand& command);

struct LaunchPlan {
  // The first file is the main one (the rankfile, the hostfile).
  std::vector<LaunchFile> files;
  // The launcher command (empty words for hwloc cpusets, which no launcher
  // reads).
  LaunchCommand launch;
  // ShellText(launch), e.g. "mpirun --rankfile m.rf -np 4"; the program and
  // its arguments follow it. For hwloc cpusets, the shell fragment each rank
  // runs in front of the program.
  std::string command;
};

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_LAUNCH_PLAN_H_
