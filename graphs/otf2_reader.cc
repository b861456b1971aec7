#include "graphs/otf2_reader.h"

#include <fcntl.h>
#include <otf2/otf2.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "base/file.h"
#include "base/status_macros.h"

namespace rankmap::graphs {
namespace {

constexpr uint64_t kMaxRanks = uint64_t{1} << 24;

// libotf2 prints its errors on stderr unless a callback is registered; the
// registration is process-wide, so one callback keeps the last message of the
// calling thread for our error text.
thread_local std::string last_otf2_error;

OTF2_ErrorCode KeepError(void*, const char*, uint64_t, const char*,
                         OTF2_ErrorCode code, const char* format, va_list va) {
  char buf[512];
  std::vsnprintf(buf, sizeof buf, format, va);
  last_otf2_error = buf;
  return code;
}

void SilenceLibotf2() {
  static std::once_flag once;
  std::call_once(once, [] { OTF2_Error_RegisterCallback(KeepError, nullptr); });
}

struct Group {
  OTF2_GroupType type;
  OTF2_Paradigm paradigm;
  OTF2_GroupFlag flags;
  std::vector<uint64_t> members;
};

struct Definitions {
  std::unordered_map<uint64_t, uint32_t> location_group;   // location -> group
  std::unordered_map<uint64_t, uint64_t> location_events;  // as defined
  // The MPI COMM_LOCATIONS group apart from the others: EZTrace gives it the
  // id of MPI_COMM_WORLD's COMM_GROUP, so one id names both.
  Group world;
  bool have_world = false;
  std::unordered_map<uint32_t, Group> groups;
  std::unordered_map<uint32_t, uint32_t> comm_group;  // comm -> group
  std::vector<uint64_t> locations;
};

OTF2_CallbackCode OnLocation(void* data, OTF2_LocationRef self, OTF2_StringRef,
                             OTF2_LocationType, uint64_t events,
                             OTF2_LocationGroupRef group) {
  auto* d = static_cast<Definitions*>(data);
  d->location_group[self] = group;
  d->location_events[self] = events;
  d->locations.push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnGroup(void* data, OTF2_GroupRef self, OTF2_StringRef,
                          OTF2_GroupType type, OTF2_Paradigm paradigm,
                          OTF2_GroupFlag flags, uint32_t n,
                          const uint64_t* members) {
  auto* d = static_cast<Definitions*>(data);
  Group g = {type, paradigm, flags,
             std::vector<uint64_t>(members, members + n)};
  if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI) {
    if (!d->have_world) d->world = std::move(g);
    d->have_world = true;
  } else {
    d->groups[self] = std::move(g);
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnComm(void* data, OTF2_CommRef self, OTF2_StringRef,
                         OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
  static_cast<Definitions*>(data)->comm_group[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}

struct Events {
  const std::string* path;
  const Definitions* defs;
  std::unordered_map<uint64_t, int32_t> rank_of_location;
  std::unordered_map<uint32_t, int32_t> rank_of_location_group;
  const Group* world = nullptr;
  std::map<std::pair<int32_t, int32_t>, Otf2Traffic::Pair> pairs;
  absl::Status status;
};

OTF2_CallbackCode OnSend(OTF2_LocationRef location, uint64_t position,
                         void* data, uint32_t receiver, OTF2_CommRef comm,
                         uint64_t bytes) {
  auto* e = static_cast<Events*>(data);
  auto fail = [&](const std::string& what) {
    e->status = absl::InvalidArgumentError(absl::StrCat(
        *e->path, ": location ", location, ", event ", position, ": ", what));
    return OTF2_CALLBACK_INTERRUPT;
  };
  int32_t sender = -1;
  if (auto it = e->rank_of_location.find(location);
      it != e->rank_of_location.end()) {
    sender = it->second;
  } else if (auto g = e->defs->location_group.find(location);
             g != e->defs->location_group.end()) {
    if (auto r = e->rank_of_location_group.find(g->second);
        r != e->rank_of_location_group.end())
      sender = r->second;
  }
  if (sender < 0) return fail("the sending location is no MPI rank");
  auto cg = e->defs->comm_group.find(comm);
  if (cg == e->defs->comm_group.end())
    return fail(absl::StrCat("communicator ", comm, " is not defined"));
  auto grp = e->defs->groups.find(cg->second);
  if (grp == e->defs->groups.end()) {
    return fail(absl::StrCat("communicator ", comm, " has undefined group ",
                             cg->second));
  }
  const Group& g = grp->second;
  int64_t world = -1;
  if (g.type == OTF2_GROUP_TYPE_COMM_SELF) {
    world = sender;
  } else if (g.flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) {
    world = receiver;
  } else if (receiver < g.members.size()) {
    world = static_cast<int64_t>(g.members[receiver]);
  } else {
    return fail(absl::StrCat("receiver ", receiver, " is outside communicator ",
                             comm, " (", g.members.size(), " ranks)"));
  }
  if (world < 0 || world >= static_cast<int64_t>(e->world->members.size())) {
    return fail(absl::StrCat("receiver ", receiver, " of communicator ", comm,
                             " is world rank ", world, ", not one of the ",
                             e->world->members.size()));
  }
  Otf2Traffic::Pair& p = e->pairs[{sender, static_cast<int32_t>(world)}];
  p.sender = sender;
  p.receiver = static_cast<int32_t>(world);
  p.bytes += bytes;
  ++p.messages;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnMpiSend(OTF2_LocationRef location, OTF2_TimeStamp,
                            uint64_t position, void* data, OTF2_AttributeList*,
                            uint32_t receiver, OTF2_CommRef comm, uint32_t,
                            uint64_t bytes) {
  return OnSend(location, position, data, receiver, comm, bytes);
}

OTF2_CallbackCode OnMpiIsend(OTF2_LocationRef location, OTF2_TimeStamp,
                             uint64_t position, void* data, OTF2_AttributeList*,
                             uint32_t receiver, OTF2_CommRef comm, uint32_t,
                             uint64_t bytes, uint64_t) {
  return OnSend(location, position, data, receiver, comm, bytes);
}

// libotf2 opens the archive's other files itself, by names derived from the
// anchor's (POSIX substrate): <stem>.def, the global definitions, and
// <stem>/<location>.def and .evt per location.
std::string ArchiveStem(const std::string& anchor) {
  constexpr std::string_view kExtension = ".otf2";
  return anchor.size() > kExtension.size() &&
                 anchor.compare(anchor.size() - kExtension.size(),
                                kExtension.size(), kExtension) == 0
             ? anchor.substr(0, anchor.size() - kExtension.size())
             : anchor;
}

// OK when `path` is a regular file, or absent and not `required`: libotf2
// would block forever opening a FIFO in its place, or read a device.
absl::Status CheckTraceFile(const std::string& path, bool required,
                            std::string_view what) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT && !required) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": cannot open ", std::string(what), ": ", std::strerror(errno)));
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not a regular file (expected ", std::string(what), ")"));
  }
  return absl::OkStatus();
}

// The chunk layout every OTF2 writer leaves in an uncompressed file: chunks
// of exactly `chunk` bytes (zero padded) but the last, each opening with a
// chunk header record, the last closing with the end-of-file record (and an
// end-of-chunk one). libotf2 reads whole chunks into a buffer it does not
// clear: past the end of a truncated file it parses what the buffer held
// before, and loops forever or drops events without an error. So a file
// must show this layout before libotf2 sees it. Absent files pass (see
// CheckTraceFile).
constexpr uint8_t kChunkHeader = 0x03;
constexpr uint8_t kEndOfChunk = 0x01;
constexpr uint8_t kEndOfFile = 0x02;

absl::Status CheckChunks(const std::string& path, uint64_t chunk,
                         std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::OkStatus();
  in.seekg(0, std::ios::end);
  const uint64_t size = static_cast<uint64_t>(in.tellg());
  const auto byte_at = [&](uint64_t at) {
    in.seekg(static_cast<std::streamoff>(at));
    return static_cast<uint8_t>(in.get());
  };
  const auto broken = [&](const std::string& why) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", std::string(what), " ", why,
                     " (a truncated or damaged OTF2 file)"));
  };
  if (size < 2) return broken(absl::StrCat("of ", size, " bytes"));
  for (uint64_t at = 0; at < size; at += chunk) {
    if (byte_at(at) != kChunkHeader) {
      return broken(absl::StrCat("has no chunk header at byte ", at));
    }
  }
  const uint8_t last = byte_at(size - 1);
  if (last != kEndOfFile &&
      !(last == kEndOfChunk && byte_at(size - 2) == kEndOfFile)) {
    return broken(absl::StrCat("ends without its end-of-file record (", size,
                               " bytes, chunks of ", chunk, ")"));
  }
  return absl::OkStatus();
}

// libotf2 loads the anchor file (a few dozen bytes) trusting the counts in
// it: one damaged byte made it loop for minutes. The load is tried first in
// a child process with 5 s; a load that does not finish, or crashes, refuses
// the file. (The larger definition and event files survive byte mutations:
// the mutation test reads thousands.)
absl::Status CheckAnchorLoads(const std::string& path) {
  constexpr auto kLimit = std::chrono::seconds(5);
  const pid_t pid = fork();
  if (pid < 0) return absl::OkStatus();  // cannot try: read as before
  if (pid == 0) {
    const struct rlimit cpu = {6, 6};
    setrlimit(RLIMIT_CPU, &cpu);
#ifndef __SANITIZE_ADDRESS__  // ASan's allocator needs its address space
    // A damaged count once asked calloc for 30 GB: 1 GiB beyond what the
    // process maps already is plenty for an anchor.
    char statm[64] = {};
    const int fd = open("/proc/self/statm", O_RDONLY);
    if (fd >= 0 && read(fd, statm, sizeof statm - 1) > 0) {
      const rlim_t mapped =
          static_cast<rlim_t>(std::strtoull(statm, nullptr, 10)) *
          static_cast<rlim_t>(sysconf(_SC_PAGESIZE));
      const struct rlimit as = {mapped + (rlim_t{1} << 30),
                                mapped + (rlim_t{1} << 30)};
      struct rlimit now;
      if (getrlimit(RLIMIT_AS, &now) == 0 && as.rlim_cur < now.rlim_cur)
        setrlimit(RLIMIT_AS, &as);
    }
#endif
    OTF2_Reader* r = OTF2_Reader_Open(path.c_str());
    _exit(r != nullptr ? 0 : 1);
  }
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) != pid) {
    if (std::chrono::steady_clock::now() - start > kLimit) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return absl::InvalidArgumentError(absl::StrCat(
          path,
          ":1: not a readable OTF2 anchor file (libotf2 did not load it "
          "in 5 s: a damaged file)"));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (WIFSIGNALED(status)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path,
        ":1: not a readable OTF2 anchor file (libotf2 failed on it "
        "with signal ",
        WTERMSIG(status), ")"));
  }
  return absl::OkStatus();
}

// Rank r is the r-th member of the MPI COMM_LOCATIONS group: each member must
// be a defined location, and only once.
absl::Status IndexWorldRanks(const std::string& path, const Definitions& defs,
                             Events& events) {
  for (size_t rank = 0; rank < events.world->members.size(); ++rank) {
    const uint64_t loc = events.world->members[rank];
    const auto g = defs.location_group.find(loc);
    if (g == defs.location_group.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": the MPI COMM_LOCATIONS group lists location ", loc,
          " as rank ", rank, ", but no such location is defined"));
    }
    if (!events.rank_of_location.emplace(loc, static_cast<int32_t>(rank))
             .second) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": the MPI COMM_LOCATIONS group lists location ", loc,
          " twice (ranks ", events.rank_of_location[loc], " and ", rank, ")"));
    }
    events.rank_of_location_group.emplace(g->second, rank);
  }
  return absl::OkStatus();
}

class Reader {
 public:
  explicit Reader(const std::string& path)
      : reader_(OTF2_Reader_Open(path.c_str())) {}
  ~Reader() {
    if (reader_ != nullptr) OTF2_Reader_Close(reader_);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  OTF2_Reader* get() const { return reader_; }

 private:
  OTF2_Reader* reader_;
};

}  // namespace

bool LooksLikeOtf2Anchor(std::string_view head) {
  return head.size() >= 6 && head.substr(2, 4) == "OTF2";
}

absl::StatusOr<Otf2Traffic> ReadOtf2Traffic(const std::string& path) {
  // libotf2 leaks what it allocated when it refuses a file: check the anchor's
  // header first, so plain text or a missing file never reaches it.
  ASSIGN_OR_RETURN(const std::string anchor,
                   base::ReadFile(path, "OTF2 anchor file", int64_t{1} << 20));
  if (!LooksLikeOtf2Anchor(anchor)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":1: not an OTF2 archive (no OTF2 anchor header)"));
  }
  const std::string stem = ArchiveStem(path);
  RETURN_IF_ERROR(
      CheckTraceFile(stem + ".def", true, "the OTF2 global definitions"));
  SilenceLibotf2();
  RETURN_IF_ERROR(CheckAnchorLoads(path));
  last_otf2_error.clear();
  auto otf2_error = [&](OTF2_ErrorCode rc, const char* what) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", what, ": ",
                     last_otf2_error.empty() ? OTF2_Error_GetDescription(rc)
                                             : last_otf2_error));
  };
  Reader reader(path);
  if (reader.get() == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ":1: not an OTF2 archive",
        last_otf2_error.empty() ? "" : absl::StrCat(": ", last_otf2_error)));
  }
  OTF2_Reader* r = reader.get();
  OTF2_ErrorCode rc = OTF2_Reader_SetSerialCollectiveCallbacks(r);
  if (rc != OTF2_SUCCESS) return otf2_error(rc, "cannot set up the reader");
  // The file checks below know the layout of uncompressed POSIX archives
  // (what Score-P and EZTrace write); others are refused rather than read
  // unchecked.
  OTF2_FileSubstrate substrate = OTF2_SUBSTRATE_UNDEFINED;
  OTF2_Compression compression = OTF2_COMPRESSION_UNDEFINED;
  uint64_t evt_chunk = 0, def_chunk = 0;
  if (OTF2_Reader_GetFileSubstrate(r, &substrate) != OTF2_SUCCESS ||
      OTF2_Reader_GetCompression(r, &compression) != OTF2_SUCCESS ||
      OTF2_Reader_GetChunkSize(r, &evt_chunk, &def_chunk) != OTF2_SUCCESS ||
      substrate != OTF2_SUBSTRATE_POSIX ||
      compression != OTF2_COMPRESSION_NONE || evt_chunk == 0 ||
      def_chunk == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        path,
        ":1: only uncompressed OTF2 archives of the POSIX substrate "
        "are read"));
  }
  RETURN_IF_ERROR(
      CheckChunks(stem + ".def", def_chunk, "the global definitions"));
  Definitions defs;
  {
    OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(r);
    if (gdr == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":1: not an OTF2 archive: no global definitions"));
    }
    OTF2_GlobalDefReaderCallbacks* cb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, OnLocation);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, OnGroup);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, OnComm);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, cb, &defs);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t read = 0;
    rc = OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &read);
    if (rc != OTF2_SUCCESS) return otf2_error(rc, "bad global definitions");
    OTF2_Reader_CloseGlobalDefReader(r, gdr);
  }
  Events events;
  events.path = &path;
  events.defs = &defs;
  if (defs.have_world) events.world = &defs.world;
  if (events.world == nullptr || events.world->members.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": no MPI COMM_LOCATIONS group: the trace holds no MPI ranks"));
  }
  if (events.world->members.size() > kMaxRanks) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": more than ", kMaxRanks, " MPI ranks"));
  }
  RETURN_IF_ERROR(IndexWorldRanks(path, defs, events));
  for (uint64_t loc : defs.locations) {
    const std::string local = absl::StrCat(stem, "/", loc);
    RETURN_IF_ERROR(
        CheckTraceFile(local + ".def", false, "OTF2 local definitions"));
    RETURN_IF_ERROR(
        CheckTraceFile(local + ".evt", false, "an OTF2 event file"));
    RETURN_IF_ERROR(
        CheckChunks(local + ".def", def_chunk, "local definitions"));
    RETURN_IF_ERROR(CheckChunks(local + ".evt", evt_chunk, "event file"));
    OTF2_Reader_SelectLocation(r, loc);
  }
  const bool have_defs = OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS;
  rc = OTF2_Reader_OpenEvtFiles(r);
  if (rc != OTF2_SUCCESS) return otf2_error(rc, "cannot open the event files");
  std::vector<OTF2_EvtReader*> readers;
  for (uint64_t loc : defs.locations) {
    if (have_defs) {
      // Local definitions carry the mapping tables of local ids; files may
      // be absent.
      if (OTF2_DefReader* dr = OTF2_Reader_GetDefReader(r, loc)) {
        uint64_t n = 0;
        OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
        OTF2_Reader_CloseDefReader(r, dr);
      }
    }
    OTF2_EvtReader* er = OTF2_Reader_GetEvtReader(r, loc);
    if (er == nullptr) {
      return otf2_error(OTF2_ERROR_INVALID_ARGUMENT,
                        absl::StrCat("no events for location ", loc).c_str());
    }
    readers.push_back(er);
  }
  if (have_defs) OTF2_Reader_CloseDefFiles(r);
  OTF2_EvtReaderCallbacks* ecb = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(ecb, OnMpiSend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(ecb, OnMpiIsend);
  for (size_t i = 0; i < readers.size(); ++i) {
    OTF2_EvtReader* er = readers[i];
    OTF2_Reader_RegisterEvtCallbacks(r, er, ecb, &events);
    uint64_t n = 0;
    rc = OTF2_Reader_ReadAllLocalEvents(r, er, &n);
    if (!events.status.ok()) break;
    if (rc != OTF2_SUCCESS) {
      OTF2_EvtReaderCallbacks_Delete(ecb);
      return otf2_error(rc, "bad event file");
    }
    // A file that lost whole chunks reads as fewer events: the definitions
    // say how many the tracer recorded. (EZTrace declares fewer than it
    // writes, 2 for 22: more is no loss.)
    const uint64_t loc = defs.locations[i];
    if (const uint64_t declared = defs.location_events[loc]; n < declared) {
      events.status = absl::InvalidArgumentError(absl::StrCat(
          stem, "/", loc, ".evt: ", n,
          " events read, but the definition of "
          "location ",
          loc, " says ", declared, " (a truncated or altered event file)"));
      break;
    }
  }
  OTF2_EvtReaderCallbacks_Delete(ecb);
  RETURN_IF_ERROR(events.status);
  OTF2_Reader_CloseEvtFiles(r);
  Otf2Traffic traffic;
  traffic.num_ranks = static_cast<int32_t>(events.world->members.size());
  for (const auto& [key, p] : events.pairs) traffic.pairs.push_back(p);
  return traffic;
}

absl::StatusOr<CommGraph> TrafficGraph(const Otf2Traffic& traffic) {
  CommGraphBuilder b(traffic.num_ranks);
  for (const Otf2Traffic::Pair& p : traffic.pairs) {
    if (p.sender == p.receiver) continue;
    RETURN_IF_ERROR(
        b.AddEdge(p.sender, p.receiver, static_cast<double>(p.bytes)));
  }
  return std::move(b).Build();
}

}  // namespace rankmap::graphs
