#include "graphs/otf2_test_trace.h"

#include <otf2/otf2.h>

#include "absl/strings/str_cat.h"

namespace rankmap::graphs::testing {
namespace {

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp PostFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks kFlush = {PreFlush, PostFlush};

uint64_t MpiLocation(int32_t rank) { return 1000 + 7 * rank; }
uint64_t ThreadLocation(int32_t rank) { return 5000 + rank; }

}  // namespace

absl::Status WriteTestTrace(const TestTrace& trace, const std::string& dir) {
  OTF2_Archive* archive = OTF2_Archive_Open(
      dir.c_str(), "traces", OTF2_FILEMODE_WRITE, trace.event_chunk_bytes,
      4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (archive == nullptr)
    return absl::InternalError(absl::StrCat("OTF2_Archive_Open ", dir));
  auto check = [&](OTF2_ErrorCode rc, const char* what) {
    return rc == OTF2_SUCCESS ? absl::OkStatus()
                              : absl::InternalError(absl::StrCat(
                                    what, ": ", OTF2_Error_GetName(rc)));
  };
  absl::Status s =
      check(OTF2_Archive_SetFlushCallbacks(archive, &kFlush, nullptr),
            "SetFlushCallbacks");
  if (s.ok())
    s = check(OTF2_Archive_SetSerialCollectiveCallbacks(archive),
              "SetSerialCollectiveCallbacks");
  if (s.ok()) s = check(OTF2_Archive_OpenEvtFiles(archive), "OpenEvtFiles");
  std::vector<uint64_t> events(trace.num_ranks, 0);
  for (int32_t r = 0; s.ok() && r < trace.num_ranks; ++r) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, MpiLocation(r));
    uint64_t t = 1;
    for (const TestSend& send : trace.sends) {
      if (send.sender != r) continue;
      s = check(send.nonblocking
                    ? OTF2_EvtWriter_MpiIsend(w, nullptr, t, send.receiver,
                                              send.comm, 7, send.bytes, t)
                    : OTF2_EvtWriter_MpiSend(w, nullptr, t, send.receiver,
                                             send.comm, 7, send.bytes),
                "MpiSend");
      ++t;
      ++events[r];
      if (!s.ok()) break;
    }
    // Receives are not traffic a sender declares: the reader ignores them.
    if (s.ok()) {
      s = check(OTF2_EvtWriter_MpiRecv(w, nullptr, t, 0, 0, 7, 999999),
                "MpiRecv");
      ++events[r];
    }
    if (s.ok())
      s = check(OTF2_Archive_CloseEvtWriter(archive, w), "CloseEvtWriter");
    OTF2_EvtWriter* thread =
        OTF2_Archive_GetEvtWriter(archive, ThreadLocation(r));
    if (s.ok())
      s = check(OTF2_Archive_CloseEvtWriter(archive, thread), "CloseEvtWriter");
  }
  if (s.ok()) s = check(OTF2_Archive_CloseEvtFiles(archive), "CloseEvtFiles");
  if (s.ok()) s = check(OTF2_Archive_OpenDefFiles(archive), "OpenDefFiles");
  for (int32_t r = 0; s.ok() && r < trace.num_ranks; ++r) {
    for (uint64_t loc : {MpiLocation(r), ThreadLocation(r)}) {
      OTF2_DefWriter* dw = OTF2_Archive_GetDefWriter(archive, loc);
      s = check(OTF2_Archive_CloseDefWriter(archive, dw), "CloseDefWriter");
    }
  }
  if (s.ok()) s = check(OTF2_Archive_CloseDefFiles(archive), "CloseDefFiles");
  if (s.ok()) {
    OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
    uint32_t next_string = 0;
    auto str = [&](const std::string& text) {
      OTF2_GlobalDefWriter_WriteString(g, next_string, text.c_str());
      return next_string++;
    };
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, 1000,
                                              OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(
        g, 0, str("machine"), str("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int32_t r = 0; r < trace.num_ranks; ++r) {
      OTF2_GlobalDefWriter_WriteLocationGroup(
          g, r, str(absl::StrCat("MPI Rank ", r)),
          OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
      OTF2_GlobalDefWriter_WriteLocation(
          g, MpiLocation(r), str(absl::StrCat("Master ", r)),
          OTF2_LOCATION_TYPE_CPU_THREAD, events[r], r);
      OTF2_GlobalDefWriter_WriteLocation(g, ThreadLocation(r),
                                         str(absl::StrCat("Worker ", r)),
                                         OTF2_LOCATION_TYPE_CPU_THREAD, 0, r);
    }
    std::vector<uint64_t> locations;
    for (int32_t r = 0; r < trace.num_ranks; ++r)
      locations.push_back(MpiLocation(r));
    for (uint64_t extra : trace.extra_world_members) locations.push_back(extra);
    const uint32_t group_name = str("");
    OTF2_GlobalDefWriter_WriteGroup(
        g, 0, group_name, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
        OTF2_GROUP_FLAG_NONE, locations.size(), locations.data());
    for (size_t c = 0; c < trace.comms.size(); ++c) {
      std::vector<uint64_t> members(trace.comms[c].begin(),
                                    trace.comms[c].end());
      const uint32_t group = trace.world_shares_group_id ? c : 1 + c;
      OTF2_GlobalDefWriter_WriteGroup(
          g, group, group_name, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
          OTF2_GROUP_FLAG_NONE, members.size(), members.data());
      OTF2_GlobalDefWriter_WriteComm(g, c, str(absl::StrCat("comm ", c)), group,
                                     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    }
  }
  if (s.ok())
    s = check(OTF2_Archive_Close(archive), "Archive_Close");
  else
    OTF2_Archive_Close(archive);
  return s;
}

}  // namespace rankmap::graphs::testing
