// Traffic with message counts: bytes and messages per pair, read together.
//
// A profile (librankmap_profile.so) writes what each pair sent twice: bytes in
// `app.mat` / `app.grf` and messages in `app.msgs.mat`. Message counts are what
// a latency-bound application's time depends on (2,000 messages of 340 bytes
// cost 2,000 latencies, not one), so they travel with the bytes into the
// CommGraph (CommGraph::adjmsg) and from there into the time objective and the
// message-faithful replay. Any format can carry them: the counts are a second
// graph file of the same processes, in any format rankmap reads, whose weights
// are message counts (directed counts are summed over both directions, as
// bytes are).
//
//   ASSIGN_OR_RETURN(Traffic t, ReadTraffic("app.mat"));  // + app.msgs.mat
//   if (!t.messages_path.empty()) std::cout << "messages from " << ...;
#ifndef RANKMAP_GRAPHS_TRAFFIC_H_
#define RANKMAP_GRAPHS_TRAFFIC_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/graphs.h"
#include "graphs/read_options.h"

namespace rankmap::graphs {

// Where the message counts come from.
struct TrafficOptions {
  GraphFormat format = GraphFormat::kAuto;  // of the bytes file
  // "": the file MessagesPathBeside names, when it exists (not an error when
  // it does not); "none": no counts; anything else: that file (an error when
  // it cannot be read).
  std::string messages;
  GraphFormat messages_format = GraphFormat::kAuto;
  // For both files (graphs/read_options.h: the memory budget and what the
  // caller needs on top of the graph).
  ReadOptions read;
};

struct Traffic {
  CommGraph graph;            // bytes, and messages when messages_path is set
  std::string messages_path;  // the file the counts came from, or ""
};

// The message file that lies beside a bytes file: the path with its last
// extension replaced by ".msgs.mat" ("run/app.mat" and "run/app.grf" ->
// "run/app.msgs.mat"); "" for a path whose name is itself a message file
// ("x.msgs.mat") or has no extension.
std::string MessagesPathBeside(std::string_view path);

// The bytes graph with the counts of `messages` (a graph of the same vertex
// count whose weights are message counts) attached. Pairs with messages and no
// bytes become zero-byte arcs; pairs with bytes and no messages get 0
// messages. Vertex weights are the bytes graph's. Errors (naming
// `messages_name`): a different vertex count. O(n + m).
absl::StatusOr<CommGraph> AttachMessages(const CommGraph& bytes,
                                         const CommGraph& messages,
                                         std::string_view messages_name);

// Reads the bytes file and its message counts as `options` says. Errors: the
// readers' (file:line), AttachMessages's.
absl::StatusOr<Traffic> ReadTraffic(const std::string& path,
                                    const TrafficOptions& options = {});

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_TRAFFIC_H_
