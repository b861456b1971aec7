// C entry points of the profiler (see profile.h): each records what the
// calling process sends (profile.cc), forwards to PMPI_* and then tells the
// profiling window which call ended (an iteration mark, profile_window.h). A
// blocking call and its non-blocking form take the same arguments plus a
// trailing request, so both go through one helper below that reads the
// arguments and calls the PMPI routine it is given, with the call's name; the
// request, when there is one, rides in `req`.
#include <mpi.h>

#include <type_traits>

#include "mpi_bindings/profile.h"

namespace {

namespace p = rankmap::mpi_bindings::profile;
using p::Collective;

// Calls the PMPI routine, then notes that call `name` returned.
template <typename Pmpi, typename... Args>
int Forward(const char* name, Pmpi pmpi, Args... args) {
  const int rc = pmpi(args...);
  p::AfterCall(name);
  return rc;
}

// Whether a call is the non-blocking form (it carries a request).
template <typename... Request>
constexpr bool kNonBlocking = sizeof...(Request) > 0;

p::CollectiveArgs Args(Collective kind, MPI_Comm comm, int root, int count,
                       MPI_Datatype type, MPI_Op op, bool in_place,
                       bool nonblocking) {
  p::CollectiveArgs a;
  a.kind = kind;
  a.comm = comm;
  a.root = root;
  a.count = count;
  a.type = type;
  a.op = op;
  a.in_place = in_place;
  a.nonblocking = nonblocking;
  return a;
}

// ---- Point to point.

// Send, Bsend, Ssend, Rsend and their non-blocking forms.
template <typename Pmpi, typename... Request>
int Send(const char* name, Pmpi pmpi, const void* buf, int count,
         MPI_Datatype type, int dest, int tag, MPI_Comm comm, Request... req) {
  p::RecordSend(comm, dest, count, type);
  return Forward(name, pmpi, buf, count, type, dest, tag, comm, req...);
}

// Persistent sends count when MPI_Start(all) starts them, not when created.
template <typename Pmpi>
int SendInit(Pmpi pmpi, const void* buf, int count, MPI_Datatype type, int dest,
             int tag, MPI_Comm comm, MPI_Request* req) {
  const int rc = pmpi(buf, count, type, dest, tag, comm, req);
  if (rc == MPI_SUCCESS) p::RememberPersistent(*req, comm, dest, count, type);
  return rc;
}

// ---- Rooted collectives.

template <typename Pmpi, typename... Request>
int Bcast(const char* name, Pmpi pmpi, void* buf, int count, MPI_Datatype type,
          int root, MPI_Comm comm, Request... req) {
  p::RecordCollective(Args(Collective::kBcast, comm, root, count, type,
                           MPI_OP_NULL, false, kNonBlocking<Request...>));
  return Forward(name, pmpi, buf, count, type, root, comm, req...);
}

template <typename Pmpi, typename... Request>
int Reduce(const char* name, Pmpi pmpi, const void* sendbuf, void* recvbuf,
           int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
           Request... req) {
  p::RecordCollective(Args(Collective::kReduce, comm, root, count, type, op,
                           sendbuf == MPI_IN_PLACE, kNonBlocking<Request...>));
  return Forward(name, pmpi, sendbuf, recvbuf, count, type, op, root, comm,
                 req...);
}

// Gather and Scatter (kKind): the per-rank block, read from the side whose
// buffer is not MPI_IN_PLACE (Gather's root and Scatter's non-roots receive).
template <Collective kKind, typename Pmpi, typename... Request>
int GatherOrScatter(const char* name, Pmpi pmpi, const void* sendbuf,
                    int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, Request... req) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  const bool receives = kKind == Collective::kGather ? me == root : me != root;
  const bool in_place = sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE;
  p::RecordCollective(Args(kKind, comm, root, receives ? recvcount : sendcount,
                           receives ? recvtype : sendtype, MPI_OP_NULL,
                           in_place, kNonBlocking<Request...>));
  return Forward(name, pmpi, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                 recvtype, root, comm, req...);
}

// ---- All-to-all style.

// Allreduce, Reduce_scatter_block, Scan and Exscan (kKind).
template <Collective kKind, typename Pmpi, typename... Request>
int Reduction(const char* name, Pmpi pmpi, const void* sendbuf, void* recvbuf,
              int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
              Request... req) {
  p::RecordCollective(Args(kKind, comm, 0, count, type, op,
                           sendbuf == MPI_IN_PLACE, kNonBlocking<Request...>));
  return Forward(name, pmpi, sendbuf, recvbuf, count, type, op, comm, req...);
}

// Allgather and Alltoall (kKind): with MPI_IN_PLACE the receive block is what
// a rank contributes.
template <Collective kKind, typename Pmpi, typename... Request>
int AllgatherOrAlltoall(const char* name, Pmpi pmpi, const void* sendbuf,
                        int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        Request... req) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  p::RecordCollective(Args(kKind, comm, 0, in_place ? recvcount : sendcount,
                           in_place ? recvtype : sendtype, MPI_OP_NULL,
                           in_place, kNonBlocking<Request...>));
  return Forward(name, pmpi, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                 recvtype, comm, req...);
}

template <typename Pmpi, typename... Request>
int Barrier(const char* name, Pmpi pmpi, MPI_Comm comm, Request... req) {
  p::RecordCollective(Args(Collective::kBarrier, comm, 0, 0, MPI_DATATYPE_NULL,
                           MPI_OP_NULL, false, kNonBlocking<Request...>));
  return Forward(name, pmpi, comm, req...);
}

// ---- v and w variants.

template <typename Pmpi, typename... Request>
int Gatherv(const char* name, Pmpi pmpi, const void* sendbuf, int sendcount,
            MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
            const int* displs, MPI_Datatype recvtype, int root, MPI_Comm comm,
            Request... req) {
  p::RecordGatherv(comm, root, sendcount, sendtype, kNonBlocking<Request...>);
  return Forward(name, pmpi, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                 displs, recvtype, root, comm, req...);
}

template <typename Pmpi, typename... Request>
int Scatterv(const char* name, Pmpi pmpi, const void* sendbuf,
             const int* sendcounts, const int* displs, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
             MPI_Comm comm, Request... req) {
  p::RecordScatterv(comm, root, sendcounts, sendtype, kNonBlocking<Request...>);
  return Forward(name, pmpi, sendbuf, sendcounts, displs, sendtype, recvbuf,
                 recvcount, recvtype, root, comm, req...);
}

template <typename Pmpi, typename... Request>
int Allgatherv(const char* name, Pmpi pmpi, const void* sendbuf, int sendcount,
               MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
               const int* displs, MPI_Datatype recvtype, MPI_Comm comm,
               Request... req) {
  p::RecordAllgatherv(comm, sendbuf, sendcount, sendtype, recvcounts, recvtype,
                      kNonBlocking<Request...>);
  return Forward(name, pmpi, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                 displs, recvtype, comm, req...);
}

// Alltoallv (Types is MPI_Datatype) and Alltoallw (an array of them).
template <typename Pmpi, typename Types, typename... Request>
int Alltoallvw(const char* name, Pmpi pmpi, const void* sendbuf,
               const int* sendcounts, const int* sdispls, Types sendtypes,
               void* recvbuf, const int* recvcounts, const int* rdispls,
               Types recvtypes, MPI_Comm comm, Request... req) {
  if constexpr (std::is_same_v<Types, MPI_Datatype>) {
    p::RecordAlltoallv(comm, sendbuf, sendcounts, sendtypes, recvcounts,
                       recvtypes, kNonBlocking<Request...>);
  } else {
    p::RecordAlltoallw(comm, sendbuf, sendcounts, sendtypes, recvcounts,
                       recvtypes, kNonBlocking<Request...>);
  }
  return Forward(name, pmpi, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                 recvcounts, rdispls, recvtypes, comm, req...);
}

template <typename Pmpi, typename... Request>
int ReduceScatter(const char* name, Pmpi pmpi, const void* sendbuf,
                  void* recvbuf, const int* recvcounts, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm, Request... req) {
  p::RecordReduceScatter(comm, recvcounts, type, op, kNonBlocking<Request...>);
  return Forward(name, pmpi, sendbuf, recvbuf, recvcounts, type, op, comm,
                 req...);
}

// ---- Neighbourhood collectives: block j to the j-th destination of the
// topology; allgather(v) and alltoall send the same block to each.

// Neighbor_allgather and Neighbor_alltoall.
template <typename Pmpi, typename... Request>
int NeighbourBlock(const char* name, Pmpi pmpi, const void* sendbuf,
                   int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                   Request... req) {
  p::RecordNeighbours(comm, sendcount, sendtype);
  return Forward(name, pmpi, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                 recvtype, comm, req...);
}

template <typename Pmpi, typename... Request>
int NeighbourAllgatherv(const char* name, Pmpi pmpi, const void* sendbuf,
                        int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int* recvcounts, const int* displs,
                        MPI_Datatype recvtype, MPI_Comm comm, Request... req) {
  p::RecordNeighbours(comm, sendcount, sendtype);
  return Forward(name, pmpi, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                 displs, recvtype, comm, req...);
}

// Neighbor_alltoallv (int displacements, one MPI_Datatype) and
// Neighbor_alltoallw (MPI_Aint displacements, an array of types).
template <typename Pmpi, typename Displs, typename Types, typename... Request>
int NeighbourAlltoallvw(const char* name, Pmpi pmpi, const void* sendbuf,
                        const int* sendcounts, Displs sdispls, Types sendtypes,
                        void* recvbuf, const int* recvcounts, Displs rdispls,
                        Types recvtypes, MPI_Comm comm, Request... req) {
  if constexpr (std::is_same_v<Types, MPI_Datatype>) {
    p::RecordNeighboursV(comm, sendcounts, sendtypes);
  } else {
    p::RecordNeighboursW(comm, sendcounts, sendtypes);
  }
  return Forward(name, pmpi, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                 recvcounts, rdispls, recvtypes, comm, req...);
}

// ---- One-sided: puts and accumulates are traffic origin -> target, gets (and
// the results of fetching calls) target -> origin.

// Put and Get (`record` is p::RecordPut or p::RecordGet).
template <typename Pmpi, typename Origin, typename... Request>
int PutOrGet(const char* name, void (*record)(MPI_Win, int, int, MPI_Datatype),
             Pmpi pmpi, Origin origin, int count, MPI_Datatype type, int target,
             MPI_Aint disp, int target_count, MPI_Datatype target_type,
             MPI_Win win, Request... req) {
  record(win, target, count, type);
  return Forward(name, pmpi, origin, count, type, target, disp, target_count,
                 target_type, win, req...);
}

template <typename Pmpi, typename... Request>
int Accumulate(const char* name, Pmpi pmpi, const void* origin, int count,
               MPI_Datatype type, int target, MPI_Aint disp, int target_count,
               MPI_Datatype target_type, MPI_Op op, MPI_Win win,
               Request... req) {
  p::RecordPut(win, target, count, type);
  return Forward(name, pmpi, origin, count, type, target, disp, target_count,
                 target_type, op, win, req...);
}

template <typename Pmpi, typename... Request>
int GetAccumulate(const char* name, Pmpi pmpi, const void* origin, int count,
                  MPI_Datatype type, void* result, int result_count,
                  MPI_Datatype result_type, int target, MPI_Aint disp,
                  int target_count, MPI_Datatype target_type, MPI_Op op,
                  MPI_Win win, Request... req) {
  p::RecordGetAccumulate(win, target, op, count, type, result_count,
                         result_type);
  return Forward(name, pmpi, origin, count, type, result, result_count,
                 result_type, target, disp, target_count, target_type, op, win,
                 req...);
}

}  // namespace

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

int MPI_Abort(MPI_Comm comm, int error_code) {
  p::OnAbort(error_code);
  return PMPI_Abort(comm, error_code);
}

int MPI_Comm_free(MPI_Comm* comm) {
  p::ForgetComm(*comm);
  return PMPI_Comm_free(comm);
}

int MPI_Win_free(MPI_Win* win) {
  p::ForgetWin(*win);
  return PMPI_Win_free(win);
}

// The standard's hook for profiling libraries: level 0 pauses counting, 1 (or
// more) resumes it or, with RANKMAP_PROFILE_MARK=pcontrol, opens an iteration.
int MPI_Pcontrol(const int level, ...) {
  p::OnPcontrol(level);
  return PMPI_Pcontrol(level);
}

// Calls that send nothing themselves but may end an iteration.
int MPI_Wait(MPI_Request* req, MPI_Status* status) {
  return Forward("MPI_Wait", PMPI_Wait, req, status);
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]) {
  return Forward("MPI_Waitall", PMPI_Waitall, count, reqs, statuses);
}

int MPI_Win_fence(int assert_flags, MPI_Win win) {
  return Forward("MPI_Win_fence", PMPI_Win_fence, assert_flags, win);
}

// Calls that share an argument list are defined by one macro per list: it
// defines MPI_<NAME> and its non-blocking form MPI_<INAME> (the same
// arguments and a request), both forwarding to HELPER with their PMPI routine.

// ---- Point to point.

#define RANKMAP_SEND(NAME, INAME)                                              \
  int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest,      \
                 int tag, MPI_Comm comm) {                                     \
    return Send("MPI_" #NAME, PMPI_##NAME, buf, count, type, dest, tag, comm); \
  }                                                                            \
  int MPI_##INAME(const void* buf, int count, MPI_Datatype type, int dest,     \
                  int tag, MPI_Comm comm, MPI_Request* req) {                  \
    return Send("MPI_" #INAME, PMPI_##INAME, buf, count, type, dest, tag,      \
                comm, req);                                                    \
  }
RANKMAP_SEND(Send, Isend)
RANKMAP_SEND(Bsend, Ibsend)
RANKMAP_SEND(Ssend, Issend)
RANKMAP_SEND(Rsend, Irsend)
#undef RANKMAP_SEND

#define RANKMAP_SEND_INIT(NAME)                                           \
  int MPI_##NAME(const void* buf, int count, MPI_Datatype type, int dest, \
                 int tag, MPI_Comm comm, MPI_Request* req) {              \
    return SendInit(PMPI_##NAME, buf, count, type, dest, tag, comm, req); \
  }
RANKMAP_SEND_INIT(Send_init)
RANKMAP_SEND_INIT(Bsend_init)
RANKMAP_SEND_INIT(Ssend_init)
RANKMAP_SEND_INIT(Rsend_init)
#undef RANKMAP_SEND_INIT

int MPI_Start(MPI_Request* req) {
  p::StartPersistent(*req);
  return Forward("MPI_Start", PMPI_Start, req);
}

int MPI_Startall(int count, MPI_Request reqs[]) {
  for (int i = 0; i < count; ++i) p::StartPersistent(reqs[i]);
  return Forward("MPI_Startall", PMPI_Startall, count, reqs);
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
  return Forward("MPI_Sendrecv", PMPI_Sendrecv, sendbuf, sendcount, sendtype,
                 dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                 comm, status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest,
                         int sendtag, int source, int recvtag, MPI_Comm comm,
                         MPI_Status* status) {
  p::RecordSend(comm, dest, count, type);
  return Forward("MPI_Sendrecv_replace", PMPI_Sendrecv_replace, buf, count,
                 type, dest, sendtag, source, recvtag, comm, status);
}

// ---- Barriers: zero-byte messages under the library model.

int MPI_Barrier(MPI_Comm comm) {
  return Barrier("MPI_Barrier", PMPI_Barrier, comm);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* req) {
  return Barrier("MPI_Ibarrier", PMPI_Ibarrier, comm, req);
}

// ---- Rooted collectives.

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm) {
  return Bcast("MPI_Bcast", PMPI_Bcast, buf, count, type, root, comm);
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* req) {
  return Bcast("MPI_Ibcast", PMPI_Ibcast, buf, count, type, root, comm, req);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
               MPI_Op op, int root, MPI_Comm comm) {
  return Reduce("MPI_Reduce", PMPI_Reduce, sendbuf, recvbuf, count, type, op,
                root, comm);
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count,
                MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* req) {
  return Reduce("MPI_Ireduce", PMPI_Ireduce, sendbuf, recvbuf, count, type, op,
                root, comm, req);
}

#define RANKMAP_ROOTED_BLOCKS(NAME, INAME, HELPER)                           \
  int MPI_##NAME(const void* sendbuf, int sendcount, MPI_Datatype sendtype,  \
                 void* recvbuf, int recvcount, MPI_Datatype recvtype,        \
                 int root, MPI_Comm comm) {                                  \
    return HELPER("MPI_" #NAME, PMPI_##NAME, sendbuf, sendcount, sendtype,   \
                  recvbuf, recvcount, recvtype, root, comm);                 \
  }                                                                          \
  int MPI_##INAME(const void* sendbuf, int sendcount, MPI_Datatype sendtype, \
                  void* recvbuf, int recvcount, MPI_Datatype recvtype,       \
                  int root, MPI_Comm comm, MPI_Request* req) {               \
    return HELPER("MPI_" #INAME, PMPI_##INAME, sendbuf, sendcount, sendtype, \
                  recvbuf, recvcount, recvtype, root, comm, req);            \
  }
RANKMAP_ROOTED_BLOCKS(Gather, Igather, GatherOrScatter<Collective::kGather>)
RANKMAP_ROOTED_BLOCKS(Scatter, Iscatter, GatherOrScatter<Collective::kScatter>)
#undef RANKMAP_ROOTED_BLOCKS

// ---- All-to-all style.

#define RANKMAP_REDUCTION(NAME, INAME, HELPER)                                \
  int MPI_##NAME(const void* sendbuf, void* recvbuf, int count,               \
                 MPI_Datatype type, MPI_Op op, MPI_Comm comm) {               \
    return HELPER("MPI_" #NAME, PMPI_##NAME, sendbuf, recvbuf, count, type,   \
                  op, comm);                                                  \
  }                                                                           \
  int MPI_##INAME(const void* sendbuf, void* recvbuf, int count,              \
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm,                \
                  MPI_Request* req) {                                         \
    return HELPER("MPI_" #INAME, PMPI_##INAME, sendbuf, recvbuf, count, type, \
                  op, comm, req);                                             \
  }
RANKMAP_REDUCTION(Allreduce, Iallreduce, Reduction<Collective::kAllreduce>)
RANKMAP_REDUCTION(Reduce_scatter_block, Ireduce_scatter_block,
                  Reduction<Collective::kReduceScatterBlock>)
RANKMAP_REDUCTION(Scan, Iscan, Reduction<Collective::kScan>)
RANKMAP_REDUCTION(Exscan, Iexscan, Reduction<Collective::kScan>)
#undef RANKMAP_REDUCTION

// Also the neighbourhood allgather and alltoall.
#define RANKMAP_BLOCKS(NAME, INAME, HELPER)                                  \
  int MPI_##NAME(const void* sendbuf, int sendcount, MPI_Datatype sendtype,  \
                 void* recvbuf, int recvcount, MPI_Datatype recvtype,        \
                 MPI_Comm comm) {                                            \
    return HELPER("MPI_" #NAME, PMPI_##NAME, sendbuf, sendcount, sendtype,   \
                  recvbuf, recvcount, recvtype, comm);                       \
  }                                                                          \
  int MPI_##INAME(const void* sendbuf, int sendcount, MPI_Datatype sendtype, \
                  void* recvbuf, int recvcount, MPI_Datatype recvtype,       \
                  MPI_Comm comm, MPI_Request* req) {                         \
    return HELPER("MPI_" #INAME, PMPI_##INAME, sendbuf, sendcount, sendtype, \
                  recvbuf, recvcount, recvtype, comm, req);                  \
  }
RANKMAP_BLOCKS(Allgather, Iallgather,
               AllgatherOrAlltoall<Collective::kAllgather>)
RANKMAP_BLOCKS(Alltoall, Ialltoall, AllgatherOrAlltoall<Collective::kAlltoall>)
RANKMAP_BLOCKS(Neighbor_allgather, Ineighbor_allgather, NeighbourBlock)
RANKMAP_BLOCKS(Neighbor_alltoall, Ineighbor_alltoall, NeighbourBlock)
#undef RANKMAP_BLOCKS

// ---- v and w variants (with the neighbourhood ones of the same arguments).

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                void* recvbuf, const int recvcounts[], const int displs[],
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return Gatherv("MPI_Gatherv", PMPI_Gatherv, sendbuf, sendcount, sendtype,
                 recvbuf, recvcounts, displs, recvtype, root, comm);
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                 void* recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* req) {
  return Gatherv("MPI_Igatherv", PMPI_Igatherv, sendbuf, sendcount, sendtype,
                 recvbuf, recvcounts, displs, recvtype, root, comm, req);
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[],
                 const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root,
                 MPI_Comm comm) {
  return Scatterv("MPI_Scatterv", PMPI_Scatterv, sendbuf, sendcounts, displs,
                  sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[],
                  const int displs[], MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request* req) {
  return Scatterv("MPI_Iscatterv", PMPI_Iscatterv, sendbuf, sendcounts, displs,
                  sendtype, recvbuf, recvcount, recvtype, root, comm, req);
}

#define RANKMAP_VARIABLE_BLOCKS(NAME, INAME, HELPER)                         \
  int MPI_##NAME(const void* sendbuf, int sendcount, MPI_Datatype sendtype,  \
                 void* recvbuf, const int recvcounts[], const int displs[],  \
                 MPI_Datatype recvtype, MPI_Comm comm) {                     \
    return HELPER("MPI_" #NAME, PMPI_##NAME, sendbuf, sendcount, sendtype,   \
                  recvbuf, recvcounts, displs, recvtype, comm);              \
  }                                                                          \
  int MPI_##INAME(const void* sendbuf, int sendcount, MPI_Datatype sendtype, \
                  void* recvbuf, const int recvcounts[], const int displs[], \
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {  \
    return HELPER("MPI_" #INAME, PMPI_##INAME, sendbuf, sendcount, sendtype, \
                  recvbuf, recvcounts, displs, recvtype, comm, req);         \
  }
RANKMAP_VARIABLE_BLOCKS(Allgatherv, Iallgatherv, Allgatherv)
RANKMAP_VARIABLE_BLOCKS(Neighbor_allgatherv, Ineighbor_allgatherv,
                        NeighbourAllgatherv)
#undef RANKMAP_VARIABLE_BLOCKS

#define RANKMAP_PER_PEER_BLOCKS(NAME, INAME, HELPER)                         \
  int MPI_##NAME(const void* sendbuf, const int sendcounts[],                \
                 const int sdispls[], MPI_Datatype sendtype, void* recvbuf,  \
                 const int recvcounts[], const int rdispls[],                \
                 MPI_Datatype recvtype, MPI_Comm comm) {                     \
    return HELPER("MPI_" #NAME, PMPI_##NAME, sendbuf, sendcounts, sdispls,   \
                  sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);   \
  }                                                                          \
  int MPI_##INAME(const void* sendbuf, const int sendcounts[],               \
                  const int sdispls[], MPI_Datatype sendtype, void* recvbuf, \
                  const int recvcounts[], const int rdispls[],               \
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {  \
    return HELPER("MPI_" #INAME, PMPI_##INAME, sendbuf, sendcounts, sdispls, \
                  sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,    \
                  req);                                                      \
  }
RANKMAP_PER_PEER_BLOCKS(Alltoallv, Ialltoallv, Alltoallvw)
RANKMAP_PER_PEER_BLOCKS(Neighbor_alltoallv, Ineighbor_alltoallv,
                        NeighbourAlltoallvw)
#undef RANKMAP_PER_PEER_BLOCKS

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[],
                  const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[],
                  const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return Alltoallvw("MPI_Alltoallw", PMPI_Alltoallw, sendbuf, sendcounts,
                    sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                    comm);
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request* req) {
  return Alltoallvw("MPI_Ialltoallw", PMPI_Ialltoallw, sendbuf, sendcounts,
                    sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                    comm, req);
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[],
                           const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf,
                           const int recvcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return NeighbourAlltoallvw("MPI_Neighbor_alltoallw", PMPI_Neighbor_alltoallw,
                             sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                             recvcounts, rdispls, recvtypes, comm);
}

int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* req) {
  return NeighbourAlltoallvw(
      "MPI_Ineighbor_alltoallw", PMPI_Ineighbor_alltoallw, sendbuf, sendcounts,
      sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, req);
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf,
                       const int recvcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  return ReduceScatter("MPI_Reduce_scatter", PMPI_Reduce_scatter, sendbuf,
                       recvbuf, recvcounts, type, op, comm);
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf,
                        const int recvcounts[], MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm, MPI_Request* req) {
  return ReduceScatter("MPI_Ireduce_scatter", PMPI_Ireduce_scatter, sendbuf,
                       recvbuf, recvcounts, type, op, comm, req);
}

// ---- One-sided.

int MPI_Put(const void* origin, int count, MPI_Datatype type, int target,
            MPI_Aint disp, int target_count, MPI_Datatype target_type,
            MPI_Win win) {
  return PutOrGet("MPI_Put", p::RecordPut, PMPI_Put, origin, count, type,
                  target, disp, target_count, target_type, win);
}

int MPI_Rput(const void* origin, int count, MPI_Datatype type, int target,
             MPI_Aint disp, int target_count, MPI_Datatype target_type,
             MPI_Win win, MPI_Request* req) {
  return PutOrGet("MPI_Rput", p::RecordPut, PMPI_Rput, origin, count, type,
                  target, disp, target_count, target_type, win, req);
}

int MPI_Get(void* origin, int count, MPI_Datatype type, int target,
            MPI_Aint disp, int target_count, MPI_Datatype target_type,
            MPI_Win win) {
  return PutOrGet("MPI_Get", p::RecordGet, PMPI_Get, origin, count, type,
                  target, disp, target_count, target_type, win);
}

int MPI_Rget(void* origin, int count, MPI_Datatype type, int target,
             MPI_Aint disp, int target_count, MPI_Datatype target_type,
             MPI_Win win, MPI_Request* req) {
  return PutOrGet("MPI_Rget", p::RecordGet, PMPI_Rget, origin, count, type,
                  target, disp, target_count, target_type, win, req);
}

int MPI_Accumulate(const void* origin, int count, MPI_Datatype type, int target,
                   MPI_Aint disp, int target_count, MPI_Datatype target_type,
                   MPI_Op op, MPI_Win win) {
  return Accumulate("MPI_Accumulate", PMPI_Accumulate, origin, count, type,
                    target, disp, target_count, target_type, op, win);
}

int MPI_Raccumulate(const void* origin, int count, MPI_Datatype type,
                    int target, MPI_Aint disp, int target_count,
                    MPI_Datatype target_type, MPI_Op op, MPI_Win win,
                    MPI_Request* req) {
  return Accumulate("MPI_Raccumulate", PMPI_Raccumulate, origin, count, type,
                    target, disp, target_count, target_type, op, win, req);
}

int MPI_Get_accumulate(const void* origin, int count, MPI_Datatype type,
                       void* result, int result_count, MPI_Datatype result_type,
                       int target, MPI_Aint disp, int target_count,
                       MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
  return GetAccumulate("MPI_Get_accumulate", PMPI_Get_accumulate, origin, count,
                       type, result, result_count, result_type, target, disp,
                       target_count, target_type, op, win);
}

int MPI_Rget_accumulate(const void* origin, int count, MPI_Datatype type,
                        void* result, int result_count,
                        MPI_Datatype result_type, int target, MPI_Aint disp,
                        int target_count, MPI_Datatype target_type, MPI_Op op,
                        MPI_Win win, MPI_Request* req) {
  return GetAccumulate("MPI_Rget_accumulate", PMPI_Rget_accumulate, origin,
                       count, type, result, result_count, result_type, target,
                       disp, target_count, target_type, op, win, req);
}

int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type,
                     int target, MPI_Aint disp, MPI_Op op, MPI_Win win) {
  p::RecordGetAccumulate(win, target, op, 1, type, 1, type);
  return Forward("MPI_Fetch_and_op", PMPI_Fetch_and_op, origin, result, type,
                 target, disp, op, win);
}

int MPI_Compare_and_swap(const void* origin, const void* compare, void* result,
                         MPI_Datatype type, int target, MPI_Aint disp,
                         MPI_Win win) {
  p::RecordCompareAndSwap(win, target, type);
  return Forward("MPI_Compare_and_swap", PMPI_Compare_and_swap, origin, compare,
                 result, type, target, disp, win);
}

}  // extern "C"
