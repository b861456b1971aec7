#include "mpi_bindings/mpich_collectives.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mpi_bindings/collective_patterns.h"

namespace rankmap::mpi_bindings::profile {
namespace {

using patterns::AllPairs;
using patterns::BinomialGather;
using patterns::BinomialScatter;
using patterns::BruckAllgather;
using patterns::BruckAllgatherv;
using patterns::ElementSends;
using patterns::FloorPowerOfTwo;
using patterns::HalvingButterfly;
using patterns::InOrderBinomialTree;
using patterns::RecursiveDoublingAllgather;
using patterns::RecursiveDoublingAllgatherv;
using patterns::RecursiveDoublingExchange;
using patterns::RecursiveDoublingReduceScatter;
using patterns::RecursiveHalvingReduceScatter;
using patterns::RingAllgather;
using patterns::Total;
using patterns::TreeBroadcast;
using patterns::TreeReduce;
using patterns::Unfolded;
using patterns::UnfoldedEven;

bool PowerOfTwo(int p) { return (p & (p - 1)) == 0; }

// The blocks of MPICH's Rabenseifner algorithms: count / pof2 elements each,
// the first count % pof2 one more; Sum(a, b) adds blocks [a, b).
class Blocks {
 public:
  Blocks(int64_t count, int pof2) : count_(count), pof2_(pof2) {}
  int64_t Sum(int a, int b) const {
    int64_t s = 0;
    for (int i = a; i < b; ++i) s += count_ / pof2_ + (i < count_ % pof2_);
    return s;
  }

 private:
  int64_t count_;
  int pof2_;
};

// The reduce-scatter half of MPICH's Rabenseifner algorithms among the
// power of two of virtual ranks (`to_real` maps them back); leaves the
// window [*send_idx, *last_idx) for the second half.
template <typename ToReal>
void RabenseifnerReduceScatter(int pof2, int vrank, const Blocks& blocks,
                               ToReal to_real, int* send_idx, int* last_idx,
                               const ElementSends& out) {
  int recv_idx = 0;
  *send_idx = 0;
  *last_idx = pof2;
  for (int mask = 1; mask < pof2;) {
    const int vdst = vrank ^ mask;
    const int half = pof2 / (mask * 2);
    if (vrank < vdst) {
      *send_idx = recv_idx + half;
      out.Elements(to_real(vdst), blocks.Sum(*send_idx, *last_idx));
    } else {
      recv_idx = *send_idx + half;
      out.Elements(to_real(vdst), blocks.Sum(*send_idx, recv_idx));
    }
    *send_idx = recv_idx;
    mask <<= 1;
    if (mask < pof2) *last_idx = recv_idx + pof2 / mask;
  }
}

// Rabenseifner's allreduce: the first 2r ranks fold in pairs (the even one
// sends everything to the odd one), a reduce-scatter and a recursive-doubling
// allgather among the rest, then the odd ones hand the result back.
void RabenseifnerAllreduce(int p, int me, int64_t n, const ElementSends& out) {
  const int pof2 = FloorPowerOfTwo(p), rem = p - pof2;
  if (me < 2 * rem && me % 2 == 0) {
    out.Elements(me + 1, n);
    return;
  }
  const int vrank = me < 2 * rem ? me / 2 : me - rem;
  const Blocks blocks(n, pof2);
  auto real = [&](int v) { return Unfolded(v, rem); };
  int send_idx = 0, last_idx = 0;
  RabenseifnerReduceScatter(pof2, vrank, blocks, real, &send_idx, &last_idx,
                            out);
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
    const int vdst = vrank ^ mask;
    const int half = pof2 / (mask * 2);
    if (vrank < vdst) {
      if (mask != pof2 / 2) last_idx += half;
      out.Elements(real(vdst), blocks.Sum(send_idx, send_idx + half));
    } else {
      const int recv_idx = send_idx - half;
      out.Elements(real(vdst), blocks.Sum(send_idx, last_idx));
      send_idx = recv_idx;
    }
  }
  if (me < 2 * rem) out.Elements(me - 1, n);
}

// Rabenseifner's reduce: the odd rank of each of the first 2r pairs folds
// into the even one, a reduce-scatter, then a binomial gather of the blocks to
// the root (rank 0 stands in for an odd root and hands it the result).
void RabenseifnerReduce(int p, int root, int me, int64_t n,
                        const ElementSends& out) {
  const int pof2 = FloorPowerOfTwo(p), rem = p - pof2;
  if (me < 2 * rem && me % 2 != 0) {  // an odd root only receives later
    out.Elements(me - 1, n);
    return;
  }
  const bool odd_root = root < 2 * rem && root % 2 != 0;
  const int vrank = me < 2 * rem ? me / 2 : me - rem;
  const Blocks blocks(n, pof2);
  auto real = [&](int v) { return UnfoldedEven(v, rem); };
  int send_idx = 0, last_idx = 0;
  RabenseifnerReduceScatter(pof2, vrank, blocks, real, &send_idx, &last_idx,
                            out);
  if (odd_root && vrank == 0) {
    out.Elements(root, blocks.Sum(0, 1));
    return;
  }
  if (me == root) return;  // the gather's root only receives
  const int vroot = odd_root ? 0 : (root < 2 * rem ? root / 2 : root - rem);
  for (int mask = pof2 >> 1, j = patterns::Log2(pof2) - 1; mask > 0;
       mask >>= 1, --j) {
    const int vdst = vrank ^ mask;
    const int half = pof2 / (mask * 2);
    const int dst = vdst == 0 && odd_root ? root : real(vdst);
    int64_t send = 0;
    int recv_idx = send_idx;
    if (vrank < vdst) {
      if (mask != pof2 / 2) last_idx += half;
      send = blocks.Sum(send_idx, send_idx + half);
    } else {
      recv_idx = send_idx - half;
      send = blocks.Sum(send_idx, last_idx);
    }
    if ((vdst >> j) == (vroot >> j)) {
      out.Elements(dst, send);
      return;
    }
    if (vrank > vdst) send_idx = recv_idx;
  }
}

// The binomial reduce: non-commutative operations reduce to rank 0, which
// hands the result to the root.
void BinomialReduce(int p, int root, int me, int64_t n, bool commutative,
                    const ElementSends& out) {
  const int lroot = commutative ? root : 0;
  TreeReduce(InOrderBinomialTree(p, lroot, me), n, out);
  if (!commutative && root != 0 && me == 0) out.Elements(root, n);
}

// MPICH's allgatherv ring forwards each block in pieces of at most `piece`
// elements (the smallest block, raised to 32 KiB: the default of
// MPIR_CVAR_ALLGATHERV_PIPELINE_MSG_SIZE); empty blocks send nothing.
void RingAllgatherv(int p, int me, std::span<const int64_t> c, double ts,
                    const ElementSends& out) {
  int64_t piece = *std::min_element(c.begin(), c.end());
  if (piece * ts < 32768) piece = static_cast<int64_t>(32768 / ts);
  piece = std::max<int64_t>(piece, 1);
  for (int i = 0, b = me; i < p - 1; ++i, b = (b - 1 + p) % p) {
    for (int64_t left = c[b]; left > 0; left -= piece) {
      out.Elements((me + 1) % p, std::min(left, piece));
    }
  }
}

// ---- The selection (MPICH 4.0.2's generic JSON, flat branches).

void Bcast(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  const int64_t bytes = c.count * c.type_size;
  if (bytes == 0) return;
  // Messages are packed bytes.
  const ElementSends packed = out.Retyped(1);
  // The non-blocking tree says "< 12288" where the blocking one says "<=".
  const bool small = c.nonblocking ? bytes < 12288 : bytes <= 12288;
  if (p < 8 || small) {
    return TreeBroadcast(InOrderBinomialTree(p, c.root, me), bytes, packed);
  }
  if (PowerOfTwo(p) && bytes <= 524288) {
    return patterns::ScatterRecursiveDoublingBroadcast(p, c.root, me, bytes,
                                                       packed);
  }
  patterns::ScatterRingBroadcast(p, c.root, me, bytes, packed);
}

void Allreduce(const CollectiveCall& c, int me, const ElementSends& out) {
  const int64_t n = c.count, bytes = n * c.type_size;
  if (n == 0) return;
  const int64_t recursive_doubling = c.nonblocking ? 2048 : 8;
  if (bytes <= recursive_doubling || !c.builtin_op ||
      n < FloorPowerOfTwo(c.size)) {
    return RecursiveDoublingExchange(c.size, me, n, out);
  }
  RabenseifnerAllreduce(c.size, me, n, out);
}

void Reduce(const CollectiveCall& c, int me, const ElementSends& out) {
  const int64_t n = c.count;
  if (n == 0) return;
  if (n * c.type_size > 2048 && c.builtin_op && n >= FloorPowerOfTwo(c.size)) {
    return RabenseifnerReduce(c.size, c.root, me, n, out);
  }
  BinomialReduce(c.size, c.root, me, n, c.commutative, out);
}

void Allgather(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  const int64_t n = c.count, total = n * c.type_size * p;
  if (n == 0) return;
  if (PowerOfTwo(p)) {
    if (total < 524288) return RecursiveDoublingAllgather(p, me, n, out);
  } else if (total < 81920) {
    return BruckAllgather(p, me, n, out);
  }
  RingAllgather(p, me, n, out);
}

void Allgatherv(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  const int64_t total = Total(c.counts) * c.type_size;
  if (total == 0) return;
  if (PowerOfTwo(p)) {
    if (total < 524288)
      return RecursiveDoublingAllgatherv(p, me, c.counts, out);
  } else if (total < 81920) {
    return BruckAllgatherv(p, me, c.counts, out);
  }
  RingAllgatherv(p, me, c.counts, out.type_size(), out);
}

// Reduce_scatter (counts) and Reduce_scatter_block (count per rank).
void ReduceScatter(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  std::vector<int64_t> uniform;
  std::span<const int64_t> counts = c.counts;
  if (c.kind == Collective::kReduceScatterBlock) {
    uniform.assign(p, c.count);
    counts = uniform;
  }
  const int64_t total = Total(counts);
  if (total == 0) return;
  if (c.commutative) {
    if (total * c.type_size < 524288) {
      return RecursiveHalvingReduceScatter(p, me, counts, out);
    }
    for (int i = 1; i < p; ++i) {  // pairwise
      out.Elements((me + i) % p, counts[(me + i) % p]);
    }
    return;
  }
  const bool regular = std::all_of(counts.begin(), counts.end(),
                                   [&](int64_t x) { return x == counts[0]; });
  if (regular && PowerOfTwo(p)) return HalvingButterfly(p, me, total, out);
  RecursiveDoublingReduceScatter(p, me, counts, out);
}

void Alltoall(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  const int64_t n = c.count, bytes = n * c.type_size;
  if (n == 0) return;
  if (c.in_place) return AllPairs(p, me, n, out);  // pairwise sendrecv_replace
  const int64_t bruck = c.nonblocking ? 2048 : 256;
  if (p >= 8 && bytes <= bruck) {
    for (int d = 1; d < p; d <<= 1) {
      int64_t blocks = 0;
      for (int i = 0; i < p; ++i) blocks += (i & d) ? 1 : 0;
      out.Elements((me + d) % p, blocks * n);
    }
    return;
  }
  // Scattered (every rank, its own block included, in throttled batches) up
  // to 32 KiB, pairwise exchange above.
  if (bytes <= 32768) {
    for (int i = 0; i < p; ++i) out.Elements((me + i) % p, n);
    return;
  }
  AllPairs(p, me, n, out);
}

// Alltoallv and Alltoallw: scattered, empty blocks not sent; in place, one
// exchange with every other rank.
void Alltoallv(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  for (int i = 0; i < p; ++i) {
    const int dst = (me + i) % p;
    if (c.in_place ? dst != me : c.counts[dst] > 0) {
      out.Elements(dst, c.counts[dst]);
    }
  }
}

void Blocking(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  const int64_t n = c.count;
  switch (c.kind) {
    case Collective::kBcast:
      return Bcast(c, me, out);
    case Collective::kReduce:
      return Reduce(c, me, out);
    case Collective::kAllreduce:
      return Allreduce(c, me, out);
    case Collective::kAllgather:
      return Allgather(c, me, out);
    case Collective::kAllgatherv:
      return Allgatherv(c, me, out);
    case Collective::kAlltoall:
      return Alltoall(c, me, out);
    case Collective::kAlltoallv:
      return Alltoallv(c, me, out);
    case Collective::kBarrier:
      return patterns::Dissemination(p, me, 0, out);
    case Collective::kGather:
      if (n > 0) BinomialGather(p, c.root, me, n, out);
      return;
    case Collective::kScatter:
      if (n > 0) BinomialScatter(p, c.root, me, n, out);
      return;
    case Collective::kGatherv:
      if (me != c.root && n > 0) out.Elements(c.root, n);
      return;
    case Collective::kScatterv:
      if (me != c.root) return;
      for (int j = 0; j < p; ++j) {
        if (j != me && c.counts[j] > 0) out.Elements(j, c.counts[j]);
      }
      return;
    case Collective::kReduceScatter:
    case Collective::kReduceScatterBlock:
      return ReduceScatter(c, me, out);
    case Collective::kScan:
    case Collective::kExscan:  // recursive doubling
      if (n == 0) return;
      for (int mask = 1; mask < p; mask <<= 1) {
        if ((me ^ mask) < p) out.Elements(me ^ mask, n);
      }
      return;
  }
}

}  // namespace

void MpichSends(const CollectiveCall& call, int me, SendSink send) {
  if (call.size < 2 || me < 0 || me >= call.size) return;
  Blocking(call, me, ElementSends(send, static_cast<double>(call.type_size)));
}

}  // namespace rankmap::mpi_bindings::profile
