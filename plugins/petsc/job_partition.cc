#include "plugins/petsc/job_partition.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "api/load_topology.h"
#include "api/named_options.h"
#include "api/partition.h"
#include "base/catch_as_status.h"
#include "base/file.h"
#include "base/status_macros.h"
#include "core/model/map_report.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "graphs/graphs.h"
#include "mpi_bindings/job_gather.h"
#include "mpi_bindings/reorder.h"
#include "topology/tree_ops.h"

namespace rankmap::plugins::petsc {
namespace {

constexpr int kRoot = 0;

// A rank's own step, exceptions as a Status: the rank must still reach the
// collectives that follow.
template <typename F>
absl::Status Guarded(F step) {
  return base::CatchAsStatus("rankmap partition", step);
}

// What every rank knows of every rank after one all-gather.
struct Layout {
  std::vector<int64_t> rows, arcs, first;  // per rank
  int64_t vertices = 0, total_arcs = 0;
  bool weighted = false, vertex_weighted = false;
};

Layout GatherLayout(MPI_Comm comm, const LocalGraph& local) {
  const int size = mpi_bindings::CommSize(comm);
  const int64_t mine[4] = {static_cast<int64_t>(local.xadj.size()) - 1,
                           static_cast<int64_t>(local.adjncy.size()),
                           local.adjwgt.empty() ? 0 : 1,
                           local.vwgt.empty() ? 0 : 1};
  std::vector<int64_t> all(4 * static_cast<size_t>(size));
  MPI_Allgather(mine, 4, MPI_INT64_T, all.data(), 4, MPI_INT64_T, comm);
  Layout l;
  for (int r = 0; r < size; ++r) {
    l.first.push_back(l.vertices);
    l.rows.push_back(all[4 * r]);
    l.arcs.push_back(all[4 * r + 1]);
    l.vertices += all[4 * r];
    l.total_arcs += all[4 * r + 1];
    l.weighted = l.weighted || all[4 * r + 2] != 0;
    l.vertex_weighted = l.vertex_weighted || all[4 * r + 3] != 0;
  }
  return l;
}

// This rank's rows, checked before anything is gathered.
absl::Status CheckLocal(const LocalGraph& g, int64_t vertices) {
  const int64_t rows = static_cast<int64_t>(g.xadj.size()) - 1;
  if (rows < 0 || g.xadj[0] != 0 ||
      g.xadj[rows] != static_cast<int64_t>(g.adjncy.size())) {
    return absl::InvalidArgumentError(
        "rankmap partition: the local rows' offsets do not match their "
        "adjacency");
  }
  for (int64_t i = 0; i < rows; ++i) {
    if (g.xadj[i + 1] < g.xadj[i]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rankmap partition: row offsets decrease at local row ", i));
    }
  }
  for (int64_t a = 0; a < static_cast<int64_t>(g.adjncy.size()); ++a) {
    if (g.adjncy[a] < 0 || g.adjncy[a] >= vertices) {
      return absl::InvalidArgumentError(
          absl::StrCat("rankmap partition: a neighbour ", g.adjncy[a],
                       " outside the graph's ", vertices, " vertices"));
    }
  }
  if ((!g.adjwgt.empty() && g.adjwgt.size() != g.adjncy.size()) ||
      (!g.vwgt.empty() && static_cast<int64_t>(g.vwgt.size()) != rows)) {
    return absl::InvalidArgumentError(
        "rankmap partition: weights do not match the rows");
  }
  for (const std::vector<double>* w : {&g.adjwgt, &g.vwgt}) {
    for (double x : *w) {
      if (!std::isfinite(x) || x < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "rankmap partition: a weight of ", x, " (must be finite, >= 0)"));
      }
    }
  }
  return absl::OkStatus();
}

// MPI_Gatherv of one array per rank onto the root (counts from the layout).
template <typename T>
std::vector<T> GatherArray(MPI_Comm comm, const std::vector<T>& mine,
                           const std::vector<int64_t>& counts,
                           MPI_Datatype type) {
  const bool root = mpi_bindings::CommRank(comm) == kRoot;
  std::vector<int> c(counts.size()), d(counts.size());
  int64_t total = 0;
  for (size_t r = 0; r < counts.size(); ++r) {
    c[r] = static_cast<int>(counts[r]);
    d[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<T> all(root ? static_cast<size_t>(total) : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), type, all.data(),
              c.data(), d.data(), type, kRoot, comm);
  return all;
}

// The machine the parts go to, on the root.
struct Machine {
  topology::Tree tree;
  std::vector<int32_t> slot_of_rank;  // part p on leaf slot_of_rank[p]
  std::string source;                 // where it came from, in words
};

std::string MachineSource(const JobPartitionOptions& o) {
  if (!o.topology.empty())
    return absl::StrCat("the machine ", o.option_prefix, "topology names");
  if (!o.network.empty())
    return absl::StrCat("the network spec ", o.option_prefix, "network names");
  if (std::getenv("RANKMAP_TOPOLOGY") != nullptr) return "RANKMAP_TOPOLOGY";
  if (std::getenv("RANKMAP_NETWORK") != nullptr) return "RANKMAP_NETWORK";
  if (std::getenv("SLURM_TOPOLOGY_ADDR_PATTERN") != nullptr)
    return "hwloc on each host under Slurm's switches";
  return "hwloc on each host under one switch";
}

// Collective: the job's machine (parts == size) or the named one.
absl::StatusOr<Machine> MachineFor(MPI_Comm comm, const JobPartitionOptions& o,
                                   int32_t parts) {
  Machine m;
  m.source = MachineSource(o);
  if (parts == mpi_bindings::CommSize(comm)) {
    mpi_bindings::JobTreeOptions j;
    j.topology = o.topology;
    j.network = o.network;
    ASSIGN_OR_RETURN(mpi_bindings::JobTree job,
                     mpi_bindings::GatherJobTree(comm, j));
    m.tree = std::move(job.tree);
    m.slot_of_rank = std::move(job.slot_of_rank);
    return m;
  }
  absl::Status s;
  if (mpi_bindings::CommRank(comm) == kRoot) {
    s = Guarded([&]() -> absl::Status {
      if (o.topology.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "rankmap partition: ", parts, " parts on a communicator of ",
            mpi_bindings::CommSize(comm),
            " ranks: name a machine of that many leaves with ", o.option_prefix,
            "topology"));
      }
      ASSIGN_OR_RETURN(m.tree, api::LoadTree({.description = o.topology}));
      if (m.tree.num_leaves() != parts) {
        return absl::InvalidArgumentError(absl::StrCat(
            "rankmap partition: ", parts, " parts, but the machine '",
            o.topology, "' has ", m.tree.num_leaves(), " leaves"));
      }
      m.slot_of_rank.resize(parts);
      std::iota(m.slot_of_rank.begin(), m.slot_of_rank.end(), 0);
      return absl::OkStatus();
    });
  }
  RETURN_IF_ERROR(mpi_bindings::AgreeOnStatus(comm, s));
  return m;
}

// The gathered graph on the root: every arc counts half toward its edge, so
// a symmetric adjacency keeps its weights (PETSc's partitioners require one).
absl::StatusOr<graphs::CommGraph> BuildGraph(const Layout& l,
                                             const std::vector<int64_t>& degree,
                                             const std::vector<int64_t>& adjncy,
                                             const std::vector<double>& adjwgt,
                                             const std::vector<double>& vwgt) {
  graphs::CommGraphBuilder b(l.vertices);
  b.Reserve(l.total_arcs);
  int64_t a = 0;
  for (int64_t u = 0; u < l.vertices; ++u) {
    for (int64_t k = 0; k < degree[u]; ++k, ++a) {
      RETURN_IF_ERROR(
          b.AddEdge(u, adjncy[a], (adjwgt.empty() ? 1.0 : adjwgt[a]) / 2.0));
    }
    if (!vwgt.empty()) RETURN_IF_ERROR(b.SetVertexWeight(u, vwgt[u]));
  }
  return std::move(b).Build();
}

// The options by name; `g` (the gathered graph) only fits a profile's model:
// null before the gather, where the default model stands in (the memory
// estimate does not depend on it).
absl::StatusOr<core::MappingOptions> ResolveOn(const JobPartitionOptions& o,
                                               const graphs::CommGraph* g) {
  core::MappingOptions m;
  if (!o.algorithm.empty()) {
    ASSIGN_OR_RETURN(m, api::PresetOrAlgorithm(o.algorithm));
  }
  ASSIGN_OR_RETURN(const core::ObjectiveKind objective,
                   core::ParseObjective(o.objective));
  m.objective = objective;
  m.seed = o.seed;
  m.max_memory_bytes = o.max_memory_bytes;
  if (o.imbalance >= 0) m.imbalance = o.imbalance;
  if ((o.exchange.empty() && o.exchange_profile.empty()) ||
      (g == nullptr && o.exchange.empty())) {
    // A MatMult's halo: one double per coupling, one message a neighbour.
    m.exchange.bytes_per_unit = 8;
  } else {
    const graphs::CommGraph none;
    ASSIGN_OR_RETURN(
        m.exchange,
        api::ExchangeModelByName(o.exchange, o.exchange_profile, g ? *g : none,
                                 o.option_prefix + "exchange",
                                 o.option_prefix + "exchange_profile"));
  }
  RETURN_IF_ERROR(core::ValidateOptions(m));
  return m;
}

std::string PartLines(std::span<const int32_t> v) {
  return absl::StrCat(absl::StrJoin(v, "\n"), v.empty() ? "" : "\n");
}

// PREFIX.part and PREFIX.leaves of one partition (PREFIX.compared.* for the
// compared one), and its exchange between the ranks as the model has it
// (PREFIX.exchange.mat and .msgs.mat: what `rankmap simulate` replays with
// the ranks' leaves, PREFIX.ranks).
absl::Status WritePartition(const std::string& prefix,
                            const graphs::CommGraph& g,
                            const std::vector<int32_t>& part, const Machine& m,
                            const core::MappingOptions& o) {
  std::vector<int32_t> leaves(part.size());
  for (size_t v = 0; v < part.size(); ++v) leaves[v] = m.slot_of_rank[part[v]];
  RETURN_IF_ERROR(base::WriteFile(prefix + ".part", PartLines(part)));
  RETURN_IF_ERROR(base::WriteFile(prefix + ".leaves", PartLines(leaves)));
  const int32_t ranks = static_cast<int32_t>(m.slot_of_rank.size());
  ASSIGN_OR_RETURN(const graphs::CommGraph x,
                   api::PartsExchange(g, part, ranks, o.exchange));
  RETURN_IF_ERROR(graphs::WriteGraphFile(x, prefix + ".exchange.mat",
                                         graphs::GraphFormat::kMat));
  auto xadj = x.xadj();
  auto adjncy = x.adjncy();
  auto msgs = x.adjmsg();
  ASSIGN_OR_RETURN(const graphs::CommGraph counts,
                   graphs::CommGraph::FromCsr({xadj.begin(), xadj.end()},
                                              {adjncy.begin(), adjncy.end()},
                                              {msgs.begin(), msgs.end()}));
  return graphs::WriteGraphFile(counts, prefix + ".exchange.msgs.mat",
                                graphs::GraphFormat::kMat);
}

// The largest part's vertex weight over the smallest's; 0 when one is empty.
double Balance(const graphs::CommGraph& g, const std::vector<int32_t>& part,
               int32_t parts) {
  std::vector<double> load(parts, 0.0);
  for (graphs::VertexId v = 0; v < g.num_vertices(); ++v)
    load[part[v]] += g.vertex_weight(v);
  const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
  return *lo > 0 ? *hi / *lo : 0.0;
}

// One partition's figures on the machine: J, imbalance, predicted exchange.
struct Figures {
  double j = 0, imbalance = 0;
  core::ExchangePrediction exchange;
};

absl::StatusOr<Figures> FiguresOf(const Machine& m, const graphs::CommGraph& g,
                                  const std::vector<int32_t>& part,
                                  const core::MappingOptions& o) {
  core::Mapping leaves(part.size());
  for (size_t v = 0; v < part.size(); ++v) {
    if (part[v] < 0 || part[v] >= static_cast<int32_t>(m.slot_of_rank.size()))
      return absl::InvalidArgumentError(
          absl::StrCat("rankmap partition: the compared partition puts vertex ",
                       v, " on part ", part[v]));
    leaves[v] = m.slot_of_rank[part[v]];
  }
  Figures f;
  f.j = core::ComputeJ(m.tree, g, leaves);
  f.imbalance = api::MaxImbalance(m.tree, g, leaves);
  ASSIGN_OR_RETURN(f.exchange, api::PredictPartition(m.tree, g, leaves, o));
  return f;
}

// One exchange's prediction: seconds under time, J of its bytes under J.
std::string Predicted(const core::ExchangePrediction& p, bool time) {
  return time ? absl::StrFormat("%.4g s", p.seconds)
              : absl::StrFormat("J %.6g", p.cost);
}

double Ratio(double a, double b) { return b > 0 ? a / b : 1.0; }

// The report's lines (what the views print).
std::vector<std::string> ReportLines(
    const Machine& m, const graphs::CommGraph& g, const core::MappingOptions& o,
    const api::PartitionOutcome& out, const Figures& mine,
    const Figures* compared, const std::string& compared_name) {
  std::vector<std::string> lines = {absl::StrFormat(
      "rankmap: %d vertices, %d edges onto %d parts on %d leaves (machine: "
      "%s)",
      g.num_vertices(), g.num_edges(), m.slot_of_rank.size(),
      m.tree.num_leaves(), m.source)};
  const std::string tree = topology::DrawTree(m.tree);
  for (absl::string_view l : absl::StrSplit(tree, '\n')) {
    if (!l.empty()) lines.push_back(absl::StrCat("  ", l));
  }
  lines.push_back(absl::StrFormat("J %.6g, imbalance %.2f%% (bound %.2f%%)",
                                  mine.j, 100 * mine.imbalance,
                                  100 * o.imbalance));
  const core::PartitionReport& c = out.choice;
  const bool time = c.objective == "time";
  auto figure = [&](const core::ExchangePrediction& p) {
    return time ? p.seconds : p.cost;
  };
  if (c.weighed) {
    lines.push_back(absl::StrCat("exchange model: ", c.model, "; by ",
                                 c.objective,
                                 c.note.empty() ? "" : " (" + c.note + ")"));
    lines.push_back(absl::StrFormat(
        "chose %s: one exchange predicted %s, the status quo (as onto a "
        "complete graph, part p where rank p runs) %s",
        c.winner, Predicted(mine.exchange, time),
        Predicted(c.status_quo, time)));
  }
  if (compared != nullptr) {
    lines.push_back(absl::StrFormat(
        "%s (part p where rank p runs): J %.6g (rankmap %.3fx), imbalance "
        "%.2f%%, one exchange predicted %s (rankmap %.3fx)",
        compared_name, compared->j, Ratio(mine.j, compared->j),
        100 * compared->imbalance, Predicted(compared->exchange, time),
        Ratio(figure(mine.exchange), figure(compared->exchange))));
  }
  return lines;
}

// The gathered arrays on the root.
struct Gathered {
  std::vector<int64_t> degree, adjncy;
  std::vector<double> adjwgt, vwgt;
  std::vector<int32_t> compared;
};

// Collective: every rank's rows onto the root (unit weights where a rank
// gave none while another did).
Gathered GatherGraph(MPI_Comm comm, const Layout& l, const LocalGraph& local,
                     const std::vector<int32_t>* compared) {
  Gathered g;
  const int64_t rows = static_cast<int64_t>(local.xadj.size()) - 1;
  std::vector<int64_t> degree(rows);
  for (int64_t i = 0; i < rows; ++i)
    degree[i] = local.xadj[i + 1] - local.xadj[i];
  g.degree = GatherArray(comm, degree, l.rows, MPI_INT64_T);
  g.adjncy = GatherArray(comm, local.adjncy, l.arcs, MPI_INT64_T);
  if (l.weighted) {
    const std::vector<double> ones(local.adjncy.size(), 1.0);
    g.adjwgt = GatherArray(comm, local.adjwgt.empty() ? ones : local.adjwgt,
                           l.arcs, MPI_DOUBLE);
  }
  if (l.vertex_weighted) {
    const std::vector<double> ones(rows, 1.0);
    g.vwgt = GatherArray(comm, local.vwgt.empty() ? ones : local.vwgt, l.rows,
                         MPI_DOUBLE);
  }
  if (compared != nullptr)
    g.compared = GatherArray(comm, *compared, l.rows, MPI_INT32_T);
  return g;
}

// The root's work: the graph, the partition onto the machine, the figures,
// the report and the files. part receives every vertex's part.
absl::Status RootStep(const Layout& l, const Gathered& a, const Machine& m,
                      const JobPartitionOptions& o, bool has_compared,
                      std::vector<int32_t>* part, JobPartition* out) {
  ASSIGN_OR_RETURN(const graphs::CommGraph g,
                   BuildGraph(l, a.degree, a.adjncy, a.adjwgt, a.vwgt));
  ASSIGN_OR_RETURN(const core::MappingOptions opts, ResolveOn(o, &g));
  api::PartitionOutcome outcome;
  ASSIGN_OR_RETURN(*part, api::PartitionOntoRanks(m.tree, m.slot_of_rank, g,
                                                  opts, &outcome));
  ASSIGN_OR_RETURN(const Figures mine, FiguresOf(m, g, *part, opts));
  std::optional<Figures> compared;
  if (has_compared) {
    ASSIGN_OR_RETURN(compared, FiguresOf(m, g, a.compared, opts));
  }
  out->report = ReportLines(m, g, opts, outcome, mine,
                            compared ? &*compared : nullptr, o.compared_name);
  out->cut = mine.exchange.cut;
  out->balance = Balance(g, *part, static_cast<int32_t>(m.slot_of_rank.size()));
  if (o.write.empty()) return absl::OkStatus();
  RETURN_IF_ERROR(graphs::WriteGraphFile(g, o.write + ".graph",
                                         graphs::GraphFormat::kMetis));
  RETURN_IF_ERROR(WritePartition(o.write, g, *part, m, opts));
  if (has_compared) {
    RETURN_IF_ERROR(
        WritePartition(o.write + ".compared", g, a.compared, m, opts));
  }
  return base::WriteFile(o.write + ".ranks", PartLines(m.slot_of_rank));
}

// Collective: the checks every rank can make on its own rows, agreed.
absl::Status CheckInputs(MPI_Comm comm, const Layout& l,
                         const LocalGraph& local, int32_t parts,
                         const std::vector<int32_t>* compared) {
  const int64_t rows = static_cast<int64_t>(local.xadj.size()) - 1;
  absl::Status s = Guarded([&]() -> absl::Status {
    if (parts < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("rankmap partition: ", parts, " parts"));
    }
    // MPI counts and the graph's vertex ids are 32-bit.
    if (l.vertices > INT_MAX || l.total_arcs > INT_MAX) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "rankmap partition: ", l.vertices, " vertices and ", l.total_arcs,
          " arcs: more than one gather holds (2^31 - 1 of each)"));
    }
    if (compared != nullptr && static_cast<int64_t>(compared->size()) != rows)
      return absl::InternalError("rankmap partition: compared partition size");
    return CheckLocal(local, l.vertices);
  });
  return mpi_bindings::AgreeOnStatus(comm, s);
}

}  // namespace

absl::Status PartitionJob(MPI_Comm comm, const LocalGraph& local, int32_t parts,
                          const JobPartitionOptions& options,
                          const std::vector<int32_t>* compared,
                          JobPartition* out) {
  const bool root = mpi_bindings::CommRank(comm) == kRoot;
  out->local_part.assign(local.xadj.size() - 1, -1);
  out->report.clear();
  const Layout l = GatherLayout(comm, local);
  RETURN_IF_ERROR(CheckInputs(comm, l, local, parts, compared));
  if (l.vertices == 0) {
    if (root) out->report = {"rankmap: an empty graph, nothing to partition"};
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(const Machine m, MachineFor(comm, options, parts));
  absl::Status s;
  if (root) {
    s = Guarded([&]() -> absl::Status {
      ASSIGN_OR_RETURN(const core::MappingOptions o,
                       ResolveOn(options, nullptr));
      // The gathered arrays: 8 B a degree and a neighbour, 8 a weight.
      const int64_t input = 8 * (l.vertices * (1 + l.vertex_weighted) +
                                 l.total_arcs * (1 + l.weighted));
      return api::CheckPartitionMemory(m.tree, l.vertices, l.total_arcs, o,
                                       input);
    });
  }
  RETURN_IF_ERROR(mpi_bindings::AgreeOnStatus(comm, s));
  const Gathered a = GatherGraph(comm, l, local, compared);
  std::vector<int32_t> part;
  if (root) {
    s = Guarded([&] {
      return RootStep(l, a, m, options, compared != nullptr, &part, out);
    });
  }
  RETURN_IF_ERROR(mpi_bindings::AgreeOnStatus(comm, s));
  std::vector<int> counts(l.rows.size()), displs(l.rows.size());
  for (size_t r = 0; r < l.rows.size(); ++r) {
    counts[r] = static_cast<int>(l.rows[r]);
    displs[r] = static_cast<int>(l.first[r]);
  }
  MPI_Scatterv(part.data(), counts.data(), displs.data(), MPI_INT32_T,
               out->local_part.data(), static_cast<int>(out->local_part.size()),
               MPI_INT32_T, kRoot, comm);
  return absl::OkStatus();
}

}  // namespace rankmap::plugins::petsc
