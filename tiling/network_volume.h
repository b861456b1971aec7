// How the volumes of a partition (volume.h) load the links of the small
// networks of Becker's chapter 6: every pair of clusters linked directly
// (fully connected), or a star whose hub relays the traffic between the other
// clusters (section 6.1.1, Fig. 6.1).
//
// On a star with hub h a transfer q -> p between two leaves crosses the link q
// -> h, then h -> p once h has received it: relayed traffic counts once per
// hop (eq. 6.5 doubles the Straight-Line's leaf-to-leaf volume). Loads are kept
// per link and direction, split into `direct` (one-hop transfers and the first
// hops) and `relayed` (second hops, which can only start after the first).
//
// Becker's link models read them as: serial links, time proportional to
// Total(); full-duplex links, the busiest link direction, MaxDirected().
//
// Usage:
//   ASSIGN_OR_RETURN(VolumeMatrix v, MatmulVolumes(p));
//   ASSIGN_OR_RETURN(LinkLoads l, RouteVolumes(v, Network::Star(0)));
//   // l.Total() == v.Total() + the leaf-to-leaf volume
#ifndef RANKMAP_TILING_NETWORK_VOLUME_H_
#define RANKMAP_TILING_NETWORK_VOLUME_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "tiling/volume.h"

namespace rankmap::tiling {

struct Network {
  enum class Kind { kFullyConnected, kStar };
  Kind kind = Kind::kFullyConnected;
  int32_t hub = 0;  // kStar only: the owner every other owner is linked to

  static Network FullyConnected() { return {}; }
  static Network Star(int32_t hub) { return {Kind::kStar, hub}; }
};

// Elements per link direction, row-major [from][to]; 0 where there is no link.
struct LinkLoads {
  int32_t num_owners = 0;
  std::vector<int64_t> direct;
  std::vector<int64_t> relayed;

  int64_t at(int32_t from, int32_t to) const {
    const size_t k = static_cast<size_t>(from) * num_owners + to;
    return direct[k] + relayed[k];
  }
  // Every element once per hop.
  int64_t Total() const;
  // The busiest link direction (direct and relayed together).
  int64_t MaxDirected() const;
};

// Errors: a hub outside [0, num_owners), routed loads above 2^63 - 1 in all
// (so Total() and MaxDirected() never overflow). O(owners^2).
absl::StatusOr<LinkLoads> RouteVolumes(const VolumeMatrix& v,
                                       const Network& network);

}  // namespace rankmap::tiling

#endif  // RANKMAP_TILING_NETWORK_VOLUME_H_
