// Which point-to-point messages a collective call sends, on plain numbers:
// the profiler's model of collectives (profile.h), without MPI handles.
//
// Two models. `star` is the profiler's first model: rooted collectives go
// straight between the root and every rank, Allreduce is a reduce to rank 0
// followed by a broadcast from it, all-to-all kinds send every rank's block to
// every other rank, Scan sends to the next rank, Barrier sends nothing. It
// links rank 0 to everyone and says nothing of what an MPI library sends.
// `library` follows the algorithms a library picks by message size and
// communicator size, so that a profile sees the pairs the library really
// connects (a binomial tree's edges, a recursive-doubling butterfly, a ring):
//   kOpenMpi: Open MPI 4.1's default for blocking collectives, the `tuned`
//     component's fixed decision rules (openmpi_collectives.h); non-blocking
//     ones the `libnbc` component's default schedules (openmpi_libnbc.h).
//   kMpich: MPICH 4.0's default selection for communicators without
//     node-aware hierarchy (mpich_collectives.h).
// Each rank describes its own view of one call and gets its own sends, so a
// job's ranks together produce every message of the collective once.
//
//   const int64_t counts[] = {};
//   CollectiveCall call{.kind = Collective::kAllreduce, .size = 6,
//                       .count = 4, .type_size = 8};
//   ForEachCollectiveSend(CollectiveModel::kOpenMpi, call, /*me=*/1,
//                         [&](int peer, double bytes) { ... });
//   // Recursive doubling with the non-power-of-two fold: rank 1 sends 32
//   // bytes to ranks 3 and 4 (the butterfly) and to rank 0 (the unfold).
//
// Invariants: peers are ranks of the communicator (0 <= peer < size); every
// call of the sink is one message, zero bytes included (barriers and empty
// blocks cost a message); the model never allocates more than O(size) per
// call and runs in O(size log size) at worst.
#ifndef RANKMAP_MPI_BINDINGS_COLLECTIVE_MODEL_H_
#define RANKMAP_MPI_BINDINGS_COLLECTIVE_MODEL_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "absl/status/statusor.h"
#include "mpi_bindings/collective_call.h"

namespace rankmap::mpi_bindings::profile {

enum class CollectiveModel { kStar, kOpenMpi, kMpich };

// "star", "openmpi" or "mpich" (as the profile headers name the models).
std::string_view CollectiveModelName(CollectiveModel model);

// RANKMAP_PROFILE_COLLECTIVES: "star" or "library" (the library the profiler
// is built for, `linked`); empty means library. Errors name the value.
absl::StatusOr<CollectiveModel> ParseCollectiveModel(std::string_view text,
                                                     CollectiveModel linked);

// Calls send once per message rank `me` sends in `call` under `model`. A call
// outside the model's domain (size < 1, me or root out of range, a missing
// counts array) sends nothing.
void ForEachCollectiveSend(CollectiveModel model, const CollectiveCall& call,
                           int me, SendSink send);

}  // namespace rankmap::mpi_bindings::profile

#endif  // RANKMAP_MPI_BINDINGS_COLLECTIVE_MODEL_H_
