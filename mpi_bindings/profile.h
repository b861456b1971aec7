// The traffic profiler behind librankmap_profile.so (LD_PRELOAD it into any
// dynamically linked MPI program; no recompilation):
//
//   export LD_PRELOAD=.../librankmap_profile.so RANKMAP_PROFILE_OUT=/tmp/app
//   mpirun -np 8 -x LD_PRELOAD -x RANKMAP_PROFILE_OUT ./app
//   rankmap map --topology T --comm /tmp/app.grf
//
// Each process counts, per destination world rank, the bytes and messages it
// sends; at MPI_Finalize rank 0 gathers the rows and writes
// RANKMAP_PROFILE_OUT.{mat,msgs.mat,grf,profile} (profile_output.h; default prefix
// "rankmap_profile"). Ranks of any communicator are translated to world ranks
// (MPI_Group_translate_ranks, cached per communicator until MPI_Comm_free).
// MPI_PROC_NULL is ignored. Self sends land on the diagonal of the .mat.
//
// Point to point, counted on the sending side: MPI_Send, Bsend, Ssend, Rsend,
// Isend, Ibsend, Issend, Irsend, Sendrecv, Sendrecv_replace, and persistent
// sends (Send_init, Bsend_init, Ssend_init, Rsend_init) each time
// MPI_Start/Startall starts them.
//
// Collectives on intracommunicators, blocking and non-blocking (MPI_I*), are
// decomposed into the messages an MPI library sends for them
// (RANKMAP_PROFILE_COLLECTIVES, collective_model.h):
//   library (default)  the algorithms the library the profiler is built for
//                      picks by message size and communicator size: Open MPI
//                      4.1's `tuned` fixed rules (binomial and k-nomial trees,
//                      recursive doubling, Rabenseifner, rings, Bruck,
//                      pairwise exchange, dissemination barriers, ...) and
//                      `libnbc` for the non-blocking ones; MPICH 4.0's flat
//                      default selection in the MPICH build. A barrier's
//                      zero-byte messages count as messages.
//   star               the first model: rooted collectives straight between
//                      the root and every rank (Bcast, Scatter(v) from the
//                      root, Reduce, Gather(v) to it), Allreduce a reduce to
//                      rank 0 then a broadcast, all-to-all kinds (Allgather(v),
//                      Alltoall(v/w), Reduce_scatter(_block)) every rank to
//                      every other, Scan and Exscan i -> i + 1, Barrier
//                      nothing; each transfer one message.
// The Open MPI model was compared message for message with Open MPI's own
// monitoring of the same program (profile_collectives_mpi_test.sh: every pair
// equal on 3, 4 and 6 ranks). The MPICH model follows MPICH's flat
// algorithms; MPICH's node-aware compositions and shared-memory collectives,
// which depend on where ranks run, are not modelled.
//
// Neighbourhood collectives (C): MPI_Neighbor_ and MPI_Ineighbor_ allgather(v)
// and alltoall(v/w) send block j to the j-th destination of the
// communicator's topology: a distributed graph's out-neighbours, a Cartesian
// communicator's shift sources and destinations per dimension (MPI_PROC_NULL
// skipped), a graph topology's neighbours.
//
// One-sided (C): MPI_Put, Rput, Accumulate, Raccumulate: origin -> target;
// MPI_Get, Rget: target -> origin (recorded by the origin, moved to the
// target's row at finalize); Get_accumulate, Rget_accumulate, Fetch_and_op
// (operand out unless the op is MPI_NO_OP, result back) and
// Compare_and_swap (two elements out, one back): both ways. Target ranks are
// those of the window's group.
//
// Not counted: intercommunicator collectives; Fortran calls other than those
// listed below; MPI-IO (traffic to files, not between processes).
//
// Fortran (mpif.h, `use mpi`, `use mpi_f08`): Open MPI's Fortran bindings call
// PMPI_* directly, bypassing C-level interposition, so the library also
// defines the Fortran entry points (mpi_send_ and friends, and Open MPI's
// ompi_*_f through which the f08 module goes) for MPI_Init(_thread),
// MPI_Finalize, MPI_Comm_free, MPI_Pcontrol, MPI_Wait, MPI_Waitall, the
// point-to-point sends except persistent ones, Sendrecv, and Bcast, Reduce,
// Allreduce, Allgather, Alltoall, Gather, Scatter, Barrier; each converts
// handles with MPI_*_f2c, counts, and forwards to the real pmpi_*_. In-place
// Fortran collectives count their send arguments. MPICH's Fortran bindings call
// the C MPI_* functions instead, so its build (mpi_bindings/mpich) counts every
// Fortran call through the C wrappers; it defines only the mpi_f08 init,
// init_thread, finalize and comm_free entry points, which MPICH routes to
// PMPI_* directly.
//
// Other calls that end an iteration without sending (RANKMAP_PROFILE_MARK):
// MPI_Wait, MPI_Waitall and MPI_Win_fence are intercepted (C) for that alone.
//
// Windows and iterations. Everything from MPI_Init to MPI_Finalize counts
// unless the environment narrows it (profile_window.h):
//   RANKMAP_PROFILE_MARK=MPI_Allreduce  each call of that intercepted function
//       ends one iteration (MPI_Allreduce/3: every 3rd call); `pcontrol`: each
//       MPI_Pcontrol(1) opens one, which ends at the next MPI_Pcontrol(0) or
//       (1) or at MPI_Finalize.
//   RANKMAP_PROFILE_SKIP=3     skip the first 3 iterations (needs a mark);
//       =2.5s  count from 2.5 s after MPI_Init (with a mark: from the first
//       iteration that starts after that); =1000calls  count after the first
//       1000 recorded calls (sends, collectives, one-sided calls).
//   RANKMAP_PROFILE_ITERATIONS=10  stop after 10 counted iterations.
// MPI_Pcontrol(0) pauses counting and MPI_Pcontrol(1) resumes it (the
// standard's hook for profiling libraries). With a mark, only whole
// iterations count: traffic after the last mark (or in an iteration during
// which counting was paused) is dropped, and the files hold the traffic per
// iteration: each rank's totals divided by the iterations it counted. Ranks
// decide from their own calls and clocks: with marks every rank that calls
// the mark as often counts the same iterations; a time window opens at a
// slightly different moment on each rank (its own MPI_Init, its own clock),
// so around the opening a message may be counted by some ranks' windows and
// not others' (a message is counted by its sender). A bad value is one line
// on stderr naming the variable; the profiler then records nothing, and the
// program runs on. RANKMAP_PROFILE_OUT.profile says what the files hold
// (window, iterations, per iteration or totals, model: profile_output.h); the
// matrices themselves stay bare, as TopoMatch and Scotch read them.
//
// Placement: every rank records its host name (under Slurm the node name
// Slurm gave the task, SLURMD_NODENAME) and the CPUs it may run on
// (sched_getaffinity at MPI_Init), and rank 0 writes RANKMAP_PROFILE_OUT
// .placement, one line "<rank> <host> <cpu list>" per rank (profile_output.h),
// also for partial profiles.
//
// Partial profiles: while the job runs each process saves its rows to
// RANKMAP_PROFILE_OUT.part.<rank> every RANKMAP_PROFILE_FLUSH seconds (10 by
// default, at the first recorded call after that much time; 0: after every
// recorded call; negative: never; anything but a number is a bad setting,
// ParseFlushSeconds in profile_window.h). A process that calls MPI_Abort, or exits
// without MPI_Finalize, saves its row and merges every saved row into the
// usual files (profile_output.h: MergePartialProfile), marked partial: the
// side file's partial= names who aborted or exited and whose rows are
// missing or stale, which RANKMAP_PROFILE_OUT.partial repeats. Processes killed by the launcher after an abort are
// counted as of their last save. A complete MPI_Finalize removes the saved
// rows. A job whose dense p x p matrices do not fit rank 0's memory budget is
// not gathered: each rank leaves its row instead (said on stderr).
//
// Failures never reach the application: files that cannot be written are
// reported once on stderr with the system's reason, and an exception inside
// the profiler (a failed allocation) stops profiling with one line while the
// program continues.
//
// Thread safety: counters are guarded by a mutex. Memory: eight rows of p
// doubles per process (bytes and messages, sent and fetched, counted and
// pending the end of an iteration); rank 0 holds four p x p matrices at
// finalize.
#ifndef RANKMAP_MPI_BINDINGS_PROFILE_H_
#define RANKMAP_MPI_BINDINGS_PROFILE_H_

#include <mpi.h>

#include "mpi_bindings/collective_model.h"
#include "mpi_bindings/traffic_model.h"

namespace rankmap::mpi_bindings::profile {

// The recording side of the profiler, called by the C (profile_c.cc) and
// Fortran (profile_fortran.cc) entry points before they forward to PMPI_*.
// Each function reads the arguments of one family of calls, resolves ranks
// and datatypes through PMPI and adds to the traffic model (traffic_model.h).
// All are no-ops before MPI_Init and after MPI_Finalize; collectives on
// intercommunicators add nothing.

// Starts counting (after MPI_Init) and, at finalize, gathers and writes the
// matrices and the placement (before MPI_Finalize; collective over
// MPI_COMM_WORLD).
void OnInit();
void OnFinalize();
// Before PMPI_Abort: saves this rank's row and writes the partial profile.
void OnAbort(int error_code);
// MPI_Pcontrol(level).
void OnPcontrol(int level);
// After intercepted call `name` ("MPI_Allreduce") returned: it may end an
// iteration (RANKMAP_PROFILE_MARK). Cheap when no mark is set.
void AfterCall(const char* name);

// Drop the cached rank translation of a communicator or window about to be
// freed (its handle may be reused by a later one).
void ForgetComm(MPI_Comm comm);
void ForgetWin(MPI_Win win);

// Point to point: `count` x `type` from the calling process to rank `dest` of
// `comm` (one message).
void RecordSend(MPI_Comm comm, int dest, int count, MPI_Datatype type);

// Persistent sends: remembered at MPI_*send_init, recorded like RecordSend
// each time MPI_Start/Startall starts them, forgotten at MPI_Request_free.
void RememberPersistent(MPI_Request req, MPI_Comm comm, int dest, int count,
                        MPI_Datatype type);
void StartPersistent(MPI_Request req);
void ForgetRequest(MPI_Request req);

// A collective call with a uniform block, as its MPI arguments say: `count`
// x `type` is the count argument of Bcast, Reduce, Allreduce, Scan, Exscan
// and Reduce_scatter_block and the per-rank block of Allgather, Alltoall,
// Gather and Scatter (callers pass the receive block when the send buffer is
// MPI_IN_PLACE, the send block otherwise). `op` is MPI_OP_NULL for kinds
// without one. Barrier: kind kBarrier, count 0.
struct CollectiveArgs {
  Collective kind = Collective::kBarrier;
  MPI_Comm comm = MPI_COMM_NULL;
  int root = 0;
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  bool in_place = false;
  bool nonblocking = false;
};
void RecordCollective(const CollectiveArgs& args);

// v and w forms (`nonblocking` for their MPI_I* versions). Allgatherv: every
// rank's receive count. Alltoallv/w: sendcounts[j] x sendtype(s[j]) to j (in
// place, the receive counts and types). Gatherv: this rank's send block.
// Scatterv: the root's send counts. Reduce_scatter: recvcounts[j] x type to
// j.
void RecordAllgatherv(MPI_Comm comm, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, const int* recvcounts,
                      MPI_Datatype recvtype, bool nonblocking);
void RecordAlltoallv(MPI_Comm comm, const void* sendbuf, const int* sendcounts,
                     MPI_Datatype sendtype, const int* recvcounts,
                     MPI_Datatype recvtype, bool nonblocking);
void RecordAlltoallw(MPI_Comm comm, const void* sendbuf, const int* sendcounts,
                     const MPI_Datatype* sendtypes, const int* recvcounts,
                     const MPI_Datatype* recvtypes, bool nonblocking);
void RecordGatherv(MPI_Comm comm, int root, int sendcount,
                   MPI_Datatype sendtype, bool nonblocking);
void RecordScatterv(MPI_Comm comm, int root, const int* sendcounts,
                    MPI_Datatype sendtype, bool nonblocking);
void RecordReduceScatter(MPI_Comm comm, const int* recvcounts,
                         MPI_Datatype type, MPI_Op op, bool nonblocking);

// Neighbourhood collectives: block j to the j-th destination of comm's
// topology; the same `count` x `type` block to each (allgather(v), alltoall),
// counts[j] x type (alltoallv) or counts[j] x types[j] (alltoallw).
void RecordNeighbours(MPI_Comm comm, int count, MPI_Datatype type);
void RecordNeighboursV(MPI_Comm comm, const int* counts, MPI_Datatype type);
void RecordNeighboursW(MPI_Comm comm, const int* counts,
                       const MPI_Datatype* types);

// One-sided, with rank `target` of win's group. Put and accumulate: `count` x
// `type` out. Get: `count` x `type` back. Get_accumulate and Fetch_and_op: the
// operand out unless `op` is MPI_NO_OP, `result_count` x `result_type` back.
// Compare_and_swap: two elements of `type` out, one back.
void RecordPut(MPI_Win win, int target, int count, MPI_Datatype type);
void RecordGet(MPI_Win win, int target, int count, MPI_Datatype type);
void RecordGetAccumulate(MPI_Win win, int target, MPI_Op op, int count,
                         MPI_Datatype type, int result_count,
                         MPI_Datatype result_type);
void RecordCompareAndSwap(MPI_Win win, int target, MPI_Datatype type);

}  // namespace rankmap::mpi_bindings::profile

#endif  // RANKMAP_MPI_BINDINGS_PROFILE_H_
