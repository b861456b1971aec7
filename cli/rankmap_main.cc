// rankmap: command-line front end. Flags live here only; the work is in the
// cli/*_command.h functions, one per subcommand.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/str_cat.h"
#include "base/cpus.h"
#include "base/version.h"
#include "cli/advise_command.h"
#include "cli/bind_command.h"
#include "cli/compare_command.h"
#include "cli/demo_command.h"
#include "cli/eval_command.h"
#include "cli/exit_code.h"
#include "cli/frontend_command.h"
#include "cli/inputs.h"
#include "cli/map_command.h"
#include "cli/simulate_command.h"
#include "cli/stop_signals.h"
#include "cli/topology_command.h"
#include "core/options.h"

ABSL_FLAG(
    std::string, topology, "this",
    "where processes run: this | hwloc synthetic string | hwloc XML file | "
    "'tleaf L a1 c1 ...' or a tleaf file | network spec file | SimGrid "
    "platform file | Slurm topology.conf or scontrol show topology output | "
    "ibnetdiscover dump");
ABSL_FLAG(std::string, node, "",
          "hosts of a topology.conf or ibnetdiscover network: one hwloc "
          "synthetic string, tleaf or XML file for all, or a directory of "
          "<host>.xml");
ABSL_FLAG(std::string, hierarchy, "",
          "KaHIP-style machine instead of --topology, bottom-up, e.g. 4:8:6 "
          "(4 cores per processor, 8 processors per node, 6 nodes)");
ABSL_FLAG(std::string, distance, "",
          "with --hierarchy: distances bottom-up, e.g. 1:10:100");
ABSL_FLAG(std::string, leaf, "pu", "leaves of hwloc topologies: pu | core");
ABSL_FLAG(std::string, level_costs, "",
          "per-level cost overrides, e.g. numa=100,pack=50");
ABSL_FLAG(std::string, allowed, "",
          "allowed PUs by os index, e.g. 0-3,8 (default: all)");
ABSL_FLAG(int32_t, slots_per_leaf, 1,
          "processes each leaf can take (oversubscription; also "
          "--oversubscribe)");
ABSL_FLAG(std::string, comm, "",
          "communication graph file (.mat .grf .graph .mtx edge list, or an "
          "OTF2 trace's traces.otf2)");
ABSL_FLAG(std::string, comm_format, "auto",
          "auto | mat | grf | metis | mtx | edges | otf2");
ABSL_FLAG(std::string, messages, "",
          "message counts per pair for --comm: a graph file of counts in any "
          "format, or none (default: X.msgs.mat beside X.mat or X.grf when "
          "it exists, as the profiler writes them)");
ABSL_FLAG(std::string, objective, "auto",
          "map, compare: auto | j | time: what the engine minimises (auto: "
          "predicted time when there are message counts and links, else J)");
ABSL_FLAG(std::string, present, "",
          "map, compare: the order the job has now (a mapping file in any "
          "format map writes; default: identity, rank i on slot i); kept "
          "unless a mapping is predicted better");
ABSL_FLAG(std::string, network_spec, "",
          "advise: a network spec over the hosts the job ran on (instead of "
          "Slurm's topology or one switch)");
ABSL_FLAG(std::string, from_profile, "",
          "advise: a profile's .mat made earlier, instead of running the "
          "launch line");
ABSL_FLAG(std::string, placement, "",
          "advise --from-profile: where each rank ran (default: the "
          "profile's .placement beside it)");
ABSL_FLAG(std::string, launcher, "",
          "advise: openmpi | hydra | slurm, when the launcher's name and "
          "--version do not tell");
ABSL_FLAG(double, profile_seconds, 0,
          "advise: profile only the first S seconds of the job (0: the whole "
          "run); the profile is kept");
ABSL_FLAG(double, min_gain, 0.03,
          "advise: the predicted gain a new placement needs (a fraction)");
ABSL_FLAG(double, keep_margin, 0.02,
          "map, compare: the lead in predicted time a mapping needs to "
          "replace the present order (time objective)");
// The names come from core's table (absl evaluates a non-constant help text
// when help is printed).
ABSL_FLAG(std::string, algorithm, "",
          rankmap::core::AlgorithmNameList() +
              " (default: the preset's: portfolio, or tm for fast; an "
              "explicit --algorithm wins over the preset)");
ABSL_FLAG(std::string, preset, "default",
          "fast | default | strong: sets the algorithm and effort; "
          "--algorithm, if given, replaces the preset's algorithm only");
ABSL_FLAG(std::string, algorithms, "",
          "compare: only these algorithms, e.g. tm,scotch (default: all; "
          "baselines above their size limit are noted, not run)");
ABSL_FLAG(uint64_t, seed, 1, "random seed (same seed, same result)");
ABSL_FLAG(int32_t, threads, 0,
          "worker threads; 0: the CPUs this process may run on, at most 8 "
          "(results do not depend on it)");
ABSL_FLAG(std::string, output, "",
          "write the mapping to this file (default: stdout)");
ABSL_FLAG(std::string, format, "",
          "map: plain | json | smpi | rankfile (Open MPI 4) | ompi5 | slurm | "
          "hydra | hwloc; topology: text | json | tleaf | simgrid (default: "
          "plain for map, text for topology)");
ABSL_FLAG(std::string, bind, "",
          "map --format slurm|hydra: auto (if not given) | mask | wrapper | "
          "none; bind: cpu+mem (if not given) | cpu | none");
ABSL_FLAG(int32_t, threads_per_process, 1,
          "map, bind: leaves (threads) per process, kept together on one "
          "node");
ABSL_FLAG(std::string, near, "",
          "map: gpu | nic: keep each process on the PUs local to its device "
          "(hwloc XML or this; default: process i takes device i)");
ABSL_FLAG(std::string, near_processes, "",
          "map --near: file of lines '<device> <process|a-b> ...' naming the "
          "processes of each device; others take any leaf");
ABSL_FLAG(std::string, process_speeds, "",
          "map: file of each process's speed (frontend writes G.speeds); "
          "processes stay on leaves of that speed");
ABSL_FLAG(bool, verbose, false,
          "bind: one line per rank on stderr saying what was bound");
ABSL_FLAG(std::string, svg, "",
          "write PREFIX.tree.svg, PREFIX.matrix.svg and PREFIX.volume.svg");
ABSL_FLAG(int32_t, svg_group_depth, 1,
          "tree picture: tint leaf boxes by their ancestor at this depth");
ABSL_FLAG(std::string, report, "",
          "write one HTML page with the numbers and the pictures");
ABSL_FLAG(
    std::string, mapping, "",
    "eval, simulate, bind: mapping file (plain: leaf of process i on line i)");
ABSL_FLAG(bool, simulate, false,
          "compare: add the simulated time per iteration (SimGrid SMPI)");
ABSL_FLAG(int64_t, iterations, 10,
          "simulate: iterations of the replay, 1 to 1000");
ABSL_FLAG(std::string, smpi_model, "calibrated",
          "simulate: SMPI network model, calibrated (SMPI's defaults) | exact "
          "(latency + size / bandwidth)");
ABSL_FLAG(
    std::string, model, "",
    "eval, compare: predict exchange time with hockney | lmo | hloggp | taulop "
    "(compare ranks by it)");
ABSL_FLAG(std::string, params, "",
          "model parameter file (default: per-level defaults)");
ABSL_FLAG(bool, quiet, false, "no progress line on stderr");
ABSL_FLAG(bool, progress, false,
          "a progress line on stderr for phases over 2 s even when stderr is "
          "not a terminal (on a terminal it is on unless --quiet)");
ABSL_FLAG(std::string, graph_format, "auto",
          "frontend: mat | grf | metis | mtx | edges (auto: by the output's "
          "extension, edges on stdout)");
ABSL_FLAG(std::string, speeds, "",
          "frontend: processor speeds, a file or a list '8,1,1' (wave2d: "
          "instead of --procs)");
ABSL_FLAG(int64_t, n, 0,
          "frontend summa|square-corner: matrix side in elements");
ABSL_FLAG(int64_t, block, 1,
          "frontend summa|square-corner: block side b (n % b == 0)");
ABSL_FLAG(int32_t, element_size, 8,
          "frontend: bytes per matrix element or grid cell");
ABSL_FLAG(std::string, partitioner, "column-dp",
          "frontend summa: column-dp | grid");
ABSL_FLAG(std::string, flow, "ring", "frontend summa: ring | one-to-all");
ABSL_FLAG(std::string, link, "serial",
          "frontend square-corner: serial | duplex");
ABSL_FLAG(std::string, shape, "hybrid",
          "frontend square-corner: hybrid | square-corner | straight-line");
ABSL_FLAG(std::string, clusters, "",
          "frontend summa | mpdata: cluster of each processor, e.g. 0,0,1");
ABSL_FLAG(std::string, bandwidth, "",
          "frontend summa | mpdata: cluster-pair bandwidths, row-major list "
          "(mpdata: horizontal, default all 1)");
ABSL_FLAG(std::string, bandwidth_v, "",
          "frontend mpdata: vertical cluster-pair bandwidths (default: "
          "--bandwidth)");
ABSL_FLAG(std::string, domain, "512x512x64",
          "frontend mpdata: domain extents n x m x l");
ABSL_FLAG(bool, allow_1d, false,
          "frontend mpdata: Algorithm 3 also tries 1 x P and P x 1 grids");
ABSL_FLAG(std::string, speed_functions, "",
          "frontend summa: FPM speed-function file (FPM-BR partition)");
ABSL_FLAG(std::string, partition, "",
          "frontend summa: partition file to use as is");
ABSL_FLAG(std::string, arrange, "auto",
          "frontend summa: auto | hop (Algorithm 1) | bandwidth (Algorithm 2) "
          "| exhaustive");
ABSL_FLAG(std::string, hop_norm, "sum",
          "frontend summa: hop cost of the two directions, sum (thesis) | "
          "euclid (IPDPSW paper)");
ABSL_FLAG(std::string, network, "fully-connected",
          "frontend square-corner, 3 speeds: fully-connected | star");
ABSL_FLAG(int32_t, hub, -1,
          "frontend square-corner, star: hub processor (-1: the fastest)");
ABSL_FLAG(std::string, axis_weights, "",
          "frontend stencil: per-byte weight of halos crossing each "
          "dimension, e.g. 1,12.8; mpdata: horizontal,vertical");
ABSL_FLAG(std::string, grid, "1024x1024",
          "frontend stencil: grid extents, 2D or 3D; wave2d: mesh rows x "
          "cols");
ABSL_FLAG(int32_t, stencil, 5,
          "frontend stencil: 5 | 9 (2D), 7 | 27 (3D) points");
ABSL_FLAG(int32_t, halo, 1, "frontend stencil | mpdata: halo width in cells");
ABSL_FLAG(std::string, periodic, "none",
          "frontend stencil: none | all | 0/1 per dimension; mpdata: none | "
          "all");
ABSL_FLAG(int64_t, procs, 0,
          "frontend stencil | wave2d | mpdata: number of processes");
ABSL_FLAG(std::string, proc_grid, "",
          "frontend stencil: process grid, e.g. 8x8 (0 = choose)");
ABSL_FLAG(bool, slabs, false, "frontend stencil: 1D slabs instead of blocks");

namespace {

using rankmap::cli::Inputs;

struct Command {
  const char* name;
  const char* summary;
  std::vector<const char*> flags;
};

const std::vector<const char*> kInputFlags = {
    "topology", "node",        "hierarchy", "distance",
    "leaf",     "level_costs", "allowed",   "slots_per_leaf",
    "comm",     "comm_format", "messages"};

// Old flag names still accepted.
const char* Canonical(const std::string& name) {
  if (name == "oversubscribe" || name == "slots-per-leaf")
    return "slots_per_leaf";
  return nullptr;
}

std::vector<const char*> With(std::vector<const char*> extra,
                              bool inputs = true) {
  std::vector<const char*> all =
      inputs ? kInputFlags : std::vector<const char*>{};
  all.insert(all.end(), extra.begin(), extra.end());
  return all;
}

// The front ends' variants of the seeds: partition and speed-function files,
// arrangement search and hop norm, Becker's networks, halo weights, 1D grids.
std::vector<const char*> WithVariants(std::vector<const char*> flags) {
  for (const char* f : {"speed_functions", "partition", "arrange", "hop_norm",
                        "network", "hub", "axis_weights", "allow_1d"}) {
    flags.push_back(f);
  }
  return flags;
}

const std::vector<Command>& Commands() {
  static const std::vector<Command> kCommands = {
      {"map", "map processes onto the topology and write the mapping",
       With({"algorithm", "preset", "seed", "threads", "output", "format",
             "bind", "svg", "svg_group_depth", "report", "quiet", "progress",
             "threads_per_process", "near", "near_processes", "process_speeds",
             "objective", "present", "keep_margin"})},
      {"eval",
       "evaluate a given mapping: J, hop-bytes, per-level volume, largest link",
       With({"mapping", "model", "params", "report"})},
      {"compare",
       "run every algorithm and baseline on the same input, one table",
       With({"algorithms", "preset", "seed", "threads", "svg", "quiet",
             "progress", "model", "params", "simulate", "iterations",
             "smpi_model", "objective", "present", "keep_margin"})},
      {"simulate",
       "run the graph's traffic placed by a mapping on a simulated machine "
       "(SimGrid SMPI) and print the time per iteration",
       With({"mapping", "iterations", "smpi_model"})},
      {"advise",
       "profile an MPI job as launched (after --), predict the gain of a "
       "better placement, and write the launcher's file when it pays",
       With({"topology", "node", "leaf", "level_costs", "network_spec",
             "from_profile", "placement", "launcher", "profile_seconds",
             "min_gain", "output", "report", "iterations", "seed", "threads",
             "quiet"},
            false)},
      {"bind",
       "run as each rank under any launcher: bind CPUs and memory as the "
       "mapping says, then exec the program given after --",
       With({"topology", "node", "leaf", "allowed", "slots_per_leaf", "mapping",
             "bind", "threads_per_process", "verbose"},
            false)},
      {"topology",
       "draw the topology tree (text), or print it as json, tleaf or a "
       "SimGrid platform (simgrid)",
       With({"topology", "node", "hierarchy", "distance", "leaf", "level_costs",
             "allowed", "slots_per_leaf", "format"},
            false)},
      {"frontend",
       "write the communication graph of summa | square-corner | stencil | "
       "wave2d | mpdata",
       With(WithVariants({"output",      "graph_format", "speeds",
                          "n",           "block",        "element_size",
                          "partitioner", "flow",         "link",
                          "shape",       "clusters",     "bandwidth",
                          "bandwidth_v", "domain",       "grid",
                          "stencil",     "halo",         "periodic",
                          "procs",       "proc_grid",    "slabs"}),
            false)},
      {"demo",
       "map a built-in stencil onto this machine and a built-in cluster",
       With({"topology", "leaf", "seed", "quiet"}, false)},
  };
  return kCommands;
}

void PrintUsage(FILE* f) {
  std::fprintf(f, "usage: rankmap <command> [flags]\n\ncommands:\n");
  for (const Command& c : Commands())
    std::fprintf(f, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(f,
               "\nrankmap <command> --help lists the flags of a command;\n"
               "rankmap --version names the release and commit.\n");
}

const char* Operand(const Command& c) {
  if (!std::strcmp(c.name, "frontend"))
    return " summa|square-corner|stencil|wave2d|mpdata";
  if (!std::strcmp(c.name, "topology")) return " [T]";
  if (!std::strcmp(c.name, "bind")) return " -- PROGRAM [ARGS]";
  return "";
}

// One line per flag, spelled with dashes (both spellings parse); the default
// is shown unless the help text says it or it is empty.
void PrintHelp(const Command& c) {
  std::printf("usage: rankmap %s%s [flags]\n%s\n\nflags:\n", c.name, Operand(c),
              c.summary);
  for (const char* name : c.flags) {
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    const std::string help(flag->Help());
    const std::string def(flag->DefaultValue());
    std::string shown = name;
    std::replace(shown.begin(), shown.end(), '_', '-');
    std::string line = absl::StrCat("  --", shown);
    line.resize(std::max<size_t>(line.size() + 1, 20), ' ');
    absl::StrAppend(&line, help);
    if (help.find("default:") == std::string::npos && !def.empty() &&
        !flag->IsOfType<bool>()) {
      absl::StrAppend(&line, " (default: ", def, ")");
    }
    std::printf("%s\n", line.c_str());
  }
}

// Flags the command line set (by their canonical name).
std::set<std::string>& GivenFlags() {
  static std::set<std::string> given;
  return given;
}
bool Given(const std::string& name) { return GivenFlags().count(name) > 0; }

int Fail(const std::string& message, int code = 2) {
  std::fprintf(stderr, "rankmap: %s\n", message.c_str());
  return code;
}

int Run(const std::string& name, const std::string& kind,
        const std::vector<std::string>& program);

Inputs ReadInputs() {
  Inputs in;
  in.topology = absl::GetFlag(FLAGS_topology);
  in.leaf = absl::GetFlag(FLAGS_leaf);
  in.level_costs = absl::GetFlag(FLAGS_level_costs);
  in.allowed = absl::GetFlag(FLAGS_allowed);
  in.slots_per_leaf = absl::GetFlag(FLAGS_slots_per_leaf);
  in.comm = absl::GetFlag(FLAGS_comm);
  in.comm_format = absl::GetFlag(FLAGS_comm_format);
  in.messages = absl::GetFlag(FLAGS_messages);
  in.node = absl::GetFlag(FLAGS_node);
  in.hierarchy = absl::GetFlag(FLAGS_hierarchy);
  in.distance = absl::GetFlag(FLAGS_distance);
  return in;
}

rankmap::cli::Choice ReadChoice() {
  rankmap::cli::Choice c;
  c.objective = absl::GetFlag(FLAGS_objective);
  c.present = absl::GetFlag(FLAGS_present);
  c.keep_margin = absl::GetFlag(FLAGS_keep_margin);
  return c;
}

// --threads 0: the CPUs this process may run on, at most 8 (each worker keeps
// scratch space of the graph's size; the engine has little more parallel work
// than that). Other values go to the options as given (negative ones are
// refused there).
int32_t Threads() {
  const int32_t t = absl::GetFlag(FLAGS_threads);
  return t == 0 ? std::min(8, rankmap::base::UsableCpus()) : t;
}

}  // namespace

int main(int argc, char** argv) {
  // Under `bazel run` the process starts in the runfiles tree: relative paths
  // given by the caller mean the caller's directory.
  if (const char* wd = std::getenv("BUILD_WORKING_DIRECTORY");
      wd != nullptr && *wd != '\0' && chdir(wd) != 0) {
    return Fail(absl::StrCat(wd, ": cannot change to the caller's directory (",
                             std::strerror(errno), ")"));
  }
  // hwloc prints multi-line boxes about odd XML on stderr; errors here are one
  // line (a user's own setting wins).
  setenv("HWLOC_HIDE_ERRORS", "2", /*overwrite=*/0);
  if (argc >= 2 && (!std::strcmp(argv[1], "--version") ||
                    !std::strcmp(argv[1], "version"))) {
    std::printf("%s\n", rankmap::base::VersionString().c_str());
    return 0;
  }
  if (argc < 2 || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "help")) {
    PrintUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  const Command* command = nullptr;
  for (const Command& c : Commands()) {
    if (name == c.name) command = &c;
  }
  if (command == nullptr)
    return Fail(absl::StrCat("unknown command '", name, "' (try --help)"));
  // Parse flags ourselves against absl's registry so that every error is one
  // line, exit 2, and a flag that belongs to another command is refused.
  const std::set<std::string> allowed(command->flags.begin(),
                                      command->flags.end());
  int first_flag = 2;
  std::string kind;
  if (name == "frontend") {
    if (argc < 3 || argv[2][0] == '-') {
      if (argc >= 3 &&
          (!std::strcmp(argv[2], "--help") || !std::strcmp(argv[2], "-h"))) {
        PrintHelp(*command);
        return 0;
      }
      return Fail(
          "frontend: expected a kind: summa, square-corner, stencil, wave2d "
          "or mpdata");
    }
    kind = argv[2];
    first_flag = 3;
  }
  // `rankmap topology T` is `rankmap topology --topology T`.
  if (name == "topology" && argc >= 3 && argv[2][0] != '-') {
    std::string error;
    absl::FindCommandLineFlag("topology")->ParseFrom(argv[2], &error);
    first_flag = 3;
  }
  std::vector<std::string> program;
  for (int i = first_flag; i < argc; ++i) {
    std::string arg = argv[i];
    // bind: what follows `--` is the program and its own arguments.
    if (arg == "--" && (name == "bind" || name == "advise")) {
      program.assign(argv + i + 1, argv + argc);
      break;
    }
    if (arg == "--help" || arg == "-h") {
      PrintHelp(*command);
      return 0;
    }
    if (arg.rfind("--", 0) != 0)
      return Fail(absl::StrCat(name, ": unexpected argument '", arg, "'"));
    std::string key = arg.substr(2), value;
    const size_t eq = key.find('=');
    if (eq != std::string::npos) {
      value = key.substr(eq + 1);
      key = key.substr(0, eq);
    }
    if (const char* canonical = Canonical(key)) key = canonical;
    std::replace(key.begin(), key.end(), '-', '_');
    absl::CommandLineFlag* flag =
        allowed.count(key) ? absl::FindCommandLineFlag(key) : nullptr;
    if (flag == nullptr) {
      // --noquiet style negation for booleans.
      if (key.rfind("no", 0) == 0 && allowed.count(key.substr(2)) &&
          eq == std::string::npos) {
        flag = absl::FindCommandLineFlag(key.substr(2));
        if (flag != nullptr && flag->IsOfType<bool>()) {
          std::string error;
          flag->ParseFrom("false", &error);
          continue;
        }
      }
      return Fail(absl::StrCat(name, ": unknown flag --", key, " (try rankmap ",
                               name, " --help)"));
    }
    if (eq == std::string::npos) {
      if (flag->IsOfType<bool>()) {
        value = "true";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        return Fail(absl::StrCat(name, ": flag --", key, " needs a value"));
      }
    }
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return Fail(absl::StrCat(name, ": --", key, ": ", error));
    }
    GivenFlags().insert(key);
  }

  // bind execs the program: it must not hand it blocked signals.
  if (name != "bind") rankmap::cli::StopOnSignals(name);
  // The command's boundary: an exception (std::bad_alloc above all) is one
  // line and exit 1, never std::terminate.
  try {
    return Run(name, kind, program);
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
}

namespace {

int Run(const std::string& name, const std::string& kind,
        const std::vector<std::string>& program) {
  absl::Status status;
  if (name == "map") {
    rankmap::cli::MapCommand c;
    c.inputs = ReadInputs();
    c.algorithm = absl::GetFlag(FLAGS_algorithm);
    c.preset = absl::GetFlag(FLAGS_preset);
    c.seed = absl::GetFlag(FLAGS_seed);
    c.threads = Threads();
    c.output = absl::GetFlag(FLAGS_output);
    c.format = absl::GetFlag(FLAGS_format).empty()
                   ? "plain"
                   : absl::GetFlag(FLAGS_format);
    c.bind =
        absl::GetFlag(FLAGS_bind).empty() ? "auto" : absl::GetFlag(FLAGS_bind);
    c.svg = absl::GetFlag(FLAGS_svg);
    c.svg_group_depth = absl::GetFlag(FLAGS_svg_group_depth);
    c.report = absl::GetFlag(FLAGS_report);
    c.quiet = absl::GetFlag(FLAGS_quiet);
    c.progress = absl::GetFlag(FLAGS_progress);
    c.threads_per_process = absl::GetFlag(FLAGS_threads_per_process);
    c.near = absl::GetFlag(FLAGS_near);
    c.near_processes = absl::GetFlag(FLAGS_near_processes);
    c.process_speeds = absl::GetFlag(FLAGS_process_speeds);
    c.choice = ReadChoice();
    status = rankmap::cli::RunMap(c, std::cout);
  } else if (name == "eval") {
    rankmap::cli::EvalCommand c;
    c.inputs = ReadInputs();
    c.mapping = absl::GetFlag(FLAGS_mapping);
    c.model = absl::GetFlag(FLAGS_model);
    c.params = absl::GetFlag(FLAGS_params);
    c.report = absl::GetFlag(FLAGS_report);
    status = rankmap::cli::RunEval(c, std::cout);
  } else if (name == "compare") {
    rankmap::cli::CompareCommand c;
    c.inputs = ReadInputs();
    c.preset = absl::GetFlag(FLAGS_preset);
    c.seed = absl::GetFlag(FLAGS_seed);
    c.threads = Threads();
    c.svg = absl::GetFlag(FLAGS_svg);
    c.quiet = absl::GetFlag(FLAGS_quiet);
    c.progress = absl::GetFlag(FLAGS_progress);
    c.model = absl::GetFlag(FLAGS_model);
    c.params = absl::GetFlag(FLAGS_params);
    c.algorithms = absl::GetFlag(FLAGS_algorithms);
    c.simulate = absl::GetFlag(FLAGS_simulate);
    c.iterations = absl::GetFlag(FLAGS_iterations);
    c.smpi_model = absl::GetFlag(FLAGS_smpi_model);
    c.choice = ReadChoice();
    status = rankmap::cli::RunCompare(c, std::cout);
  } else if (name == "simulate") {
    rankmap::cli::SimulateCommand c;
    c.inputs = ReadInputs();
    c.mapping = absl::GetFlag(FLAGS_mapping);
    c.iterations = absl::GetFlag(FLAGS_iterations);
    c.smpi_model = absl::GetFlag(FLAGS_smpi_model);
    status = rankmap::cli::RunSimulate(c, std::cout);
  } else if (name == "advise") {
    rankmap::cli::AdviseCommand c;
    c.inputs = ReadInputs();
    // The machine is built from where the job ran unless it is named.
    c.inputs.topology.clear();
    if (Given("topology")) {
      c.inputs.topology = absl::GetFlag(FLAGS_topology);
    } else if (const char* t = std::getenv("RANKMAP_TOPOLOGY");
               t != nullptr && *t != '\0') {
      c.inputs.topology = t;
    }
    c.network = absl::GetFlag(FLAGS_network_spec);
    c.launch = program;
    c.from_profile = absl::GetFlag(FLAGS_from_profile);
    c.placement = absl::GetFlag(FLAGS_placement);
    c.launcher = absl::GetFlag(FLAGS_launcher);
    c.profile_seconds = absl::GetFlag(FLAGS_profile_seconds);
    c.min_gain = absl::GetFlag(FLAGS_min_gain);
    if (!absl::GetFlag(FLAGS_output).empty())
      c.output = absl::GetFlag(FLAGS_output);
    c.report = absl::GetFlag(FLAGS_report);
    c.iterations = absl::GetFlag(FLAGS_iterations);
    c.seed = absl::GetFlag(FLAGS_seed);
    c.threads = Threads();
    c.quiet = absl::GetFlag(FLAGS_quiet);
    status = rankmap::cli::RunAdvise(c, std::cout);
  } else if (name == "bind") {
    rankmap::cli::BindCommand c;
    c.inputs = ReadInputs();
    c.mapping = absl::GetFlag(FLAGS_mapping);
    if (!absl::GetFlag(FLAGS_bind).empty()) c.bind = absl::GetFlag(FLAGS_bind);
    c.threads_per_process = absl::GetFlag(FLAGS_threads_per_process);
    c.verbose = absl::GetFlag(FLAGS_verbose);
    c.program = program;
    status = rankmap::cli::RunBind(c, std::cerr);
  } else if (name == "topology") {
    rankmap::cli::TopologyCommand c;
    c.inputs = ReadInputs();
    c.format = absl::GetFlag(FLAGS_format).empty()
                   ? "text"
                   : absl::GetFlag(FLAGS_format);
    status = rankmap::cli::RunTopology(c, std::cout);
  } else if (name == "frontend") {
    // Every front-end flag's text, parsed in cli/arg_parsers.h.
    absl::StatusOr<rankmap::cli::FrontendCommand> c =
        rankmap::cli::ParseFrontendCommand(kind, [](std::string_view flag) {
          return absl::FindCommandLineFlag(std::string(flag))->CurrentValue();
        });
    status = c.ok()
                 ? rankmap::cli::RunFrontend(
                       *c, std::cout, c->output.empty() ? std::cerr : std::cout)
                 : c.status();
  } else if (name == "demo") {
    rankmap::cli::DemoCommand c;
    c.inputs = ReadInputs();
    c.seed = absl::GetFlag(FLAGS_seed);
    c.quiet = absl::GetFlag(FLAGS_quiet);
    status = rankmap::cli::RunDemo(c, std::cout);
  }
  std::cout.flush();
  if (!status.ok())
    return Fail(std::string(status.message()),
                rankmap::cli::ExitCodeFor(status));
  return 0;
}

}  // namespace
