// Communication flows: what a program sends, in order, for the time models of
// cost_model.h.
//
// A Transmission is one message (src, dst, bytes). A Phase is a set of
// transmissions that start together (non-blocking sends posted at once,
// completed by one wait); the phase ends when its last transmission ends. A
// Flow is a sequence of phases; a phase repeated T times (T iterations of a
// solver) is stored once with repetitions = T.
//
// Invariants (ValidateFlow): process ids in [0, num_processes), src != dst,
// bytes finite and >= 0, repetitions >= 0.
//
// Usage:
//   Flow halo = HaloFlow(graph, /*iterations=*/100);  // stencil / Wave2D
//   SummaFlowOptions o;
//   o.grid_rows = o.grid_cols = 4;
//   o.steps = 16;
//   o.a_panel_bytes = o.b_panel_bytes = 8e5;
//   ASSIGN_OR_RETURN(Flow summa, SummaFlow(o));
#ifndef RANKMAP_MODELS_FLOW_H_
#define RANKMAP_MODELS_FLOW_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphs/comm_graph.h"
#include "graphs/halo_message.h"

namespace rankmap::models {

struct Transmission {
  int32_t src = 0;
  int32_t dst = 0;
  double bytes = 0.0;
};

struct Phase {
  std::vector<Transmission> transmissions;
  int64_t repetitions = 1;
};

struct Flow {
  int32_t num_processes = 0;
  std::vector<Phase> phases;
};

// OK when the invariants above hold; errors name the phase and transmission.
absl::Status ValidateFlow(const Flow& flow);

// Halo exchange (seed 004, eqs. 3-4 and 6-7): one phase in which every edge
// {u, v} of the graph is sent both ways, w(u, v) / 2 bytes each way (CommGraph
// weights sum both directions), repeated `iterations` times. Zero-weight edges
// are skipped. Use it for the Wave2D and stencil front ends
// (graphs/frontends/stencil.h builds their graphs). O(n + m).
Flow HaloFlow(const graphs::CommGraph& graph, int64_t iterations = 1);

// The Wave2D / stencil front end's own transfers (graphs::HaloMessages, one
// per ordered pair with halo cells; exact even when the two directions
// differ): one phase with cells * element_size bytes per message, repeated
// `iterations` times. Errors: a process outside [0, num_processes) or a self
// message, negative cells, element_size not positive and finite, negative
// iterations. O(messages).
//   ASSIGN_OR_RETURN(GridPartition part, ColumnTilingPartition(layout));
//   ASSIGN_OR_RETURN(auto msgs, HaloMessages(part, {}, Stencil::k5Point));
//   ASSIGN_OR_RETURN(Flow f, HaloMessagesFlow(msgs, 8, 8.0, iterations));
absl::StatusOr<Flow> HaloMessagesFlow(
    std::span<const graphs::HaloMessage> messages, int32_t num_processes,
    double element_size, int64_t iterations = 1);

enum class Broadcast {
  // The root sends to every other member in one phase.
  kFlat,
  // ceil(log2 k) phases; in phase t members [0, 2^t) send to member + 2^t.
  kBinomial,
  // k - 1 phases; in phase t member t sends to member t + 1 (unpipelined).
  kRing,
};

// SUMMA on a grid_rows x grid_cols process grid (rank = row * grid_cols + col):
// in step s the processes of column s mod grid_cols broadcast their A panel
// (a_panel_bytes) along their rows and the processes of row s mod grid_rows
// broadcast their B panel (b_panel_bytes) along their columns. Row and column
// broadcasts of a step progress together: phase t of a step holds stage t of
// all of them. Members of a broadcast are numbered from the root along the
// row/column, wrapping around. Steps are appended one after another (no
// repetition compression because roots change). Errors: non-positive grid,
// negative steps, negative/non-finite bytes, more than 2^31 - 1 processes.
// O(steps * P) transmissions.
struct SummaFlowOptions {
  int32_t grid_rows = 1;
  int32_t grid_cols = 1;
  int64_t steps = 1;
  double a_panel_bytes = 0.0;
  double b_panel_bytes = 0.0;
  Broadcast broadcast = Broadcast::kBinomial;
};
absl::StatusOr<Flow> SummaFlow(const SummaFlowOptions& options);

// Stages of one broadcast among `members` (process ids, members[0] is the
// root): stages[t] are the (src, dst) transmissions of stage t, each carrying
// `bytes`. Appended to `stages`, which grows as needed.
void AppendBroadcast(Broadcast kind, const std::vector<int32_t>& members,
                     double bytes,
                     std::vector<std::vector<Transmission>>& stages);

}  // namespace rankmap::models

#endif  // RANKMAP_MODELS_FLOW_H_
