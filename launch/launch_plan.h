// What a launch format produces: the files to write and the command that
// reads them.
//
//   LaunchPlan plan = ...;                  // from launch/launch.h
//   for (const LaunchFile& f : plan.files) WriteFile(f.path, f.contents);
//   std::cout << plan.command << " ./app\n";
#ifndef RANKMAP_LAUNCH_LAUNCH_PLAN_H_
#define RANKMAP_LAUNCH_LAUNCH_PLAN_H_

#include <string>
#include <vector>

namespace rankmap::launch {

struct LaunchFile {
  std::string path;
  std::string contents;
  bool executable = false;  // a wrapper script (mode 0755)
};

struct LaunchPlan {
  // The first file is the main one (the rankfile, the hostfile).
  std::vector<LaunchFile> files;
  // The launcher command up to the program, e.g. "mpirun --rankfile m.rf -np
  // 4"; the program and its arguments follow it.
  std::string command;
};

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_LAUNCH_PLAN_H_
