#include "mpi_bindings/collective_model.h"

#include "absl/strings/str_cat.h"
#include "mpi_bindings/mpich_collectives.h"
#include "mpi_bindings/openmpi_collectives.h"

namespace rankmap::mpi_bindings::profile {
namespace {

bool Rooted(Collective kind) {
  switch (kind) {
    case Collective::kBcast:
    case Collective::kReduce:
    case Collective::kGather:
    case Collective::kGatherv:
    case Collective::kScatter:
    case Collective::kScatterv:
      return true;
    default:
      return false;
  }
}

// Whether `me` reads call.counts (v forms; Scatterv on its root only).
bool ReadsCounts(const CollectiveCall& call, int me) {
  switch (call.kind) {
    case Collective::kAllgatherv:
    case Collective::kAlltoallv:
    case Collective::kReduceScatter:
      return true;
    case Collective::kScatterv:
      return me == call.root;
    default:
      return false;
  }
}

// The star model: straight between the root (or rank 0) and everyone.
void StarSends(const CollectiveCall& c, int me, SendSink send) {
  const double ts = static_cast<double>(c.type_size);
  auto per_peer = [&](int j) { return static_cast<double>(c.counts[j]) * ts; };
  switch (c.kind) {
    case Collective::kAllgatherv:  // this rank's block to every other
      return ForEachTransfer(Collective::kAllgather, c.size, me, 0,
                             static_cast<double>(c.counts[me]) * ts, send);
    case Collective::kAlltoallv:
    case Collective::kReduceScatter:
      return ForEachPeer(c.size, me, per_peer, send);
    case Collective::kScatterv:
      if (me == c.root) ForEachPeer(c.size, me, per_peer, send);
      return;
    default:
      return ForEachTransfer(
          c.kind == Collective::kGatherv ? Collective::kGather : c.kind, c.size,
          me, c.root, static_cast<double>(c.count) * ts, send);
  }
}

}  // namespace

std::string_view CollectiveModelName(CollectiveModel model) {
  switch (model) {
    case CollectiveModel::kStar:
      return "star";
    case CollectiveModel::kOpenMpi:
      return "openmpi";
    case CollectiveModel::kMpich:
      return "mpich";
  }
  return "star";
}

absl::StatusOr<CollectiveModel> ParseCollectiveModel(std::string_view text,
                                                     CollectiveModel linked) {
  if (text.empty() || text == "library") return linked;
  if (text == "star") return CollectiveModel::kStar;
  return absl::InvalidArgumentError(
      absl::StrCat("RANKMAP_PROFILE_COLLECTIVES='", std::string(text),
                   "': expected 'library' or 'star'"));
}

void ForEachCollectiveSend(CollectiveModel model, const CollectiveCall& call,
                           int me, SendSink send) {
  if (call.size < 1 || me < 0 || me >= call.size || call.count < 0 ||
      call.type_size < 0) {
    return;
  }
  if (Rooted(call.kind) && (call.root < 0 || call.root >= call.size)) return;
  if (ReadsCounts(call, me) &&
      call.counts.size() != static_cast<size_t>(call.size)) {
    return;
  }
  switch (model) {
    case CollectiveModel::kStar:
      return StarSends(call, me, send);
    case CollectiveModel::kOpenMpi:
      return OpenMpiSends(call, me, send);
    case CollectiveModel::kMpich:
      return MpichSends(call, me, send);
  }
}

}  // namespace rankmap::mpi_bindings::profile
