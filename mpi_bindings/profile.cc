#include "mpi_bindings/profile.h"

#include <dirent.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/host_name.h"
#include "base/memory_budget.h"
#include "mpi_bindings/collective_model.h"
#include "mpi_bindings/profile_output.h"
#include "mpi_bindings/profile_window.h"
#include "mpi_bindings/traffic_model.h"
#include "topology/machine_xml.h"

namespace rankmap::mpi_bindings::profile {
namespace {

// The model reads negative ranks as "no process".
static_assert(MPI_PROC_NULL < 0 && MPI_UNDEFINED < 0);

#ifdef MPICH
constexpr CollectiveModel kLinkedLibrary = CollectiveModel::kMpich;
#else
constexpr CollectiveModel kLinkedLibrary = CollectiveModel::kOpenMpi;
#endif

struct Persistent {
  MPI_Comm comm;
  int dest, count;
  MPI_Datatype type;
};

struct State {
  std::mutex mu;
  bool initialized = false;  // OnInit ran (every rank joins the finalize)
  bool active = false;
  bool stopped = false;  // an internal failure stopped profiling for good
  int world_rank = 0;
  std::string prefix;
  // Seconds between saves of this process's row (RANKMAP_PROFILE_FLUSH);
  // negative: never.
  double save_every = kDefaultFlushSeconds;
  std::chrono::steady_clock::time_point start, last_save;
  CollectiveModel collectives = kLinkedLibrary;
  ProfileWindow window;
  // What the window counted, and (with marked iterations) the traffic of the
  // iteration in progress.
  TrafficModel counted, pending;
  // Where this rank runs; empty host when it could not be told.
  std::string host;
  std::vector<int32_t> cpus;
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

// Whether AfterCall has anything to do (a function marks iterations); read
// without the lock on every intercepted call.
std::atomic<bool> g_marks_calls{false};

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

double SecondsSinceInit() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       S().start)
      .count();
}

// Where the traffic of a recorded call goes. Caller holds S().mu.
TrafficModel& Target() {
  State& s = S();
  return s.window.settings().marks() ? s.pending : s.counted;
}

// Applies a step of the window to the pending traffic. Caller holds S().mu.
void ApplyLocked(WindowStep step) {
  State& s = S();
  if (step == WindowStep::kCommit) s.pending.MoveInto(&s.counted);
  if (step == WindowStep::kDiscard) s.pending.Clear();
}

// This process's row as saved or gathered. Caller holds S().mu.
ProfileRow RowLocked(const std::string& state) {
  const State& s = S();
  ProfileRow row;
  row.rank = s.world_rank;
  row.world_size = s.counted.world_size();
  row.state = state;
  row.bytes = s.counted.bytes();
  row.messages = s.counted.messages();
  row.fetched_bytes = s.counted.fetched_bytes();
  row.fetched_messages = s.counted.fetched_messages();
  row.window = s.window.Describe();
  row.marks = s.window.settings().marks();
  row.iterations = s.window.iterations();
  row.collectives = std::string(CollectiveModelName(s.collectives));
  row.host = s.host;
  row.cpus = s.cpus;
  return row;
}

// Saves this process's row to prefix.part.<rank>. Caller holds S().mu.
void SaveRowLocked(const std::string& state) {
  State& s = S();
  const absl::Status st = WriteFileAtomically(RowPath(s.prefix, s.world_rank),
                                              FormatRow(RowLocked(state)));
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
// exits): save the row with `state` (an unfinished iteration dropped), merge
// what every rank saved, say where.
void EndEarly(const std::string& state, const std::string& reason) {
  State& s = S();
  int world = 0;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    s.active = false;
    s.pending.Clear();
    SaveRowLocked(state);
    world = s.counted.world_size();
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

int64_t TypeSize(MPI_Datatype type) {
  int size = 0;
  if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) {
    return 0;
  }
  return size;
}

double TypeBytes(int count, MPI_Datatype type) {
  return count <= 0 ? 0.0 : static_cast<double>(count) * TypeSize(type);
}

// Caller holds S().mu. MPI_PROC_NULL needs no rank translation.
void SendLocked(MPI_Comm comm, int dest, double bytes) {
  if (dest < 0) return;
  Target().Send(WorldRanks(comm), dest, bytes);
}

// Whether a recording call's traffic counts: profiling is on and the window
// open (profile_window.h). Every recording call asks once. Caller holds
// S().mu.
bool CountsLocked() {
  State& s = S();
  return s.active && s.window.BeforeRecord(SecondsSinceInit());
}

// Whether an operation commutes and is predefined (the libraries pick
// algorithms by both).
void OpTraits(MPI_Op op, bool* commutative, bool* builtin) {
  *commutative = true;
  *builtin = true;
  if (op == MPI_OP_NULL) return;
  int commute = 1;
  if (PMPI_Op_commutative(op, &commute) == MPI_SUCCESS) {
    *commutative = commute != 0;
  }
  static const MPI_Op kPredefined[] = {
      MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
      MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
      MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  *builtin = std::find(std::begin(kPredefined), std::end(kPredefined), op) !=
             std::end(kPredefined);
}

// Records the sends of `call` on comm (an intracommunicator; others are not
// counted). Caller holds S().mu and has asked CountsLocked.
void CollectiveLocked(MPI_Comm comm, CollectiveCall call) {
  if (IsInter(comm)) return;
  int me = 0;
  PMPI_Comm_size(comm, &call.size);
  PMPI_Comm_rank(comm, &me);
  ForEachCollectiveSend(S().collectives, call, me, [&](int peer, double bytes) {
    SendLocked(comm, peer, bytes);
  });
}

// A collective whose blocks vary per rank: counts[j] x type.
void RecordVariable(CollectiveCall call, MPI_Comm comm, const int* counts,
                    MPI_Datatype type) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!CountsLocked() || IsInter(comm)) return;
    int size = 0;
    PMPI_Comm_size(comm, &size);
    std::vector<int64_t> c(size, 0);
    if (counts != nullptr) {
      for (int j = 0; j < size; ++j) c[j] = std::max(0, counts[j]);
    }
    call.counts = c;
    call.type_size = TypeSize(type);
    CollectiveLocked(comm, call);
    MaybeSaveLocked();
  });
}

// Per-peer bytes of the w forms (and v forms whose sends are per peer): type
// size 1, counts in bytes.
template <typename BytesTo>
void RecordPerPeerBytes(Collective kind, MPI_Comm comm, bool nonblocking,
                        BytesTo bytes_to) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!CountsLocked() || IsInter(comm)) return;
    int size = 0;
    PMPI_Comm_size(comm, &size);
    std::vector<int64_t> c(size);
    for (int j = 0; j < size; ++j) {
      c[j] = static_cast<int64_t>(std::llround(bytes_to(j)));
    }
    CollectiveCall call;
    call.kind = kind;
    call.type_size = 1;
    call.counts = c;
    call.nonblocking = nonblocking;
    CollectiveLocked(comm, call);
    MaybeSaveLocked();
  });
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
    if (!CountsLocked()) return;
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
    if (!CountsLocked() || target < 0) return;
    Target().OneSided(WindowWorldRanks(win), target, put, got);
    MaybeSaveLocked();
  });
}

// The CPUs this process may run on (operating-system indexes); empty when
// the kernel will not say.
std::vector<int32_t> AllowedCpus() {
  std::vector<int32_t> cpus;
  for (size_t n = 1024; n <= static_cast<size_t>(kMaxCpuIndex) + 1; n *= 4) {
    cpu_set_t* set = CPU_ALLOC(n);
    if (set == nullptr) return cpus;
    const size_t bytes = CPU_ALLOC_SIZE(n);
    CPU_ZERO_S(bytes, set);
    const bool ok = sched_getaffinity(0, bytes, set) == 0;
    if (ok) {
      for (size_t c = 0; c < n; ++c) {
        if (CPU_ISSET_S(c, bytes, set)) cpus.push_back(static_cast<int32_t>(c));
      }
    }
    CPU_FREE(set);
    if (ok || errno != EINVAL) return cpus;
  }
  return cpus;
}

// Where this rank runs: its host name, checked against the hostname grammar
// (it ends up in launcher files), and its CPUs. Under Slurm the host is the
// node name Slurm gave the task (SLURMD_NODENAME): the name its hostfiles
// and topology use, which is the machine's own name on most clusters and
// differs where several slurmd share a machine. Caller holds S().mu.
void RecordPlacementLocked() {
  State& s = S();
  char host[256] = "";
  s.cpus = AllowedCpus();
  if (s.cpus.empty()) return;
  if (const char* node = std::getenv("SLURMD_NODENAME");
      node != nullptr && *node != '\0') {
    std::snprintf(host, sizeof(host), "%s", node);
  } else if (gethostname(host, sizeof(host) - 1) != 0) {
    return;
  }
  const absl::Status ok = base::CheckHostName(host);
  if (!ok.ok()) {
    std::fprintf(stderr, "rankmap: rank %d: placement not recorded: %s\n",
                 s.world_rank, std::string(ok.message()).c_str());
    return;
  }
  s.host = host;
}

// The window and model settings; false (with one line on stderr, from rank
// 0) when one is bad: the profiler then records nothing.
bool ReadSettingsLocked() {
  State& s = S();
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v == nullptr ? "" : v);
  };
  absl::StatusOr<WindowSettings> window = ParseWindowSettings(
      env("RANKMAP_PROFILE_MARK"), env("RANKMAP_PROFILE_SKIP"),
      env("RANKMAP_PROFILE_ITERATIONS"));
  absl::StatusOr<CollectiveModel> model =
      ParseCollectiveModel(env("RANKMAP_PROFILE_COLLECTIVES"), kLinkedLibrary);
  absl::StatusOr<double> flush =
      ParseFlushSeconds(env("RANKMAP_PROFILE_FLUSH"));
  const absl::Status bad = !window.ok()  ? window.status()
                           : !model.ok() ? model.status()
                                         : flush.status();
  if (!bad.ok()) {
    if (s.world_rank == 0) {
      std::fprintf(stderr, "rankmap: %s; profiling off, nothing recorded\n",
                   std::string(bad.message()).c_str());
    }
    return false;
  }
  s.window = ProfileWindow(*window);
  s.collectives = *model;
  s.save_every = *flush;
  g_marks_calls = window->mark == WindowSettings::Mark::kFunction;
  return true;
}

}  // namespace

void OnInit() {
  Safely([] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.stopped || s.initialized) return;
    s.initialized = true;
    int world_size = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    PMPI_Comm_rank(MPI_COMM_WORLD, &s.world_rank);
    const char* out = std::getenv("RANKMAP_PROFILE_OUT");
    s.prefix = out != nullptr && *out ? out : "rankmap_profile";
    s.start = s.last_save = std::chrono::steady_clock::now();
    if (!ReadSettingsLocked()) return;
    s.counted = TrafficModel(world_size);
    s.pending = TrafficModel(world_size);
    RecordPlacementLocked();
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

void OnPcontrol(int level) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    ApplyLocked(s.window.Pcontrol(level, SecondsSinceInit()));
  });
}

void AfterCall(const char* name) {
  if (!g_marks_calls.load(std::memory_order_relaxed)) return;
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.active) return;
    ApplyLocked(s.window.AfterCall(name, SecondsSinceInit()));
  });
}

namespace {

// The rows every rank counted, gathered on rank 0.
struct Gathered {
  std::vector<double> bytes, messages, fetched_bytes, fetched_messages;
  std::vector<double> iterations;
};

// Whether the job gathers a complete profile: profiling is on on every rank
// and rank 0 has room for four dense n x n matrices (checked and allocated
// before anyone sends, so that a job too large for a dense profile skips the
// gather together, each rank leaving its row, instead of hanging).
bool AgreeToGather(int n, bool on, bool root, Gathered* g, std::string* why) {
  int ok = on ? 1 : 0;
  if (root && on) {
    const int64_t cells = int64_t{n} * n;
    absl::Status fits = base::CheckMemory(
        absl::StrCat("profile: the dense matrices of ", n, " processes"),
        base::SaturatingMulAdd(cells, 4 * 8 + 2 * 16), base::MemoryBudget());
    if (fits.ok()) {
      try {
        for (auto* v : {&g->bytes, &g->messages, &g->fetched_bytes,
                        &g->fetched_messages}) {
          v->resize(cells);
        }
        g->iterations.resize(n);
      } catch (const std::bad_alloc&) {
        fits = absl::ResourceExhaustedError(absl::StrCat(
            "profile: out of memory for the matrices of ", n, " processes"));
      }
    }
    if (!fits.ok()) {
      *why = std::string(fits.message());
      ok = 0;
    }
  }
  int all = 0;
  PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

void GatherRows(const ProfileRow& row, Gathered* g) {
  const int n = row.world_size;
  auto gather = [&](const std::vector<double>& from, std::vector<double>& to) {
    PMPI_Gather(from.data(), n, MPI_DOUBLE, to.data(), n, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
  };
  gather(row.bytes, g->bytes);
  gather(row.messages, g->messages);
  gather(row.fetched_bytes, g->fetched_bytes);
  gather(row.fetched_messages, g->fetched_messages);
  double iterations = static_cast<double>(row.iterations);
  PMPI_Gather(&iterations, 1, MPI_DOUBLE, g->iterations.data(), 1, MPI_DOUBLE,
              0, MPI_COMM_WORLD);
}

// Every rank's "<host> <cpu list>" ("" when unknown) on rank 0, in rank
// order; false on every rank when rank 0 has no room for them.
bool GatherPlacement(const ProfileRow& row, bool root,
                     std::vector<std::string>* lines) {
  const int n = row.world_size;
  const std::string mine =
      row.host.empty() ? "" : row.host + " " + FormatCpuList(row.cpus);
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(root ? n : 0), offsets(root ? n : 0);
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0,
              MPI_COMM_WORLD);
  int64_t total = 0;
  for (int i = 0; i < static_cast<int>(lengths.size()); ++i) {
    offsets[i] = static_cast<int>(std::min<int64_t>(total, INT32_MAX));
    total += lengths[i];
  }
  int go =
      total < INT32_MAX &&
      base::CheckMemory("profile: placement", total * 2, base::MemoryBudget())
          .ok();
  PMPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!go) return false;
  std::string all(root ? total : 0, '\0');
  PMPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(),
               offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  for (int i = 0; i < static_cast<int>(lengths.size()); ++i) {
    lines->push_back(all.substr(offsets[i], lengths[i]));
  }
  return true;
}

// Rank 0 writes prefix.placement when every rank said where it ran.
void WritePlacementFile(const std::string& prefix,
                        const std::vector<std::string>& lines) {
  std::vector<RankPlacement> ranks;
  std::vector<int32_t> unknown;
  for (int r = 0; r < static_cast<int>(lines.size()); ++r) {
    const size_t space = lines[r].find(' ');
    absl::StatusOr<std::vector<int32_t>> cpus =
        space == std::string::npos
            ? absl::InvalidArgumentError("unknown")
            : ParseCpuList(std::string_view(lines[r]).substr(space + 1),
                           kMaxCpuIndex + 1);
    if (!cpus.ok()) {
      unknown.push_back(r);
      continue;
    }
    ranks.push_back({r, lines[r].substr(0, space), *std::move(cpus)});
  }
  if (!unknown.empty()) {
    std::fprintf(stderr,
                 "rankmap: %s not written: %zu ranks could not tell their "
                 "host or CPUs (rank %d first)\n",
                 PlacementPath(prefix).c_str(), unknown.size(), unknown[0]);
    return;
  }
  const absl::Status st = WriteFileAtomically(
      PlacementPath(prefix),
      FormatPlacement(ranks, static_cast<int32_t>(lines.size()), ""));
  if (!st.ok()) {
    std::fprintf(stderr, "rankmap: placement not written: %s\n",
                 std::string(st.message()).c_str());
  }
}

// The job's own hardware: the lowest rank on each host (by the gathered
// placement lines, "<host> <cpus>", on rank 0) exports its machine into
// prefix.hwloc/<host>.xml. Collective; stale exports are removed first.
void WriteHostHardware(const std::string& prefix, const ProfileRow& row,
                       bool root, const std::vector<std::string>& lines) {
  const std::string dir = HardwareDirectory(prefix);
  std::vector<int> writes(root ? lines.size() : 0, 0);
  if (root) {
    std::vector<std::string> seen;
    for (size_t r = 0; r < lines.size(); ++r) {
      const std::string host = lines[r].substr(0, lines[r].find(' '));
      if (host.empty() ||
          std::find(seen.begin(), seen.end(), host) != seen.end())
        continue;
      seen.push_back(host);
      writes[r] = 1;
    }
    mkdir(dir.c_str(), 0755);
    if (DIR* d = opendir(dir.c_str())) {
      while (const dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".xml") == 0)
          std::remove((dir + "/" + name).c_str());
      }
      closedir(d);
    }
  }
  int mine = 0;
  PMPI_Scatter(writes.data(), 1, MPI_INT, &mine, 1, MPI_INT, 0,
               MPI_COMM_WORLD);
  if (!mine) return;
  absl::StatusOr<std::string> xml = topology::ThisMachineXml();
  mkdir(dir.c_str(), 0755);
  const absl::Status st =
      xml.ok() ? WriteFileAtomically(dir + "/" + row.host + ".xml", *xml)
               : xml.status();
  if (!st.ok()) {
    std::fprintf(stderr, "rankmap: hardware of %s not written: %s\n",
                 row.host.c_str(), std::string(st.message()).c_str());
  }
}

// Rank 0: the matrices (fetched traffic folded in) and the header.
void WriteGathered(const std::string& prefix, const ProfileRow& row,
                   Gathered* g) {
  const int n = row.world_size;
  AddFetched(n, g->fetched_bytes, g->bytes);
  AddFetched(n, g->fetched_messages, g->messages);
  ProfileNotes notes;
  notes.window =
      ProfileHeader(row.window, row.marks, g->iterations, row.collectives);
  notes.facts =
      ProfileFacts(row.window, row.marks, g->iterations, row.collectives);
  const absl::Status st = WriteProfile(prefix, n, g->bytes, g->messages, notes);
  std::remove((prefix + ".lock").c_str());
  if (st.ok()) {
    std::fprintf(stderr,
                 "rankmap: traffic of %d processes written to %s.{mat,grf}\n",
                 n, prefix.c_str());
  } else {
    std::fprintf(stderr, "rankmap: profile not written: %s\n",
                 std::string(st.message()).c_str());
  }
}

// The complete profile: every rank's row (per iteration when iterations are
// marked) and placement gathered on rank 0, which writes them.
void FinalizeProfile() {
  State& s = S();
  ProfileRow row;
  bool on = false;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.initialized) return;
    s.initialized = false;
    on = s.active;
    s.active = false;
    if (on) {
      ApplyLocked(s.window.Finalize());
      row = RowLocked("finished");
      PerIteration(&row);
    }
  }
  int n = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &n);
  const bool root = s.world_rank == 0;
  Gathered g;
  std::string why;
  if (!AgreeToGather(n, on, root, &g, &why)) {
    if (!on) return;
    std::lock_guard<std::mutex> lock(s.mu);
    SaveRowLocked("finished (not gathered)");
    if (root) {
      std::fprintf(
          stderr,
          "rankmap: profile not gathered: %s; each rank's row is in "
          "%s.part.<rank>\n",
          why.empty() ? "profiling stopped on some ranks" : why.c_str(),
          s.prefix.c_str());
    }
    return;
  }
  GatherRows(row, &g);
  std::vector<std::string> placement;
  const bool placed = GatherPlacement(row, root, &placement);
  if (placed) WriteHostHardware(s.prefix, row, root, placement);
  // The complete profile replaces the rows saved on the way.
  std::remove(RowPath(s.prefix, s.world_rank).c_str());
  if (!root) return;
  WriteGathered(s.prefix, row, &g);
  if (placed) WritePlacementFile(s.prefix, placement);
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
    if (!CountsLocked()) return;
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
    if (it == s.persistent.end() || !CountsLocked()) return;
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

void RecordCollective(const CollectiveArgs& args) {
  Safely([&] {
    State& s = S();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!CountsLocked()) return;
    CollectiveCall call;
    call.kind = args.kind;
    call.root = args.root;
    call.count = std::max(0, args.count);
    call.type_size = TypeSize(args.type);
    OpTraits(args.op, &call.commutative, &call.builtin_op);
    call.in_place = args.in_place;
    call.nonblocking = args.nonblocking;
    CollectiveLocked(args.comm, call);
    MaybeSaveLocked();
  });
}

void RecordAllgatherv(MPI_Comm comm, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, const int* recvcounts,
                      MPI_Datatype recvtype, bool nonblocking) {
  (void)sendcount;
  (void)sendtype;  // every rank's block is in recvcounts x recvtype
  CollectiveCall call;
  call.kind = Collective::kAllgatherv;
  call.in_place = sendbuf == MPI_IN_PLACE;
  call.nonblocking = nonblocking;
  RecordVariable(call, comm, recvcounts, recvtype);
}

void RecordAlltoallv(MPI_Comm comm, const void* sendbuf, const int* sendcounts,
                     MPI_Datatype sendtype, const int* recvcounts,
                     MPI_Datatype recvtype, bool nonblocking) {
  CollectiveCall call;
  call.kind = Collective::kAlltoallv;
  call.in_place = sendbuf == MPI_IN_PLACE;
  call.nonblocking = nonblocking;
  if (call.in_place) {
    RecordVariable(call, comm, recvcounts, recvtype);
  } else {
    RecordVariable(call, comm, sendcounts, sendtype);
  }
}

void RecordAlltoallw(MPI_Comm comm, const void* sendbuf, const int* sendcounts,
                     const MPI_Datatype* sendtypes, const int* recvcounts,
                     const MPI_Datatype* recvtypes, bool nonblocking) {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const int* counts = in_place ? recvcounts : sendcounts;
  const MPI_Datatype* types = in_place ? recvtypes : sendtypes;
  RecordPerPeerBytes(Collective::kAlltoallv, comm, nonblocking,
                     [&](int j) { return TypeBytes(counts[j], types[j]); });
}

void RecordGatherv(MPI_Comm comm, int root, int sendcount,
                   MPI_Datatype sendtype, bool nonblocking) {
  CollectiveArgs args;
  args.kind = Collective::kGatherv;
  args.comm = comm;
  args.root = root;
  args.count = sendcount;
  args.type = sendtype;
  args.nonblocking = nonblocking;
  RecordCollective(args);
}

void RecordScatterv(MPI_Comm comm, int root, const int* sendcounts,
                    MPI_Datatype sendtype, bool nonblocking) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  CollectiveCall call;
  call.kind = Collective::kScatterv;
  call.root = root;
  call.nonblocking = nonblocking;
  // The send counts mean something on the root only.
  RecordVariable(call, comm, me == root ? sendcounts : nullptr, sendtype);
}

void RecordReduceScatter(MPI_Comm comm, const int* recvcounts,
                         MPI_Datatype type, MPI_Op op, bool nonblocking) {
  CollectiveCall call;
  call.kind = Collective::kReduceScatter;
  call.nonblocking = nonblocking;
  Safely([&] { OpTraits(op, &call.commutative, &call.builtin_op); });
  RecordVariable(call, comm, recvcounts, type);
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
