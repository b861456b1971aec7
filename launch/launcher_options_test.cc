// The option tables against each installed launcher's own documentation:
// every option `mpirun --help all` (Open MPI 4.1), `mpiexec.hydra --help`
// (MPICH 4.0) and srun(1) (Slurm 22.05) list is in the table under that
// spelling, with as many values as the documentation shows.
#include "launch/launcher_options.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/subprocess.h"
#include "gtest/gtest.h"

namespace rankmap::launch {
namespace {

struct Documented {
  std::string name;
  int values;  // -2: the documentation does not say
};

// The output of `argv` (standard output and error), or "" when it cannot run.
std::string OutputOf(std::vector<std::string> argv) {
  const std::string out = std::string(std::getenv("TEST_TMPDIR")) + "/help";
  base::SubprocessOptions o;
  o.stdout_path = out;
  o.stderr_path = out;
  o.timeout_seconds = 60;
  o.env = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"},
           {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
  if (!base::RunSubprocess(argv, o).ok()) return "";
  return base::ReadFile(out, "help").value_or("");
}

void ExpectInTable(Launcher launcher, const std::vector<Documented>& docs,
                   const std::string& source) {
  ASSERT_GT(docs.size(), 20u) << source << " lists too few options: "
                              << "is its format another one?";
  for (const Documented& d : docs) {
    const OptionSpec* found = nullptr;
    for (const OptionSpec& o : LauncherOptions(launcher)) {
      if (o.name == d.name) found = &o;
    }
    if (found == nullptr) {
      ADD_FAILURE() << source << " lists " << d.name << ", the table has not";
      continue;
    }
    if (d.values != -2 && found->role != OptionRole::kRefuse) {
      EXPECT_EQ(found->values, d.values) << source << ": " << d.name;
    }
  }
}

// "-c|-np|--np <arg0>" -> -c, -np, --np with one value each.
TEST(LauncherOptions, OpenMpiHelp) {
  const std::string help = OutputOf({"mpirun", "--help", "all"});
  if (help.find("--map-by") == std::string::npos) {
    GTEST_SKIP() << "mpirun --help all printed no options: Open MPI missing";
  }
  const std::regex line(R"(^\s*((?:-{1,2}[A-Za-z][-A-Za-z_]*\|?)+)((?: <arg\d>)*))");
  std::vector<Documented> docs;
  for (absl::string_view text : absl::StrSplit(help, '\n')) {
    const std::string l(text);
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    const int values = static_cast<int>(std::count(
        m[2].first, m[2].second, '<'));
    for (absl::string_view name : absl::StrSplit(m[1].str(), '|')) {
      if (!name.empty()) docs.push_back({std::string(name), values});
    }
  }
  ExpectInTable(Launcher::kOpenMpi, docs, "mpirun --help all");
}

// "    -n/-np {value}   number of processes"; Hydra's own options say no
// value count.
TEST(LauncherOptions, HydraHelp) {
  const std::string help = OutputOf({"mpiexec.hydra", "--help"});
  if (help.find("-genv") == std::string::npos) {
    GTEST_SKIP() << "mpiexec.hydra --help printed no options: MPICH missing";
  }
  const std::regex line(R"(^\s+(-[a-z][-a-z]*(?:/-[a-z][-a-z]*)?)( \{[^}]*\})*)");
  std::vector<Documented> docs;
  for (absl::string_view text : absl::StrSplit(help, '\n')) {
    const std::string l(text);
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    const std::string rest = l.substr(m[1].second - l.begin());
    const size_t braces = std::count(rest.begin(), rest.end(), '{');
    const bool counted = braces > 0;
    for (absl::string_view name : absl::StrSplit(m[1].str(), '/')) {
      docs.push_back({std::string(name), counted ? static_cast<int>(braces)
                                                 : -2});
    }
  }
  ExpectInTable(Launcher::kHydra, docs, "mpiexec.hydra --help");
}

// srun(1): ".TP" then "\fB\-A\fR, \fB\-\-account\fR=<\fIaccount\fR>"; a
// value in brackets is optional ("--exclusive[=user]").
TEST(LauncherOptions, SrunManual) {
  const std::string page = OutputOf({"sh", "-c",
                                "zcat /usr/share/man/man1/srun.1.gz"});
  if (page.find("ntasks") == std::string::npos) {
    GTEST_SKIP() << "no srun(1) manual page (Debian package slurm-client)";
  }
  std::vector<Documented> docs;
  bool after_tp = false;
  const std::regex option(R"(^(-[A-Za-z])?(?:, )?(--[a-z][-a-z0-9_]*)(\[?=)?)");
  for (absl::string_view text : absl::StrSplit(page, '\n')) {
    std::string l(text);
    const bool item = after_tp && l.starts_with("\\fB\\-");
    after_tp = l == ".TP";
    if (!item) continue;
    l = std::regex_replace(l, std::regex(R"(\\f[BRIP])"), "");
    l = std::regex_replace(l, std::regex(R"(\\-)"), "-");
    std::smatch m;
    if (!std::regex_search(l, m, option)) continue;
    const int values = !m[3].matched ? 0 : m[3].str() == "[=" ? -1 : 1;
    if (m[1].matched) docs.push_back({m[1].str(), values});
    docs.push_back({m[2].str(), values});
  }
  ExpectInTable(Launcher::kSlurm, docs, "srun(1)");
}

}  // namespace
}  // namespace rankmap::launch
