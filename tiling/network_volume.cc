#include "tiling/network_volume.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace rankmap::tiling {

int64_t LinkLoads::Total() const {
  int64_t t = 0;
  for (size_t k = 0; k < direct.size(); ++k) t += direct[k] + relayed[k];
  return t;
}

int64_t LinkLoads::MaxDirected() const {
  int64_t m = 0;
  for (size_t k = 0; k < direct.size(); ++k)
    m = std::max(m, direct[k] + relayed[k]);
  return m;
}

absl::StatusOr<LinkLoads> RouteVolumes(const VolumeMatrix& v,
                                       const Network& network) {
  const int32_t n = v.num_owners;
  const bool star = network.kind == Network::Kind::kStar;
  if (star && (network.hub < 0 || network.hub >= n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("network: hub ", network.hub, " outside [0, ", n, ")"));
  }
  LinkLoads l;
  l.num_owners = n;
  l.direct.assign(static_cast<size_t>(n) * n, 0);
  l.relayed.assign(static_cast<size_t>(n) * n, 0);
  auto k = [n](int32_t a, int32_t b) { return static_cast<size_t>(a) * n + b; };
  // Every element once per hop: the loads sum to at most twice the total
  // volume, which may not fit; checked so that Total() and MaxDirected() do.
  bool overflow = false;
  auto add = [&](int64_t& load, int64_t x) {
    overflow |= __builtin_add_overflow(load, x, &load);
  };
  int64_t total = 0;
  for (int32_t q = 0; q < n; ++q) {
    for (int32_t p = 0; p < n; ++p) {
      const int64_t x = v.at(q, p);
      if (x == 0 || q == p) continue;
      if (!star || q == network.hub || p == network.hub) {
        add(l.direct[k(q, p)], x);
        add(total, x);
      } else {
        add(l.direct[k(q, network.hub)], x);
        add(l.relayed[k(network.hub, p)], x);
        add(total, x);
        add(total, x);
      }
    }
  }
  if (overflow) {
    return absl::InvalidArgumentError(
        "network: the routed volume exceeds 2^63 - 1 elements");
  }
  return l;
}

}  // namespace rankmap::tiling
