// Writes small OTF2 archives with known MPI point-to-point traffic, for the
// OTF2 reader's tests and the CLI tests (a tracer is not needed to check the
// reader: these archives use the same records Score-P and EZTrace write).
//
//   TestTrace t;
//   t.num_ranks = 4;
//   t.comms = {{0, 1, 2, 3}, {3, 1}};             // comm 1: ranks 3 and 1
//   t.sends = {{0, 0, 1, 100, false}, {3, 1, 0, 8, true}};
//   RETURN_IF_ERROR(WriteTestTrace(t, dir));      // dir/traces.otf2
//
// Location ids are deliberately not the ranks (rank r is location 1000 + 7r,
// listed in rank order in the MPI COMM_LOCATIONS group), and every rank has a
// second, MPI-free thread location, so a reader that confuses locations with
// ranks fails.
#ifndef RANKMAP_GRAPHS_OTF2_TEST_TRACE_H_
#define RANKMAP_GRAPHS_OTF2_TEST_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace rankmap::graphs::testing {

struct TestSend {
  int32_t sender;    // world rank
  int32_t comm;      // index into TestTrace::comms
  int32_t receiver;  // rank in that communicator
  uint64_t bytes;
  bool nonblocking;  // MpiIsend instead of MpiSend
};

struct TestTrace {
  int32_t num_ranks = 0;
  // Communicators as lists of world ranks (comm rank i = comms[c][i]).
  std::vector<std::vector<int32_t>> comms;
  std::vector<TestSend> sends;
  // EZTrace's way: the COMM_LOCATIONS group and communicator 0's group share
  // one id (0).
  bool world_shares_group_id = false;
  // Location ids appended to the COMM_LOCATIONS group as further ranks
  // (for traces that list locations they never define, or one twice).
  std::vector<uint64_t> extra_world_members;
  // Size of the event file chunks (OTF2_CHUNK_SIZE_MIN, 256 KiB, at least):
  // traces larger than one chunk have files of several.
  uint64_t event_chunk_bytes = 1024 * 1024;
};

// Writes `dir`/traces.otf2 and its definition and event files. Errors: OTF2
// refuses a call (the message names it).
absl::Status WriteTestTrace(const TestTrace& trace, const std::string& dir);

}  // namespace rankmap::graphs::testing

#endif  // RANKMAP_GRAPHS_OTF2_TEST_TRACE_H_
