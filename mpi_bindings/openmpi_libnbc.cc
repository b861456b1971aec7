#include "mpi_bindings/openmpi_libnbc.h"

#include <cstdint>
#include <span>

namespace rankmap::mpi_bindings::profile::internal {
namespace {

using patterns::ElementSends;
using patterns::FloorPowerOfTwo;
using patterns::Total;

// libnbc's trees put the root at virtual rank 0 by swapping it with rank 0.
int Swap(int rank, int root) {
  return rank == root ? 0 : (rank == 0 ? root : rank);
}

// Binomial reduce (red_sched_binomial, the first half of allred_sched_diss,
// Ireduce_scatter's reduce): virtual rank v sends once, to v - lowbit(v).
void BinomialReduce(int root, int me, int64_t n, const ElementSends& out) {
  const int v = Swap(me, root);
  if (v != 0) out.Elements(Swap(v - patterns::LowBit(v), root), n);
}

// Binomial broadcast (bcast_sched_binomial, the second half of
// allred_sched_diss): v hears from v - highbit(v) and sends to v + 2^k for
// every 2^k above v.
void BinomialBroadcast(int p, int root, int me, int64_t n,
                       const ElementSends& out) {
  const int v = Swap(me, root);
  for (int64_t bit = 1; bit < p; bit <<= 1) {
    if (bit > v && v + bit < p) {
      out.Elements(Swap(v + static_cast<int>(bit), root), n);
    }
  }
}

// Fragments of at most `fragment` bytes along the chain of virtual ranks,
// each one to v - 1 (red_sched_chain).
void ChainReduce(int p, int root, int me, int64_t n, int64_t fragment,
                 const ElementSends& out) {
  const int v = Swap(me, root);
  if (n == 0 || v == 0 || v >= p) return;
  const auto bytes = static_cast<int64_t>(n * out.type_size());
  const int64_t pieces = (bytes + fragment - 1) / fragment;
  const int64_t each = n / pieces;
  for (int64_t k = 0; k + 1 < pieces; ++k)
    out.Elements(Swap(v - 1, root), each);
  out.Elements(Swap(v - 1, root), n - each * (pieces - 1));
}

// Ireduce (nothing for an empty vector): Rabenseifner's for commutative vectors
// of at least a power of two of elements, else binomial (a non-commutative one
// to rank 0, which passes the result to the root), else, on up to 4 ranks with
// 64 KiB or more, a chain of 8 KiB fragments.
void Ireduce(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  const int64_t n = c.count;
  if (n == 0) return;
  if (c.commutative && p > 2 && n >= FloorPowerOfTwo(p)) {
    return patterns::RedscatGatherReduce(p, c.root, me, n, out);
  }
  if (p > 4 || n * c.type_size < 65536 || !c.commutative) {
    const int vroot = c.commutative ? c.root : 0;
    BinomialReduce(vroot, me, n, out);
    if (vroot != c.root && me == 0) out.Elements(c.root, n);
    return;
  }
  ChainReduce(p, c.root, me, n, 8192, out);
}

// The ring allreduce (allred_sched_ring): blocks of n / p elements (the first
// n % p one more), 2 (p - 1) of them to rank + 1, block me + 1 - round in
// round 0, 1, ...
void RingAllreduce(int p, int me, int64_t n, const ElementSends& out) {
  const int64_t late = n / p, split = n % p;
  for (int round = 0; round < 2 * p - 2; ++round) {
    const int block = ((me + 1 - round) % p + 2 * p) % p;
    out.Elements((me + 1) % p, late + (block < split ? 1 : 0));
  }
}

// Iallreduce (nothing for an empty vector): binomial reduce to rank 0 and
// binomial broadcast from it for fewer than 4 ranks, less than 64 KiB,
// non-commutative operations or MPI_IN_PLACE; else Rabenseifner's when n
// reaches the largest power of two of ranks; else the ring.
void Iallreduce(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  const int64_t n = c.count;
  if (n == 0) return;
  if (p < 4 || n * c.type_size < 65536 || !c.commutative || c.in_place) {
    BinomialReduce(0, me, n, out);
    return BinomialBroadcast(p, 0, me, n, out);
  }
  if (n >= FloorPowerOfTwo(p)) {
    return patterns::RedscatAllgatherAllreduce(p, me, n, out);
  }
  RingAllreduce(p, me, n, out);
}

// A binomial reduce of everything to rank 0, which sends rank j its block:
// Ireduce_scatter and Ireduce_scatter_block. Nothing when there is nothing.
void ReduceThenScatter(int p, int me, std::span<const int64_t> blocks,
                       const ElementSends& out) {
  const int64_t total = Total(blocks);
  if (total == 0) return;
  BinomialReduce(0, me, total, out);
  if (me != 0) return;
  for (int j = 1; j < p; ++j) out.Elements(j, blocks[j]);
}

// The rooted kinds: linear schedules, empty messages included.
void Rooted(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  switch (c.kind) {
    case Collective::kBcast:  // nothing to send for an empty buffer
      if (c.count == 0) return;
      if (p <= 4) return patterns::LinearBroadcast(p, c.root, me, c.count, out);
      return BinomialBroadcast(p, c.root, me, c.count, out);
    case Collective::kGather:
    case Collective::kGatherv:
      if (me != c.root) out.Elements(c.root, c.count);
      return;
    case Collective::kScatter:
      return patterns::LinearBroadcast(p, c.root, me, c.count, out);
    default:  // Scatterv
      if (me != c.root) return;
      for (int j = 0; j < p; ++j) {
        if (j != me) out.Elements(j, c.counts[j]);
      }
      return;
  }
}

}  // namespace

void LibnbcSends(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size;
  switch (c.kind) {
    case Collective::kReduce:
      return Ireduce(c, me, out);
    case Collective::kAllreduce:
      return Iallreduce(c, me, out);
    case Collective::kAllgather:  // linear, in place or not: one message each
    case Collective::kAlltoall:
      return patterns::AllPairs(p, me, c.count, out);
    case Collective::kAllgatherv:
      return patterns::AllPairs(p, me, c.counts[me], out);
    case Collective::kAlltoallv:  // linear; empty blocks are not sent
      for (int j = 0; j < p; ++j) {
        if (j != me && c.counts[j] > 0) out.Elements(j, c.counts[j]);
      }
      return;
    case Collective::kBarrier:
      return patterns::Dissemination(p, me, 0, out);
    case Collective::kScan:  // a chain; an empty one sends nothing
      if (c.count > 0 && me + 1 < p) out.Elements(me + 1, c.count);
      return;
    case Collective::kExscan:  // a chain, empty messages included
      if (me + 1 < p) out.Elements(me + 1, c.count);
      return;
    case Collective::kReduceScatter:
      return ReduceThenScatter(p, me, c.counts, out);
    case Collective::kReduceScatterBlock: {
      if (c.count == 0) return;
      BinomialReduce(0, me, c.count * p, out);
      if (me == 0) {
        for (int j = 1; j < p; ++j) out.Elements(j, c.count);
      }
      return;
    }
    default:
      return Rooted(c, me, out);
  }
}

}  // namespace rankmap::mpi_bindings::profile::internal
