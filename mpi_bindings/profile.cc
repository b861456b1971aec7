#include "mpi_bindings/profile.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "mpi_bindings/profile_output.h"

namespace rankmap::mpi_bindings::profile {
namespace {

struct Persistent {
  MPI_Comm comm;
  int dest, count;
  MPI_Datatype type;
};

struct State {
  std::mutex mu;
  bool active = false;
  int world_size = 0;
  int world_rank = 0;
  std::vector<double> bytes, messages;  // per destination world rank
  // Data other ranks sent to this one that only this one sees (MPI_Get and the
  // results of fetching RMA calls), per source world rank; added to the
  // sources' rows at finalize.
  std::vector<double> fetched_bytes, fetched_messages;
  // window -> world rank of each rank of its group.
  std::map<MPI_Win, std::vector<int>> world_of_win;
  // comm -> world rank of each rank (of the remote group for
  // intercommunicators).
  std::map<MPI_Comm, std::vector<int>> world_of;
  std::map<MPI_Request, Persistent> persistent;
};

// Never destroyed: wrappers may run during static destruction of the program.
State& S() {
  static State* s = new State;
  return *s;
}

// Caller holds S().mu.
const std::vector<int>& WorldRanks(MPI_Comm comm) {
  State& s = S();
  auto it = s.world_of.find(comm);
  if (it != s.world_of.end()) return it->second;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  MPI_Group group, world;
  if (inter) {
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_group(comm, &group);
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> ranks(size), out(size);
  for (int i = 0; i < size; ++i) ranks[i] = i;
  PMPI_Group_translate_ranks(group, size, ranks.data(), world, out.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return s.world_of.emplace(comm, std::move(out)).first->second;
}

double TypeBytes(int count, MPI_Datatype type) {
  int size = 0;
  if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0.0;
  return static_cast<double>(count) * size;
}

// Caller holds S().mu.
void AddLocked(MPI_Comm comm, int dest, double bytes) {
  if (dest == MPI_PROC_NULL || dest < 0) return;
  const std::vector<int>& w = WorldRanks(comm);
  if (dest >= static_cast<int>(w.size()) || w[dest] == MPI_UNDEFINED) return;
  S().bytes[w[dest]] += bytes;
  S().messages[w[dest]] += 1.0;
}

bool IsInter(MPI_Comm comm) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return inter != 0;
}

// Sends of one collective call: bytes_to(j) for every rank j != me of comm that
// receives something from this rank under the model.
template <typename BytesTo>
void RecordToEach(MPI_Comm comm, BytesTo bytes_to) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.active || IsInter(comm)) return;
  int p = 0, me = 0;
  PMPI_Comm_size(comm, &p);
  PMPI_Comm_rank(comm, &me);
  for (int j = 0; j < p; ++j) {
    if (j == me) continue;
    const double b = bytes_to(j, me, p);
    if (b >= 0) AddLocked(comm, j, b);
  }
}

void Dump() {
  State& s = S();
  std::vector<double> bytes, messages;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    s.active = false;
  }
  const int n = s.world_size;
  const bool root = s.world_rank == 0;
  if (root) {
    bytes.resize(static_cast<size_t>(n) * n);
    messages.resize(bytes.size());
  }
  PMPI_Gather(s.bytes.data(), n, MPI_DOUBLE, bytes.data(), n, MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  PMPI_Gather(s.messages.data(), n, MPI_DOUBLE, messages.data(), n, MPI_DOUBLE,
              0, MPI_COMM_WORLD);
  // Fetched data: row i of the gathered matrix holds what i received from each
  // j; it is traffic j -> i.
  std::vector<double> fetched_bytes(bytes.size()),
      fetched_messages(bytes.size());
  PMPI_Gather(s.fetched_bytes.data(), n, MPI_DOUBLE, fetched_bytes.data(), n,
              MPI_DOUBLE, 0, MPI_COMM_WORLD);
  PMPI_Gather(s.fetched_messages.data(), n, MPI_DOUBLE, fetched_messages.data(),
              n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (!root) return;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      bytes[static_cast<size_t>(j) * n + i] +=
          fetched_bytes[static_cast<size_t>(i) * n + j];
      messages[static_cast<size_t>(j) * n + i] +=
          fetched_messages[static_cast<size_t>(i) * n + j];
    }
  }
  const char* env = std::getenv("RANKMAP_PROFILE_OUT");
  const std::string prefix = env != nullptr && *env ? env : "rankmap_profile";
  absl::Status st = WriteProfile(prefix, n, bytes, messages);
  if (st.ok()) {
    std::fprintf(stderr,
                 "rankmap: traffic of %d processes written to %s.{mat,grf}\n",
                 n, prefix.c_str());
  } else {
    std::fprintf(stderr, "rankmap: profile not written: %s\n",
                 std::string(st.message()).c_str());
  }
}

void Start() {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  PMPI_Comm_size(MPI_COMM_WORLD, &s.world_size);
  PMPI_Comm_rank(MPI_COMM_WORLD, &s.world_rank);
  s.bytes.assign(s.world_size, 0.0);
  s.messages.assign(s.world_size, 0.0);
  s.fetched_bytes.assign(s.world_size, 0.0);
  s.fetched_messages.assign(s.world_size, 0.0);
  s.active = true;
}

}  // namespace

void RecordSend(MPI_Comm comm, int dest, int count, MPI_Datatype type) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.active) return;
  AddLocked(comm, dest, TypeBytes(count, type));
}

void RecordCollective(Collective kind, MPI_Comm comm, int root, int count,
                      MPI_Datatype type) {
  const double b = TypeBytes(count, type);
  RecordToEach(comm, [&](int j, int me, int p) -> double {
    switch (kind) {
      case Collective::kBcast:
      case Collective::kScatter:
        return me == root ? b : -1;
      case Collective::kReduce:
      case Collective::kGather:
        return j == root ? b : -1;
      case Collective::kAllreduce:
        return me == 0 || j == 0 ? b : -1;
      case Collective::kAllgather:
      case Collective::kAlltoall:
      case Collective::kReduceScatterBlock:
        return b;
      case Collective::kScan:
        return j == me + 1 ? b : -1;
    }
    (void)p;
    return -1;
  });
}

// Bookkeeping for persistent requests and communicators, used by the C and
// Fortran wrappers (profile_fortran.cc).
void RememberPersistent(MPI_Request req, MPI_Comm comm, int dest, int count,
                        MPI_Datatype type) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.persistent[req] = {comm, dest, count, type};
}

void StartPersistent(MPI_Request req) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.persistent.find(req);
  if (!s.active || it == s.persistent.end()) return;
  AddLocked(it->second.comm, it->second.dest,
            TypeBytes(it->second.count, it->second.type));
}

void ForgetRequest(MPI_Request req) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.persistent.erase(req);
}

void ForgetComm(MPI_Comm comm) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.world_of.erase(comm);
}

void OnInit() { Start(); }
void OnFinalize() { Dump(); }

// Per-peer counts (v-forms): bytes to j are counts[j] x type.
void RecordVector(MPI_Comm comm, const int* counts, MPI_Datatype type) {
  int type_size = 0;
  PMPI_Type_size(type, &type_size);
  RecordToEach(comm, [&](int j, int, int) -> double {
    return static_cast<double>(counts[j]) * type_size;
  });
}

// Per-peer counts and types (w-forms): bytes to j are counts[j] x types[j].
void RecordVectorW(MPI_Comm comm, const int* counts,
                   const MPI_Datatype* types) {
  RecordToEach(comm, [&](int j, int, int) -> double {
    return TypeBytes(counts[j], types[j]);
  });
}

// Uniform-block collectives whose send side may be MPI_IN_PLACE (the receive
// block is then what this rank contributes).
void RecordInPlaceable(Collective kind, MPI_Comm comm, const void* sendbuf,
                       int sendcount, MPI_Datatype sendtype, int recvcount,
                       MPI_Datatype recvtype) {
  if (sendbuf == MPI_IN_PLACE) {
    RecordCollective(kind, comm, 0, recvcount, recvtype);
  } else {
    RecordCollective(kind, comm, 0, sendcount, sendtype);
  }
}

void RecordAllgatherv(MPI_Comm comm, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, const int* recvcounts,
                      MPI_Datatype recvtype) {
  int me = 0;
  if (sendbuf == MPI_IN_PLACE) PMPI_Comm_rank(comm, &me);
  RecordInPlaceable(Collective::kAllgather, comm, sendbuf, sendcount, sendtype,
                    sendbuf == MPI_IN_PLACE ? recvcounts[me] : 0, recvtype);
}

void RecordAlltoallv(MPI_Comm comm, const void* sendbuf, const int* sendcounts,
                     MPI_Datatype sendtype, const int* recvcounts,
                     MPI_Datatype recvtype) {
  if (sendbuf == MPI_IN_PLACE) {
    RecordVector(comm, recvcounts, recvtype);
  } else {
    RecordVector(comm, sendcounts, sendtype);
  }
}

void RecordAlltoallw(MPI_Comm comm, const void* sendbuf, const int* sendcounts,
                     const MPI_Datatype* sendtypes, const int* recvcounts,
                     const MPI_Datatype* recvtypes) {
  if (sendbuf == MPI_IN_PLACE) {
    RecordVectorW(comm, recvcounts, recvtypes);
  } else {
    RecordVectorW(comm, sendcounts, sendtypes);
  }
}

void RecordScatterv(MPI_Comm comm, int root, const int* sendcounts,
                    MPI_Datatype sendtype) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  if (me == root) RecordVector(comm, sendcounts, sendtype);
}

void RecordGatherv(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  RecordCollective(Collective::kGather, comm, root, count, type);
}

// Destinations of a neighbourhood collective on comm, in the order of the send
// blocks (MPI-3 section 7.6): a distributed graph's out-neighbours; for a
// Cartesian topology, per dimension the source then the destination of a
// shift by +1 (MPI_PROC_NULL at non-periodic borders, not counted); a graph
// topology's neighbours. Empty for communicators without a topology.
std::vector<int> NeighbourhoodDestinations(MPI_Comm comm) {
  std::vector<int> dests;
  int kind = MPI_UNDEFINED;
  if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS) return dests;
  if (kind == MPI_DIST_GRAPH) {
    int indeg = 0, outdeg = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted);
    std::vector<int> src(std::max(indeg, 1)), srcw(src.size());
    std::vector<int> dst(std::max(outdeg, 1)), dstw(dst.size());
    PMPI_Dist_graph_neighbors(comm, indeg, src.data(), srcw.data(), outdeg,
                              dst.data(), dstw.data());
    dests.assign(dst.begin(), dst.begin() + outdeg);
  } else if (kind == MPI_CART) {
    int ndims = 0;
    PMPI_Cartdim_get(comm, &ndims);
    for (int d = 0; d < ndims; ++d) {
      int source = MPI_PROC_NULL, dest = MPI_PROC_NULL;
      PMPI_Cart_shift(comm, d, 1, &source, &dest);
      dests.push_back(source);
      dests.push_back(dest);
    }
  } else if (kind == MPI_GRAPH) {
    int me = 0, count = 0;
    PMPI_Comm_rank(comm, &me);
    PMPI_Graph_neighbors_count(comm, me, &count);
    dests.resize(count);
    if (count > 0) PMPI_Graph_neighbors(comm, me, count, dests.data());
  }
  return dests;
}

void RecordNeighbourhood(MPI_Comm comm, const int* counts, int count,
                         const MPI_Datatype* types, MPI_Datatype type) {
  const std::vector<int> dests = NeighbourhoodDestinations(comm);
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.active) return;
  for (size_t j = 0; j < dests.size(); ++j) {
    AddLocked(comm, dests[j],
              TypeBytes(counts != nullptr ? counts[j] : count,
                        types != nullptr ? types[j] : type));
  }
}

// One-sided traffic with rank `target` of window `win`'s group: `put` bytes
// from this rank to the target, `got` bytes back (one message each way when
// positive).
void RecordRma(MPI_Win win, int target, double put, double got) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.active || target == MPI_PROC_NULL || target < 0) return;
  auto it = s.world_of_win.find(win);
  if (it == s.world_of_win.end()) {
    MPI_Group group, world;
    PMPI_Win_get_group(win, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int size = 0;
    PMPI_Group_size(group, &size);
    std::vector<int> ranks(size), out(size);
    for (int i = 0; i < size; ++i) ranks[i] = i;
    PMPI_Group_translate_ranks(group, size, ranks.data(), world, out.data());
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    it = s.world_of_win.emplace(win, std::move(out)).first;
  }
  if (target >= static_cast<int>(it->second.size())) return;
  const int w = it->second[target];
  if (w == MPI_UNDEFINED || w < 0 || w >= s.world_size) return;
  if (put > 0) {
    s.bytes[w] += put;
    s.messages[w] += 1.0;
  }
  if (got > 0) {
    s.fetched_bytes[w] += got;
    s.fetched_messages[w] += 1.0;
  }
}

void ForgetWin(MPI_Win win) {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mu);
  s.world_of_win.erase(win);
}

double Bytes(int count, MPI_Datatype type) { return TypeBytes(count, type); }

}  // namespace rankmap::mpi_bindings::profile

// ----------------------------------------------------------------------------------------
// C entry points. Each forwards to PMPI_* and records what this rank sends.
namespace p = rankmap::mpi_bindings::profile;
using p::Collective;

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) p::OnInit();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) p::OnInit();
  return rc;
}

int MPI_Finalize(void) {
  p::OnFinalize();
  return PMPI_Finalize();
}

int MPI_Comm_free(MPI_Comm* comm) {
  p::ForgetComm(*comm);
  return PMPI_Comm_free(comm);
}

#define RANKMAP_P2P(NAME)                                                 \
  int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, \
                 int tag, MPI_Comm comm) {                                \
    p::RecordSend(comm, dest, count, type);                               \
    return PMPI_##NAME(buf, count, type, dest, tag, comm);                \
  }
RANKMAP_P2P(Send)
RANKMAP_P2P(Bsend)
RANKMAP_P2P(Ssend)
RANKMAP_P2P(Rsend)
#undef RANKMAP_P2P

#define RANKMAP_IP2P(NAME)                                                \
  int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, \
                 int tag, MPI_Comm comm, MPI_Request* req) {              \
    p::RecordSend(comm, dest, count, type);                               \
    return PMPI_##NAME(buf, count, type, dest, tag, comm, req);           \
  }
RANKMAP_IP2P(Isend)
RANKMAP_IP2P(Ibsend)
RANKMAP_IP2P(Issend)
RANKMAP_IP2P(Irsend)
#undef RANKMAP_IP2P

#define RANKMAP_PERSISTENT(NAME)                                          \
  int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, \
                 int tag, MPI_Comm comm, MPI_Request* req) {              \
    const int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req);   \
    if (rc == MPI_SUCCESS)                                                \
      p::RememberPersistent(*req, comm, dest, count, type);               \
    return rc;                                                            \
  }
RANKMAP_PERSISTENT(Send_init)
RANKMAP_PERSISTENT(Bsend_init)
RANKMAP_PERSISTENT(Ssend_init)
RANKMAP_PERSISTENT(Rsend_init)
#undef RANKMAP_PERSISTENT

int MPI_Start(MPI_Request* req) {
  p::StartPersistent(*req);
  return PMPI_Start(req);
}

int MPI_Startall(int count, MPI_Request reqs[]) {
  for (int i = 0; i < count; ++i) p::StartPersistent(reqs[i]);
  return PMPI_Startall(count, reqs);
}

int MPI_Request_free(MPI_Request* req) {
  p::ForgetRequest(*req);
  return PMPI_Request_free(req);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                 int dest, int sendtag, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                 MPI_Status* status) {
  p::RecordSend(comm, dest, sendcount, sendtype);
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                       recvcount, recvtype, source, recvtag, comm, status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest,
                         int sendtag, int source, int recvtag, MPI_Comm comm,
                         MPI_Status* status) {
  p::RecordSend(comm, dest, count, type);
  return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag,
                               comm, status);
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm) {
  p::RecordCollective(Collective::kBcast, comm, root, count, type);
  return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* req) {
  p::RecordCollective(Collective::kBcast, comm, root, count, type);
  return PMPI_Ibcast(buf, count, type, root, comm, req);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm) {
  p::RecordCollective(Collective::kReduce, comm, root, count, type);
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count,
                MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* req) {
  p::RecordCollective(Collective::kReduce, comm, root, count, type);
  return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, req);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count,
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  p::RecordCollective(Collective::kAllreduce, comm, 0, count, type);
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count,
                   MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* req) {
  p::RecordCollective(Collective::kAllreduce, comm, 0, count, type);
  return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, req);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm) {
  p::RecordInPlaceable(Collective::kAllgather, comm, sendbuf, sendcount,
                       sendtype, recvcount, recvtype);
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm);
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request* req) {
  p::RecordInPlaceable(Collective::kAllgather, comm, sendbuf, sendcount,
                       sendtype, recvcount, recvtype);
  return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         recvtype, comm, req);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int displs[],
                   MPI_Datatype recvtype, MPI_Comm comm) {
  p::RecordAllgatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype);
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                         displs, recvtype, comm);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 MPI_Comm comm) {
  p::RecordInPlaceable(Collective::kAlltoall, comm, sendbuf, sendcount,
                       sendtype, recvcount, recvtype);
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, comm);
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm, MPI_Request* req) {
  p::RecordInPlaceable(Collective::kAlltoall, comm, sendbuf, sendcount,
                       sendtype, recvcount, recvtype);
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm, req);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[],
                  const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                  const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  p::RecordAlltoallv(comm, sendbuf, sendcounts, sendtype, recvcounts, recvtype);
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                        recvcounts, rdispls, recvtype, comm);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm) {
  p::RecordCollective(Collective::kGather, comm, root, sendcount, sendtype);
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     root, comm);
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                void* recvbuf, const int recvcounts[], const int displs[],
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  p::RecordGatherv(comm, root, sendcount, sendtype);
  return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                      recvtype, root, comm);
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  p::RecordCollective(Collective::kScatter, comm, root, sendcount, sendtype);
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, root, comm);
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[],
                 const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
  p::RecordScatterv(comm, root, sendcounts, sendtype);
  return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                       recvcount, recvtype, root, comm);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  p::RecordCollective(Collective::kReduceScatterBlock, comm, 0, recvcount,
                      type);
  return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf,
                       const int recvcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  p::RecordVector(comm, recvcounts, type);
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
             MPI_Op op, MPI_Comm comm) {
  p::RecordCollective(Collective::kScan, comm, 0, count, type);
  return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm) {
  p::RecordCollective(Collective::kScan, comm, 0, count, type);
  return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
}

// Neighbourhood collectives: block j goes to the j-th destination of the
// communicator's topology (NeighbourhoodDestinations); allgather(v) sends the
// same block to every destination.
int MPI_Neighbor_allgather(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  p::RecordNeighbourhood(comm, nullptr, sendcount, nullptr, sendtype);
  return PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, comm);
}

int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* req) {
  p::RecordNeighbourhood(comm, nullptr, sendcount, nullptr, sendtype);
  return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm, req);
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  p::RecordNeighbourhood(comm, nullptr, sendcount, nullptr, sendtype);
  return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts, displs, recvtype, comm);
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* req) {
  p::RecordNeighbourhood(comm, nullptr, sendcount, nullptr, sendtype);
  return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                                   recvcounts, displs, recvtype, comm, req);
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount,
                          MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  p::RecordNeighbourhood(comm, nullptr, sendcount, nullptr, sendtype);
  return PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, recvtype, comm);
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request* req) {
  p::RecordNeighbourhood(comm, nullptr, sendcount, nullptr, sendtype);
  return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, comm, req);
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[],
                           const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  p::RecordNeighbourhood(comm, sendcounts, 0, nullptr, sendtype);
  return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype,
                                 recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* req) {
  p::RecordNeighbourhood(comm, sendcounts, 0, nullptr, sendtype);
  return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype,
                                  recvbuf, recvcounts, rdispls, recvtype, comm,
                                  req);
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[],
                           const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf,
                           const int recvcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm) {
  p::RecordNeighbourhood(comm, sendcounts, 0, sendtypes, MPI_DATATYPE_NULL);
  return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes,
                                 recvbuf, recvcounts, rdispls, recvtypes, comm);
}

int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* req) {
  p::RecordNeighbourhood(comm, sendcounts, 0, sendtypes, MPI_DATATYPE_NULL);
  return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes,
                                  recvbuf, recvcounts, rdispls, recvtypes, comm,
                                  req);
}

// One-sided communication: puts and accumulates are traffic origin -> target,
// gets (and the results of fetching calls) target -> origin.
int MPI_Win_free(MPI_Win* win) {
  p::ForgetWin(*win);
  return PMPI_Win_free(win);
}

int MPI_Put(const void* origin, int count, MPI_Datatype type, int target,
            MPI_Aint disp, int target_count, MPI_Datatype target_type,
            MPI_Win win) {
  p::RecordRma(win, target, p::Bytes(count, type), 0);
  return PMPI_Put(origin, count, type, target, disp, target_count, target_type,
                  win);
}

int MPI_Rput(const void* origin, int count, MPI_Datatype type, int target,
             MPI_Aint disp, int target_count, MPI_Datatype target_type,
             MPI_Win win, MPI_Request* req) {
  p::RecordRma(win, target, p::Bytes(count, type), 0);
  return PMPI_Rput(origin, count, type, target, disp, target_count, target_type,
                   win, req);
}

int MPI_Get(void* origin, int count, MPI_Datatype type, int target,
            MPI_Aint disp, int target_count, MPI_Datatype target_type,
            MPI_Win win) {
  p::RecordRma(win, target, 0, p::Bytes(count, type));
  return PMPI_Get(origin, count, type, target, disp, target_count, target_type,
                  win);
}

int MPI_Rget(void* origin, int count, MPI_Datatype type, int target,
             MPI_Aint disp, int target_count, MPI_Datatype target_type,
             MPI_Win win, MPI_Request* req) {
  p::RecordRma(win, target, 0, p::Bytes(count, type));
  return PMPI_Rget(origin, count, type, target, disp, target_count, target_type,
                   win, req);
}

int MPI_Accumulate(const void* origin, int count, MPI_Datatype type, int target,
                   MPI_Aint disp, int target_count, MPI_Datatype target_type,
                   MPI_Op op, MPI_Win win) {
  p::RecordRma(win, target, p::Bytes(count, type), 0);
  return PMPI_Accumulate(origin, count, type, target, disp, target_count,
                         target_type, op, win);
}

int MPI_Raccumulate(const void* origin, int count, MPI_Datatype type,
                    int target, MPI_Aint disp, int target_count,
                    MPI_Datatype target_type, MPI_Op op, MPI_Win win,
                    MPI_Request* req) {
  p::RecordRma(win, target, p::Bytes(count, type), 0);
  return PMPI_Raccumulate(origin, count, type, target, disp, target_count,
                          target_type, op, win, req);
}

int MPI_Get_accumulate(const void* origin, int count, MPI_Datatype type,
                       void* result, int result_count, MPI_Datatype result_type,
                       int target, MPI_Aint disp, int target_count,
                       MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
  p::RecordRma(win, target, op == MPI_NO_OP ? 0 : p::Bytes(count, type),
               p::Bytes(result_count, result_type));
  return PMPI_Get_accumulate(origin, count, type, result, result_count,
                             result_type, target, disp, target_count,
                             target_type, op, win);
}

int MPI_Rget_accumulate(const void* origin, int count, MPI_Datatype type,
                        void* result, int result_count,
                        MPI_Datatype result_type, int target, MPI_Aint disp,
                        int target_count, MPI_Datatype target_type, MPI_Op op,
                        MPI_Win win, MPI_Request* req) {
  p::RecordRma(win, target, op == MPI_NO_OP ? 0 : p::Bytes(count, type),
               p::Bytes(result_count, result_type));
  return PMPI_Rget_accumulate(origin, count, type, result, result_count,
                              result_type, target, disp, target_count,
                              target_type, op, win, req);
}

int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type,
                     int target, MPI_Aint disp, MPI_Op op, MPI_Win win) {
  // MPI_NO_OP sends no operand.
  p::RecordRma(win, target, op == MPI_NO_OP ? 0 : p::Bytes(1, type),
               p::Bytes(1, type));
  return PMPI_Fetch_and_op(origin, result, type, target, disp, op, win);
}

int MPI_Compare_and_swap(const void* origin, const void* compare, void* result,
                         MPI_Datatype type, int target, MPI_Aint disp,
                         MPI_Win win) {
  p::RecordRma(win, target, p::Bytes(2, type), p::Bytes(1, type));
  return PMPI_Compare_and_swap(origin, compare, result, type, target, disp,
                               win);
}

// The remaining non-blocking collectives, and Alltoallw, counted like their
// blocking forms above.
int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  p::RecordAllgatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype);
  return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                          displs, recvtype, comm, req);
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  p::RecordAlltoallv(comm, sendbuf, sendcounts, sendtype, recvcounts, recvtype);
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, req);
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[],
                  const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[],
                  const MPI_Datatype recvtypes[], MPI_Comm comm) {
  p::RecordAlltoallw(comm, sendbuf, sendcounts, sendtypes, recvcounts,
                     recvtypes);
  return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                        recvcounts, rdispls, recvtypes, comm);
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request* req) {
  p::RecordAlltoallw(comm, sendbuf, sendcounts, sendtypes, recvcounts,
                     recvtypes);
  return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                         recvcounts, rdispls, recvtypes, comm, req);
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm, MPI_Request* req) {
  p::RecordCollective(Collective::kGather, comm, root, sendcount, sendtype);
  return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, root, comm, req);
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                 void* recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* req) {
  p::RecordGatherv(comm, root, sendcount, sendtype);
  return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                       displs, recvtype, root, comm, req);
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request* req) {
  p::RecordCollective(Collective::kScatter, comm, root, sendcount, sendtype);
  return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, root, comm, req);
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[],
                  const int displs[], MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request* req) {
  p::RecordScatterv(comm, root, sendcounts, sendtype);
  return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, req);
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* req) {
  p::RecordCollective(Collective::kReduceScatterBlock, comm, 0, recvcount,
                      type);
  return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm,
                                    req);
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf,
                        const int recvcounts[], MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm, MPI_Request* req) {
  p::RecordVector(comm, recvcounts, type);
  return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm,
                              req);
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
              MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  p::RecordCollective(Collective::kScan, comm, 0, count, type);
  return PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, req);
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count,
                MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  p::RecordCollective(Collective::kScan, comm, 0, count, type);
  return PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, req);
}

}  // extern "C"
