#include "cli/job_profile.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/file.h"
#include "base/runfiles.h"
#include "base/status_macros.h"
#include "base/subprocess.h"
#include "base/temp_dir.h"
#include "mpi_bindings/profile_output.h"

namespace rankmap::cli {
namespace {

// A failed job's standard error without what the launcher wraps around the
// program's own lines: Open MPI's help boxes (between lines of dashes),
// Hydra's (between lines of '='), "[host:pid] ..." notes, and the profiler's
// own line, so that the error names what the program said.
std::string LauncherFree(const std::string& err) {
  std::string kept;
  bool in_box = false;
  for (absl::string_view line : absl::StrSplit(err, '\n')) {
    const bool rule =
        line.size() >= 20 && (line.find_first_not_of('-') == line.npos ||
                              line.find_first_not_of('=') == line.npos);
    if (rule) {
      in_box = !in_box;
      continue;
    }
    const bool note = absl::StartsWith(line, "[") &&
                      line.find("] ") != line.npos &&
                      line.find(':') < line.find("] ");
    if (in_box || note || line.empty() ||
        absl::StartsWith(line, "rankmap: traffic of"))
      continue;
    absl::StrAppend(&kept, line, "\n");
  }
  return kept;
}

// The profiler's own last line on a job's standard error ("rankmap:
// RANKMAP_PROFILE_FLUSH='5s': ...; profiling off, nothing recorded"), or "".
std::string ProfilerLine(const std::string& err) {
  std::string last;
  for (absl::string_view line : absl::StrSplit(err, '\n')) {
    if (absl::StartsWith(line, "rankmap: ") &&
        !absl::StartsWith(line, "rankmap: traffic of"))
      last = std::string(line.substr(9));
  }
  return last;
}

using launch::Launcher;

// How much of a failed job's standard error is read for its last lines.
constexpr int64_t kErrorTailBytes = int64_t{64} << 10;

std::string BaseName(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

// The output of `argv`, or "" when it cannot be run.
std::string OutputOf(std::vector<std::string> argv) {
  absl::StatusOr<base::TempDir> dir = base::TempDir::Create("probe");
  if (!dir.ok()) return "";
  base::SubprocessOptions o;
  o.stdout_path = dir->path() + "/out";
  o.stderr_path = dir->path() + "/out.err";
  o.timeout_seconds = 20;
  if (!base::RunSubprocess(argv, o).ok()) return "";
  return base::ReadFile(o.stdout_path, "output").value_or("") +
         base::ReadFile(o.stderr_path, "output").value_or("");
}

}  // namespace

absl::StatusOr<Launcher> DetectLauncher(const std::string& exe,
                                        std::string_view command) {
  const std::string name = BaseName(exe);
  if (name == "srun") return Launcher::kSlurm;
  if (name == "mpiexec.hydra" || name == "mpiexec.mpich" ||
      name == "mpirun.mpich") {
    return Launcher::kHydra;
  }
  const std::string version = OutputOf({exe, "--version"});
  if (version.find("Open MPI") != std::string::npos ||
      version.find("OpenRTE") != std::string::npos) {
    return Launcher::kOpenMpi;
  }
  if (version.find("HYDRA") != std::string::npos) return Launcher::kHydra;
  return absl::InvalidArgumentError(absl::StrCat(
      std::string(command), ": '", exe, "' is not a launcher ",
      std::string(command),
      " knows (Open MPI's mpirun, MPICH's mpiexec.hydra, Slurm's srun; "
      "--launcher openmpi|hydra|slurm names one called otherwise)"));
}

absl::StatusOr<std::string> ResolveProgram(const std::string& program) {
  auto runnable = [](const std::string& p) {
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           access(p.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) {
    if (runnable(program)) return program;
  } else if (const char* path = std::getenv("PATH")) {
    for (absl::string_view dir : absl::StrSplit(path, ':')) {
      const std::string candidate = absl::StrCat(dir, "/", program);
      if (!dir.empty() && runnable(candidate)) return candidate;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("advise: the program '", program,
                   "' of the launch line is not an executable file"));
}

absl::StatusOr<std::string> MpiFlavour(const std::string& program) {
  const std::string libs = OutputOf({"ldd", program});
  if (libs.find("libmpi.so") != std::string::npos) return "Open MPI";
  if (libs.find("libmpich.so") != std::string::npos) return "MPICH";
  return absl::InvalidArgumentError(absl::StrCat(
      "advise: '", program,
      "' is not dynamically linked against MPI (ldd lists neither libmpi.so "
      "nor libmpich.so), so the profiler cannot be preloaded into it"));
}

std::string ProgramLines(const std::string& err) { return LauncherFree(err); }

namespace {

absl::StatusOr<std::string> ProfilerFor(const std::string& flavour) {
  if (flavour == "MPICH") {
    const std::string installed[] = {"../lib/mpich"};
    return base::FindBesideSelf("mpi_bindings/mpich/librankmap_profile.so",
                                installed);
  }
  const std::string installed[] = {"../lib/openmpi"};
  return base::FindBesideSelf("mpi_bindings/librankmap_profile.so", installed);
}

// The world size the saved rows name (row 0's header), or 0.
int32_t SavedWorldSize(const std::string& prefix) {
  absl::StatusOr<std::string> text =
      base::ReadFile(mpi_bindings::RowPath(prefix, 0), "saved row");
  if (!text.ok()) return 0;
  absl::StatusOr<mpi_bindings::ProfileRow> row =
      mpi_bindings::ParseRow(*text, "saved row");
  return row.ok() ? row->world_size : 0;
}

// A failed job, named by its status and the last lines of its standard
// error (the closing lines only: a job may write gigabytes before it fails).
absl::Status JobFailed(const base::SubprocessResult& r,
                       const std::string& stderr_path) {
  const std::string err =
      base::ReadFileTail(stderr_path, kErrorTailBytes, "job errors")
          .value_or("");
  std::string tail = base::LastLines(ProgramLines(err), 3);
  if (tail.empty()) tail = base::LastLines(err, 3);
  for (char& c : tail) c = c == '\n' ? '|' : c;
  return absl::FailedPreconditionError(
      absl::StrCat("advise: the job failed (",
                   r.signal ? absl::StrCat("signal ", r.signal)
                            : absl::StrCat("exit status ", r.exit_code),
                   tail.empty() ? ")" : absl::StrCat("): ", tail)));
}

// The rows the ranks of a job stopped by the time limit saved, merged into a
// partial profile; returns why it is partial.
absl::StatusOr<std::string> MergeStoppedJob(const launch::LaunchLine& line,
                                            const JobProfileOptions& options) {
  const int32_t world = SavedWorldSize(options.prefix);
  if (world > 0 && line.processes > 0 && world != line.processes) {
    return absl::FailedPreconditionError(
        absl::StrCat("advise: the saved rows name ", world,
                     " ranks, the launch line asked for ", line.processes));
  }
  if (world <= 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "advise: the job was stopped after ", options.seconds,
        " s before any rank saved its traffic (give --profile-seconds more "
        "time)"));
  }
  return mpi_bindings::MergePartialProfile(
      options.prefix, world,
      absl::StrCat("stopped after ", options.seconds, " s (--profile-seconds)"));
}

}  // namespace

std::string ProfileHardware(const std::string& mat) {
  const std::string dir = mpi_bindings::HardwareDirectory(
      std::filesystem::path(mat).replace_extension("").string());
  return base::IsDirectory(dir) ? dir : "";
}

absl::StatusOr<launch::Launcher> ParseLauncher(std::string_view name) {
  if (name == "openmpi") return Launcher::kOpenMpi;
  if (name == "hydra") return Launcher::kHydra;
  if (name == "slurm") return Launcher::kSlurm;
  return absl::InvalidArgumentError(
      absl::StrCat("--launcher: '", std::string(name),
                   "' (expected openmpi, hydra, slurm)"));
}

absl::StatusOr<JobProfile> ProfileJob(std::span<const std::string> argv,
                                      const JobProfileOptions& options,
                                      std::ostream& log) {
  if (argv.empty()) {
    return absl::InvalidArgumentError(
        "advise: no launch line after -- (e.g. rankmap advise -- mpirun -np "
        "8 ./app)");
  }
  JobProfile job;
  ASSIGN_OR_RETURN(const Launcher launcher,
                   options.launcher ? *options.launcher
                                    : DetectLauncher(argv[0], "advise"));
  absl::StatusOr<launch::LaunchLine> line =
      launch::ParseLaunchLine(argv, launcher);
  if (!line.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("advise: ", std::string(line.status().message())));
  }
  job.line = *std::move(line);
  ASSIGN_OR_RETURN(const std::string program,
                   ResolveProgram(job.line.program[0]));
  ASSIGN_OR_RETURN(job.flavour, MpiFlavour(program));
  ASSIGN_OR_RETURN(job.library, ProfilerFor(job.flavour));
  std::vector<std::pair<std::string, std::string>> env = {
      {"LD_PRELOAD", job.library}, {"RANKMAP_PROFILE_OUT", options.prefix}};
  if (options.seconds > 0) {
    env.emplace_back("RANKMAP_PROFILE_FLUSH",
                     absl::StrCat(std::max(0.1, options.seconds / 4)));
  }
  absl::StatusOr<std::vector<std::string>> run =
      launch::WithEnvironment(job.line, env);
  if (!run.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("advise: ", run.status().message()));
  }
  log << "profiling: " << launch::LauncherName(launcher) << ", " << job.flavour
      << " program, " << job.library << "\n";
  base::SubprocessOptions o;
  o.stdout_path = options.prefix + ".out";
  o.stderr_path = options.prefix + ".err";
  o.timeout_seconds = options.seconds;
  ASSIGN_OR_RETURN(const base::SubprocessResult r,
                   base::RunSubprocess(*run, o));
  job.stopped = r.timed_out;
  if (!r.timed_out && (r.exit_code != 0 || r.signal != 0)) {
    return JobFailed(r, o.stderr_path);
  }
  if (r.timed_out) {
    ASSIGN_OR_RETURN(job.partial, MergeStoppedJob(job.line, options));
  }
  if (!base::IsRegularFile(options.prefix + ".mat")) {
    // The profiler says why when it switched itself off (a bad variable).
    const std::string said = ProfilerLine(
        base::ReadFileTail(o.stderr_path, kErrorTailBytes, "job errors")
            .value_or(""));
    return absl::FailedPreconditionError(absl::StrCat(
        "advise: the job ended without a profile (",
        said.empty()
            ? "did every rank call MPI_Init and MPI_Finalize?"
            : absl::StrCat("the profiler said: ", said),
        ")"));
  }
  return job;
}

}  // namespace rankmap::cli
