#include "mpi_bindings/profile.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/memory_budget.h"
#include "mpi_bindings/profile_output.h"
#include "mpi_bindings/traffic_model.h"

namespace rankmap::mpi_bindings::profile {
namespace {

// The model reads negative ranks as "no process".
static_assert(MPI_PROC_NULL < 0 && MPI_UNDEFINED < 0);

struct Persistent {
  MPI_Comm comm;
  int dest, count;
  MPI_Datatype type;
};

struct State {
  std::mutex mu;
  bool active = false;
  bool stopped = false;  // an internal failure stopped profiling for good
  int world_rank = 0;
  std::string prefix;
  // Seconds between saves of this process's row (RANKMAP_PROFILE_FLUSH);
  // negative: never.
  double save_every = 10.0;
  std::chrono::steady_clock::time_point last_save;
  TrafficModel model;
  // comm -> world rank of each rank (of the remote group for
  // intercommunicators).
  std::map<MPI_Comm, std::vector<int>> world_of;
  // window -> world rank of each rank of its group.
  std::map<MPI_Win, std::vector<int>> world_of_win;
  std::map<MPI_Request, Persistent> persistent;
};

// Never destroyed: wrappers may run during static destruction of the program.
State& S() {
  static State* s = new State;
  return *s;
}

// The recording must never take the application down: an exception (a
// failed allocation) stops profiling with one line on stderr, and the
// application goes on without a profile.
template <typename F>
void Safely(F step) {
  try {
    step();
  } catch (const std::exception& e) {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.stopped) {
      std::fprintf(stderr,
                   "rankmap: profiling stopped on rank %d: %s; the program "
                   "continues without a profile\n",
                   s.world_rank, e.what());
    }
    s.active = false;
    s.stopped = true;
  }
}

// Saves this process's row to prefix.part.<rank>. Caller holds S().mu.
void SaveRowLocked(const std::string& state) {
  State& s = S();
  ProfileRow row;
  row.rank = s.world_rank;
  row.world_size = s.model.world_size();
  row.state = state;
  row.bytes = s.model.bytes();
  row.messages = s.model.messages();
  row.fetched_bytes = s.model.fetched_bytes();
  row.fetched_messages = s.model.fetched_messages();
  const absl::Status st =
      WriteFileAtomically(RowPath(s.prefix, s.world_rank), FormatRow(row));
  if (!st.ok() && s.save_every >= 0) {
    std::fprintf(stderr, "rankmap: profile row not saved: %s\n",
                 std::string(st.message()).c_str());
    s.save_every = -1;  // say it once
  }
  s.last_save = std::chrono::steady_clock::now();
}

// After a recording call: saves the row when save_every has passed. Caller
// holds S().mu.
void MaybeSaveLocked() {
  State& s = S();
  if (!s.active || s.save_every < 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - s.last_save).count() >= s.save_every)
    SaveRowLocked("running");
}

// The end of a job that will not reach MPI_Finalize (this rank aborts or
// exits): save the row with `state`, merge what every rank saved, say where.
void EndEarly(const std::string& state, const std::string& reason) {
  State& s = S();
  int world = 0;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    s.active = false;
    SaveRowLocked(state);
    world = s.model.world_size();
  }
  absl::StatusOr<std::string> merged =
      MergePartialProfile(s.prefix, world, reason);
  std::fprintf(stderr, "rankmap: %s\n",
               merged.ok() ? merged->c_str()
                           : absl::StrCat("partial profile not written: ",
                                          merged.status().message())
                                 .c_str());
}

void OnExit() {
  Safely([] {
    const int rank = S().world_rank;
    EndEarly("exited without MPI_Finalize",
             absl::StrCat("rank ", rank, " exited without MPI_Finalize"));
  });
}

bool IsInter(MPI_Comm comm) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return inter != 0;
}

// World rank of each rank of `group`, which it frees.
std::vector<int> ToWorld(MPI_Group group) {
  MPI_Group world;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> ranks(size), out(size);
  for (int i = 0; i < size; ++i) ranks[i] = i;
  PMPI_Group_translate_ranks(group, size, ranks.data(), world, out.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return out;
}

// Caller holds S().mu.
const std::vector<int>& WorldRanks(MPI_Comm comm) {
  State& s = S();
  auto it = s.world_of.find(comm);
  if (it != s.world_of.end()) return it->second;
  MPI_Group group;
  if (IsInter(comm)) {
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_group(comm, &group);
  }
  return s.world_of.emplace(comm, ToWorld(group)).first->second;
}

// Caller holds S().mu. Not an overload of WorldRanks: MPICH's handles are all
// plain ints.
const std::vector<int>& WindowWorldRanks(MPI_Win win) {
  State& s = S();
  auto it = s.world_of_win.find(win);
  if (it != s.world_of_win.end()) return it->second;
  MPI_Group group;
  PMPI_Win_get_group(win, &group);
  return s.world_of_win.emplace(win, ToWorld(group)).first->second;
}

double TypeBytes(int count, MPI_Datatype type) {
  int size = 0;
  if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0.0;
  return static_cast<double>(count) * size;
}

// Caller holds S().mu. MPI_PROC_NULL needs no rank translation.
void SendLocked(MPI_Comm comm, int dest, double bytes) {
  if (dest < 0) return;
  S().model.Send(WorldRanks(comm), dest, bytes);
}

// Size of comm and this process's rank in it, when a collective on comm is to
// be counted: counting is on and comm is an intracommunicator. Caller holds
// S().mu.
bool CountedIntracomm(MPI_Comm comm, int* size, int* me) {
  if (!S().active || IsInter(comm)) return false;
  PMPI_Comm_size(comm, size);
  PMPI_Comm_rank(comm, me);
  return true;
}

// The send_to(rank, bytes) of the model's decompositions, on comm. Caller
// holds S().mu.
auto SendsOn(MPI_Comm comm) {
  return [comm](int rank, double bytes) { SendLocked(comm, rank, bytes); };
}

// Per-peer blocks on comm, bytes_to(j) for rank j (v and w forms).
template <typename BytesTo>
void RecordPerPeerBytes(MPI_Comm comm, BytesTo bytes_to) {
  Safely([&] {
    std::lock_guard<std::mutex> lock(S().mu);
    int p = 0, me = 0;
    if (!CountedIntracomm(comm, &p, &me)) return;
    ForEachPeer(p, me, bytes_to, SendsOn(comm));
    MaybeSaveLocked();
  });
}

// v forms: counts[j] x type to rank j (a negative count sends nothing).
void RecordPerPeer(MPI_Comm comm, const int* counts, MPI_Datatype type) {
  int type_size = 0;
  PMPI_Type_size(type, &type_size);
  RecordPerPeerBytes(
      comm, [&](int j) { return static_cast<double>(counts[j]) * type_size; });
}

// w forms: counts[j] x types[j] to rank j.
void RecordPerPeer(MPI_Comm comm, const int* counts,
                   const MPI_Datatype* types) {
  RecordPerPeerBytes(comm,
                     [&](int j) { return TypeBytes(counts[j], types[j]); });
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

// Block j, block_bytes(j) bytes, to the j-th neighbourhood destination.
template <typename BlockBytes>
void RecordNeighbourBlocks(MPI_Comm comm, BlockBytes block_bytes) {
  Safely([&] {
    const std::vector<int> dests = NeighbourhoodDestinations(comm);
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    for (size_t j = 0; j < dests.size(); ++j) {
      SendLocked(comm, dests[j], block_bytes(j));
    }
    MaybeSaveLocked();
  });
}

// One-sided traffic with rank `target` of win's group.
void RecordOneSided(MPI_Win win, int target, double put, double got) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active || target < 0) return;
    s.model.OneSided(WindowWorldRanks(win), target, put, got);
    MaybeSaveLocked();
  });
}

}  // namespace

void OnInit() {
  Safely([] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.stopped) return;
    int world_size = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    PMPI_Comm_rank(MPI_COMM_WORLD, &s.world_rank);
    const char* out = std::getenv("RANKMAP_PROFILE_OUT");
    s.prefix = out != nullptr && *out ? out : "rankmap_profile";
    if (const char* every = std::getenv("RANKMAP_PROFILE_FLUSH")) {
      char* end = nullptr;
      const double v = std::strtod(every, &end);
      s.save_every = end != every && std::isfinite(v) ? v : -1.0;
    }
    s.model = TrafficModel(world_size);
    s.last_save = std::chrono::steady_clock::now();
    s.active = true;
    static const bool registered = std::atexit(OnExit) == 0;
    (void)registered;
  });
}

void OnAbort(int error_code) {
  Safely([&] {
    const int rank = S().world_rank;
    EndEarly(absl::StrCat("aborted (MPI_Abort error code ", error_code, ")"),
             absl::StrCat("rank ", rank, " called MPI_Abort (error code ",
                          error_code, ")"));
  });
}

namespace {

// The complete profile: every rank's row gathered on rank 0, which writes it.
void FinalizeProfile() {
  State& s = S();
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    s.active = false;
  }
  const TrafficModel& row = s.model;
  const int n = row.world_size();
  const bool root = s.world_rank == 0;
  // Rank 0 holds four dense n x n matrices: it checks and allocates them first
  // and tells everyone, so that a job too large for a dense profile skips the
  // gather together (each rank then leaves its own row) instead of hanging.
  std::vector<double> bytes, messages, fetched_bytes, fetched_messages;
  std::string why;
  if (root) {
    const int64_t cells = int64_t{n} * n;
    absl::Status fits = base::CheckMemory(
        absl::StrCat("profile: the dense matrices of ", n, " processes"),
        base::SaturatingMulAdd(cells, 4 * 8 + 2 * 16), base::MemoryBudget());
    if (fits.ok()) {
      try {
        bytes.resize(cells);
        messages.resize(cells);
        fetched_bytes.resize(cells);
        fetched_messages.resize(cells);
      } catch (const std::bad_alloc&) {
        fits = absl::ResourceExhaustedError(absl::StrCat(
            "profile: out of memory for the matrices of ", n, " processes"));
      }
    }
    if (!fits.ok()) why = std::string(fits.message());
  }
  int go = why.empty() ? 1 : 0;
  PMPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!go) {
    std::lock_guard<std::mutex> lock(s.mu);
    SaveRowLocked("finished (not gathered)");
    if (root) {
      std::fprintf(stderr,
                   "rankmap: profile not gathered: %s; each rank's row is in "
                   "%s.part.<rank>\n",
                   why.c_str(), s.prefix.c_str());
    }
    return;
  }
  auto gather = [&](const std::vector<double>& from, std::vector<double>& to) {
    PMPI_Gather(from.data(), n, MPI_DOUBLE, to.data(), n, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
  };
  gather(row.bytes(), bytes);
  gather(row.messages(), messages);
  gather(row.fetched_bytes(), fetched_bytes);
  gather(row.fetched_messages(), fetched_messages);
  // The complete profile replaces the rows saved on the way.
  std::remove(RowPath(s.prefix, s.world_rank).c_str());
  if (!root) return;
  AddFetched(n, fetched_bytes, bytes);
  AddFetched(n, fetched_messages, messages);
  absl::Status st = WriteProfile(s.prefix, n, bytes, messages);
  std::remove((s.prefix + ".lock").c_str());
  if (st.ok()) {
    std::fprintf(stderr,
                 "rankmap: traffic of %d processes written to %s.{mat,grf}\n",
                 n, s.prefix.c_str());
  } else {
    std::fprintf(stderr, "rankmap: profile not written: %s\n",
                 std::string(st.message()).c_str());
  }
}

}  // namespace

void OnFinalize() { Safely(FinalizeProfile); }

void ForgetComm(MPI_Comm comm) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    s.world_of.erase(comm);
  });
}

void ForgetWin(MPI_Win win) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    s.world_of_win.erase(win);
  });
}

void RecordSend(MPI_Comm comm, int dest, int count, MPI_Datatype type) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    SendLocked(comm, dest, TypeBytes(count, type));
    MaybeSaveLocked();
  });
}

void RememberPersistent(MPI_Request req, MPI_Comm comm, int dest, int count,
                        MPI_Datatype type) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    s.persistent[req] = {comm, dest, count, type};
  });
}

void StartPersistent(MPI_Request req) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.persistent.find(req);
    if (!s.active || it == s.persistent.end()) return;
    const Persistent& send = it->second;
    SendLocked(send.comm, send.dest, TypeBytes(send.count, send.type));
    MaybeSaveLocked();
  });
}

void ForgetRequest(MPI_Request req) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    s.persistent.erase(req);
  });
}

void RecordCollective(Collective kind, MPI_Comm comm, int root, int count,
                      MPI_Datatype type) {
  Safely([&] {
    const double block_bytes = TypeBytes(count, type);
    std::lock_guard<std::mutex> lock(S().mu);
    int p = 0, me = 0;
    if (!CountedIntracomm(comm, &p, &me)) return;
    ForEachTransfer(kind, p, me, root, block_bytes, SendsOn(comm));
    MaybeSaveLocked();
  });
}

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
    RecordPerPeer(comm, recvcounts, recvtype);
  } else {
    RecordPerPeer(comm, sendcounts, sendtype);
  }
}

void RecordAlltoallw(MPI_Comm comm, const void* sendbuf, const int* sendcounts,
                     const MPI_Datatype* sendtypes, const int* recvcounts,
                     const MPI_Datatype* recvtypes) {
  if (sendbuf == MPI_IN_PLACE) {
    RecordPerPeer(comm, recvcounts, recvtypes);
  } else {
    RecordPerPeer(comm, sendcounts, sendtypes);
  }
}

void RecordScatterv(MPI_Comm comm, int root, const int* sendcounts,
                    MPI_Datatype sendtype) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  if (me == root) RecordPerPeer(comm, sendcounts, sendtype);
}

void RecordReduceScatter(MPI_Comm comm, const int* recvcounts,
                         MPI_Datatype type) {
  RecordPerPeer(comm, recvcounts, type);
}

void RecordNeighbours(MPI_Comm comm, int count, MPI_Datatype type) {
  RecordNeighbourBlocks(comm, [&](size_t) { return TypeBytes(count, type); });
}

void RecordNeighboursV(MPI_Comm comm, const int* counts, MPI_Datatype type) {
  RecordNeighbourBlocks(comm,
                        [&](size_t j) { return TypeBytes(counts[j], type); });
}

void RecordNeighboursW(MPI_Comm comm, const int* counts,
                       const MPI_Datatype* types) {
  RecordNeighbourBlocks(
      comm, [&](size_t j) { return TypeBytes(counts[j], types[j]); });
}

void RecordPut(MPI_Win win, int target, int count, MPI_Datatype type) {
  RecordOneSided(win, target, TypeBytes(count, type), 0);
}

void RecordGet(MPI_Win win, int target, int count, MPI_Datatype type) {
  RecordOneSided(win, target, 0, TypeBytes(count, type));
}

void RecordGetAccumulate(MPI_Win win, int target, MPI_Op op, int count,
                         MPI_Datatype type, int result_count,
                         MPI_Datatype result_type) {
  // MPI_NO_OP sends no operand.
  RecordOneSided(win, target, op == MPI_NO_OP ? 0 : TypeBytes(count, type),
                 TypeBytes(result_count, result_type));
}

void RecordCompareAndSwap(MPI_Win win, int target, MPI_Datatype type) {
  RecordOneSided(win, target, TypeBytes(2, type), TypeBytes(1, type));
}

}  // namespace rankmap::mpi_bindings::profile
