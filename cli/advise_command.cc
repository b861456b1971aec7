#include "cli/advise_command.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "api/named_options.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "base/file_batch.h"
#include "cli/advise_machine.h"
#include "cli/advise_run.h"
#include "cli/calibrate_command.h"
#include "cli/evaluation.h"
#include "cli/job_profile.h"
#include "cli/outputs.h"
#include "cli/progress_line.h"
#include "cli/rank_places.h"
#include "cli/simulate_command.h"
#include "core/objective/link_load.h"
#include "core/mapper.h"
#include "core/model/map_report.h"
#include "core/model/mapping.h"
#include "graphs/traffic.h"
#include "launch/launch.h"
#include "mpi_bindings/profile_output.h"
#include "sim/simulate.h"
#include "topology/binding.h"
#include "topology/process_leaves.h"

namespace rankmap::cli {
namespace {

// One placement of the job and what it costs.
struct Placed {
  core::Mapping mapping;
  core::CostReport cost;
  double seconds = 0;   // predicted per iteration
  double replayed = 0;  // SMPI's replay per iteration (0: not replayed)
};

// "n0: 0 (cpu 1), 1 (cpu 0); n1: 2 (cpus 0-1)", ranks grouped by host in
// order of their first rank.
std::string DescribePlacement(const std::vector<std::string>& host_of,
                              const std::vector<std::vector<int32_t>>& pus_of) {
  std::vector<std::string> hosts;
  std::map<std::string, std::vector<std::string>> items;
  for (size_t r = 0; r < host_of.size(); ++r) {
    if (!items.count(host_of[r])) hosts.push_back(host_of[r]);
    items[host_of[r]].push_back(
        absl::StrCat(r, " (cpu", pus_of[r].size() == 1 ? " " : "s ",
                     topology::FormatPuList(pus_of[r]), ")"));
  }
  std::vector<std::string> parts;
  for (const std::string& h : hosts)
    parts.push_back(absl::StrCat(h, ": ", absl::StrJoin(items[h], ", ")));
  return absl::StrJoin(parts, "; ");
}

std::string DescribeMapping(const topology::Tree& tree,
                            const core::Mapping& m) {
  std::vector<std::string> host_of;
  std::vector<std::vector<int32_t>> pus_of;
  for (core::LeafId l : m) {
    host_of.push_back(tree.host(l));
    pus_of.emplace_back(tree.pus(l).begin(), tree.pus(l).end());
  }
  return DescribePlacement(host_of, pus_of);
}

// Seconds per iteration of each mapping: on a machine with links rankmap's
// prediction (core/objective/link_load.h), the measure the engine kept or replaced the
// present placement by, and SMPI's replay of the profile's traffic beside it
// as a check; the Hockney model per level otherwise.
class Predictor {
 public:
  static absl::StatusOr<Predictor> For(const topology::Tree& tree,
                                       const std::string& traffic,
                                       int64_t iterations) {
    Predictor p;
    if (tree.has_links()) {
      ASSIGN_OR_RETURN(sim::Simulator s, sim::Simulator::Create(tree));
      p.simulator_.emplace(std::move(s));
      p.options_.iterations = iterations;
      p.options_.max_messages = kCommandReplayMessages / 2;  // two replays
      ASSIGN_OR_RETURN(p.plan_, sim::PlanReplay(traffic, p.options_));
      p.how_ = absl::StrFormat(
          "message rounds and shared links on the machine's links, "
          "core/objective/link_load.h; replayed: SMPI, %d iterations of the profile's "
          "traffic%s",
          iterations,
          p.plan_.divisor > 1
              ? absl::StrCat(", message counts divided by ", p.plan_.divisor,
                             " to bound the replay's work")
              : "");
    } else {
      ASSIGN_OR_RETURN(p.model_, LoadTimeModel("hockney", "", tree));
      p.how_ = "Hockney model per level (the machine has no links to simulate)";
    }
    return p;
  }
  absl::StatusOr<double> Seconds(const topology::Tree& tree,
                                 const graphs::CommGraph& graph,
                                 const core::Mapping& m) const {
    if (simulator_) return core::EstimateLinkLoad(tree, graph, m).seconds;
    return PredictExchange(*model_, tree, graph, m);
  }
  // SMPI's replay (0 without links).
  absl::StatusOr<double> Replayed(const core::Mapping& m) const {
    if (!simulator_) return 0.0;
    return simulator_->Replay(plan_, m, options_);
  }
  const std::string& how() const { return how_; }

 private:
  std::optional<sim::Simulator> simulator_;
  sim::ReplayPlan plan_;
  sim::SimulateOptions options_;
  std::optional<TimeModel> model_;
  std::string how_;
};

void PrintRow(std::ostream& out, const std::string& label, const std::string& a,
              const std::string& b) {
  out << absl::StrFormat("%-30s %-26s %s\n", label, a, b);
}

void PrintComparison(const topology::Tree& tree, const Placed& now,
                     const Placed& next, const std::string& how,
                     std::ostream& out) {
  PrintRow(out, "", "present", "proposed");
  PrintRow(out, "J", absl::StrFormat("%.6g", now.cost.j),
           absl::StrFormat("%.6g", next.cost.j));
  const std::vector<LevelVolume> a = LevelVolumes(tree, now.cost);
  const std::vector<LevelVolume> b = LevelVolumes(tree, next.cost);
  double total = 0;
  for (const LevelVolume& v : a) total += v.volume;
  std::map<std::string, int> uses;  // a kind at several depths gets its depth
  for (const LevelVolume& v : a) ++uses[v.label];
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const std::string label =
        a[i].label == "same leaf"
            ? std::string("bytes on one leaf")
            : absl::StrCat("bytes across ", a[i].label,
                           uses[a[i].label] > 1
                               ? absl::StrCat(" (depth ", a[i].depth, ")")
                               : "");
    auto share = [&](double v) {
      return absl::StrFormat("%.1f%%", total > 0 ? 100 * v / total : 0.0);
    };
    PrintRow(out, label, share(a[i].volume), share(b[i].volume));
  }
  auto link = [&](const core::CostReport& c) {
    if (c.max_link_node < 0) return std::string("-");
    const std::string& host = tree.host(tree.leaf_begin(c.max_link_node));
    return absl::StrFormat("%.4g B (%s%s)", c.max_link_volume,
                           tree.kind(c.max_link_node),
                           tree.is_host(c.max_link_node) ? " " + host : "");
  };
  PrintRow(out, "busiest link", link(now.cost), link(next.cost));
  PrintRow(out, "time per iteration", absl::StrFormat("%.4g s", now.seconds),
           absl::StrFormat("%.4g s", next.seconds));
  if (now.replayed > 0) {
    PrintRow(out, "  replayed (SMPI)", absl::StrFormat("%.4g s", now.replayed),
             absl::StrFormat("%.4g s", next.replayed));
  }
  out << "  (predicted: " << how << ")\n";
}

launch::LaunchFormat FormatFor(launch::Launcher l) {
  switch (l) {
    case launch::Launcher::kOpenMpi:
      return launch::LaunchFormat::kRankfile;
    case launch::Launcher::kHydra:
      return launch::LaunchFormat::kHydra;
    case launch::Launcher::kSlurm:
      return launch::LaunchFormat::kSlurm;
  }
  return launch::LaunchFormat::kRankfile;
}

std::string LaunchFileName(launch::Launcher l) {
  switch (l) {
    case launch::Launcher::kOpenMpi:
      return "job.rankfile";
    case launch::Launcher::kHydra:
      return "job.hosts";
    case launch::Launcher::kSlurm:
      return "job.slurm";
  }
  return "job.launch";
}

// Steps 1-2: the traffic and where each rank ran, from a run of the job or
// from a profile made earlier.
struct Observed {
  std::string mat;
  std::optional<JobProfile> job;
  graphs::Traffic traffic;
  RankPlaces places;
};

// A profile of another size than the job's: a partial or stale profile.
absl::Status CheckRankCount(const Observed& o) {
  const int64_t asked = o.job ? o.job->line.processes : -1;
  const int32_t n = o.traffic.graph.num_vertices();
  if (asked <= 0 || n == asked) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("advise: the profile has ", n, " ranks, the launch line ",
                   asked, " (is it the profile of another job?)"));
}

// Steps 1-2 write into the run's own directory (cli/advise_run.h); the
// profile, once read and checked, is published into --output as one set.
absl::StatusOr<Observed> Observe(const AdviseCommand& cmd, const AdviseRun& run,
                                 std::ostream& out) {
  Observed o;
  o.mat = cmd.from_profile;
  std::string placement = cmd.placement;
  if (!cmd.launch.empty()) {
    JobProfileOptions p;
    p.prefix = run.dir() + "/profile";
    p.seconds = cmd.profile_seconds;
    if (!cmd.launcher.empty()) {
      ASSIGN_OR_RETURN(p.launcher, ParseLauncher(cmd.launcher));
    }
    ASSIGN_OR_RETURN(o.job, ProfileJob(cmd.launch, p, out));
    o.mat = p.prefix + ".mat";
    placement = p.prefix + ".placement";
    if (!o.job->partial.empty()) out << "profile: " << o.job->partial << "\n";
  } else if (placement.empty()) {
    placement = PlacementBeside(o.mat);
  }
  ASSIGN_OR_RETURN(o.traffic, graphs::ReadTraffic(o.mat));
  const int32_t n = o.traffic.graph.num_vertices();
  RETURN_IF_ERROR(CheckRankCount(o));
  ASSIGN_OR_RETURN(o.places, ReadRankPlaces(placement, n));
  if (o.job) {
    base::FileBatch files;
    run.Publish("profile.", files);
    RETURN_IF_ERROR(files.Commit());
    o.mat = run.Published("profile.mat");
  }
  out << "profile: " << o.mat << " (" << n << " ranks, "
      << o.traffic.graph.num_edges() << " pairs"
      << (o.traffic.messages_path.empty() ? "" : ", with message counts")
      << ")\n";
  return o;
}

// advise --calibrate: the links measured under the job's own launch line
// (cli/calibrate_command.h), written to output/links.net.
absl::StatusOr<std::string> CalibrateFor(const AdviseCommand& cmd,
                                         const Observed& seen,
                                         std::ostream& out) {
  if (cmd.launch.empty()) {
    return absl::InvalidArgumentError(
        "advise: --calibrate runs the launch line: give it after -- (not "
        "with --from-profile; run rankmap calibrate where the job runs)");
  }
  std::optional<launch::Launcher> launcher;
  if (seen.job) launcher = seen.job->line.launcher;
  return CalibrateLinks(cmd.launch, cmd.output + "/links.net", launcher, out);
}

// Step 3: the machine, with room for as many ranks per leaf as shared one,
// and the leaf each rank ran on.
struct PresentMachine {
  topology::Tree tree;
  core::Mapping present;
};

absl::StatusOr<PresentMachine> PlaceOnMachine(const AdviseCommand& cmd,
                                              const Observed& seen,
                                              const AdviseRun& run,
                                              std::ostream& out) {
  MachineRequest request{cmd.inputs, cmd.network, ProfileHardware(seen.mat)};
  if (cmd.calibrate) {
    ASSIGN_OR_RETURN(request.network, CalibrateFor(cmd, seen, out));
  }
  ASSIGN_OR_RETURN(
      AdviseMachine machine,
      LoadAdviseMachine(request, HostsInOrder(seen.places), run.dir(),
                        run.output()));
  for (const std::string& s : machine.sources) out << s << "\n";
  absl::StatusOr<std::vector<topology::ProcessWhere>> where =
      WhereOnMachine(seen.places, machine.tree);
  absl::StatusOr<topology::ProcessLeaves> leaves =
      where.ok() ? topology::LeavesOfProcesses(machine.tree, *where, "rank",
                                               "the machine")
                 : where.status();
  if (!leaves.ok() && leaves.status().code() != absl::StatusCode::kNotFound) {
    return leaves.status();
  }
  if (!leaves.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "advise: ", std::string(leaves.status().message()),
        " (give a --topology that describes the hosts the job ran on)"));
  }
  std::vector<int32_t> load(machine.tree.num_leaves(), 0);
  int32_t most = 1;
  for (core::LeafId l : leaves->leaf) most = std::max(most, ++load[l]);
  PresentMachine m{std::move(machine.tree), leaves->leaf};
  if (most > 1) {
    ASSIGN_OR_RETURN(m.tree, m.tree.WithCapacities(std::vector<int32_t>(
                                 m.tree.num_leaves(), most)));
  }
  std::vector<std::string> host_of;
  std::vector<std::vector<int32_t>> pus_of;
  for (const topology::ProcessWhere& r : *where) {
    host_of.push_back(r.host);
    pus_of.push_back(r.pus);
  }
  out << "present placement: " << DescribePlacement(host_of, pus_of) << "\n";
  return m;
}

// Hydra inside an allocation bootstraps through srun, one proxy per host-file
// line: a placement that comes back to a host after another makes srun ask
// for more nodes than allocated, and mpiexec.hydra waits forever (measured
// with MPICH 4). Not when the user's line picks another launcher.
bool HydraUnderSlurmMayHang(const topology::Tree& tree,
                            const core::Mapping& mapping,
                            const Observed& seen) {
  const char* job = std::getenv("SLURM_JOB_ID");
  if (job == nullptr || *job == '\0') return false;
  if (seen.job) {
    for (const std::string& o : seen.job->line.options) {
      if (o == "-launcher" || o == "-bootstrap" ||
          absl::StartsWith(o, "-launcher=") ||
          absl::StartsWith(o, "-bootstrap="))
        return false;
    }
  }
  std::set<std::string> left;
  for (size_t r = 1; r < mapping.size(); ++r) {
    const std::string& before = tree.host(mapping[r - 1]);
    const std::string& host = tree.host(mapping[r]);
    if (host == before) continue;
    left.insert(before);
    if (left.count(host)) return true;
  }
  return false;
}

// Step 5 when the gain pays: the launcher's file and the line to rerun.
absl::Status WriteLaunch(const AdviseCommand& cmd, const Observed& seen,
                         const AdviseRun& run, const topology::Tree& tree,
                         const Placed& next, double gain,
                         base::FileBatch& files, std::ostream& out) {
  out << "proposed placement: " << DescribeMapping(tree, next.mapping) << "\n";
  std::optional<launch::Launcher> launcher;
  if (seen.job) {
    launcher = seen.job->line.launcher;
  } else if (!cmd.launcher.empty()) {
    ASSIGN_OR_RETURN(launcher, ParseLauncher(cmd.launcher));
  }
  if (!launcher) {
    out << absl::StrFormat(
        "advice: a predicted gain of %.1f%%; name the launcher (--launcher "
        "openmpi|hydra|slurm) for its file\n",
        100 * gain);
    return absl::OkStatus();
  }
  const std::string path = run.Published(LaunchFileName(*launcher));
  ASSIGN_OR_RETURN(
      const launch::LaunchPlan plan,
      launch::PlanLaunch(FormatFor(*launcher), tree, next.mapping, path));
  RETURN_IF_ERROR(launch::StageLaunchFiles(plan, files));
  out << absl::StrFormat("advice: a predicted gain of %.1f%%; written %s\n",
                         100 * gain, path);
  if (seen.job) {
    out << "rerun: "
        << launch::ShellText(launch::RerunCommand(seen.job->line, plan.launch))
        << "\n";
  } else {
    out << "launch: " << plan.command << " ./app\n";
  }
  if (*launcher == launch::Launcher::kHydra &&
      HydraUnderSlurmMayHang(tree, next.mapping, seen)) {
    out << "note: inside a Slurm allocation mpiexec.hydra starts one srun "
           "proxy per line of this host file, and srun refuses more nodes "
           "than allocated: add -launcher ssh to the line, or launch with "
           "srun\n";
  }
  return absl::OkStatus();
}

// Step 6: the two placements on one page.
absl::Status WriteAdviseReport(const std::string& path, const Observed& seen,
                               const topology::Tree& tree,
                               const std::string& how, const Placed& now,
                               const Placed& next, double gain, bool worth,
                               base::FileBatch& files, std::ostream& out) {
  const Facts facts = {
      {"profile", seen.mat},
      {"predicted", how},
      {"present time", absl::StrFormat("%.6g s per iteration", now.seconds)},
      {"proposed time", absl::StrFormat("%.6g s per iteration", next.seconds)},
      {"predicted gain", absl::StrFormat("%.1f%%", 100 * gain)},
      {"advice", worth ? "rerun with the proposed placement"
                       : "keep the present placement"}};
  return WriteComparisonReport(
      files, path, absl::StrCat("rankmap advise: ", seen.mat), facts, tree,
      seen.traffic.graph,
      {{"Present placement", &now.mapping, &now.cost},
       {"Proposed placement", &next.mapping, &next.cost}},
      out);
}

absl::Status CheckAdvise(const AdviseCommand& cmd) {
  if (!(cmd.min_gain >= 0 && cmd.min_gain < 1)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--min-gain %g: expected a fraction in [0, 1), e.g. 0.03",
        cmd.min_gain));
  }
  if (cmd.from_profile.empty() == cmd.launch.empty()) {
    return absl::InvalidArgumentError(
        cmd.launch.empty()
            ? "advise: give the launch line after -- (rankmap advise -- mpirun "
              "-np 8 ./app) or --from-profile P.mat"
            : "advise: --from-profile and a launch line exclude each other");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status RunAdvise(const AdviseCommand& cmd, std::ostream& out) {
  RETURN_IF_ERROR(CheckAdvise(cmd));
  ASSIGN_OR_RETURN(const AdviseRun run, AdviseRun::Start(cmd.output));
  ASSIGN_OR_RETURN(const Observed seen, Observe(cmd, run, out));
  const graphs::CommGraph& graph = seen.traffic.graph;
  ASSIGN_OR_RETURN(const PresentMachine machine,
                   PlaceOnMachine(cmd, seen, run, out));
  const topology::Tree& tree = machine.tree;
  // 4. The proposal, weighed against the present placement.
  ASSIGN_OR_RETURN(core::MappingOptions opts,
                   api::ResolveOptions({.keep_margin = cmd.min_gain,
                                        .present = machine.present,
                                        .seed = cmd.seed,
                                        .threads = cmd.threads}));
  Placed now, next;
  now.mapping = machine.present;
  {
    ProgressLine progress(
        absl::StrCat("mapping ", graph.num_vertices(), " ranks"),
        ProgressModeFor(cmd.quiet, false));
    opts.progress = &progress;
    ASSIGN_OR_RETURN(next.mapping, core::Map(tree, graph, opts));
  }
  ASSIGN_OR_RETURN(now.cost, core::Cost(tree, graph, now.mapping));
  ASSIGN_OR_RETURN(next.cost, core::Cost(tree, graph, next.mapping));
  ASSIGN_OR_RETURN(const Predictor predictor,
                   Predictor::For(tree, seen.mat, cmd.iterations));
  ASSIGN_OR_RETURN(now.seconds, predictor.Seconds(tree, graph, now.mapping));
  ASSIGN_OR_RETURN(now.replayed, predictor.Replayed(now.mapping));
  next.seconds = now.seconds;
  next.replayed = now.replayed;
  if (next.mapping != now.mapping) {
    ASSIGN_OR_RETURN(next.seconds,
                     predictor.Seconds(tree, graph, next.mapping));
    ASSIGN_OR_RETURN(next.replayed, predictor.Replayed(next.mapping));
  }
  PrintComparison(tree, now, next, predictor.how(), out);
  const double gain = now.seconds > 0 ? 1 - next.seconds / now.seconds : 0;
  const bool worth = gain > cmd.min_gain;
  // 5. The launch file, or the advice to keep the launch; 6. the page. The
  // files are written together once all are ready, then said.
  base::FileBatch files;
  std::ostringstream advice;
  if (worth) {
    RETURN_IF_ERROR(
        WriteLaunch(cmd, seen, run, tree, next, gain, files, advice));
  } else {
    advice << absl::StrFormat(
        "advice: keep your launch: the present placement is within %.1f%% of "
        "the best found (predicted gain %.1f%%); nothing written\n",
        100 * cmd.min_gain, 100 * gain);
  }
  if (!cmd.report.empty()) {
    RETURN_IF_ERROR(WriteAdviseReport(cmd.report, seen, tree, predictor.how(),
                                      now, next, gain, worth, files, advice));
  }
  run.Publish("", files);  // what the machine was built from
  RETURN_IF_ERROR(files.Commit());
  out << advice.str();
  return absl::OkStatus();
}

}  // namespace rankmap::cli
