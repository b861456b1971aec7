// C entry points of the profiler (see profile.h): each records what the
// calling process sends (profile.cc) and forwards to PMPI_*.
#include <mpi.h>

#include "mpi_bindings/profile.h"

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
  p::RecordCollective(Collective::kGather, comm, root, sendcount, sendtype);
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
  p::RecordReduceScatter(comm, recvcounts, type);
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
  p::RecordNeighbours(comm, sendcount, sendtype);
  return PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, comm);
}

int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* req) {
  p::RecordNeighbours(comm, sendcount, sendtype);
  return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf,
                                  recvcount, recvtype, comm, req);
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount,
                            MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  p::RecordNeighbours(comm, sendcount, sendtype);
  return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts, displs, recvtype, comm);
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount,
                             MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* req) {
  p::RecordNeighbours(comm, sendcount, sendtype);
  return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf,
                                   recvcounts, displs, recvtype, comm, req);
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount,
                          MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  p::RecordNeighbours(comm, sendcount, sendtype);
  return PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf,
                                recvcount, recvtype, comm);
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount,
                           MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request* req) {
  p::RecordNeighbours(comm, sendcount, sendtype);
  return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf,
                                 recvcount, recvtype, comm, req);
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[],
                           const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  p::RecordNeighboursV(comm, sendcounts, sendtype);
  return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype,
                                 recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* req) {
  p::RecordNeighboursV(comm, sendcounts, sendtype);
  return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype,
                                  recvbuf, recvcounts, rdispls, recvtype, comm,
                                  req);
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[],
                           const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf,
                           const int recvcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm) {
  p::RecordNeighboursW(comm, sendcounts, sendtypes);
  return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes,
                                 recvbuf, recvcounts, rdispls, recvtypes, comm);
}

int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* req) {
  p::RecordNeighboursW(comm, sendcounts, sendtypes);
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
  p::RecordPut(win, target, count, type);
  return PMPI_Put(origin, count, type, target, disp, target_count, target_type,
                  win);
}

int MPI_Rput(const void* origin, int count, MPI_Datatype type, int target,
             MPI_Aint disp, int target_count, MPI_Datatype target_type,
             MPI_Win win, MPI_Request* req) {
  p::RecordPut(win, target, count, type);
  return PMPI_Rput(origin, count, type, target, disp, target_count, target_type,
                   win, req);
}

int MPI_Get(void* origin, int count, MPI_Datatype type, int target,
            MPI_Aint disp, int target_count, MPI_Datatype target_type,
            MPI_Win win) {
  p::RecordGet(win, target, count, type);
  return PMPI_Get(origin, count, type, target, disp, target_count, target_type,
                  win);
}

int MPI_Rget(void* origin, int count, MPI_Datatype type, int target,
             MPI_Aint disp, int target_count, MPI_Datatype target_type,
             MPI_Win win, MPI_Request* req) {
  p::RecordGet(win, target, count, type);
  return PMPI_Rget(origin, count, type, target, disp, target_count, target_type,
                   win, req);
}

int MPI_Accumulate(const void* origin, int count, MPI_Datatype type, int target,
                   MPI_Aint disp, int target_count, MPI_Datatype target_type,
                   MPI_Op op, MPI_Win win) {
  p::RecordPut(win, target, count, type);
  return PMPI_Accumulate(origin, count, type, target, disp, target_count,
                         target_type, op, win);
}

int MPI_Raccumulate(const void* origin, int count, MPI_Datatype type,
                    int target, MPI_Aint disp, int target_count,
                    MPI_Datatype target_type, MPI_Op op, MPI_Win win,
                    MPI_Request* req) {
  p::RecordPut(win, target, count, type);
  return PMPI_Raccumulate(origin, count, type, target, disp, target_count,
                          target_type, op, win, req);
}

int MPI_Get_accumulate(const void* origin, int count, MPI_Datatype type,
                       void* result, int result_count, MPI_Datatype result_type,
                       int target, MPI_Aint disp, int target_count,
                       MPI_Datatype target_type, MPI_Op op, MPI_Win win) {
  p::RecordGetAccumulate(win, target, op, count, type, result_count,
                         result_type);
  return PMPI_Get_accumulate(origin, count, type, result, result_count,
                             result_type, target, disp, target_count,
                             target_type, op, win);
}

int MPI_Rget_accumulate(const void* origin, int count, MPI_Datatype type,
                        void* result, int result_count,
                        MPI_Datatype result_type, int target, MPI_Aint disp,
                        int target_count, MPI_Datatype target_type, MPI_Op op,
                        MPI_Win win, MPI_Request* req) {
  p::RecordGetAccumulate(win, target, op, count, type, result_count,
                         result_type);
  return PMPI_Rget_accumulate(origin, count, type, result, result_count,
                              result_type, target, disp, target_count,
                              target_type, op, win, req);
}

int MPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type,
                     int target, MPI_Aint disp, MPI_Op op, MPI_Win win) {
  p::RecordGetAccumulate(win, target, op, 1, type, 1, type);
  return PMPI_Fetch_and_op(origin, result, type, target, disp, op, win);
}

int MPI_Compare_and_swap(const void* origin, const void* compare, void* result,
                         MPI_Datatype type, int target, MPI_Aint disp,
                         MPI_Win win) {
  p::RecordCompareAndSwap(win, target, type);
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
  p::RecordCollective(Collective::kGather, comm, root, sendcount, sendtype);
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
  p::RecordReduceScatter(comm, recvcounts, type);
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
