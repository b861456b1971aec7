#include "mpi_bindings/job_gather.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/catch_as_status.h"
#include "base/host_name.h"
#include "base/status_macros.h"
#include "topology/binding.h"

namespace rankmap::mpi_bindings {
namespace {

// SLURM_TOPOLOGY_ADDR is switch names and a node name; longer ones are cut.
constexpr int kTopologyAddrBytes = 512;

}  // namespace

int CommRank(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int CommSize(MPI_Comm comm) {
  int s = 0;
  MPI_Comm_size(comm, &s);
  return s;
}

absl::Status BroadcastStatus(MPI_Comm comm, int root, const absl::Status& s) {
  const std::string message(s.message());
  int header[2] = {static_cast<int>(s.code()),
                   static_cast<int>(message.size())};
  MPI_Bcast(header, 2, MPI_INT, root, comm);
  std::string text(static_cast<size_t>(header[1]), '\0');
  if (CommRank(comm) == root) text = message;
  if (header[1] > 0) MPI_Bcast(text.data(), header[1], MPI_CHAR, root, comm);
  if (header[0] == 0) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(header[0]), text);
}

std::vector<ProcessInfo> GatherProcessInfo(MPI_Comm comm, bool want_binding,
                                           int root_rank) {
  const int n = CommSize(comm);
  const bool root = CommRank(comm) == root_rank;
  char name[MPI_MAX_PROCESSOR_NAME + 1] = {};
  int len = 0;
  const char* node = std::getenv("SLURMD_NODENAME");
  if (node != nullptr && std::strlen(node) <= MPI_MAX_PROCESSOR_NAME &&
      base::CheckHostName(node).ok()) {
    std::strncpy(name, node, MPI_MAX_PROCESSOR_NAME);
  } else {
    MPI_Get_processor_name(name, &len);
  }
  std::vector<int32_t> pus;
  if (want_binding) {
    absl::StatusOr<std::vector<int32_t>> b = topology::CurrentBindingPus();
    if (b.ok()) pus = *std::move(b);  // unknown binding: any PU of the host
  }
  std::vector<char> names(
      root ? static_cast<size_t>(n) * (MPI_MAX_PROCESSOR_NAME + 1) : 1);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, names.data(),
             MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, root_rank, comm);
  int count = static_cast<int>(pus.size());
  std::vector<int> counts(root ? n : 1), displs(root ? n : 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, root_rank, comm);
  int total = 0;
  if (root) {
    for (int r = 0; r < n; ++r) {
      displs[r] = total;
      total += counts[r];
    }
  }
  std::vector<int32_t> all(std::max(total, 1));
  MPI_Gatherv(pus.data(), count, MPI_INT32_T, all.data(), counts.data(),
              displs.data(), MPI_INT32_T, root_rank, comm);
  // Inside a Slurm job: the switches above this task's node.
  char addr[kTopologyAddrBytes] = {};
  if (const char* a = std::getenv("SLURM_TOPOLOGY_ADDR"))
    std::strncpy(addr, a, sizeof addr - 1);
  std::vector<char> addrs(root ? static_cast<size_t>(n) * sizeof addr : 1);
  MPI_Gather(addr, sizeof addr, MPI_CHAR, addrs.data(), sizeof addr, MPI_CHAR,
             root_rank, comm);
  std::vector<ProcessInfo> infos;
  if (!root) return infos;
  infos.resize(n);
  for (int r = 0; r < n; ++r) {
    infos[r].topology_addr =
        std::string(&addrs[static_cast<size_t>(r) * sizeof addr]);
    infos[r].host = std::string(
        &names[static_cast<size_t>(r) * (MPI_MAX_PROCESSOR_NAME + 1)]);
    infos[r].pus.assign(all.begin() + displs[r],
                        all.begin() + displs[r] + counts[r]);
  }
  return infos;
}

JobTreeOptions WithEnvironment(JobTreeOptions j, bool read_environment) {
  if (read_environment) {
    if (j.topology.empty()) {
      if (const char* e = std::getenv("RANKMAP_TOPOLOGY")) j.topology = e;
    }
    if (j.network.empty()) {
      if (const char* e = std::getenv("RANKMAP_NETWORK")) j.network = e;
    }
  }
  if (const char* e = std::getenv("SLURM_TOPOLOGY_ADDR_PATTERN"))
    j.topology_addr_pattern = e;
  return j;
}

absl::StatusOr<JobTree> GatherJobTree(MPI_Comm comm,
                                      const JobTreeOptions& options,
                                      bool read_environment) {
  constexpr int kRoot = 0;
  const JobTreeOptions job_options = WithEnvironment(options, read_environment);
  int want_binding =
      CommRank(comm) == kRoot && job_options.topology.empty() ? 1 : 0;
  MPI_Bcast(&want_binding, 1, MPI_INT, kRoot, comm);
  std::vector<ProcessInfo> infos = GatherProcessInfo(comm, want_binding != 0);
  JobTree job;
  absl::Status root_status;
  if (CommRank(comm) == kRoot) {
    // The root must reach the broadcast below whatever happens here.
    root_status = base::CatchAsStatus("mpi_bindings", [&]() -> absl::Status {
      ASSIGN_OR_RETURN(job, BuildJobTree(infos, job_options));
      return absl::OkStatus();
    });
  }
  RETURN_IF_ERROR(BroadcastStatus(comm, kRoot, root_status));
  return job;
}

}  // namespace rankmap::mpi_bindings
