#include "mpi_bindings/collective_patterns.h"

#include <algorithm>
#include <vector>

namespace rankmap::mpi_bindings::profile::patterns {
namespace {

// Virtual rank (root at 0) and back.
int Shift(int rank, int root, int size) { return (rank - root + size) % size; }
int Unshift(int vrank, int root, int size) { return (vrank + root) % size; }

// fanout^level, saturating well above any communicator size.
int64_t Power(int fanout, int level) {
  int64_t p = 1;
  for (int i = 0; i < level && p <= (int64_t{1} << 32); ++i) p *= fanout;
  return p;
}

}  // namespace

int CeilPowerOfTwo(int n) {
  int p = 1;
  while (p < n) p <<= 1;
  return p;
}

int FloorPowerOfTwo(int n) {
  int p = 1;
  while (p <= n / 2) p <<= 1;
  return p;
}

int MirrorBits(int v, int nbits) {
  int out = 0;
  for (int i = 0; i < nbits; ++i) out |= ((v >> i) & 1) << (nbits - 1 - i);
  return out;
}

Tree InOrderBinomialTree(int size, int root, int me) {
  Tree t;
  const int v = Shift(me, root, size);
  for (int mask = 1; mask < size; mask <<= 1) {
    const int remote = v ^ mask;
    if (remote < v) {
      t.parent = Unshift(remote, root, size);
      break;
    }
    if (remote < size) t.Add(Unshift(remote, root, size));
  }
  return t;
}

Tree OpenMpiBinomialTree(int size, int root, int me) {
  Tree t;
  const int v = Shift(me, root, size);
  // The power of two above v: v's children are v + 2^k for 2^k from there.
  int mask = 1;
  while (mask <= v) mask <<= 1;
  if (v != 0) t.parent = Unshift(v ^ (mask >> 1), root, size);
  for (; mask < size; mask <<= 1) {
    const int remote = v ^ mask;
    if (remote >= size) break;
    t.Add(Unshift(remote, root, size));
  }
  return t;
}

Tree KAryTree(int fanout, int size, int root, int me) {
  Tree t;
  if (fanout < 1 || size < 2) return t;
  const int s = Shift(me, root, size);
  // The level of s: levels 0..l-1 hold 1 + f + ... + f^(l-1) ranks.
  int level = 0;
  for (int64_t before = 0; before <= s; ++level) before += Power(fanout, level);
  --level;
  const int64_t delta = Power(fanout, level);
  for (int i = 0; i < fanout; ++i) {
    const int64_t child = s + delta * (i + 1);
    if (child >= size) break;
    t.Add(Unshift(static_cast<int>(child), root, size));
  }
  if (s == 0) return t;
  // Ranks above s's level; a parent sits delta / fanout lower per step back.
  const int64_t above =
      fanout == 1 ? level : (Power(fanout, level) - 1) / (fanout - 1);
  int64_t parent = s;
  if (parent < fanout) {
    parent = 0;
  } else {
    while (parent >= above) parent -= delta / fanout;
  }
  t.parent = Unshift(static_cast<int>(parent), root, size);
  return t;
}

Tree ChainTree(int size, int root, int me) {
  Tree t;
  const int s = Shift(me, root, size);
  if (s > 0) t.parent = Unshift(s - 1, root, size);
  if (s + 1 < size) t.Add(Unshift(s + 1, root, size));
  return t;
}

Tree KnomialTree(int radix, int size, int root, int me) {
  Tree t;
  if (radix < 2) return t;
  const int v = Shift(me, root, size);
  int64_t mask = 1;
  while (mask < size) {
    if (v % (radix * mask) != 0) {
      t.parent = Unshift(static_cast<int>(v / (radix * mask) * (radix * mask)),
                         root, size);
      break;
    }
    mask *= radix;
  }
  for (mask /= radix; mask > 0; mask /= radix) {
    for (int r = 1; r < radix; ++r) {
      const int64_t child = v + mask * r;
      if (child < size) t.Add(Unshift(static_cast<int>(child), root, size));
    }
  }
  return t;
}

Tree InOrderBinaryTree(int size, int me) {
  // Descend from the root (size - 1): a subtree of n ranks rooted at its last
  // rank has its right subtree (n / 2 ranks) first, its left one after it.
  Tree t;
  int n = size, parent = size - 1, delta = 0, rank = me;
  while (true) {
    const int right = n >> 1;
    int lchild = -1, rchild = -1;
    if (n - 1 > 0) {
      lchild = parent - 1;
      if (lchild > 0) rchild = right - 1;
    }
    if (rank == parent) {
      if (lchild >= 0) t.Add(lchild + delta);
      if (rchild >= 0) t.Add(rchild + delta);
      return t;
    }
    if (rank > rchild) {  // the left subtree
      if (rank == lchild) t.parent = parent + delta;
      n = n - right - 1;
      delta += right;
      rank -= right;
      parent = n - 1;
    } else {  // the right subtree
      if (rank == rchild) t.parent = parent + delta;
      n = right;
      parent = rchild;
    }
  }
}

void TreeBroadcast(const Tree& tree, int64_t count, const ElementSends& out) {
  for (int child : tree.Children()) out.Elements(child, count);
}

void TreeReduce(const Tree& tree, int64_t count, const ElementSends& out) {
  if (tree.parent >= 0) out.Elements(tree.parent, count);
}

void RecursiveDoublingExchange(int size, int me, int64_t count,
                               const ElementSends& out) {
  if (size < 2) return;
  const int pof2 = FloorPowerOfTwo(size);
  const int extra = size - pof2;
  int vrank;
  if (me < 2 * extra) {
    if (me % 2 == 0) {
      out.Elements(me + 1, count);  // fold into the odd partner
      return;
    }
    vrank = me / 2;
  } else {
    vrank = me - extra;
  }
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int vpeer = vrank ^ mask;
    out.Elements(vpeer < extra ? vpeer * 2 + 1 : vpeer + extra, count);
  }
  if (me < 2 * extra) out.Elements(me - 1, count);  // unfold
}

void Dissemination(int size, int me, int64_t count, const ElementSends& out) {
  for (int64_t d = 1; d < size; d <<= 1) {
    out.Elements(static_cast<int>((me + d) % size), count);
  }
}

void AllPairs(int size, int me, int64_t count, const ElementSends& out) {
  for (int j = 0; j < size; ++j) {
    if (j != me) out.Elements(j, count);
  }
}

int64_t Total(std::span<const int64_t> counts) {
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  return total;
}

int Log2(int pof2) {
  int n = 0;
  while ((1 << n) < pof2) ++n;
  return n;
}

void LinearBroadcast(int size, int root, int me, int64_t count,
                     const ElementSends& out) {
  if (me == root) AllPairs(size, me, count, out);
}

namespace {

// The binomial scatter of a scatter-allgather broadcast: what each virtual
// rank holds after it (a parent precedes its children). Sends rank `vme`'s
// messages.
std::vector<int64_t> ScatterForBroadcast(int p, int root, int vme, int64_t n,
                                         const ElementSends& out) {
  const int64_t block = (n + p - 1) / p;
  std::vector<int64_t> held(p, 0);
  held[0] = n;
  for (int v = 0; v < p; ++v) {
    int64_t curr = held[v];
    for (int mask = (v == 0 ? CeilPowerOfTwo(p) : LowBit(v)) >> 1; mask > 0;
         mask >>= 1) {
      if (v + mask >= p) continue;
      const int64_t send = Rectify(curr, block * mask);
      if (send == 0) continue;
      if (v == vme) out.Elements((v + mask + root) % p, send);
      held[v + mask] = send;
      curr -= send;
    }
  }
  return held;
}

}  // namespace

void ScatterRecursiveDoublingBroadcast(int p, int root, int me, int64_t n,
                                       const ElementSends& out) {
  const int64_t block = (n + p - 1) / p;
  const int vme = (me - root + p) % p;
  auto real = [&](int v) { return (v + root) % p; };
  ScatterForBroadcast(p, root, vme, n, out);
  // curr: what each rank holds; last: its most recent receive.
  std::vector<int64_t> curr(p), last(p), before(p);
  for (int v = 0; v < p; ++v) {
    curr[v] = std::min(block, Rectify(n, int64_t{v} * block));
    last[v] = v == 0 ? 0 : Rectify(n, int64_t{v} * block);
  }
  for (int mask = 1; mask < p; mask <<= 1) {
    before = curr;
    for (int v = 0; v < p; ++v) {
      const int vr = v ^ mask;
      if (vr >= p) continue;
      if (v == vme) out.Elements(real(vr), before[v]);
      last[v] = before[vr];
      curr[v] += before[vr];
    }
    for (int rh = mask >> 1; rh > 0; rh >>= 1) {
      before = last;
      for (int v = 0; v < p; ++v) {
        if (RoundDown(v ^ mask, mask) + mask <= p) continue;
        const int all_data = p - RoundDown(v, mask) - mask;
        const int vr = v ^ rh, tree_root = RoundDown(v, rh << 1);
        if (vr > v && vr < p && v < tree_root + all_data &&
            vr >= tree_root + all_data) {
          if (v == vme) out.Elements(real(vr), before[v]);
          last[vr] = before[v];
          curr[vr] += before[v];
        }
      }
    }
  }
}

void ScatterRingBroadcast(int p, int root, int me, int64_t n,
                          const ElementSends& out) {
  const int64_t block = (n + p - 1) / p;
  ScatterForBroadcast(p, root, (me - root + p) % p, n, out);
  // Block j (virtual) travels right: rank me sends its own block first, then
  // the one it received last.
  for (int i = 1, j = me; i < p; ++i, j = (j - 1 + p) % p) {
    const int64_t rel = (j - root + p) % p;
    out.Elements((me + 1) % p, std::min(block, Rectify(n, rel * block)));
  }
}

void BruckAllgather(int p, int me, int64_t n, const ElementSends& out) {
  for (int d = 1; d < p; d <<= 1) {
    out.Elements((me - d + p) % p, (d <= p / 2 ? d : p - d) * n);
  }
}

void BruckAllgatherv(int p, int me, std::span<const int64_t> c,
                     const ElementSends& out) {
  for (int d = 1; d < p; d <<= 1) {
    int64_t sum = 0;
    for (int i = 0; i < (d <= p / 2 ? d : p - d); ++i) sum += c[(me + i) % p];
    out.Elements((me - d + p) % p, sum);
  }
}

void RingAllgather(int p, int me, int64_t n, const ElementSends& out) {
  for (int i = 0; i < p - 1; ++i) out.Elements((me + 1) % p, n);
}

void RecursiveDoublingAllgather(int p, int me, int64_t n,
                                const ElementSends& out) {
  for (int d = 1; d < p; d <<= 1) out.Elements(me ^ d, d * n);
}

void RecursiveDoublingAllgatherv(int p, int me, std::span<const int64_t> c,
                                 const ElementSends& out) {
  for (int d = 1; d < p; d <<= 1) {
    int64_t sum = 0;
    for (int r = RoundDown(me, d); r < RoundDown(me, d) + d && r < p; ++r) {
      sum += c[r];
    }
    out.Elements(me ^ d, sum);
  }
}

void BinomialGather(int p, int root, int me, int64_t n,
                    const ElementSends& out) {
  if (me == root) return;
  const int v = (me - root + p) % p;
  out.Elements(InOrderBinomialTree(p, root, me).parent,
               std::min<int64_t>(LowBit(v), p - v) * n);
}

void BinomialScatter(int p, int root, int me, int64_t n,
                     const ElementSends& out) {
  for (int child : InOrderBinomialTree(p, root, me).Children()) {
    const int v = (child - root + p) % p;
    out.Elements(child, std::min<int64_t>(LowBit(v), p - v) * n);
  }
}

void RecursiveHalvingReduceScatter(int p, int me, std::span<const int64_t> c,
                                   const ElementSends& out) {
  int64_t total = 0;
  for (int64_t x : c) total += x;
  if (total == 0) return;
  const int pof2 = FloorPowerOfTwo(p), rem = p - pof2;
  if (me < 2 * rem && me % 2 == 0) {
    out.Elements(me + 1, total);
    return;
  }
  const int vrank = me < 2 * rem ? me / 2 : me - rem;
  // Blocks of the virtual ranks (a folded pair owns both blocks).
  auto vblock = [&](int v) {
    return v < rem ? c[2 * v] + c[2 * v + 1] : c[v + rem];
  };
  auto sum = [&](int from, int to) {
    int64_t s = 0;
    for (int v = from; v < to; ++v) s += vblock(v);
    return s;
  };
  int send_index = 0, recv_index = 0, last_index = pof2;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
    const int vpeer = vrank ^ mask;
    int64_t send = 0;
    if (vrank < vpeer) {
      send_index = recv_index + mask;
      send = sum(send_index, last_index);
    } else {
      recv_index = send_index + mask;
      send = sum(send_index, recv_index);
    }
    if (send > 0) out.Elements(Unfolded(vpeer, rem), send);
    send_index = recv_index;
    last_index = recv_index + mask;
  }
  if (me < 2 * rem && c[me - 1] > 0) out.Elements(me - 1, c[me - 1]);
}

void RecursiveDoublingReduceScatter(int p, int me, std::span<const int64_t> c,
                                    const ElementSends& out) {
  int64_t total = 0;
  for (int64_t x : c) total += x;
  // Everything but the subtree [root, root + mask).
  auto outside = [&](int tree_root, int mask) {
    int64_t inside = 0;
    for (int r = tree_root; r < tree_root + mask && r < p; ++r) inside += c[r];
    return total - inside;
  };
  for (int mask = 1; mask < p; mask <<= 1) {
    const int remote = me ^ mask, mine = RoundDown(me, mask);
    const int theirs = RoundDown(remote, mask);
    if (remote < p) out.Elements(remote, outside(mine, mask));
    if (theirs + mask <= p) continue;
    // The other half of the subtree is missing: the ranks that have its data
    // pass it on to those that do not.
    const int all_data = p - mine - mask;
    for (int rh = mask >> 1; rh > 0; rh >>= 1) {
      const int peer = me ^ rh, tree_root = RoundDown(me, rh << 1);
      if (peer > me && me < tree_root + all_data &&
          peer >= tree_root + all_data) {
        out.Elements(peer, outside(theirs, mask));
      }
    }
  }
}

void HalvingButterfly(int p, int me, int64_t total, const ElementSends& out) {
  for (int mask = 1; mask < p; mask <<= 1) {
    total /= 2;
    out.Elements(me ^ mask, total);
  }
}

int64_t RangeBlocks(int a, int b, int r) {
  if (r < a) return b - a + 1;
  if (r > b) return 2 * (b - a + 1);
  return 2 * (r - a + 1) + b - r;
}

void RedscatGatherReduce(int p, int root, int me, int64_t n,
                         const ElementSends& out) {
  const int pof2 = FloorPowerOfTwo(p), steps = Log2(pof2), rem = p - pof2;
  int vrank = me < 2 * rem ? (me % 2 != 0 ? -1 : me / 2) : me - rem;
  if (me < 2 * rem) {
    if (me % 2 != 0) {
      out.Elements(me - 1, n / 2);
      out.Elements(me - 1, n - n / 2);
    } else {
      out.Elements(me + 1, n - n / 2);
    }
  }
  std::array<int64_t, 32> kept{};  // elements kept at each halving step
  if (vrank != -1) {
    int64_t window = n;
    for (int mask = 1, step = 0; mask < pof2; mask <<= 1, ++step) {
      const int dest = UnfoldedEven(vrank ^ mask, rem);
      const int64_t keep = me < dest ? window / 2 : window - window / 2;
      out.Elements(dest, window - keep);
      kept[step] = keep;
      window = keep;
    }
  }
  const bool odd_root = root < 2 * rem && root % 2 != 0;
  const int vroot = odd_root ? 0 : (root < 2 * rem ? root / 2 : root - rem);
  if (odd_root && me != root && vrank == 0) {  // rank 0 stands in for it
    out.Elements(root, kept[steps - 1]);
    return;
  }
  if (vrank == -1 || me == root) return;
  for (int mask = pof2 >> 1, step = steps - 1; mask > 0; mask >>= 1, --step) {
    const int vdest = vrank ^ mask;
    const int dest = vdest == 0 && odd_root ? root : UnfoldedEven(vdest, rem);
    if ((vdest >> step) == (vroot >> step)) {
      out.Elements(dest, kept[step]);
      return;
    }
  }
}

void RedscatAllgatherAllreduce(int p, int me, int64_t n,
                               const ElementSends& out) {
  const int pof2 = FloorPowerOfTwo(p), rem = p - pof2;
  int vrank = me - rem;
  if (me < 2 * rem) {
    if (me % 2 != 0) {
      out.Elements(me - 1, n / 2);
      out.Elements(me - 1, n - n / 2);
      return;
    }
    out.Elements(me + 1, n - n / 2);
    vrank = me / 2;
  }
  std::array<int64_t, 32> kept{};
  int steps = 0;
  int64_t window = n;
  for (int mask = 1; mask < pof2; mask <<= 1, ++steps) {
    const int dest = UnfoldedEven(vrank ^ mask, rem);
    const int64_t keep = me < dest ? window / 2 : window - window / 2;
    out.Elements(dest, window - keep);
    kept[steps] = keep;
    window = keep;
  }
  for (int mask = pof2 >> 1, step = steps - 1; mask > 0; mask >>= 1, --step) {
    out.Elements(UnfoldedEven(vrank ^ mask, rem), kept[step]);
  }
  if (me < 2 * rem) out.Elements(me + 1, n);
}

}  // namespace rankmap::mpi_bindings::profile::patterns
