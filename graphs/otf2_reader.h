// Traffic of an MPI program from an OTF2 trace (Score-P, EZTrace and other
// tracers write OTF2), read with libotf2: bytes and messages per (sender,
// receiver) in MPI_COMM_WORLD ranks, from the point-to-point send events
// (MpiSend, MpiIsend; receives would count each message twice).
//
//   ASSIGN_OR_RETURN(Otf2Traffic t, ReadOtf2Traffic("scorep-run/traces.otf2"));
//   ASSIGN_OR_RETURN(CommGraph g, TrafficGraph(t));   // bytes as weights
//
// Ranks: the MPI COMM_LOCATIONS group lists the locations of world ranks 0, 1,
// ... in order; a send's location is its sender (a thread location counts
// for the rank of its process, its location group); its receiver is a rank of
// the event's communicator, translated to a world rank through the
// communicator's group (COMM_SELF: the sender itself; groups flagged
// GLOBAL_MEMBERS are already world ranks). Local definition files are read so
// that their mapping tables apply.
#ifndef RANKMAP_GRAPHS_OTF2_READER_H_
#define RANKMAP_GRAPHS_OTF2_READER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"

namespace rankmap::graphs {

struct Otf2Traffic {
  struct Pair {
    int32_t sender = 0;
    int32_t receiver = 0;
    uint64_t bytes = 0;
    uint64_t messages = 0;
  };
  int32_t num_ranks = 0;
  // One entry per (sender, receiver) with traffic, sorted by sender, then
  // receiver; self-sends included.
  std::vector<Pair> pairs;
};

// True when `head` (the first bytes of a file) is an OTF2 anchor file.
bool LooksLikeOtf2Anchor(std::string_view head);

// Reads the archive whose anchor file (traces.otf2) is `anchor_path`. libotf2
// trusts its files, so they are checked before it reads them: the anchor is
// loaded once in a child process (a damaged count looped for minutes), every
// file it will open must be a regular file (a FIFO blocked it) with the chunk
// layout of an uncompressed POSIX archive (the only kind read; a file cut
// inside its last chunk looped forever), and each location must yield at
// least the events its definition declares (a lost chunk dropped a rank's
// sends silently). Errors name the file and what was wrong (cannot open;
// `path:1: not an OTF2 archive ...` for files without the anchor header or
// that libotf2 refuses; a file that is not regular or breaks the layout; a
// location with fewer events than declared; the location and event position
// for events that name an unknown communicator or a receiver outside it; no
// MPI COMM_LOCATIONS group, or one listing an undefined location or one
// twice). O(events + definitions).
absl::StatusOr<Otf2Traffic> ReadOtf2Traffic(const std::string& anchor_path);

// The symmetric communication graph of the traffic: w(i, j) = bytes i -> j +
// bytes j -> i; self-sends dropped.
absl::StatusOr<CommGraph> TrafficGraph(const Otf2Traffic& traffic);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_OTF2_READER_H_
