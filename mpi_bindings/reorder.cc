#include "mpi_bindings/reorder.h"

#include <array>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/catch_as_status.h"
#include "base/memory_budget.h"
#include "base/sha256.h"
#include "base/status_macros.h"
#include "mpi_bindings/job_gather.h"
#include "mpi_bindings/job_tree.h"
#include "topology/binding.h"
#include "topology/tree_ops.h"

namespace rankmap::mpi_bindings {
namespace {

constexpr int kRoot = 0;

// Runs a local step and turns an exception into a Status: a rank that fails
// on its own must still reach the collectives that follow, or the others
// would wait in them forever.
template <typename F>
absl::Status Guarded(const char* what, F step) {
  return base::CatchAsStatus(what, step);
}

JobTreeOptions JobOptions(const ReorderOptions& o) {
  JobTreeOptions j;
  j.topology = o.topology;
  j.network = o.network;
  j.core_leaves = o.core_leaves;
  return WithEnvironment(std::move(j), o.read_environment);
}

// The speeds as one short token: their count and the SHA-256 of their bits
// (a list of one speed per rank would make the options line O(n)).
std::string SpeedsDigest(const std::vector<double>& speeds) {
  if (speeds.empty()) return "none";
  base::Sha256 h;
  h.Update(speeds.data(), speeds.size() * sizeof(double));
  const std::array<uint8_t, 32> d = h.Finish();
  // 8 bytes of digest tell lists apart and keep the error line short.
  return absl::StrCat(speeds.size(), " speeds, sha256 ",
                      absl::BytesToHexString(absl::string_view(
                          reinterpret_cast<const char*>(d.data()), 8)));
}

// Every option that changes the outcome, as "name=value" lines, with the
// environment already read: all ranks must agree on each.
std::string OptionLines(const ReorderOptions& o, const JobTreeOptions& job) {
  const core::MappingOptions& m = o.mapping;
  auto line = [](const char* name, const auto& value) {
    return absl::StrCat(name, "=", value, "\n");
  };
  return absl::StrCat(
      line("algorithm", std::string(core::AlgorithmName(m.algorithm))),
      line("seed", m.seed),
      line("imbalance", absl::StrFormat("%.17g", m.imbalance)),
      line("max_memory_bytes", m.max_memory_bytes),
      line("treematch", absl::StrCat(m.treematch.exact_pairing, ",",
                                     m.treematch.exhaustive_limit, ",",
                                     m.treematch.split_arities)),
      line("multisection.metis_effort", m.multisection.metis_effort),
      line("refine",
           absl::StrCat(int{m.refine.enabled}, ",", m.refine.swap_rounds, ",",
                        m.refine.greedy_sweeps, ",", m.refine.fm_passes)),
      line("mpipp", absl::StrCat(m.mpipp.starts, ",", m.mpipp.rounds)),
      line("topology", absl::StrCat("'", absl::CHexEscape(job.topology), "'")),
      line("network", absl::StrCat("'", absl::CHexEscape(job.network), "'")),
      line("core_leaves", int{o.core_leaves}),
      line("rebind", static_cast<int>(o.rebind)),
      line("bind_memory", int{o.bind_memory}),
      line("process_speed", SpeedsDigest(o.process_speed)));
}

// Collective: compares this rank's option lines with rank 0's; the error names
// the first option that differs.
absl::Status CompareWithRoot(MPI_Comm comm, const std::string& mine) {
  int size = static_cast<int>(mine.size());
  MPI_Bcast(&size, 1, MPI_INT, kRoot, comm);
  std::string root = CommRank(comm) == kRoot ? mine : std::string(size, '\0');
  MPI_Bcast(root.data(), size, MPI_CHAR, kRoot, comm);
  if (root == mine) return absl::OkStatus();
  size_t a = 0, b = 0;
  while (a < mine.size() && b < root.size()) {
    const size_t ea = mine.find('\n', a), eb = root.find('\n', b);
    const std::string ours = mine.substr(a, ea - a),
                      theirs = root.substr(b, eb - b);
    if (ours != theirs) {
      const size_t eq = ours.find('=');
      return absl::InvalidArgumentError(
          absl::StrCat("options differ from rank 0's: ", ours.substr(0, eq),
                       " is ", ours.substr(eq + 1), " here but ",
                       theirs.substr(eq + 1), " on rank 0"));
    }
    a = ea + 1;
    b = eb + 1;
  }
  return absl::InvalidArgumentError("options differ from rank 0's");
}

// Collective: this rank's own checks of its options (so a rank passing
// garbage is refused even when rank 0's options are fine), then agreement with
// rank 0's. Returns the local error, to be agreed on by the caller.
absl::Status CheckOptions(MPI_Comm comm, const ReorderOptions& options,
                          const JobTreeOptions& job) {
  std::string lines;
  absl::Status local = Guarded("options", [&] {
    lines = OptionLines(options, job);
    return core::ValidateOptions(options.mapping);
  });
  absl::Status same = CompareWithRoot(comm, lines);
  return local.ok() ? same : local;
}

// Bit of the broadcast re-binding mode that adds memory (1 = PU, 2 = NUMA).
constexpr int kRebindMemory = 4;

// Binds this process to the PU `os_index` (mode 1) or its NUMA node (mode 2),
// its memory too when the mode has kRebindMemory.
absl::StatusOr<topology::BindReport> BindSlot(int32_t os_index, int mode) {
  std::vector<int32_t> pus = {os_index};
  if ((mode & 3) == 2) {
    RETURN_IF_ERROR(topology::BindToNumaOf(os_index));
    ASSIGN_OR_RETURN(pus, topology::CurrentBindingPus());
  }
  return topology::BindProcess(pus, (mode & kRebindMemory)
                                        ? topology::BindWhat::kCpuMem
                                        : topology::BindWhat::kCpu);
}

// The shared protocol. `agreed` is the status all ranks agreed on for their
// inputs (from AgreeOnStatus); `root_graph` runs on the root only and must not
// call MPI.
ReorderOutcome Run(
    MPI_Comm comm, const absl::Status& agreed, const ReorderOptions& options,
    const JobTreeOptions& job_options,
    const std::function<absl::StatusOr<graphs::CommGraph>()>& root_graph) {
  const int n = CommSize(comm);
  const int me = CommRank(comm);
  ReorderOutcome out;
  out.new_rank.resize(n);
  std::iota(out.new_rank.begin(), out.new_rank.end(), 0);
  out.status = agreed;

  // Rank 0 decides whether bindings are needed (no override) and tells
  // everyone.
  int want_binding = me == kRoot && job_options.topology.empty() ? 1 : 0;
  MPI_Bcast(&want_binding, 1, MPI_INT, kRoot, comm);

  std::vector<int32_t> os_index(n, -1);
  int rebind = 0;
  if (out.status.ok()) {
    std::vector<ProcessInfo> infos = GatherProcessInfo(comm, want_binding != 0);
    absl::Status root_status;
    double costs[2] = {0.0, 0.0};
    if (me == kRoot) {
      root_status = Guarded("mpi_bindings", [&]() -> absl::Status {
        ASSIGN_OR_RETURN(graphs::CommGraph graph, root_graph());
        ASSIGN_OR_RETURN(JobTree job, BuildJobTree(infos, job_options));
        if (const char* e = std::getenv("RANKMAP_PRINT_TREE");
            e != nullptr && e[0] == '1') {
          std::fprintf(stderr, "rankmap: job tree\n%s",
                       topology::DrawTree(job.tree).c_str());
        }
        ASSIGN_OR_RETURN(Reordering r,
                         ComputeReordering(job, graph, options.mapping,
                                           options.process_speed));
        out.new_rank = r.new_rank;
        costs[0] = r.cost_before;
        costs[1] = r.cost_after;
        if (job.real_machine && options.rebind != Rebind::kNone) {
          rebind = (options.rebind == Rebind::kPu ? 1 : 2) |
                   (options.bind_memory ? kRebindMemory : 0);
          for (int q = 0; q < n; ++q)
            os_index[q] = job.tree.os_index(job.slot_of_rank[q]);
        }
        return absl::OkStatus();
      });
      if (!root_status.ok())
        std::iota(out.new_rank.begin(), out.new_rank.end(), 0);
    }
    out.status = BroadcastStatus(comm, kRoot, root_status);
    if (out.status.ok()) {
      MPI_Bcast(out.new_rank.data(), n, MPI_INT32_T, kRoot, comm);
      MPI_Bcast(costs, 2, MPI_DOUBLE, kRoot, comm);
      MPI_Bcast(&rebind, 1, MPI_INT, kRoot, comm);
      MPI_Bcast(os_index.data(), n, MPI_INT32_T, kRoot, comm);
      out.cost_before = costs[0];
      out.cost_after = costs[1];
    }
  }

  if (out.status.ok()) {
    MPI_Comm_split(comm, 0, out.new_rank[me], &out.comm);
    absl::Status bound;
    if (rebind != 0 && os_index[me] >= 0) {
      absl::StatusOr<topology::BindReport> report =
          BindSlot(os_index[me], rebind);
      if (report.ok()) {
        out.binding = topology::FormatBindReport(*report);
      } else {
        bound = report.status();
      }
    }
    out.status = AgreeOnStatus(comm, bound);
    if (out.status.ok()) return out;
    MPI_Comm_free(&out.comm);
  }
  std::iota(out.new_rank.begin(), out.new_rank.end(), 0);
  out.cost_before = out.cost_after = 0.0;
  MPI_Comm_dup(comm, &out.comm);
  return out;
}

// SHA-256 of the whole CSR (offsets, ids, the bits of every weight and vertex
// weight): equal only on ranks that hold the same graph, where a sum would
// miss two weights trading places.
std::array<uint8_t, 32> Fingerprint(const graphs::CommGraph& g) {
  base::Sha256 h;
  const int64_t n = g.num_vertices();
  h.Update(&n, sizeof n);
  auto add = [&h](auto span) {
    const int64_t count = static_cast<int64_t>(span.size());
    h.Update(&count, sizeof count);
    h.Update(span.data(), span.size_bytes());
  };
  add(g.xadj());
  add(g.adjncy());
  add(g.adjwgt());
  add(g.vwgt());
  return h.Finish();
}

// Intercommunicators have two groups: ranks, splits and reductions mean
// something else there. Inter-ness is the same on every rank, so all ranks
// return here alike.
bool RejectIntercommunicator(MPI_Comm comm, ReorderOutcome* out) {
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  if (!inter) return false;
  out->status = absl::InvalidArgumentError(
      "mpi_bindings: intercommunicators cannot be reordered");
  MPI_Comm_dup(comm, &out->comm);
  return true;
}

}  // namespace

absl::Status AgreeOnStatus(MPI_Comm comm, const absl::Status& local) {
  const int n = CommSize(comm);
  int mine = local.ok() ? n : CommRank(comm);
  int first = n;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == n) return absl::OkStatus();
  absl::Status s = BroadcastStatus(comm, first, local);
  return absl::Status(
      s.code(), absl::StrCat("rank ", first, ": ", std::string(s.message())));
}

ReorderOutcome ReorderDetailed(MPI_Comm comm, const graphs::CommGraph& graph,
                               const ReorderOptions& options) {
  ReorderOutcome rejected;
  if (RejectIntercommunicator(comm, &rejected)) return rejected;
  const int n = CommSize(comm);
  absl::Status local;
  if (graph.num_vertices() != n) {
    local = absl::InvalidArgumentError(
        absl::StrCat("graph has ", graph.num_vertices(),
                     " vertices but the communicator has ", n, " processes"));
  }
  // Compare against rank 0's graph so that a rank holding a different graph is
  // named.
  std::array<uint8_t, 32> fp = {}, root_fp = {};
  const absl::Status hashed = Guarded("graph fingerprint", [&] {
    fp = Fingerprint(graph);
    return absl::OkStatus();
  });
  root_fp = fp;
  MPI_Bcast(root_fp.data(), 32, MPI_BYTE, kRoot, comm);
  if (local.ok()) local = hashed;
  if (local.ok() && fp != root_fp) {
    local = absl::InvalidArgumentError(
        "graph differs from the graph given on rank 0");
  }
  JobTreeOptions job;
  absl::Status read = Guarded("options", [&] {
    job = JobOptions(options);
    return absl::OkStatus();
  });
  absl::Status options_ok = CheckOptions(comm, options, job);
  if (local.ok()) local = read.ok() ? options_ok : read;
  return Run(comm, AgreeOnStatus(comm, local), options, job,
             [&]() -> absl::StatusOr<graphs::CommGraph> { return graph; });
}

absl::StatusOr<MPI_Comm> Reorder(MPI_Comm comm, const graphs::CommGraph& graph,
                                 const ReorderOptions& options) {
  ReorderOutcome out = ReorderDetailed(comm, graph, options);
  if (!out.status.ok()) {
    MPI_Comm_free(&out.comm);
    return out.status;
  }
  return out.comm;
}

ReorderOutcome ReorderFromEdges(MPI_Comm comm, std::span<const LocalEdge> edges,
                                const ReorderOptions& options,
                                const absl::Status& caller) {
  ReorderOutcome rejected;
  if (RejectIntercommunicator(comm, &rejected)) return rejected;
  const int n = CommSize(comm);
  absl::Status local = caller;
  for (const LocalEdge& e : edges) {
    if (!local.ok()) break;
    if (e.source < 0 || e.source >= n || e.destination < 0 ||
        e.destination >= n || !(e.bytes >= 0) || e.bytes > 1e300) {
      local = absl::InvalidArgumentError(
          absl::StrCat("bad edge ", e.source, " -> ", e.destination, " (",
                       e.bytes, " bytes) for ", n, " processes"));
      break;
    }
  }
  if (local.ok() && edges.size() > static_cast<size_t>(INT_MAX / 3)) {
    local = absl::InvalidArgumentError(
        absl::StrCat(edges.size(),
                     " edges on one rank, more than one MPI "
                     "message of doubles can carry"));
  }
  std::vector<double> mine;
  absl::Status copied = Guarded("edges", [&] {
    if (!local.ok()) return absl::OkStatus();
    mine.reserve(edges.size() * 3);
    for (const LocalEdge& e : edges) {
      mine.push_back(e.source);
      mine.push_back(e.destination);
      mine.push_back(e.bytes);
    }
    return absl::OkStatus();
  });
  if (local.ok()) local = copied;
  JobTreeOptions job;
  absl::Status read = Guarded("options", [&] {
    job = JobOptions(options);
    return absl::OkStatus();
  });
  absl::Status options_ok = CheckOptions(comm, options, job);
  if (local.ok()) local = read.ok() ? options_ok : read;
  // Gather before Run so that Run's root-only callback needs no collective.
  absl::Status agreed = AgreeOnStatus(comm, local);
  const bool root = CommRank(comm) == kRoot;
  std::vector<double> all;
  if (agreed.ok()) {
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(root ? n : 1), displs(root ? n : 1, 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, kRoot, comm);
    // The root sizes the gather (and says so to everyone) before anyone sends:
    // a total past one MPI count or the memory budget is an agreed error, not
    // a crash in the middle of the collective.
    absl::Status sized;
    if (root) {
      sized = Guarded("gathered edges", [&]() -> absl::Status {
        int64_t total = 0;
        for (int r = 0; r < n; ++r) {
          displs[r] = static_cast<int>(std::min<int64_t>(total, INT_MAX));
          total += counts[r];
        }
        if (total > INT_MAX) {
          return absl::InvalidArgumentError(
              absl::StrCat(total / 3,
                           " edges in all, more than one MPI "
                           "gather of doubles can carry"));
        }
        RETURN_IF_ERROR(base::CheckMemory(
            absl::StrCat("mpi_bindings: gathering ", total / 3, " edges"),
            base::SaturatingMulAdd(total, 8 * 3), base::MemoryBudget()));
        all.reserve(std::max<int64_t>(total, 1));  // data() never null
        all.resize(total);
        return absl::OkStatus();
      });
    }
    agreed = BroadcastStatus(comm, kRoot, sized);
    if (agreed.ok()) {
      MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(),
                  displs.data(), MPI_DOUBLE, kRoot, comm);
    }
  }
  return Run(comm, agreed, options, job,
             [&]() -> absl::StatusOr<graphs::CommGraph> {
               graphs::CommGraphBuilder b(n);
               b.Reserve(static_cast<int64_t>(all.size() / 3));
               for (size_t k = 0; k + 2 < all.size(); k += 3) {
                 RETURN_IF_ERROR(b.AddEdge(static_cast<int64_t>(all[k]),
                                           static_cast<int64_t>(all[k + 1]),
                                           all[k + 2]));
               }
               return std::move(b).Build();
             });
}

}  // namespace rankmap::mpi_bindings
