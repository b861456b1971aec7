// ReadOptions: what a graph reader may allocate, checked from a file's counts
// before anything is allocated; the same budget for graphs built in memory.
//
//   ReadOptions o;
//   o.consumer_bytes = api::MapBytesOf(tree, mapping_options);
//   ASSIGN_OR_RETURN(CommGraph g,
//                    ReadGraphFile("app.mat", GraphFormat::kAuto, o));
#ifndef RANKMAP_GRAPHS_READ_OPTIONS_H_
#define RANKMAP_GRAPHS_READ_OPTIONS_H_

#include <cstdint>
#include <functional>

namespace rankmap::graphs {

struct ReadOptions {
  // Bound on the memory a reader may allocate for the graph, in bytes; 0 means
  // base::MemoryBudget()'s default (half of physical memory, less under
  // `ulimit -v`). Compared with what a header declares (or ids imply) before
  // anything is allocated.
  int64_t max_memory_bytes = 0;
  // What the caller will allocate for a graph of these counts once it has it
  // (a mapping's working memory, core::EstimatedMapBytes), or empty. Added
  // to the graph's own estimate before anything is allocated, so a graph
  // the caller could not use is refused from its counts, not after it was
  // built (a 28-byte edge list declaring 230,000,001 vertices took 24 s and
  // 6.3 GB before `map` refused it).
  std::function<int64_t(int64_t vertices, int64_t arcs)> consumer_bytes;
};

// Bytes a reader may need to build a graph of n vertices and `arcs` arcs (both
// directions): the CSR plus the builder's temporaries. Used for the budget
// check.
int64_t EstimatedGraphBytes(int64_t num_vertices, int64_t num_arcs);
// The effective budget of `options` (resolves 0 to half of physical memory).
int64_t MemoryBudget(const ReadOptions& options);

}  // namespace rankmap::graphs

#endif  // RANKMAP_GRAPHS_READ_OPTIONS_H_
