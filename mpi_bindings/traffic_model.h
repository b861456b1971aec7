// The profiler's traffic model (profile.h) on plain numbers: which ranks a
// collective sends to and how many bytes, and what one process sends per
// destination world rank. It knows nothing of MPI handles; profile.cc turns
// communicators, windows and datatypes into the sizes, ranks and world-rank
// tables it takes, so the model runs and is tested without MPI.
//
//   // Rank 1 of a 4-rank communicator whose ranks are world 3, 2, 1, 0.
//   const int world[] = {3, 2, 1, 0};
//   TrafficModel model(/*world_size=*/4);
//   ForEachTransfer(Collective::kBcast, /*size=*/4, /*me=*/1, /*root=*/1,
//                   /*block_bytes=*/8, [&](int rank, double bytes) {
//                     model.Send(world, rank, bytes);
//                   });
//   // model.bytes() == {8, 8, 0, 8}, model.messages() == {1, 1, 0, 1}.
//
// Invariants: every row has world_size entries; each modelled transfer adds
// its bytes and exactly one message; a destination that is negative (such as
// MPI_PROC_NULL or MPI_UNDEFINED) or out of range adds nothing.
#ifndef RANKMAP_MPI_BINDINGS_TRAFFIC_MODEL_H_
#define RANKMAP_MPI_BINDINGS_TRAFFIC_MODEL_H_

#include <cstdint>
#include <span>
#include <vector>

namespace rankmap::mpi_bindings::profile {

// The collectives the profiler models. Under the star model
// (collective_model.h) the uniform ones decompose into transfers of one block
// between ranks of the communicator:
//   kBcast, kScatter      root -> every other rank
//   kReduce, kGather      every non-root -> root
//   kAllreduce            every rank != 0 -> 0 and 0 -> every rank != 0
//   kAllgather, kAlltoall,
//   kReduceScatterBlock   every rank -> every other rank
//   kScan, kExscan        i -> i + 1
//   kBarrier              nothing
// and the v forms (kAllgatherv, kAlltoallv, kGatherv, kScatterv,
// kReduceScatter) send per-peer blocks (ForEachPeer) along the same lines as
// their uniform kinds.
enum class Collective {
  kBcast,
  kReduce,
  kAllreduce,
  kAllgather,
  kAlltoall,
  kGather,
  kScatter,
  kReduceScatterBlock,
  kScan,
  kExscan,
  kBarrier,
  kAllgatherv,
  kAlltoallv,
  kGatherv,
  kScatterv,
  kReduceScatter,
};

// Whether rank j receives a block from rank me (j != me) in collective `kind`.
bool Receives(Collective kind, int me, int j, int root);

// Calls send_to(j, block_bytes) for every rank j of a `size`-rank communicator
// that receives a block from rank `me` in collective `kind` (`root` is ignored
// by kinds without one), in increasing j. O(size).
template <typename SendTo>
void ForEachTransfer(Collective kind, int size, int me, int root,
                     double block_bytes, SendTo send_to) {
  for (int j = 0; j < size; ++j) {
    if (j != me && Receives(kind, me, j, root)) send_to(j, block_bytes);
  }
}

// Per-peer blocks (v and w forms): calls send_to(j, b) with b = bytes_to(j)
// for every rank j != me of a `size`-rank communicator whose b is >= 0 (a zero
// block is still a message; a negative one sends nothing). bytes_to is not
// called for `me`. O(size).
template <typename BytesTo, typename SendTo>
void ForEachPeer(int size, int me, BytesTo bytes_to, SendTo send_to) {
  for (int j = 0; j < size; ++j) {
    if (j == me) continue;
    const double b = bytes_to(j);
    if (b >= 0) send_to(j, b);
  }
}

// The rows one process contributes to the job's matrices: bytes and messages
// it sent to each world rank, and bytes and messages it fetched from each
// (MPI_Get and the results of fetching one-sided calls: traffic from the
// target that only the origin sees).
class TrafficModel {
 public:
  // Rows of `world_size` zeros (none when 0).
  explicit TrafficModel(int world_size = 0);

  int world_size() const { return static_cast<int>(bytes_.size()); }

  // One message of `bytes` to rank `dest` of a communicator whose world ranks
  // are `world`. O(1).
  void Send(std::span<const int> world, int dest, double bytes);

  // One-sided traffic with rank `target` of a window whose group has world
  // ranks `world`: `put` bytes to it and `got` bytes back, one message each
  // way when positive. O(1).
  void OneSided(std::span<const int> world, int target, double put, double got);

  // Adds every entry into `to` (same world size) and zeroes this model.
  // O(ranks touched since the last move or clear).
  void MoveInto(TrafficModel* to);
  // Zeroes every entry. O(ranks touched since the last move or clear).
  void Clear();

  const std::vector<double>& bytes() const { return bytes_; }
  const std::vector<double>& messages() const { return messages_; }
  const std::vector<double>& fetched_bytes() const { return fetched_bytes_; }
  const std::vector<double>& fetched_messages() const {
    return fetched_messages_;
  }

 private:
  // Notes w as holding traffic (once until the next move or clear).
  void Touch(int w);

  std::vector<double> bytes_, messages_;
  std::vector<double> fetched_bytes_, fetched_messages_;
  std::vector<int32_t> touched_;  // ranks with a non-zero entry
  std::vector<bool> is_touched_;
};

// Folds fetched traffic into sent traffic once the rows of all n processes are
// gathered (row-major n x n): fetched[i * n + j], what i fetched from j, is
// traffic j -> i and is added to sent[j * n + i]. O(n^2).
void AddFetched(int n, std::span<const double> fetched, std::span<double> sent);

}  // namespace rankmap::mpi_bindings::profile

#endif  // RANKMAP_MPI_BINDINGS_TRAFFIC_MODEL_H_
