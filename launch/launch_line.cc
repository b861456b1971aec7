#include "launch/launch_line.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rankmap::launch {
namespace {

// What an option of a launcher is: how many values follow it, whether it
// places ranks, and whether it gives the process count.
enum Role { kKeep, kPlace, kCount, kRefuse };
struct OptionSpec {
  std::string_view name;
  int values;
  Role role;
};

constexpr OptionSpec kOpenMpi[] = {
    {"-np", 1, kCount},
    {"--np", 1, kCount},
    {"-n", 1, kCount},
    {"-c", 1, kCount},
    // The allocation: a rankfile's hosts must be in it, so it stays.
    {"-H", 1, kKeep},
    {"-host", 1, kKeep},
    {"--host", 1, kKeep},
    {"-hostfile", 1, kKeep},
    {"--hostfile", 1, kKeep},
    {"-machinefile", 1, kKeep},
    {"--machinefile", 1, kKeep},
    {"--default-hostfile", 1, kKeep},
    {"-x", 1, kKeep},
    {"--mca", 2, kKeep},
    {"-mca", 2, kKeep},
    {"--gmca", 2, kKeep},
    {"-gmca", 2, kKeep},
    {"--map-by", 1, kPlace},
    {"-map-by", 1, kPlace},
    {"--rank-by", 1, kPlace},
    {"-rank-by", 1, kPlace},
    {"--bind-to", 1, kPlace},
    {"-bind-to", 1, kPlace},
    {"--rankfile", 1, kPlace},
    {"-rankfile", 1, kPlace},
    {"-rf", 1, kPlace},
    {"--npernode", 1, kPlace},
    {"-npernode", 1, kPlace},
    {"-N", 1, kPlace},
    {"--npersocket", 1, kPlace},
    {"-npersocket", 1, kPlace},
    {"--cpu-set", 1, kPlace},
    {"-cpu-set", 1, kPlace},
    {"--cpus-per-proc", 1, kPlace},
    {"-cpus-per-proc", 1, kPlace},
    {"--cpus-per-rank", 1, kPlace},
    {"-cpus-per-rank", 1, kPlace},
    {"--use-hwthread-cpus", 0, kPlace},
    {"-use-hwthread-cpus", 0, kPlace},
    {"--bynode", 0, kPlace},
    {"--byslot", 0, kPlace},
    {"--bycore", 0, kPlace},
    {"--bind-to-core", 0, kPlace},
    {"--bind-to-socket", 0, kPlace},
    {"--wdir", 1, kKeep},
    {"-wdir", 1, kKeep},
    {"--path", 1, kKeep},
    {"--prefix", 1, kKeep},
    {"-prefix", 1, kKeep},
    {"--output-filename", 1, kKeep},
    {"-output-filename", 1, kKeep},
    {"--timeout", 1, kKeep},
    {"--tune", 1, kKeep},
    {"--stdin", 1, kKeep},
    {"--preload-files", 1, kKeep},
    {"--app", 1, kRefuse},
    {"-app", 1, kRefuse},
};

constexpr OptionSpec kHydra[] = {
    {"-n", 1, kCount},
    {"-np", 1, kCount},
    {"-f", 1, kPlace},
    {"-hostfile", 1, kPlace},
    {"-machinefile", 1, kPlace},
    {"-hosts", 1, kPlace},
    {"-host", 1, kPlace},
    {"-ppn", 1, kPlace},
    {"-bind-to", 1, kPlace},
    {"-binding", 1, kPlace},
    {"-map-by", 1, kPlace},
    {"-genv", 2, kKeep},
    {"-env", 2, kKeep},
    {"-genvlist", 1, kKeep},
    {"-envlist", 1, kKeep},
    {"-launcher", 1, kKeep},
    {"-launcher-exec", 1, kKeep},
    {"-rmk", 1, kKeep},
    {"-iface", 1, kKeep},
    {"-wdir", 1, kKeep},
    {"-errfile-pattern", 1, kKeep},
    {"-outfile-pattern", 1, kKeep},
    {"-demux", 1, kKeep},
    {"-configfile", 1, kRefuse},
};

constexpr OptionSpec kSlurm[] = {
    {"-n", 1, kCount},
    {"--ntasks", 1, kCount},
    {"--cpu-bind", 1, kPlace},
    {"--cpu_bind", 1, kPlace},
    {"-m", 1, kPlace},
    {"--distribution", 1, kPlace},
    {"-w", 1, kPlace},
    {"--nodelist", 1, kPlace},
    {"--ntasks-per-node", 1, kPlace},
    {"--ntasks-per-socket", 1, kPlace},
    {"--ntasks-per-core", 1, kPlace},
    {"-B", 1, kPlace},
    {"--extra-node-info", 1, kPlace},
    {"-N", 1, kKeep},
    {"--nodes", 1, kKeep},
    {"-c", 1, kKeep},
    {"--cpus-per-task", 1, kKeep},
    {"-x", 1, kKeep},
    {"--exclude", 1, kKeep},
    {"--export", 1, kKeep},
    {"-p", 1, kKeep},
    {"--partition", 1, kKeep},
    {"-t", 1, kKeep},
    {"--time", 1, kKeep},
    {"-J", 1, kKeep},
    {"--job-name", 1, kKeep},
    {"-A", 1, kKeep},
    {"--account", 1, kKeep},
    {"--mpi", 1, kKeep},
    {"-o", 1, kKeep},
    {"--output", 1, kKeep},
    {"-e", 1, kKeep},
    {"--error", 1, kKeep},
    {"-i", 1, kKeep},
    {"--input", 1, kKeep},
    {"--mem", 1, kKeep},
    {"--mem-per-cpu", 1, kKeep},
    {"--gres", 1, kKeep},
    {"-C", 1, kKeep},
    {"--constraint", 1, kKeep},
    {"-D", 1, kKeep},
    {"--chdir", 1, kKeep},
    {"-q", 1, kKeep},
    {"--qos", 1, kKeep},
    {"-d", 1, kKeep},
    {"--dependency", 1, kKeep},
    {"-W", 1, kKeep},
    {"--wait", 1, kKeep},
    {"--multi-prog", 0, kRefuse},
};

std::span<const OptionSpec> Table(Launcher launcher) {
  switch (launcher) {
    case Launcher::kOpenMpi:
      return kOpenMpi;
    case Launcher::kHydra:
      return kHydra;
    case Launcher::kSlurm:
      return kSlurm;
  }
  return {};
}

// The option `word` names, with an inline value ("--map-by=core", srun's
// "-n4") split off; nullptr when the launcher has no such option.
const OptionSpec* Find(Launcher launcher, std::string_view word,
                       std::string* inline_value, bool* has_inline) {
  *has_inline = false;
  std::string_view name = word;
  if (const size_t eq = word.find('=');
      eq != std::string_view::npos && word.starts_with("--")) {
    name = word.substr(0, eq);
    *inline_value = std::string(word.substr(eq + 1));
    *has_inline = true;
  }
  for (const OptionSpec& o : Table(launcher)) {
    if (o.name == name) return &o;
  }
  // srun's short options take their value attached: -n4, -wnode1.
  if (launcher == Launcher::kSlurm && word.size() > 2 && word[0] == '-' &&
      word[1] != '-') {
    for (const OptionSpec& o : Table(launcher)) {
      if (o.values == 1 && o.name.size() == 2 && o.name == word.substr(0, 2)) {
        *inline_value = std::string(word.substr(2));
        *has_inline = true;
        return &o;
      }
    }
  }
  return nullptr;
}

}  // namespace

std::string LauncherName(Launcher launcher) {
  switch (launcher) {
    case Launcher::kOpenMpi:
      return "Open MPI mpirun";
    case Launcher::kHydra:
      return "MPICH mpiexec.hydra";
    case Launcher::kSlurm:
      return "srun";
  }
  return "launcher";
}

absl::StatusOr<LaunchLine> ParseLaunchLine(std::span<const std::string> argv,
                                           Launcher launcher) {
  if (argv.empty()) return absl::InvalidArgumentError("empty launch line");
  LaunchLine line;
  line.launcher = launcher;
  line.executable = argv[0];
  size_t i = 1;
  while (i < argv.size()) {
    const std::string& w = argv[i];
    if (w == ":") break;
    if (w.size() < 2 || w[0] != '-') break;  // the program
    std::string value;
    bool inline_value = false;
    const OptionSpec* o = Find(launcher, w, &value, &inline_value);
    const int values = o == nullptr ? 0 : (inline_value ? 0 : o->values);
    if (values > 0 && i + values >= argv.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(LauncherName(launcher), " option ", w, " needs ", values,
                       values == 1 ? " value" : " values"));
    }
    if (o != nullptr && o->role == kRefuse) {
      return absl::InvalidArgumentError(
          absl::StrCat(LauncherName(launcher), " option ", w,
                       " runs several programs; advise takes one program"));
    }
    if (o != nullptr && o->role == kCount) {
      const std::string& n = inline_value ? value : argv[i + 1];
      if (!absl::SimpleAtoi(n, &line.processes) || line.processes < 1) {
        return absl::InvalidArgumentError(
            absl::StrCat(LauncherName(launcher), " option ", w, ": '", n,
                         "' is not a process count"));
      }
    }
    // The mapping's own line gives the placement and the count.
    const bool place = o != nullptr && (o->role == kPlace || o->role == kCount);
    for (int k = 0; k <= values; ++k) {
      line.options.push_back(argv[i + k]);
      line.placement.push_back(place);
    }
    i += 1 + values;
  }
  if (i == argv.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no program after the options of ", LauncherName(launcher)));
  }
  for (size_t k = i; k < argv.size(); ++k) {
    if (argv[k] == ":") {
      return absl::InvalidArgumentError(
          "the launch line runs several programs (':'); advise takes one");
    }
  }
  line.program.assign(argv.begin() + i, argv.end());
  return line;
}

std::vector<std::string> WithEnvironment(
    const LaunchLine& line,
    const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> out = {line.executable};
  std::string exported;  // srun: ALL or the user's list, then ours
  bool had_export = false;
  for (size_t i = 0; i < line.options.size(); ++i) {
    const std::string& w = line.options[i];
    if (line.launcher == Launcher::kSlurm &&
        (w == "--export" || w.starts_with("--export="))) {
      had_export = true;
      exported = w == "--export" ? line.options[++i] : w.substr(9);
      continue;
    }
    out.push_back(w);
  }
  std::vector<std::string> added;
  switch (line.launcher) {
    case Launcher::kOpenMpi:
      for (const auto& [k, v] : env)
        added.insert(added.end(), {"-x", k + "=" + v});
      break;
    case Launcher::kHydra:
      for (const auto& [k, v] : env) added.insert(added.end(), {"-genv", k, v});
      break;
    case Launcher::kSlurm: {
      // NONE would drop the job's environment: then only ours is passed.
      std::string list = had_export ? exported : "ALL";
      for (const auto& [k, v] : env) absl::StrAppend(&list, ",", k, "=", v);
      added.push_back("--export=" + list);
      break;
    }
  }
  out.insert(out.begin() + 1, added.begin(), added.end());
  out.insert(out.end(), line.program.begin(), line.program.end());
  return out;
}

std::vector<std::string> KeptOptions(const LaunchLine& line) {
  std::vector<std::string> kept;
  for (size_t i = 0; i < line.options.size(); ++i) {
    if (!line.placement[i]) kept.push_back(line.options[i]);
  }
  return kept;
}

}  // namespace rankmap::launch
