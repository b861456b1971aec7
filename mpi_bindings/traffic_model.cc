#include "mpi_bindings/traffic_model.h"

#include <cstddef>

namespace rankmap::mpi_bindings::profile {
namespace {

// World rank of rank `rank` of a group, or -1 when it has none in the rows.
int WorldRank(std::span<const int> world, int rank, int world_size) {
  if (rank < 0 || rank >= static_cast<int>(world.size())) return -1;
  const int w = world[rank];
  return w >= 0 && w < world_size ? w : -1;
}

}  // namespace

bool Receives(Collective kind, int me, int j, int root) {
  switch (kind) {
    case Collective::kBcast:
    case Collective::kScatter:
    case Collective::kScatterv:
      return me == root;
    case Collective::kReduce:
    case Collective::kGather:
    case Collective::kGatherv:
      return j == root;
    case Collective::kAllreduce:
      return me == 0 || j == 0;
    case Collective::kAllgather:
    case Collective::kAlltoall:
    case Collective::kReduceScatterBlock:
    case Collective::kAllgatherv:
    case Collective::kAlltoallv:
    case Collective::kReduceScatter:
      return true;
    case Collective::kScan:
    case Collective::kExscan:
      return j == me + 1;
    case Collective::kBarrier:
      return false;
  }
  return false;
}

TrafficModel::TrafficModel(int world_size)
    : bytes_(world_size, 0.0),
      messages_(world_size, 0.0),
      fetched_bytes_(world_size, 0.0),
      fetched_messages_(world_size, 0.0),
      is_touched_(world_size, false) {}

void TrafficModel::Touch(int w) {
  if (is_touched_[w]) return;
  is_touched_[w] = true;
  touched_.push_back(w);
}

void TrafficModel::MoveInto(TrafficModel* to) {
  for (int32_t w : touched_) {
    to->Touch(w);
    to->bytes_[w] += bytes_[w];
    to->messages_[w] += messages_[w];
    to->fetched_bytes_[w] += fetched_bytes_[w];
    to->fetched_messages_[w] += fetched_messages_[w];
  }
  Clear();
}

void TrafficModel::Clear() {
  for (int32_t w : touched_) {
    bytes_[w] = messages_[w] = fetched_bytes_[w] = fetched_messages_[w] = 0.0;
    is_touched_[w] = false;
  }
  touched_.clear();
}

void TrafficModel::Send(std::span<const int> world, int dest, double bytes) {
  const int w = WorldRank(world, dest, world_size());
  if (w < 0) return;
  Touch(w);
  bytes_[w] += bytes;
  messages_[w] += 1.0;
}

void TrafficModel::OneSided(std::span<const int> world, int target, double put,
                            double got) {
  const int w = WorldRank(world, target, world_size());
  if (w < 0 || (put <= 0 && got <= 0)) return;
  Touch(w);
  if (put > 0) {
    bytes_[w] += put;
    messages_[w] += 1.0;
  }
  if (got > 0) {
    fetched_bytes_[w] += got;
    fetched_messages_[w] += 1.0;
  }
}

void AddFetched(int n, std::span<const double> fetched,
                std::span<double> sent) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      sent[static_cast<size_t>(j) * n + i] +=
          fetched[static_cast<size_t>(i) * n + j];
    }
  }
}

}  // namespace rankmap::mpi_bindings::profile
