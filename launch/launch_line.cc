#include "launch/launch_line.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "launch/launcher_options.h"

namespace rankmap::launch {
namespace {

// As many ranks as a placement file may name (mpi_bindings/profile_output.h).
constexpr int64_t kMaxProcesses = int64_t{1} << 24;

absl::Status UnknownOption(Launcher launcher, const std::string& word) {
  return absl::InvalidArgumentError(absl::StrCat(
      LauncherName(launcher), " has no option ", word.substr(0, 64),
      " (advise reads the options its --help lists; is it the program?)"));
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
    const OptionMatch m = FindOption(launcher, w);
    if (m.spec == nullptr) return UnknownOption(launcher, w);
    const OptionSpec& o = *m.spec;
    // An optional value (-1) is only ever attached.
    const int values =
        m.has_inline || m.grouped_flags ? 0 : std::max(0, o.values);
    if (values > 0 && i + values >= argv.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(LauncherName(launcher), " option ", w, " needs ", values,
                       values == 1 ? " value" : " values"));
    }
    if (o.values == 0 && m.has_inline) {
      return absl::InvalidArgumentError(absl::StrCat(
          LauncherName(launcher), " option ", w.substr(0, 64),
          " takes no value"));
    }
    if (o.role == OptionRole::kRefuse) {
      return absl::InvalidArgumentError(absl::StrCat(
          LauncherName(launcher), " option ", w,
          " does not run one program as one job, which is what advise "
          "profiles"));
    }
    if (o.role == OptionRole::kCount) {
      const std::string& n = m.has_inline ? m.inline_value : argv[i + 1];
      if (!absl::SimpleAtoi(n, &line.processes) || line.processes < 1 ||
          line.processes > kMaxProcesses) {
        return absl::InvalidArgumentError(
            absl::StrCat(LauncherName(launcher), " option ", w, ": '", n,
                         "' is not a process count"));
      }
    }
    // The mapping's own line gives the placement and the count.
    const bool place =
        o.role == OptionRole::kPlace || o.role == OptionRole::kCount;
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

absl::StatusOr<std::vector<std::string>> WithEnvironment(
    const LaunchLine& line,
    const std::vector<std::pair<std::string, std::string>>& env) {
  // srun's --export separates variables at ',' and has no escape for it.
  if (line.launcher == Launcher::kSlurm) {
    for (const auto& [k, v] : env) {
      if (v.find(',') != std::string::npos) {
        return absl::InvalidArgumentError(absl::StrCat(
            "srun --export separates variables at ',': the value of ", k,
            " ('", v.substr(0, 200), "') cannot hold one"));
      }
    }
  }
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

LaunchCommand RerunCommand(const LaunchLine& line,
                           const LaunchCommand& placed) {
  LaunchCommand rerun;
  rerun.env = placed.env;
  rerun.words = {line.executable};
  const std::vector<std::string> kept = KeptOptions(line);
  rerun.words.insert(rerun.words.end(), kept.begin(), kept.end());
  if (!placed.words.empty()) {
    rerun.words.insert(rerun.words.end(), placed.words.begin() + 1,
                       placed.words.end());
  }
  rerun.words.insert(rerun.words.end(), line.program.begin(),
                     line.program.end());
  return rerun;
}

}  // namespace rankmap::launch
