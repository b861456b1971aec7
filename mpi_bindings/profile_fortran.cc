// Fortran entry points of the profiler (see profile.h). Open MPI's mpif.h /
// `use mpi` bindings (mpi_send_ ...) and its mpi_f08 module (through
// ompi_send_f ...) call PMPI_* directly, so C-level interposition never sees
// Fortran traffic. Each wrapper here converts the Fortran handles, records, and
// forwards to the library's pmpi_*_ symbol found with dlsym(RTLD_NEXT) (C
// programs never load the Fortran library, so nothing is linked to it).
// In-place Fortran collectives count their send arguments.
//
// MPICH's Fortran bindings (mpi_send_, pmpi_send_ and the f08 ones) call the
// C MPI_* functions, which the C wrappers already record: the MPICH build
// defines none of these entry points, or every Fortran call would count twice.
// Only its mpi_f08 module starts, ends and frees communicators through PMPI_*
// directly; those four get wrappers of their own (at the end of this file).
#include <dlfcn.h>
#include <mpi.h>

#include "mpi_bindings/profile.h"

#ifndef MPICH
namespace {

namespace p = rankmap::mpi_bindings::profile;
using F = MPI_Fint;

template <typename Fn>
Fn Next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

MPI_Comm C(const F* comm) { return MPI_Comm_f2c(*comm); }
MPI_Datatype T(const F* type) { return MPI_Type_f2c(*type); }
MPI_Op O(const F* op) { return MPI_Op_f2c(*op); }

// A blocking collective's arguments (in-place Fortran calls count their send
// arguments).
void Collective(p::Collective kind, const F* comm, int root, const F* count,
                const F* type, MPI_Op op = MPI_OP_NULL) {
  p::CollectiveArgs a;
  a.kind = kind;
  a.comm = C(comm);
  a.root = root;
  a.count = count == nullptr ? 0 : *count;
  a.type = type == nullptr ? MPI_DATATYPE_NULL : T(type);
  a.op = op;
  p::RecordCollective(a);
}

// Calls the real routine, or reports MPI_ERR_INTERN when it cannot be found.
#define RANKMAP_FORWARD(SYMBOL, SIGNATURE, ...)         \
  do {                                                  \
    static auto real = Next<void(*) SIGNATURE>(SYMBOL); \
    if (real != nullptr) {                              \
      real(__VA_ARGS__);                                \
    } else {                                            \
      *ierr = MPI_ERR_INTERN;                           \
    }                                                   \
  } while (0)

}  // namespace

extern "C" {

// Point to point: mpi_X_ (mpif.h, use mpi) and ompi_X_f (mpi_f08) for each send
// flavour.
#define RANKMAP_F_SEND(SYMBOL, X, NAME)                                   \
  void SYMBOL(void* buf, F* count, F* type, F* dest, F* tag, F* comm,     \
              F* ierr) {                                                  \
    p::RecordSend(C(comm), *dest, *count, T(type));                       \
    RANKMAP_FORWARD("pmpi_" #X "_", (void*, F*, F*, F*, F*, F*, F*), buf, \
                    count, type, dest, tag, comm, ierr);                  \
    p::AfterCall(NAME);                                                   \
  }
#define RANKMAP_F_ISEND(SYMBOL, X, NAME)                                      \
  void SYMBOL(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* req, \
              F* ierr) {                                                      \
    p::RecordSend(C(comm), *dest, *count, T(type));                           \
    RANKMAP_FORWARD("pmpi_" #X "_", (void*, F*, F*, F*, F*, F*, F*, F*), buf, \
                    count, type, dest, tag, comm, req, ierr);                 \
    p::AfterCall(NAME);                                                       \
  }
#define RANKMAP_F_SENDS(KIND, X, NAME) \
  KIND(mpi_##X##_, X, NAME)            \
  KIND(ompi_##X##_f, X, NAME)
RANKMAP_F_SENDS(RANKMAP_F_SEND, send, "MPI_Send")
RANKMAP_F_SENDS(RANKMAP_F_SEND, bsend, "MPI_Bsend")
RANKMAP_F_SENDS(RANKMAP_F_SEND, ssend, "MPI_Ssend")
RANKMAP_F_SENDS(RANKMAP_F_SEND, rsend, "MPI_Rsend")
RANKMAP_F_SENDS(RANKMAP_F_ISEND, isend, "MPI_Isend")
RANKMAP_F_SENDS(RANKMAP_F_ISEND, ibsend, "MPI_Ibsend")
RANKMAP_F_SENDS(RANKMAP_F_ISEND, issend, "MPI_Issend")
RANKMAP_F_SENDS(RANKMAP_F_ISEND, irsend, "MPI_Irsend")
#undef RANKMAP_F_SENDS
#undef RANKMAP_F_ISEND
#undef RANKMAP_F_SEND

// Every other entry point: mpi_X_ and ompi_X_f with one body.
#define RANKMAP_F_BODY(X, ...) RANKMAP_FORWARD("pmpi_" #X "_", __VA_ARGS__)

#define RANKMAP_F_BOTH(X, PARAMS, BODY) \
  void mpi_##X##_ PARAMS BODY void ompi_##X##_f PARAMS BODY

RANKMAP_F_BOTH(sendrecv,
               (void* sb, F* sc, F* st, F* dest, F* stag, void* rb, F* rc,
                F* rt, F* src, F* rtag, F* comm, F* status, F* ierr),
               {
                 p::RecordSend(C(comm), *dest, *sc, T(st));
                 RANKMAP_F_BODY(
                     sendrecv,
                     (void*, F*, F*, F*, F*, void*, F*, F*, F*, F*, F*, F*, F*),
                     sb, sc, st, dest, stag, rb, rc, rt, src, rtag, comm,
                     status, ierr);
                 p::AfterCall("MPI_Sendrecv");
               })

RANKMAP_F_BOTH(bcast, (void* buf, F* count, F* type, F* root, F* comm, F* ierr),
               {
                 Collective(p::Collective::kBcast, comm, *root, count, type);
                 RANKMAP_F_BODY(bcast, (void*, F*, F*, F*, F*, F*), buf, count,
                                type, root, comm, ierr);
                 p::AfterCall("MPI_Bcast");
               })

RANKMAP_F_BOTH(
    reduce,
    (void* sb, void* rb, F* count, F* type, F* op, F* root, F* comm, F* ierr), {
      Collective(p::Collective::kReduce, comm, *root, count, type, O(op));
      RANKMAP_F_BODY(reduce, (void*, void*, F*, F*, F*, F*, F*, F*), sb, rb,
                     count, type, op, root, comm, ierr);
      p::AfterCall("MPI_Reduce");
    })

RANKMAP_F_BOTH(allreduce,
               (void* sb, void* rb, F* count, F* type, F* op, F* comm, F* ierr),
               {
                 Collective(p::Collective::kAllreduce, comm, 0, count, type,
                            O(op));
                 RANKMAP_F_BODY(allreduce, (void*, void*, F*, F*, F*, F*, F*),
                                sb, rb, count, type, op, comm, ierr);
                 p::AfterCall("MPI_Allreduce");
               })

RANKMAP_F_BOTH(
    allgather,
    (void* sb, F* sc, F* st, void* rb, F* rc, F* rt, F* comm, F* ierr), {
      Collective(p::Collective::kAllgather, comm, 0, sc, st);
      RANKMAP_F_BODY(allgather, (void*, F*, F*, void*, F*, F*, F*, F*), sb, sc,
                     st, rb, rc, rt, comm, ierr);
      p::AfterCall("MPI_Allgather");
    })

RANKMAP_F_BOTH(
    alltoall,
    (void* sb, F* sc, F* st, void* rb, F* rc, F* rt, F* comm, F* ierr), {
      Collective(p::Collective::kAlltoall, comm, 0, sc, st);
      RANKMAP_F_BODY(alltoall, (void*, F*, F*, void*, F*, F*, F*, F*), sb, sc,
                     st, rb, rc, rt, comm, ierr);
      p::AfterCall("MPI_Alltoall");
    })

RANKMAP_F_BOTH(gather,
               (void* sb, F* sc, F* st, void* rb, F* rc, F* rt, F* root,
                F* comm, F* ierr),
               {
                 Collective(p::Collective::kGather, comm, *root, sc, st);
                 RANKMAP_F_BODY(gather,
                                (void*, F*, F*, void*, F*, F*, F*, F*, F*), sb,
                                sc, st, rb, rc, rt, root, comm, ierr);
                 p::AfterCall("MPI_Gather");
               })

RANKMAP_F_BOTH(scatter,
               (void* sb, F* sc, F* st, void* rb, F* rc, F* rt, F* root,
                F* comm, F* ierr),
               {
                 Collective(p::Collective::kScatter, comm, *root, sc, st);
                 RANKMAP_F_BODY(scatter,
                                (void*, F*, F*, void*, F*, F*, F*, F*, F*), sb,
                                sc, st, rb, rc, rt, root, comm, ierr);
                 p::AfterCall("MPI_Scatter");
               })

RANKMAP_F_BOTH(barrier, (F * comm, F* ierr), {
  Collective(p::Collective::kBarrier, comm, 0, nullptr, nullptr);
  RANKMAP_F_BODY(barrier, (F*, F*), comm, ierr);
  p::AfterCall("MPI_Barrier");
})

RANKMAP_F_BOTH(wait, (F * req, F* status, F* ierr), {
  RANKMAP_F_BODY(wait, (F*, F*, F*), req, status, ierr);
  p::AfterCall("MPI_Wait");
})

RANKMAP_F_BOTH(waitall, (F * count, F* reqs, F* statuses, F* ierr), {
  RANKMAP_F_BODY(waitall, (F*, F*, F*, F*), count, reqs, statuses, ierr);
  p::AfterCall("MPI_Waitall");
})

RANKMAP_F_BOTH(pcontrol, (F * level, F* ierr), {
  p::OnPcontrol(*level);
  RANKMAP_F_BODY(pcontrol, (F*, F*), level, ierr);
})

RANKMAP_F_BOTH(init, (F * ierr), {
  RANKMAP_F_BODY(init, (F*), ierr);
  if (*ierr == MPI_SUCCESS) p::OnInit();
})

RANKMAP_F_BOTH(init_thread, (F * required, F* provided, F* ierr), {
  RANKMAP_F_BODY(init_thread, (F*, F*, F*), required, provided, ierr);
  if (*ierr == MPI_SUCCESS) p::OnInit();
})

RANKMAP_F_BOTH(finalize, (F * ierr), {
  p::OnFinalize();
  RANKMAP_F_BODY(finalize, (F*), ierr);
})

RANKMAP_F_BOTH(abort, (F * comm, F* code, F* ierr), {
  p::OnAbort(*code);
  RANKMAP_F_BODY(abort, (F*, F*, F*), comm, code, ierr);
})

RANKMAP_F_BOTH(comm_free, (F * comm, F* ierr), {
  p::ForgetComm(C(comm));
  RANKMAP_F_BODY(comm_free, (F*, F*), comm, ierr);
})

}  // extern "C"
#else   // MPICH

namespace {

using F = MPI_Fint;
namespace p = rankmap::mpi_bindings::profile;

template <typename Fn>
Fn Next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

// `ierr` is optional in mpi_f08 (null when the program omits it).
bool Failed(const F* ierr) { return ierr != nullptr && *ierr != MPI_SUCCESS; }

void Missing(F* ierr) {
  if (ierr != nullptr) *ierr = MPI_ERR_INTERN;
}

}  // namespace

extern "C" {

void mpi_init_f08_(F* ierr) {
  static auto real = Next<void (*)(F*)>("mpi_init_f08_");
  if (real == nullptr) return Missing(ierr);
  real(ierr);
  if (!Failed(ierr)) p::OnInit();
}

void mpi_init_thread_f08_(F* required, F* provided, F* ierr) {
  static auto real = Next<void (*)(F*, F*, F*)>("mpi_init_thread_f08_");
  if (real == nullptr) return Missing(ierr);
  real(required, provided, ierr);
  if (!Failed(ierr)) p::OnInit();
}

void mpi_finalize_f08_(F* ierr) {
  static auto real = Next<void (*)(F*)>("mpi_finalize_f08_");
  if (real == nullptr) return Missing(ierr);
  p::OnFinalize();
  real(ierr);
}

void mpi_comm_free_f08_(F* comm, F* ierr) {
  static auto real = Next<void (*)(F*, F*)>("mpi_comm_free_f08_");
  if (real == nullptr) return Missing(ierr);
  p::ForgetComm(MPI_Comm_f2c(*comm));
  real(comm, ierr);
}

}  // extern "C"
#endif  // MPICH
