#include "cli/command_flags.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/cpus.h"
#include "cli/choice.h"
#include "cli/inputs.h"
#include "core/model/options.h"

namespace rankmap::cli {

namespace {

// ---- The inputs: the machine and the communication graph (cli/inputs.h) ----

// The ranges of the numeric flags (cli/flag_table.h checks every value).
constexpr FlagRange kFraction{.min = 0, .max = 1, .max_open = true};
// Capacities are counts, not copies (tests/hardening_test): any int32 count.
constexpr FlagRange kLeafSlots{.min = 1, .max = 2147483647};
constexpr double kMaxThreads = 4096;
// The replay's work is iterations x messages; its time per iteration settles
// within tens of iterations (cli/simulate_command.h).
constexpr FlagRange kReplayIterations{.min = 1, .max = kMaxIterations};

constexpr FlagSpec<std::string> kTopology{
    "topology", "this",
    "where processes run: this | hwloc synthetic string | hwloc XML file | "
    "'tleaf L a1 c1 ...' or a tleaf file | network spec file | SimGrid "
    "platform file | Slurm topology.conf or scontrol show topology output | "
    "ibnetdiscover dump"};
constexpr FlagSpec<std::string> kNode{
    "node", "",
    "hosts of a topology.conf or ibnetdiscover network: one hwloc synthetic "
    "string, tleaf or XML file for all, or a directory of <host>.xml"};
constexpr FlagSpec<std::string> kHierarchy{
    "hierarchy", "",
    "KaHIP-style machine instead of --topology, bottom-up, e.g. 4:8:6 (4 "
    "cores per processor, 8 processors per node, 6 nodes)"};
constexpr FlagSpec<std::string> kDistance{
    "distance", "", "with --hierarchy: distances bottom-up, e.g. 1:10:100"};
constexpr FlagSpec<std::string> kLeaf{"leaf", "pu",
                                      "leaves of hwloc topologies: pu | core"};
constexpr FlagSpec<std::string> kLevelCosts{
    "level_costs", "", "per-level cost overrides, e.g. numa=100,pack=50"};
constexpr FlagSpec<std::string> kAllowed{
    "allowed", "", "allowed PUs by os index, e.g. 0-3,8 (default: all)"};
constexpr FlagSpec<int32_t> kSlotsPerLeaf{
    "slots_per_leaf", "1",
    "processes each leaf can take (oversubscription; also --oversubscribe)",
    "oversubscribe", kLeafSlots};
constexpr FlagSpec<std::string> kComm{
    "comm", "",
    "communication graph file (.mat .grf .graph .mtx edge list, or an OTF2 "
    "trace's traces.otf2)"};
constexpr FlagSpec<std::string> kCommFormat{
    "comm_format", "auto", "auto | mat | grf | metis | mtx | edges | otf2"};
constexpr FlagSpec<std::string> kMessages{
    "messages", "",
    "message counts per pair for --comm: a graph file of counts in any "
    "format, or none (default: X.msgs.mat beside X.mat or X.grf when it "
    "exists, as the profiler writes them)"};

// ---- How map and compare weigh the present order (cli/choice.h) ----

constexpr FlagSpec<std::string> kObjective{
    "objective", "auto",
    "map, compare: auto | j | time: what the engine minimises (auto: "
    "predicted time when there are message counts and links, else J)"};
constexpr FlagSpec<std::string> kPresent{
    "present", "",
    "map, compare: the order the job has now (a mapping file in any format "
    "map writes; default: identity, rank i on slot i); kept unless a mapping "
    "is predicted better"};
constexpr FlagSpec<double> kKeepMargin{
    "keep_margin", "0.02",
    "map, compare: the lead in predicted time a mapping needs to replace the "
    "present order (time objective)",
    {},
    kFraction};
constexpr FlagSpec<std::string> kExchange{
    "exchange", "",
    "map, compare, n-to-1: one exchange between parts as B,M: B bytes per "
    "unit of edge weight and M messages per neighbouring pair, each way "
    "(default 1,1, or the graph's own message counts); the partition is "
    "chosen by its predicted time"};
constexpr FlagSpec<std::string> kExchangeProfile{
    "exchange_profile", "",
    "map, compare, n-to-1: fit --exchange from a profile: PROFILE.mat,PART "
    "(the ranks' traffic, counts in PROFILE.msgs.mat; PART the rank of each "
    "vertex in the profiled run, one per line), optionally ,K for K "
    "exchanges in the profile"};

// ---- The engine and the command's outputs ----

constexpr FlagSpec<std::string> kPreset{
    "preset", "default",
    "fast | default | strong: sets the algorithm and effort; --algorithm, if "
    "given, replaces the preset's algorithm only"};
constexpr FlagSpec<std::string> kAlgorithms{
    "algorithms", "",
    "compare: only these algorithms, e.g. tm,scotch (default: all; baselines "
    "above their size limit are noted, not run)"};
constexpr FlagSpec<uint64_t> kSeed{"seed", "1",
                                   "random seed (same seed, same result)"};
constexpr FlagSpec<int32_t> kThreads{
    "threads", "0",
    "worker threads; 0: the CPUs this process may run on, at most 8 (results "
    "do not depend on it)",
    {},
    {.min = 0, .max = kMaxThreads}};
constexpr FlagSpec<std::string> kOutput{
    "output", "", "write the mapping to this file (default: stdout)"};
constexpr FlagSpec<std::string> kFormat{
    "format", "",
    "map: plain | json | smpi | rankfile (Open MPI 4) | ompi5 | slurm | hydra "
    "| hwloc | openfoam (manual decomposition); topology: text | json | tleaf "
    "| simgrid (default: plain for "
    "map, text for topology)"};
constexpr FlagSpec<double> kImbalance{
    "imbalance", "0.03",
    "map, eval: with more processes than leaves (a partition), the allowed "
    "excess of a leaf's weight over its share (0.03: 3%)"};
constexpr FlagSpec<std::string> kBind{
    "bind", "",
    "map --format slurm|hydra: auto (if not given) | mask | wrapper | none; "
    "bind: cpu+mem (if not given) | cpu | none"};
constexpr FlagSpec<int32_t> kThreadsPerProcess{
    "threads_per_process", "1",
    "map, bind: leaves (threads) per process, kept together on one node",
    {},
    {.min = 1, .max = kMaxThreads}};
constexpr FlagSpec<std::string> kNear{
    "near", "",
    "map: gpu | nic: keep each process on the PUs local to its device (hwloc "
    "XML or this; default: process i takes device i)"};
constexpr FlagSpec<std::string> kNearProcesses{
    "near_processes", "",
    "map --near: file of lines '<device> <process|a-b> ...' naming the "
    "processes of each device; others take any leaf"};
constexpr FlagSpec<std::string> kProcessSpeeds{
    "process_speeds", "",
    "map: file of each process's speed (frontend writes G.speeds); processes "
    "stay on leaves of that speed"};
constexpr FlagSpec<bool> kVerbose{
    "verbose", "false",
    "bind: one line per rank on stderr saying what was bound"};
constexpr FlagSpec<std::string> kSvg{
    "svg", "",
    "write PREFIX.tree.svg, PREFIX.matrix.svg and PREFIX.volume.svg"};
constexpr FlagSpec<int32_t> kSvgGroupDepth{
    "svg_group_depth", "1",
    "tree picture: tint leaf boxes by their ancestor at this depth",
    {},
    {.min = 0, .max = 256}};
constexpr FlagSpec<std::string> kReport{
    "report", "", "write one HTML page with the numbers and the pictures"};
constexpr FlagSpec<std::string> kMapping{
    "mapping", "",
    "eval, simulate, bind: mapping file (plain: leaf of process i on line i)"};
constexpr FlagSpec<bool> kSimulate{
    "simulate", "false",
    "compare: add the simulated time per iteration (SimGrid SMPI)"};
constexpr FlagSpec<int64_t> kIterations{
    "iterations", "10", "simulate: iterations of the replay, 1 to 1000", {},
    kReplayIterations};
constexpr FlagSpec<std::string> kSmpiModel{
    "smpi_model", "calibrated",
    "simulate: SMPI network model, calibrated (SMPI's defaults) | exact "
    "(latency + size / bandwidth)"};
constexpr FlagSpec<std::string> kModel{
    "model", "",
    "eval, compare: predict exchange time with hockney | lmo | hloggp | "
    "taulop (compare ranks by it)"};
constexpr FlagSpec<std::string> kParams{
    "params", "", "model parameter file (default: per-level defaults)"};
constexpr FlagSpec<bool> kQuiet{"quiet", "false", "no progress line on stderr"};
constexpr FlagSpec<bool> kProgress{
    "progress", "false",
    "a progress line on stderr for phases over 2 s even when stderr is not a "
    "terminal (on a terminal it is on unless --quiet)"};

// ---- advise: profiling a job and pricing a better placement ----

constexpr FlagSpec<std::string> kNetworkSpec{
    "network_spec", "",
    "advise: a network spec over the hosts the job ran on (instead of "
    "Slurm's topology or one switch)"};
constexpr FlagSpec<bool> kAdviseCalibrate{
    "calibrate", "false",
    "advise: measure the links first under the same launch line (rankmap "
    "calibrate) and price the job on them"};
constexpr FlagSpec<std::string> kFromProfile{
    "from_profile", "",
    "advise: a profile's .mat made earlier, instead of running the launch "
    "line"};
constexpr FlagSpec<std::string> kPlacement{
    "placement", "",
    "advise --from-profile: where each rank ran (default: the profile's "
    ".placement beside it)"};
constexpr FlagSpec<std::string> kLauncher{
    "launcher", "",
    "advise: openmpi | hydra | slurm, when the launcher's name and --version "
    "do not tell, or the launcher whose file --from-profile writes"};
constexpr FlagSpec<double> kProfileSeconds{
    "profile_seconds", "0",
    "advise: profile only the first S seconds of the job (0: the whole run); "
    "the profile is kept",
    {},
    {.min = 0, .max = 7 * 24 * 3600}};
constexpr FlagSpec<double> kMinGain{
    "min_gain", "0.03",
    "advise: the predicted gain a new placement needs (a fraction)",
    {},
    kFraction};

// ---- frontend: the values stay text for cli/arg_parsers.h ----

constexpr FlagSpec<std::string> kGraphFormat{
    "graph_format", "auto",
    "frontend: mat | grf | metis | mtx | edges (auto: by the output's "
    "extension, edges on stdout)"};
constexpr FlagSpec<std::string> kSpeeds{
    "speeds", "",
    "frontend: processor speeds, a file or a list '8,1,1' (wave2d: instead of "
    "--procs)"};
constexpr FlagSpec<std::string> kN{
    "n", "0", "frontend summa|square-corner: matrix side in elements"};
constexpr FlagSpec<std::string> kBlock{
    "block", "1", "frontend summa|square-corner: block side b (n % b == 0)"};
constexpr FlagSpec<std::string> kElementSize{
    "element_size", "8", "frontend: bytes per matrix element or grid cell"};
constexpr FlagSpec<std::string> kPartitioner{
    "partitioner", "column-dp", "frontend summa: column-dp | grid"};
constexpr FlagSpec<std::string> kFlow{"flow", "ring",
                                      "frontend summa: ring | one-to-all"};
constexpr FlagSpec<std::string> kLink{
    "link", "serial", "frontend square-corner: serial | duplex"};
constexpr FlagSpec<std::string> kShape{
    "shape", "hybrid",
    "frontend square-corner: hybrid | square-corner | straight-line"};
constexpr FlagSpec<std::string> kClusters{
    "clusters", "",
    "frontend summa | mpdata: cluster of each processor, e.g. 0,0,1"};
constexpr FlagSpec<std::string> kBandwidth{
    "bandwidth", "",
    "frontend summa | mpdata: cluster-pair bandwidths, row-major list "
    "(mpdata: horizontal, default all 1)"};
constexpr FlagSpec<std::string> kBandwidthV{
    "bandwidth_v", "",
    "frontend mpdata: vertical cluster-pair bandwidths (default: "
    "--bandwidth)"};
constexpr FlagSpec<std::string> kDomain{
    "domain", "512x512x64", "frontend mpdata: domain extents n x m x l"};
constexpr FlagSpec<bool> kAllow1d{
    "allow_1d", "false",
    "frontend mpdata: Algorithm 3 also tries 1 x P and P x 1 grids"};
constexpr FlagSpec<std::string> kSpeedFunctions{
    "speed_functions", "",
    "frontend summa: FPM speed-function file (FPM-BR partition)"};
constexpr FlagSpec<std::string> kPartition{
    "partition", "", "frontend summa: partition file to use as is"};
constexpr FlagSpec<std::string> kArrange{
    "arrange", "auto",
    "frontend summa: auto | hop (Algorithm 1) | bandwidth (Algorithm 2) | "
    "exhaustive"};
constexpr FlagSpec<std::string> kHopNorm{
    "hop_norm", "sum",
    "frontend summa: hop cost of the two directions, sum (thesis) | euclid "
    "(IPDPSW paper)"};
constexpr FlagSpec<std::string> kNetwork{
    "network", "fully-connected",
    "frontend square-corner, 3 speeds: fully-connected | star"};
constexpr FlagSpec<std::string> kHub{
    "hub", "-1",
    "frontend square-corner, star: hub processor (-1: the fastest)"};
constexpr FlagSpec<std::string> kAxisWeights{
    "axis_weights", "",
    "frontend stencil: per-byte weight of halos crossing each dimension, e.g. "
    "1,12.8; mpdata: horizontal,vertical"};
constexpr FlagSpec<std::string> kGrid{
    "grid", "1024x1024",
    "frontend stencil: grid extents, 2D or 3D; wave2d: mesh rows x cols"};
constexpr FlagSpec<std::string> kStencil{
    "stencil", "5", "frontend stencil: 5 | 9 (2D), 7 | 27 (3D) points"};
constexpr FlagSpec<std::string> kHalo{
    "halo", "1", "frontend stencil | mpdata: halo width in cells"};
constexpr FlagSpec<std::string> kPeriodic{
    "periodic", "none",
    "frontend stencil: none | all | 0/1 per dimension; mpdata: none | all"};
constexpr FlagSpec<std::string> kProcs{
    "procs", "0", "frontend stencil | wave2d | mpdata: number of processes"};
constexpr FlagSpec<std::string> kProcGrid{
    "proc_grid", "", "frontend stencil: process grid, e.g. 8x8 (0 = choose)"};
constexpr FlagSpec<bool> kSlabs{"slabs", "false",
                                "frontend stencil: 1D slabs instead of blocks"};
constexpr FlagSpec<std::string> kCase{
    "case", "",
    "frontend openfoam: the case directory (constant/polyMesh, or "
    "processorN/ of a decomposed case)"};
constexpr FlagSpec<std::string> kRegion{
    "region", "",
    "frontend openfoam: the mesh region, constant/<region>/polyMesh "
    "(default: the default region)"};

// ---- Setters of derived fields ----

// --threads 0: the CPUs this process may run on, at most 8 (each worker keeps
// scratch space of the graph's size; the engine has little more parallel work
// than that). Other values go to the options as given (negative ones are
// refused there).
constexpr auto kWorkerThreads = [](auto& command, int32_t threads) {
  command.threads =
      threads == 0 ? std::min(8, rankmap::base::UsableCpus()) : threads;
};

// A text field whose empty value means `fallback` (map's and topology's
// --format, map's --bind).
template <typename C>
auto TextOr(std::string C::*field, const char* fallback) {
  return [field, fallback](C& c, std::string v) {
    c.*field = v.empty() ? fallback : std::move(v);
  };
}

// A text field that keeps the struct's default when the value is empty
// (advise's --output, bind's --bind).
template <typename C>
auto UnlessEmpty(std::string C::*field) {
  return [field](C& c, std::string v) {
    if (!v.empty()) c.*field = std::move(v);
  };
}

// The inputs map, eval, compare and simulate read, in --help order.
template <typename C>
void AddInputs(FlagTable<C>& t) {
  t.Add(kTopology, &C::inputs, &Inputs::topology)
      .Add(kNode, &C::inputs, &Inputs::node)
      .Add(kHierarchy, &C::inputs, &Inputs::hierarchy)
      .Add(kDistance, &C::inputs, &Inputs::distance)
      .Add(kLeaf, &C::inputs, &Inputs::leaf)
      .Add(kLevelCosts, &C::inputs, &Inputs::level_costs)
      .Add(kAllowed, &C::inputs, &Inputs::allowed)
      .Add(kSlotsPerLeaf, &C::inputs, &Inputs::slots_per_leaf)
      .Add(kComm, &C::inputs, &Inputs::comm)
      .Add(kCommFormat, &C::inputs, &Inputs::comm_format)
      .Add(kMessages, &C::inputs, &Inputs::messages);
}

template <typename C>
void AddChoice(FlagTable<C>& t) {
  t.Add(kObjective, &C::choice, &Choice::objective)
      .Add(kPresent, &C::choice, &Choice::present)
      .Add(kKeepMargin, &C::choice, &Choice::keep_margin)
      .Add(kExchange, &C::choice, &Choice::exchange)
      .Add(kExchangeProfile, &C::choice, &Choice::exchange_profile);
}

// The frontend flag `spec`, kept as text (booleans as "true" or "false").
template <typename T>
void AddText(FlagTable<FrontendFlagText>& t, const FlagSpec<T>& spec) {
  const std::string name(spec.name);
  if constexpr (std::is_same_v<T, bool>) {
    t.Add(spec, [name](FrontendFlagText& f, bool v) {
      f.text[name] = v ? "true" : "false";
    });
  } else {
    t.Add(spec,
          [name](FrontendFlagText& f) -> std::string& { return f.text[name]; });
  }
}

}  // namespace

std::string FrontendFlagText::operator()(std::string_view name) const {
  const auto it = text.find(name);
  return it == text.end() ? std::string() : it->second;
}

const FlagTable<MapCommand>& MapFlags() {
  // The names come from core's table.
  static const std::string* const kAlgorithmHelp = new std::string(absl::StrCat(
      core::AlgorithmNameList(),
      " (default: the preset's: portfolio, or tm for fast; an explicit "
      "--algorithm wins over the preset)"));
  static const FlagTable<MapCommand>* const kTable = [] {
    using C = MapCommand;
    auto* t = new FlagTable<C>;
    AddInputs(*t);
    t->Add(FlagSpec<std::string>{"algorithm", "", *kAlgorithmHelp},
           &C::algorithm)
        .Add(kPreset, &C::preset)
        .Add(kSeed, &C::seed)
        .Add(kThreads, kWorkerThreads)
        .Add(kOutput, &C::output)
        .Add(kFormat, TextOr(&C::format, "plain"))
        .Add(kBind, TextOr(&C::bind, "auto"))
        .Add(kSvg, &C::svg)
        .Add(kSvgGroupDepth, &C::svg_group_depth)
        .Add(kReport, &C::report)
        .Add(kQuiet, &C::quiet)
        .Add(kProgress, &C::progress)
        .Add(kThreadsPerProcess, &C::threads_per_process)
        .Add(kNear, &C::near)
        .Add(kNearProcesses, &C::near_processes)
        .Add(kProcessSpeeds, &C::process_speeds)
        .Add(kImbalance, &C::imbalance);
    AddChoice(*t);
    return t;
  }();
  return *kTable;
}

const FlagTable<EvalCommand>& EvalFlags() {
  static const FlagTable<EvalCommand>* const kTable = [] {
    using C = EvalCommand;
    auto* t = new FlagTable<C>;
    AddInputs(*t);
    t->Add(kMapping, &C::mapping)
        .Add(kModel, &C::model)
        .Add(kParams, &C::params)
        .Add(kReport, &C::report)
        .Add(kImbalance, &C::imbalance);
    return t;
  }();
  return *kTable;
}

const FlagTable<CompareCommand>& CompareFlags() {
  static const FlagTable<CompareCommand>* const kTable = [] {
    using C = CompareCommand;
    auto* t = new FlagTable<C>;
    AddInputs(*t);
    t->Add(kAlgorithms, &C::algorithms)
        .Add(kPreset, &C::preset)
        .Add(kSeed, &C::seed)
        .Add(kThreads, kWorkerThreads)
        .Add(kSvg, &C::svg)
        .Add(kQuiet, &C::quiet)
        .Add(kProgress, &C::progress)
        .Add(kModel, &C::model)
        .Add(kParams, &C::params)
        .Add(kSimulate, &C::simulate)
        .Add(kIterations, &C::iterations)
        .Add(kSmpiModel, &C::smpi_model);
    AddChoice(*t);
    return t;
  }();
  return *kTable;
}

const FlagTable<SimulateCommand>& SimulateFlags() {
  static const FlagTable<SimulateCommand>* const kTable = [] {
    using C = SimulateCommand;
    auto* t = new FlagTable<C>;
    AddInputs(*t);
    t->Add(kMapping, &C::mapping)
        .Add(kIterations, &C::iterations)
        .Add(kSmpiModel, &C::smpi_model);
    return t;
  }();
  return *kTable;
}

// advise reads these flags with another meaning than map's.
constexpr FlagSpec<std::string> kAdviseTopology{
    "topology", "",
    "the machine, in any form map takes (also $RANKMAP_TOPOLOGY); it must "
    "name the hosts the job ran on (default: built from the hosts, Slurm's "
    "switches or --network-spec)"};
constexpr FlagSpec<std::string> kAdviseOutput{
    "output", "rankmap-advise",
    "directory for the profile, the launcher's file and what was fetched "
    "(made when missing)"};
constexpr FlagSpec<int64_t> kAdviseIterations{
    "iterations", "10",
    "iterations of the profile's traffic SMPI replays to predict a time, 1 to "
    "1000",
    {},
    kReplayIterations};

const FlagTable<AdviseCommand>& AdviseFlags() {
  static const FlagTable<AdviseCommand>* const kTable = [] {
    using C = AdviseCommand;
    auto* t = new FlagTable<C>;
    t->Add(kAdviseTopology, &C::inputs, &Inputs::topology)
        .Add(kNode, &C::inputs, &Inputs::node)
        .Add(kLeaf, &C::inputs, &Inputs::leaf)
        .Add(kLevelCosts, &C::inputs, &Inputs::level_costs)
        .Add(kNetworkSpec, &C::network)
        .Add(kAdviseCalibrate, &C::calibrate)
        .Add(kFromProfile, &C::from_profile)
        .Add(kPlacement, &C::placement)
        .Add(kLauncher, &C::launcher)
        .Add(kProfileSeconds, &C::profile_seconds)
        .Add(kMinGain, &C::min_gain)
        .Add(kAdviseOutput, UnlessEmpty(&C::output))
        .Add(kReport, &C::report)
        .Add(kAdviseIterations, &C::iterations)
        .Add(kSeed, &C::seed)
        .Add(kThreads, kWorkerThreads)
        .Add(kQuiet, &C::quiet);
    return t;
  }();
  return *kTable;
}

// ---- calibrate ----
constexpr FlagSpec<std::string> kCalibrateOutput{
    "output", "rankmap-calibrate.net",
    "the network spec to write (beside it: .probe, .hwloc/, .params)"};
constexpr FlagSpec<std::string> kFromProbe{
    "from_probe", "",
    "calibrate: fit the measurements of an earlier probe instead of running "
    "the launch line"};
constexpr FlagSpec<std::string> kCalibrateLauncher{
    "launcher", "",
    "calibrate: openmpi | hydra | slurm, when the launcher's name and "
    "--version do not tell"};
constexpr FlagSpec<std::string> kCalibrateModel{
    "smpi_model", "calibrated",
    "calibrate: write nominal links, as SMPI's default model reads them "
    "(calibrated), or the measured ones (exact)"};
constexpr FlagSpec<bool> kQuick{
    "quick", "false", "calibrate: fewer repetitions (a few seconds)"};

const FlagTable<CalibrateCommand>& CalibrateFlags() {
  static const FlagTable<CalibrateCommand>* const kTable = [] {
    using C = CalibrateCommand;
    auto* t = new FlagTable<C>;
    t->Add(kCalibrateOutput, UnlessEmpty(&C::output))
        .Add(kFromProbe, &C::from_probe)
        .Add(kCalibrateLauncher, &C::launcher)
        .Add(kCalibrateModel, &C::smpi_model)
        .Add(kQuick, &C::quick);
    return t;
  }();
  return *kTable;
}

const FlagTable<BindCommand>& BindFlags() {
  static const FlagTable<BindCommand>* const kTable = [] {
    using C = BindCommand;
    auto* t = new FlagTable<C>;
    t->Add(kTopology, &C::inputs, &Inputs::topology)
        .Add(kNode, &C::inputs, &Inputs::node)
        .Add(kLeaf, &C::inputs, &Inputs::leaf)
        .Add(kAllowed, &C::inputs, &Inputs::allowed)
        .Add(kSlotsPerLeaf, &C::inputs, &Inputs::slots_per_leaf)
        .Add(kMapping, &C::mapping)
        .Add(kBind, UnlessEmpty(&C::bind))
        .Add(kThreadsPerProcess, &C::threads_per_process)
        .Add(kVerbose, &C::verbose);
    return t;
  }();
  return *kTable;
}

const FlagTable<TopologyCommand>& TopologyFlags() {
  static const FlagTable<TopologyCommand>* const kTable = [] {
    using C = TopologyCommand;
    auto* t = new FlagTable<C>;
    t->Add(kTopology, &C::inputs, &Inputs::topology)
        .Add(kNode, &C::inputs, &Inputs::node)
        .Add(kHierarchy, &C::inputs, &Inputs::hierarchy)
        .Add(kDistance, &C::inputs, &Inputs::distance)
        .Add(kLeaf, &C::inputs, &Inputs::leaf)
        .Add(kLevelCosts, &C::inputs, &Inputs::level_costs)
        .Add(kAllowed, &C::inputs, &Inputs::allowed)
        .Add(kSlotsPerLeaf, &C::inputs, &Inputs::slots_per_leaf)
        .Add(kFormat, TextOr(&C::format, "text"));
    return t;
  }();
  return *kTable;
}

const FlagTable<FrontendFlagText>& FrontendFlags() {
  static const FlagTable<FrontendFlagText>* const kTable = [] {
    auto* t = new FlagTable<FrontendFlagText>;
    for (const FlagSpec<std::string>& spec :
         {kOutput,      kGraphFormat, kSpeeds,     kN,      kBlock,
          kElementSize, kPartitioner, kFlow,       kLink,   kShape,
          kClusters,    kBandwidth,   kBandwidthV, kDomain, kGrid,
          kStencil,     kHalo,        kPeriodic,   kProcs,  kProcGrid}) {
      AddText(*t, spec);
    }
    AddText(*t, kSlabs);
    // The variants of the seeds: partition and speed-function files,
    // arrangement search and hop norm, Becker's networks, halo weights, 1D
    // grids.
    for (const FlagSpec<std::string>& spec :
         {kSpeedFunctions, kPartition, kArrange, kHopNorm, kNetwork, kHub,
          kAxisWeights}) {
      AddText(*t, spec);
    }
    AddText(*t, kAllow1d);
    AddText(*t, kCase);
    AddText(*t, kRegion);
    return t;
  }();
  return *kTable;
}

const FlagTable<DemoCommand>& DemoFlags() {
  static const FlagTable<DemoCommand>* const kTable = [] {
    using C = DemoCommand;
    auto* t = new FlagTable<C>;
    t->Add(kTopology, &C::inputs, &Inputs::topology)
        .Add(kLeaf, &C::inputs, &Inputs::leaf)
        .Add(kSeed, &C::seed)
        .Add(kQuiet, &C::quiet);
    return t;
  }();
  return *kTable;
}

}  // namespace rankmap::cli
