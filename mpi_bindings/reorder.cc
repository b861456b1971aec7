#include "mpi_bindings/reorder.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "mpi_bindings/job_tree.h"
#include "topology/binding.h"

namespace rankmap::mpi_bindings {
namespace {

constexpr int kRoot = 0;

int Rank(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int Size(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

// Broadcasts a status from `root`; every rank returns the root's status.
absl::Status BroadcastStatus(MPI_Comm comm, int root, const absl::Status& s) {
  const std::string message(s.message());
  int header[2] = {static_cast<int>(s.code()),
                   static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, root, comm);
  std::string text(static_cast<size_t>(header[1]), '\0');
  if (Rank(comm) == root) text = message;
  if (header[1] > 0) MPI_Bcast(text.data(), header[1], MPI_CHAR, root, comm);
  if (header[0] == 0) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(header[0]), text);
}

// What every rank reports, gathered on the root.
std::vector<ProcessInfo> GatherProcessInfo(MPI_Comm comm, bool want_binding) {
  const int n = Size(comm);
  const bool root = Rank(comm) == kRoot;
  char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  std::vector<int32_t> pus;
  if (want_binding) {
    absl::StatusOr<std::vector<int32_t>> b = topology::CurrentBindingPus();
    if (b.ok()) pus = *std::move(b);  // unknown binding: any PU of the host
  }
  std::vector<char> names(
      root ? static_cast<size_t>(n) * (MPI_MAX_PROCESSOR_NAME + 1) : 1);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, names.data(),
             MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, kRoot, comm);
  int count = static_cast<int>(pus.size());
  std::vector<int> counts(root ? n : 1), displs(root ? n : 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, kRoot, comm);
  int total = 0;
  if (root) {
    for (int r = 0; r < n; ++r) {
      displs[r] = total;
      total += counts[r];
    }
  }
  std::vector<int32_t> all(std::max(total, 1));
  MPI_Gatherv(pus.data(), count, MPI_INT32_T, all.data(), counts.data(),
              displs.data(), MPI_INT32_T, kRoot, comm);
  std::vector<ProcessInfo> infos;
  if (!root) return infos;
  infos.resize(n);
  for (int r = 0; r < n; ++r) {
    infos[r].host = std::string(
        &names[static_cast<size_t>(r) * (MPI_MAX_PROCESSOR_NAME + 1)]);
    infos[r].pus.assign(all.begin() + displs[r],
                        all.begin() + displs[r] + counts[r]);
  }
  return infos;
}

JobTreeOptions JobOptions(const ReorderOptions& o) {
  JobTreeOptions j;
  j.topology = o.topology;
  j.network = o.network;
  j.core_leaves = o.core_leaves;
  if (o.read_environment) {
    if (j.topology.empty()) {
      if (const char* e = std::getenv("RANKMAP_TOPOLOGY")) j.topology = e;
    }
    if (j.network.empty()) {
      if (const char* e = std::getenv("RANKMAP_NETWORK")) j.network = e;
    }
  }
  return j;
}

// The shared protocol. `agreed` is the status all ranks agreed on for their
// inputs (from AgreeOnStatus); `root_graph` runs on the root only and must not
// call MPI.
ReorderOutcome Run(
    MPI_Comm comm, const absl::Status& agreed, const ReorderOptions& options,
    const std::function<absl::StatusOr<graphs::CommGraph>()>& root_graph) {
  const int n = Size(comm);
  const int me = Rank(comm);
  ReorderOutcome out;
  out.new_rank.resize(n);
  std::iota(out.new_rank.begin(), out.new_rank.end(), 0);
  out.status = agreed;

  // Rank 0 decides whether bindings are needed (no override) and tells
  // everyone.
  const JobTreeOptions job_options =
      me == kRoot ? JobOptions(options) : JobTreeOptions{};
  int want_binding = me == kRoot && job_options.topology.empty() ? 1 : 0;
  MPI_Bcast(&want_binding, 1, MPI_INT, kRoot, comm);

  std::vector<int32_t> os_index(n, -1);
  int rebind = 0;
  if (out.status.ok()) {
    std::vector<ProcessInfo> infos = GatherProcessInfo(comm, want_binding != 0);
    absl::Status root_status;
    double costs[2] = {0.0, 0.0};
    if (me == kRoot) {
      root_status = [&]() -> absl::Status {
        ASSIGN_OR_RETURN(graphs::CommGraph graph, root_graph());
        ASSIGN_OR_RETURN(JobTree job, BuildJobTree(infos, job_options));
        ASSIGN_OR_RETURN(Reordering r,
                         ComputeReordering(job, graph, options.mapping));
        out.new_rank = r.new_rank;
        costs[0] = r.cost_before;
        costs[1] = r.cost_after;
        if (job.real_machine && options.rebind != Rebind::kNone) {
          rebind = options.rebind == Rebind::kPu ? 1 : 2;
          for (int q = 0; q < n; ++q)
            os_index[q] = job.tree.os_index(job.slot_of_rank[q]);
        }
        return absl::OkStatus();
      }();
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
      bound = rebind == 1
                  ? topology::BindToPus(std::vector<int32_t>{os_index[me]})
                  : topology::BindToNumaOf(os_index[me]);
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

// Order-sensitive summary of a graph, equal on ranks that hold the same graph.
std::array<double, 4> Fingerprint(const graphs::CommGraph& g) {
  double mix = 0.0;
  for (graphs::VertexId v = 0; v < g.num_vertices(); ++v) {
    auto nb = g.neighbors(v);
    auto w = g.weights(v);
    for (size_t k = 0; k < nb.size(); ++k) {
      mix += (static_cast<double>(v) * 7919.0 + nb[k] * 104729.0 + 1.0) *
             (w[k] + 0.5);
    }
  }
  return {static_cast<double>(g.num_vertices()),
          static_cast<double>(g.num_arcs()), g.TotalVolume(), mix};
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
  const int n = Size(comm);
  int mine = local.ok() ? n : Rank(comm);
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
  const int n = Size(comm);
  absl::Status local;
  if (graph.num_vertices() != n) {
    local = absl::InvalidArgumentError(
        absl::StrCat("graph has ", graph.num_vertices(),
                     " vertices but the communicator has ", n, " processes"));
  }
  // Compare against rank 0's graph so that a rank holding a different graph is
  // named.
  std::array<double, 4> fp = Fingerprint(graph), root_fp = fp;
  MPI_Bcast(root_fp.data(), 4, MPI_DOUBLE, kRoot, comm);
  if (local.ok() && fp != root_fp) {
    local = absl::InvalidArgumentError(
        "graph differs from the graph given on rank 0");
  }
  return Run(comm, AgreeOnStatus(comm, local), options,
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
  const int n = Size(comm);
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
  std::vector<double> mine;
  mine.reserve(edges.size() * 3);
  for (const LocalEdge& e : edges) {
    mine.push_back(e.source);
    mine.push_back(e.destination);
    mine.push_back(e.bytes);
  }
  // Gather before Run so that Run's root-only callback needs no collective.
  absl::Status agreed = AgreeOnStatus(comm, local);
  const bool root = Rank(comm) == kRoot;
  std::vector<double> all;
  if (agreed.ok()) {
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(root ? n : 1), displs(root ? n : 1, 0);
    MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, kRoot, comm);
    int total = 0;
    if (root) {
      for (int r = 0; r < n; ++r) {
        displs[r] = total;
        total += counts[r];
      }
    }
    all.resize(std::max(total, 1));
    MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(),
                displs.data(), MPI_DOUBLE, kRoot, comm);
    all.resize(total);
  }
  return Run(comm, agreed, options, [&]() -> absl::StatusOr<graphs::CommGraph> {
    graphs::CommGraphBuilder b(n);
    b.Reserve(static_cast<int64_t>(all.size() / 3));
    for (size_t k = 0; k + 2 < all.size(); k += 3) {
      RETURN_IF_ERROR(b.AddEdge(static_cast<int64_t>(all[k]),
                                static_cast<int64_t>(all[k + 1]), all[k + 2]));
    }
    return std::move(b).Build();
  });
}

}  // namespace rankmap::mpi_bindings
