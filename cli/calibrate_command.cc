#include "cli/calibrate_command.h"

#include <sys/stat.h>

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "base/file.h"
#include "base/runfiles.h"
#include "base/status_macros.h"
#include "base/subprocess.h"
#include "cli/job_profile.h"
#include "core/objective/link_load.h"
#include "models/link_fit.h"
#include "sim/smpirun.h"
#include "topology/binding.h"
#include "topology/link.h"
#include "topology/topology.h"

namespace rankmap::cli {
namespace {

using launch::Launcher;

std::string BaseName(const std::string& path) {
  return path.substr(path.rfind('/') + 1);
}

absl::StatusOr<core::LinkModel> ModelOf(const std::string& name) {
  if (name == "calibrated") return core::LinkModel::kSmpi;
  if (name == "exact") return core::LinkModel::kExact;
  return absl::InvalidArgumentError(absl::StrCat(
      "--smpi_model: '", name, "' (expected calibrated or exact)"));
}

// Where the probe's outputs go, beside the spec.
struct ProbeFiles {
  std::string probe, hardware, out, err;
  explicit ProbeFiles(const std::string& spec)
      : probe(spec + ".probe"),
        hardware(spec + ".hwloc"),
        out(spec + ".probe.out"),
        err(spec + ".probe.err") {}
};

// The command that runs the probe: smpirun's line with SMPI's build, or the
// user's launcher's line with its program replaced by the build its MPI runs.
absl::StatusOr<std::vector<std::string>> ProbeLine(
    const std::vector<std::string>& launch, std::optional<Launcher> launcher,
    const ProbeFiles& files, bool quick) {
  std::vector<std::string> args = {"--out=" + files.probe};
  if (quick) args.push_back("--quick");
  if (BaseName(launch[0]) == "smpirun") {
    ASSIGN_OR_RETURN(const std::string probe,
                     sim::FindSmpiProgram("link_probe_smpi.so"));
    std::vector<std::string> argv = {launch[0], "--cfg=smpi/privatization:no"};
    argv.insert(argv.end(), launch.begin() + 1, launch.end());
    argv.push_back(probe);
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  if (!launcher) {
    ASSIGN_OR_RETURN(launcher, DetectLauncher(launch[0], "calibrate"));
  }
  std::vector<std::string> words = launch;
  words.push_back("link_probe");
  absl::StatusOr<launch::LaunchLine> line =
      launch::ParseLaunchLine(words, *launcher);
  if (!line.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("calibrate: ", std::string(line.status().message())));
  }
  // A program given runs in MPI's flavour; else the launcher's own.
  std::string flavour = *launcher == Launcher::kHydra ? "MPICH" : "Open MPI";
  if (line->program.size() > 1 || line->program[0] != "link_probe") {
    ASSIGN_OR_RETURN(const std::string program,
                     ResolveProgram(line->program[0]));
    ASSIGN_OR_RETURN(flavour, MpiFlavour(program));
  }
  ASSIGN_OR_RETURN(
      const std::string probe,
      base::FindBesideSelf(flavour == "MPICH" ? "sim/link_probe_mpich"
                                              : "sim/link_probe_mpi"));
  mkdir(files.hardware.c_str(), 0755);
  args.push_back("--hardware=" + files.hardware);
  line->program = {probe};
  line->program.insert(line->program.end(), args.begin(), args.end());
  return launch::WithEnvironment(*line, {});
}

absl::Status RunProbe(const std::vector<std::string>& launch,
                      std::optional<Launcher> launcher, const ProbeFiles& files,
                      bool quick, std::ostream& log) {
  if (launch.empty()) {
    return absl::InvalidArgumentError(
        "calibrate: give the launch line after -- (rankmap calibrate -- "
        "mpirun -np 16 --host a:8,b:8) or --from-probe FILE");
  }
  ASSIGN_OR_RETURN(const std::vector<std::string> argv,
                   ProbeLine(launch, launcher, files, quick));
  log << "probing: " << absl::StrJoin(argv, " ") << "\n";
  base::SubprocessOptions o;
  o.stdout_path = files.out;
  o.stderr_path = files.err;
  ASSIGN_OR_RETURN(const base::SubprocessResult r, base::RunSubprocess(argv, o));
  if (r.exit_code != 0 || r.signal != 0 || !base::IsRegularFile(files.probe)) {
    const std::string err = base::ReadFile(files.err, "probe errors").value_or("");
    std::string tail = base::LastLines(ProgramLines(err), 3);
    for (char& c : tail) c = c == '\n' ? '|' : c;
    return absl::FailedPreconditionError(absl::StrCat(
        "calibrate: the probe failed (",
        r.signal ? absl::StrCat("signal ", r.signal)
                 : absl::StrCat("exit status ", r.exit_code),
        tail.empty() ? ")" : absl::StrCat("): ", tail)));
  }
  return absl::OkStatus();
}

// The level of rank 0's host's hardware that rank 0 and each other rank
// there share, when the host's export is there and says.
std::map<int32_t, std::string> IntraLevels(const models::LinkProbe& p,
                                           const std::string& hardware) {
  std::map<int32_t, std::string> level;
  const std::string xml = absl::StrCat(hardware, "/", p.hosts[0], ".xml");
  if (!base::IsRegularFile(xml)) return level;
  absl::StatusOr<topology::Tree> tree = topology::LoadTopology(xml);
  if (!tree.ok()) return level;
  // The lowest node covering every CPU of a rank, or -1.
  auto place = [&](int32_t r) -> topology::NodeId {
    absl::StatusOr<std::vector<int32_t>> cpus =
        topology::ParsePuList(p.cpus_of[r]);
    if (!cpus.ok()) return -1;
    topology::NodeId at = -1;
    for (topology::LeafId l = 0; l < tree->num_leaves(); ++l) {
      for (int32_t pu : tree->pus(l)) {
        if (std::find(cpus->begin(), cpus->end(), pu) == cpus->end()) continue;
        at = at < 0 ? l : tree->Lca(at, l);
      }
    }
    return at;
  };
  const topology::NodeId zero = place(0);
  for (int32_t r = 1; r < static_cast<int32_t>(p.host_of.size()); ++r) {
    if (p.host_of[r] != p.hosts[0]) continue;
    const topology::NodeId other = place(r);
    if (zero >= 0 && other >= 0) level[r] = tree->kind(tree->Lca(zero, other));
  }
  return level;
}

// Four significant digits, what a measurement tells, in units SimGrid reads.
std::string LinkText(const topology::Link& l) {
  return absl::StrFormat("%.4gGBps:%.4gus", 1e-9 * l.bandwidth,
                         1e6 * l.latency);
}

// The network spec: every host under its switch, each with its hardware.
std::string NetworkSpec(const models::LinkProbe& p, const models::LinkFit& fit,
                        const std::string& hardware, const std::string& how) {
  std::string out = absl::StrCat(
      "network\n# measured by rankmap calibrate (", how, ")\n",
      "link node ", LinkText(fit.node), "\nlink cluster ", LinkText(fit.cluster),
      "\n");
  if (fit.network.given()) {
    absl::StrAppend(&out, "link network ", LinkText(fit.network), "\n");
  } else {
    // SimGrid wants a link above every switch; under one switch it carries
    // no route between these hosts.
    absl::StrAppend(&out, "link network ", LinkText(fit.cluster),
                    "  # one switch: on no route\n");
  }
  const int32_t groups = *std::max_element(p.group.begin(), p.group.end()) + 1;
  for (int32_t g = 0; g < groups; ++g) {
    absl::StrAppend(&out, "switch s", g, "\n");
    for (size_t h = 0; h < p.hosts.size(); ++h) {
      if (p.group[h] != g) continue;
      const std::string xml = absl::StrCat(hardware, "/", p.hosts[h], ".xml");
      const int64_t ranks =
          std::count(p.host_of.begin(), p.host_of.end(), p.hosts[h]);
      // Relative to the spec's own directory, where readers look.
      absl::StrAppend(&out, "node ", p.hosts[h], " ",
                      base::IsRegularFile(xml)
                          ? absl::StrCat(BaseName(hardware), "/", p.hosts[h], ".xml")
                          : absl::StrCat("core:", ranks),
                      "\n");
    }
  }
  return out;
}

void PrintFit(const models::LinkProbe& p, const models::LinkFit& fit,
              std::ostream& out) {
  out << absl::StrFormat("%-36s %-16s %12s %14s\n", "distance from rank 0",
                         "peer", "latency", "bandwidth");
  for (const models::MeasuredLevel& m : fit.levels) {
    out << absl::StrFormat("%-36s %-16s %9.4g us %9.4g GB/s\n", m.name,
                           absl::StrCat("rank ", m.peer, " (", p.host_of[m.peer], ")"),
                           1e6 * m.latency, 1e-9 * m.bandwidth);
  }
  if (fit.host_stream > 0)
    out << absl::StrFormat("host link, %d flows at once: %.4g GB/s\n",
                           fit.host_flows, 1e-9 * fit.host_stream);
  if (fit.switch_stream > 0)
    out << absl::StrFormat("switch link, %d hosts at once: %.4g GB/s\n",
                           fit.switch_flows, 1e-9 * fit.switch_stream);
  for (const std::string& n : fit.notes) out << "note: " << n << "\n";
}

absl::StatusOr<std::string> Fit(const std::string& probe_path,
                                const std::string& output,
                                const std::string& smpi_model,
                                std::ostream& out) {
  ASSIGN_OR_RETURN(const core::LinkModel model, ModelOf(smpi_model));
  ASSIGN_OR_RETURN(const std::string text, base::ReadFile(probe_path, "probe"));
  ASSIGN_OR_RETURN(const models::LinkProbe p,
                   models::ParseLinkProbe(text, probe_path));
  const ProbeFiles files(output);
  ASSIGN_OR_RETURN(const models::LinkFit fit,
                   models::FitLinks(p, IntraLevels(p, files.hardware), model));
  PrintFit(p, fit, out);
  const std::string how =
      model == core::LinkModel::kSmpi
          ? "nominal links, as SimGrid's default model reads them"
          : "links as measured";
  RETURN_IF_ERROR(base::WriteFile(output, NetworkSpec(p, fit, files.hardware, how)));
  RETURN_IF_ERROR(
      base::WriteFile(output + ".params", models::FormatHockneyParams(fit)));
  const int32_t groups = *std::max_element(p.group.begin(), p.group.end()) + 1;
  out << absl::StrFormat(
      "links: node %s, cluster %s%s\n", LinkText(fit.node),
      LinkText(fit.cluster),
      fit.network.given() ? absl::StrCat(", network ", LinkText(fit.network))
                          : "");
  out << absl::StrFormat(
      "network spec written to %s (%d hosts under %d switch%s, %s); Hockney "
      "per distance in %s.params\n",
      output, p.hosts.size(), groups, groups == 1 ? "" : "es", how, output);
  return output;
}

}  // namespace

absl::StatusOr<std::string> CalibrateLinks(
    const std::vector<std::string>& launch, const std::string& output,
    std::optional<Launcher> launcher, std::ostream& out) {
  const ProbeFiles files(output);
  RETURN_IF_ERROR(RunProbe(launch, launcher, files, /*quick=*/true, out));
  return Fit(files.probe, output, "calibrated", out);
}

absl::Status RunCalibrate(const CalibrateCommand& cmd, std::ostream& out) {
  RETURN_IF_ERROR(ModelOf(cmd.smpi_model).status());
  if (!cmd.from_probe.empty()) {
    if (!cmd.launch.empty()) {
      return absl::InvalidArgumentError(
          "calibrate: --from-probe and a launch line exclude each other");
    }
    return Fit(cmd.from_probe, cmd.output, cmd.smpi_model, out).status();
  }
  std::optional<Launcher> launcher;
  if (!cmd.launcher.empty()) {
    ASSIGN_OR_RETURN(launcher, ParseLauncher(cmd.launcher));
  }
  const ProbeFiles files(cmd.output);
  RETURN_IF_ERROR(RunProbe(cmd.launch, launcher, files, cmd.quick, out));
  return Fit(files.probe, cmd.output, cmd.smpi_model, out).status();
}

}  // namespace rankmap::cli
