#include "mpi_bindings/openmpi_collectives.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

#include "mpi_bindings/collective_patterns.h"
#include "mpi_bindings/openmpi_libnbc.h"

namespace rankmap::mpi_bindings::profile {
namespace {

using patterns::ElementSends;
using patterns::FloorPowerOfTwo;
using patterns::Total;
using patterns::Tree;

// ---- The fixed decision rules (coll_tuned_decision_fixed.c, Open MPI 4.1):
// for each communicator-size band, the algorithm of the first threshold the
// message size is below.

constexpr int64_t kAny = std::numeric_limits<int64_t>::max();

struct Step {
  int64_t below;
  int algorithm;
};

int Pick(int64_t bytes, std::initializer_list<Step> steps) {
  for (const Step& s : steps) {
    if (bytes < s.below) return s.algorithm;
  }
  return (steps.end() - 1)->algorithm;
}

// 1 linear, 2 chain, 3 pipeline, 4 split binary tree, 5 binary tree,
// 6 binomial, 7 k-nomial, 8 scatter + recursive-doubling allgather.
int BcastRule(int p, int64_t b) {
  if (p < 4) {
    return Pick(b, {{32, 3},
                    {256, 5},
                    {512, 3},
                    {1024, 7},
                    {32768, 1},
                    {131072, 5},
                    {262144, 2},
                    {524288, 1},
                    {1048576, 6},
                    {kAny, 5}});
  }
  if (p < 8) {
    return Pick(
        b, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}, {kAny, 2}});
  }
  if (p < 16) {
    return Pick(
        b, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}, {kAny, 1}});
  }
  if (p < 32) return Pick(b, {{4096, 7}, {1048576, 6}, {kAny, 8}});
  if (p < 64) return Pick(b, {{2048, 6}, {kAny, 7}});
  if (p < 128) return 7;
  if (p < 256) {
    return Pick(b, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}, {kAny, 7}});
  }
  if (p < 1024) return Pick(b, {{16384, 7}, {32768, 4}, {kAny, 7}});
  if (p < 2048) return Pick(b, {{524288, 7}, {kAny, 8}});
  if (p < 4096) return Pick(b, {{262144, 7}, {kAny, 8}});
  return Pick(b, {{8192, 7}, {16384, 5}, {262144, 7}, {kAny, 8}});
}

// 1 linear, 2 chain, 3 pipeline, 4 binary, 5 binomial, 6 in-order binary,
// 7 Rabenseifner (reduce-scatter + gather).
int ReduceRule(int p, int64_t b, bool commutative) {
  if (!commutative) {
    if (p < 4) return Pick(b, {{8, 6}, {kAny, 1}});
    if (p < 8) return 1;
    if (p < 16) {
      return Pick(b,
                  {{1024, 6}, {8192, 1}, {16384, 6}, {262144, 1}, {kAny, 6}});
    }
    if (p < 128) return 6;
    if (p < 256) return Pick(b, {{512, 6}, {1024, 1}, {kAny, 6}});
    return 6;
  }
  if (p < 4) {
    return Pick(b, {{8, 7},
                    {16, 4},
                    {32, 3},
                    {262144, 1},
                    {524288, 3},
                    {1048576, 2},
                    {kAny, 3}});
  }
  if (p < 8) {
    return Pick(b, {{4096, 4},
                    {65536, 2},
                    {262144, 5},
                    {524288, 1},
                    {1048576, 5},
                    {kAny, 1}});
  }
  if (p < 16) return Pick(b, {{8192, 4}, {kAny, 5}});
  if (p < 32) return Pick(b, {{4096, 4}, {kAny, 5}});
  if (p < 256) return 5;
  if (p < 512) return Pick(b, {{8192, 5}, {16384, 6}, {kAny, 5}});
  if (p < 2048) return 5;
  if (p < 4096) {
    return Pick(b, {{512, 5}, {1024, 6}, {8192, 5}, {16384, 6}, {kAny, 5}});
  }
  return Pick(b, {{16, 5},
                  {32, 6},
                  {1024, 5},
                  {2048, 6},
                  {8192, 5},
                  {16384, 6},
                  {kAny, 5}});
}

// 1 linear, 2 reduce + broadcast, 3 recursive doubling, 4 ring,
// 5 segmented ring, 6 Rabenseifner.
int AllreduceRule(int p, int64_t b, bool commutative) {
  if (!commutative) {
    if (p < 4) return Pick(b, {{131072, 3}, {kAny, 1}});
    if (p < 8) return 3;
    if (p < 16) return Pick(b, {{1048576, 3}, {kAny, 2}});
    if (p < 128) return 3;
    if (p < 256) return Pick(b, {{131072, 2}, {524288, 3}, {kAny, 2}});
    if (p < 512) return Pick(b, {{4096, 2}, {524288, 3}, {kAny, 2}});
    return Pick(b, {{2048, 2}, {kAny, 3}});
  }
  if (p < 4) {
    return Pick(b, {{8, 4},
                    {4096, 3},
                    {8192, 4},
                    {16384, 3},
                    {65536, 4},
                    {262144, 5},
                    {kAny, 6}});
  }
  if (p < 8) return Pick(b, {{16, 4}, {8192, 3}, {kAny, 6}});
  if (p < 16) return Pick(b, {{8192, 3}, {kAny, 6}});
  if (p < 32) return Pick(b, {{64, 5}, {4096, 3}, {kAny, 6}});
  if (p < 64) return Pick(b, {{128, 5}, {kAny, 6}});
  if (p < 128) return Pick(b, {{262144, 3}, {kAny, 6}});
  if (p < 256) return Pick(b, {{131072, 2}, {262144, 3}, {kAny, 6}});
  if (p < 512) return Pick(b, {{4096, 2}, {kAny, 6}});
  if (p < 2048) return Pick(b, {{2048, 2}, {16384, 3}, {kAny, 6}});
  if (p < 4096) {
    return Pick(b, {{2048, 2}, {4096, 5}, {16384, 3}, {kAny, 6}});
  }
  return Pick(b, {{2048, 2}, {16384, 5}, {32768, 3}, {kAny, 6}});
}

// 1 linear, 2 pairwise, 3 modified Bruck, 4 linear with limited requests,
// 5 two processes.
int AlltoallRule(int p, int64_t b) {
  if (p == 2) {
    return Pick(b, {{2, 2},
                    {4, 5},
                    {16, 2},
                    {64, 5},
                    {256, 2},
                    {4096, 5},
                    {32768, 2},
                    {262144, 4},
                    {1048576, 5},
                    {kAny, 2}});
  }
  if (p < 8) {
    return Pick(b, {{8192, 4},
                    {16384, 1},
                    {65536, 4},
                    {524288, 1},
                    {1048576, 2},
                    {kAny, 1}});
  }
  if (p < 16) return Pick(b, {{262144, 4}, {kAny, 1}});
  if (p < 32) {
    return Pick(b, {{4, 4},
                    {512, 3},
                    {8192, 4},
                    {32768, 1},
                    {262144, 4},
                    {524288, 1},
                    {kAny, 4}});
  }
  if (p < 64) return Pick(b, {{512, 3}, {524288, 1}, {kAny, 4}});
  if (p < 128) {
    return Pick(b, {{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}, {kAny, 2}});
  }
  if (p < 256) return Pick(b, {{1024, 3}, {2048, 4}, {262144, 1}, {kAny, 2}});
  if (p < 512) return Pick(b, {{1024, 3}, {8192, 4}, {32768, 1}, {kAny, 2}});
  if (p < 1024) {
    return Pick(
        b,
        {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}, {kAny, 2}});
  }
  if (p < 2048) {
    return Pick(
        b,
        {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}, {kAny, 4}});
  }
  if (p < 4096) {
    return Pick(b, {{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}, {kAny, 1}});
  }
  return Pick(
      b, {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}, {kAny, 4}});
}

// 1 linear, 2 pairwise.
int AlltoallvRule(int p) {
  if (p < 4) return 2;
  if (p < 64) return 1;
  if (p < 128) return 2;
  if (p < 256) return 1;
  if (p < 1024) return 2;
  return 1;
}

// 1 linear, 2 double ring, 3 recursive doubling, 4 Bruck, 6 tree.
int BarrierRule(int p) {
  if (p < 4) return 3;
  if (p < 8) return 1;
  if (p < 64) return 3;
  if (p < 256) return 4;
  if (p < 512) return 6;
  if (p < 1024) return 4;
  if (p < 4096) return 6;
  return 4;
}

// 1 linear, 2 Bruck, 3 recursive doubling, 4 ring, 5 neighbour exchange,
// 6 two processes.
int AllgatherRule(int p, int64_t b) {
  if (p == 2) return 6;
  if (p < 32) return 3;
  if (p < 64) return Pick(b, {{1024, 3}, {65536, 5}, {kAny, 4}});
  if (p < 128) return Pick(b, {{512, 3}, {65536, 5}, {kAny, 4}});
  if (p < 256) {
    return Pick(b,
                {{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {kAny, 4}});
  }
  if (p < 512) {
    return Pick(b, {{32, 3},
                    {128, 2},
                    {1024, 3},
                    {131072, 5},
                    {524288, 4},
                    {1048576, 5},
                    {kAny, 4}});
  }
  if (p < 1024) return Pick(b, {{64, 3}, {256, 2}, {2048, 3}, {kAny, 5}});
  if (p < 2048) {
    return Pick(b, {{4, 3},
                    {8, 2},
                    {16, 3},
                    {32, 2},
                    {256, 3},
                    {512, 2},
                    {4096, 3},
                    {kAny, 5}});
  }
  if (p < 4096) {
    return Pick(b, {{32, 2}, {128, 3}, {512, 2}, {4096, 3}, {kAny, 5}});
  }
  return Pick(b, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}, {kAny, 5}});
}

// On the bytes per rank: 1 gatherv + broadcast, 2 Bruck, 3 ring,
// 4 neighbour exchange, 5 two processes.
int AllgathervRule(int p, int64_t b) {
  if (p == 2) return Pick(b, {{2048, 3}, {4096, 5}, {8192, 3}, {kAny, 5}});
  if (p < 8) {
    return Pick(
        b,
        {{256, 1}, {4096, 4}, {8192, 3}, {16384, 4}, {262144, 2}, {kAny, 4}});
  }
  if (p < 16) return Pick(b, {{1024, 1}, {kAny, 2}});
  if (p < 32) return Pick(b, {{128, 1}, {262144, 2}, {kAny, 3}});
  if (p < 64) return Pick(b, {{256, 1}, {8192, 2}, {kAny, 3}});
  if (p < 128) return Pick(b, {{256, 1}, {4096, 2}, {kAny, 3}});
  if (p < 256) return Pick(b, {{1024, 2}, {65536, 4}, {kAny, 3}});
  if (p < 512) return Pick(b, {{1024, 2}, {kAny, 3}});
  if (p < 1024) {
    return Pick(b, {{512, 2}, {1024, 1}, {4096, 2}, {1048576, 4}, {kAny, 3}});
  }
  return Pick(b, {{4096, 2}, {kAny, 4}});
}

// 1 linear, 2 binomial, 3 linear with a synchronising first segment.
int GatherRule(int p, int64_t b) {
  if (p < 4) {
    return Pick(
        b, {{2, 3}, {4, 1}, {32768, 2}, {65536, 1}, {131072, 2}, {kAny, 3}});
  }
  if (p < 8) {
    return Pick(b, {{1024, 2}, {8192, 1}, {32768, 2}, {262144, 1}, {kAny, 3}});
  }
  if (p < 256) return 2;
  if (p < 512) return Pick(b, {{2048, 2}, {8192, 1}, {kAny, 2}});
  return 2;
}

// 1 linear, 2 binomial, 3 linear non-blocking.
int ScatterRule(int p, int64_t b) {
  if (p < 4) return Pick(b, {{2, 3}, {131072, 1}, {262144, 3}, {kAny, 1}});
  if (p < 8) {
    return Pick(
        b,
        {{2048, 2}, {4096, 1}, {8192, 2}, {32768, 1}, {1048576, 3}, {kAny, 1}});
  }
  if (p < 16) return Pick(b, {{16384, 2}, {1048576, 3}, {kAny, 1}});
  if (p < 32) return Pick(b, {{16384, 2}, {32768, 1}, {kAny, 3}});
  if (p < 64) return Pick(b, {{512, 2}, {8192, 3}, {16384, 2}, {kAny, 3}});
  return Pick(b, {{512, 2}, {kAny, 3}});
}

// On the total bytes: 1 reduce + scatterv, 2 recursive halving, 3 ring,
// 4 butterfly.
int ReduceScatterRule(int p, int64_t b, bool commutative) {
  if (!commutative) return 1;
  if (p < 4) return Pick(b, {{65536, 3}, {131072, 4}, {kAny, 3}});
  if (p < 8) return Pick(b, {{8, 1}, {262144, 2}, {kAny, 3}});
  if (p < 32) return Pick(b, {{262144, 2}, {kAny, 3}});
  if (p < 64) return Pick(b, {{64, 1}, {2048, 2}, {524288, 4}, {kAny, 3}});
  if (p < 128) {
    return Pick(b, {{256, 1}, {512, 2}, {2048, 4}, {4096, 2}, {kAny, 4}});
  }
  if (p < 256) return Pick(b, {{256, 1}, {512, 2}, {kAny, 4}});
  if (p < 512) return Pick(b, {{256, 1}, {1024, 2}, {kAny, 4}});
  if (p < 1024) {
    return Pick(b, {{512, 1}, {2048, 2}, {8192, 4}, {16384, 2}, {kAny, 4}});
  }
  if (p < 2048) {
    return Pick(b, {{512, 1}, {4096, 2}, {16384, 4}, {32768, 2}, {kAny, 4}});
  }
  if (p < 4096) return Pick(b, {{512, 1}, {4096, 2}, {kAny, 4}});
  return Pick(b, {{1024, 1}, {8192, 2}, {kAny, 4}});
}

// On the block bytes: 1 reduce + scatter, 2 recursive doubling,
// 3 recursive halving, 4 butterfly.
int ReduceScatterBlockRule(int p, int64_t b, bool commutative) {
  if (!commutative) return 1;
  if (p < 4) {
    return Pick(b, {{4, 2},
                    {8, 4},
                    {16, 3},
                    {128, 4},
                    {256, 3},
                    {4096, 4},
                    {8192, 3},
                    {131072, 4},
                    {kAny, 1}});
  }
  if (p < 8) {
    return Pick(b, {{8, 3},
                    {32, 2},
                    {256, 4},
                    {8192, 3},
                    {16384, 4},
                    {1048576, 3},
                    {kAny, 1}});
  }
  if (p < 16) {
    return Pick(
        b, {{4, 1}, {32, 3}, {128, 4}, {524288, 3}, {4194304, 1}, {kAny, 4}});
  }
  if (p < 32) {
    return Pick(b,
                {{32, 1}, {524288, 3}, {2097152, 1}, {4194304, 3}, {kAny, 4}});
  }
  return Pick(b, {{4, 3}, {16, 1}, {65536, 4}, {262144, 1}, {kAny, 4}});
}

// ---- Algorithms (coll/base), as the sends of rank `me`. A call names the
// communicator size p, the root and the block in elements; ElementSends turns
// elements into bytes.

using patterns::AllPairs;
using patterns::BinomialGather;
using patterns::BinomialScatter;
using patterns::BruckAllgather;
using patterns::BruckAllgatherv;
using patterns::ChainTree;
using patterns::HalvingButterfly;
using patterns::InOrderBinaryTree;
using patterns::InOrderBinomialTree;
using patterns::KAryTree;
using patterns::KnomialTree;
using patterns::LinearBroadcast;
using patterns::Log2;
using patterns::LowBit;
using patterns::MirrorBits;
using patterns::OpenMpiBinomialTree;
using patterns::RangeBlocks;
using patterns::RecursiveDoublingAllgather;
using patterns::RecursiveDoublingExchange;
using patterns::RecursiveDoublingReduceScatter;
using patterns::RecursiveHalvingReduceScatter;
using patterns::RingAllgather;
using patterns::RoundDown;
using patterns::TreeBroadcast;
using patterns::TreeReduce;
using patterns::Unfolded;
using patterns::UnfoldedEven;

void LinearReduce(int root, int me, int64_t n, const ElementSends& out) {
  if (me != root) out.Elements(root, n);
}

// The root sends one half down each subtree of a binary tree; every rank then
// swaps halves with its twin in the other subtree.
void SplitBinaryTreeBcast(int p, int root, int me, int64_t n,
                          const ElementSends& out) {
  const int64_t half[2] = {(n + 1) / 2, n - (n + 1) / 2};
  if (half[0] == 0 || half[1] == 0) {  // too small to split: a chain
    TreeBroadcast(ChainTree(p, root, me), n, out);
    return;
  }
  const Tree tree = KAryTree(2, p, root, me);
  const int lr = ((me - root + p) % p + 1) % 2;  // 0 left, 1 right (root)
  if (me == root) {
    for (int i = 0; i < tree.num_children && i < 2; ++i) {
      out.Elements(tree.children[i], half[i]);
    }
  } else {
    for (int child : tree.Children()) out.Elements(child, half[lr]);
  }
  const int pair = lr == 0 ? (me + 1) % p : (me + p - 1) % p;
  const int last = (root + p - 1) % p;
  if (p % 2 != 0) {
    if (me != root) out.Elements(pair, half[lr]);
  } else if (me == root) {
    out.Elements(last, half[1]);
  } else if (me != last) {
    out.Elements(pair, half[lr]);
  }
}

void BcastAlgorithm(int alg, int p, int root, int me, int64_t n,
                    const ElementSends& out) {
  switch (alg) {
    case 1:
      return LinearBroadcast(p, root, me, n, out);
    case 2:  // a chain of fanout 1 without segments: the pipeline
    case 3:
      return TreeBroadcast(ChainTree(p, root, me), n, out);
    case 4:
      return SplitBinaryTreeBcast(p, root, me, n, out);
    case 5:
      return TreeBroadcast(KAryTree(2, p, root, me), n, out);
    case 6:
      return TreeBroadcast(OpenMpiBinomialTree(p, root, me), n, out);
    case 7:  // coll_tuned_bcast_knomial_radix defaults to 4
      return TreeBroadcast(KnomialTree(4, p, root, me), n, out);
    default:  // scatter + recursive-doubling allgather; linear when small
      if (n < p) return LinearBroadcast(p, root, me, n, out);
      return patterns::ScatterRecursiveDoublingBroadcast(p, root, me, n, out);
  }
}

void RabenseifnerReduce(int p, int root, int me, int64_t n,
                        const ElementSends& out) {
  if (FloorPowerOfTwo(p) < 2 || n < FloorPowerOfTwo(p)) {
    return LinearReduce(root, me, n, out);
  }
  patterns::RedscatGatherReduce(p, root, me, n, out);
}

void ReduceAlgorithm(int alg, int p, int root, int me, int64_t n,
                     const ElementSends& out) {
  switch (alg) {
    case 1:
      return LinearReduce(root, me, n, out);
    case 2:
    case 3:
      return TreeReduce(ChainTree(p, root, me), n, out);
    case 4:
      return TreeReduce(KAryTree(2, p, root, me), n, out);
    case 5:
      return TreeReduce(InOrderBinomialTree(p, root, me), n, out);
    case 6:  // reduced at p - 1, which hands the result to the root
      TreeReduce(InOrderBinaryTree(p, me), n, out);
      if (me == p - 1 && root != p - 1) out.Elements(root, n);
      return;
    default:
      return RabenseifnerReduce(p, root, me, n, out);
  }
}

// Ring: reduce-scatter around the ring in blocks of about n / p, then an
// allgather of the reduced blocks; 2 (p - 1) messages to the right.
void RingAllreduce(int p, int me, int64_t n, const ElementSends& out) {
  if (n < p) return RecursiveDoublingExchange(p, me, n, out);
  const int64_t split = n % p, late = n / p, early = late + (split ? 1 : 0);
  auto block = [&](int b) { return b < split ? early : late; };
  const int right = (me + 1) % p;
  out.Elements(right, block(me));
  for (int k = 2; k < p; ++k) out.Elements(right, block((me + p - k + 1) % p));
  for (int k = 0; k < p - 1; ++k) {
    out.Elements(right, block((me + 1 + p - k) % p));
  }
}

void LinearAllreduce(int p, int me, int64_t n, const ElementSends& out) {
  LinearReduce(0, me, n, out);
  LinearBroadcast(p, 0, me, n, out);
}

void RabenseifnerAllreduce(int p, int me, int64_t n, const ElementSends& out) {
  if (n < FloorPowerOfTwo(p)) return LinearAllreduce(p, me, n, out);
  patterns::RedscatAllgatherAllreduce(p, me, n, out);
}

// ---- Allgather: blocks of n elements from every rank.

// Ranks pair up with one neighbour, then forward two blocks a step,
// alternating neighbours; odd sizes use the ring.
void NeighbourAllgather(int p, int me, int64_t n, const ElementSends& out) {
  if (p % 2 != 0) return RingAllgather(p, me, n, out);
  const bool even = me % 2 == 0;
  const int neighbour[2] = {(me + (even ? 1 : p - 1)) % p,
                            (me + (even ? p - 1 : 1)) % p};
  out.Elements(neighbour[0], n);
  for (int i = 1; i < p / 2; ++i) out.Elements(neighbour[i % 2], 2 * n);
}

void AllgatherAlgorithm(int alg, int p, int me, int64_t n,
                        const ElementSends& out) {
  switch (alg) {
    case 3:  // recursive doubling on powers of two, Bruck otherwise
      if ((p & (p - 1)) == 0) return RecursiveDoublingAllgather(p, me, n, out);
      return BruckAllgather(p, me, n, out);
    case 2:
      return BruckAllgather(p, me, n, out);
    case 4:
      return RingAllgather(p, me, n, out);
    case 5:
      return NeighbourAllgather(p, me, n, out);
    default:  // two processes
      return out.Elements(1 - me, n);
  }
}

// The v form: counts[r] elements from rank r.
void AllgathervAlgorithm(int alg, int p, int me, std::span<const int64_t> c,
                         const ElementSends& out) {
  switch (alg) {
    case 2:
      return BruckAllgatherv(p, me, c, out);
    case 4:
      if (p % 2 == 0) {  // neighbour exchange
        const bool even = me % 2 == 0;
        const int neighbour[2] = {(me + (even ? 1 : p - 1)) % p,
                                  (me + (even ? p - 1 : 1)) % p};
        const int offset[2] = {even ? 2 : -2, even ? -2 : 2};
        int from[2] = {even ? me : neighbour[0], even ? me : neighbour[0]};
        int send_from = from[0];
        out.Elements(neighbour[0], c[me]);
        for (int i = 1; i < p / 2; ++i) {
          const int k = i % 2;
          from[k] = (from[k] + offset[k] + p) % p;
          out.Elements(neighbour[k], c[send_from] + c[(send_from + 1) % p]);
          send_from = from[k];
        }
        return;
      }
      [[fallthrough]];
    case 3:  // ring
      for (int i = 0; i < p - 1; ++i) {
        out.Elements((me + 1) % p, c[(me - i + p) % p]);
      }
      return;
    default:  // two processes
      return out.Elements(1 - me, c[me]);
  }
}

// ---- All-to-all.

// Bruck: at distance d send every block whose index has bit d to rank + d.
void BruckAlltoall(int p, int me, int64_t n, const ElementSends& out) {
  for (int d = 1; d < p; d <<= 1) {
    int64_t blocks = 0;
    for (int i = 1; i < p; ++i) blocks += (i & d) ? 1 : 0;
    out.Elements((me + d) % p, blocks * n);
  }
}

void AlltoallAlgorithm(int alg, int p, int me, int64_t n,
                       const ElementSends& out) {
  switch (alg) {
    case 2:  // pairwise (its own block is copied locally)
      for (int step = 1; step < p; ++step) out.Elements((me + step) % p, n);
      return;
    case 3:
      return BruckAlltoall(p, me, n, out);
    case 5:
      return out.Elements(1 - me, n);
    default:  // linear, with or without a limit on requests
      return AllPairs(p, me, n, out);
  }
}

// ---- Barrier: zero-byte messages.

// Pairs ranks across the power-of-two cube; ranks beyond it check in with
// rank - 2^k first and are released last.
void RecursiveDoublingBarrier(int p, int me, const ElementSends& out) {
  const int pof2 = FloorPowerOfTwo(p);
  if (me >= pof2) {
    out.Elements(me - pof2, 0);
    return;
  }
  for (int mask = 1; mask < pof2; mask <<= 1) out.Elements(me ^ mask, 0);
  if (me < p - pof2) out.Elements(me + pof2, 0);
}

// Up a binomial tree and back down.
void TreeBarrier(int p, int me, const ElementSends& out) {
  const int depth = patterns::CeilPowerOfTwo(p);
  auto linked = [&](int partner, int jump) {
    return (partner & (jump - 1)) == 0 && partner < p;
  };
  for (int jump = 1; jump < depth; jump <<= 1) {
    const int partner = me ^ jump;
    if (linked(partner, jump) && partner < me) out.Elements(partner, 0);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    const int partner = me ^ jump;
    if (linked(partner, jump) && partner > me) out.Elements(partner, 0);
  }
}

void BarrierAlgorithm(int alg, int p, int me, const ElementSends& out) {
  switch (alg) {
    case 1:  // everyone checks in with rank 0, which releases everyone
      if (me != 0) return out.Elements(0, 0);
      return AllPairs(p, me, 0, out);
    case 2:  // twice around the ring
      out.Elements((me + 1) % p, 0);
      return out.Elements((me + 1) % p, 0);
    case 3:
      return RecursiveDoublingBarrier(p, me, out);
    case 4:
      return patterns::Dissemination(p, me, 0, out);
    default:
      return TreeBarrier(p, me, out);
  }
}

// ---- Rooted gathers and scatters of n-element blocks.

void GatherAlgorithm(int alg, int p, int root, int me, int64_t n,
                     const ElementSends& out) {
  if (alg == 1) return LinearReduce(root, me, n, out);
  if (alg == 2) return BinomialGather(p, root, me, n, out);
  // Linear with a synchronising first segment: the root's zero-byte go, then
  // the block and an empty second segment (the fixed rules pass none).
  if (me == root) return AllPairs(p, me, 0, out);
  out.Elements(root, n);
  out.Elements(root, 0);
}

void ScatterAlgorithm(int alg, int p, int root, int me, int64_t n,
                      const ElementSends& out) {
  if (alg != 2) return LinearBroadcast(p, root, me, n, out);
  BinomialScatter(p, root, me, n, out);
}

// ---- Reduce_scatter: counts[r] elements of the result end on rank r.

// Ring: each block travels p - 1 hops to its owner, reduced on the way.
void RingReduceScatter(int p, int me, std::span<const int64_t> c,
                       const ElementSends& out) {
  for (int k = 1; k < p; ++k) out.Elements((me + 1) % p, c[(me - k + p) % p]);
}

// Butterfly (Traff): fold to a power of two, halve the vector with rank ^ 2^k,
// then deliver each result block through the mirror permutation. vsum(lo,
// hi) adds the blocks of virtual ranks lo..hi.
template <typename VirtualSum, typename Block>
void Butterfly(int p, int me, int64_t total, VirtualSum vsum, Block block,
               const ElementSends& out) {
  const int pof2 = FloorPowerOfTwo(p), rem = p - pof2;
  if (me < 2 * rem && me % 2 == 0) {
    out.Elements(me + 1, total);
    return;
  }
  const int vrank = me < 2 * rem ? me / 2 : me - rem;
  int blocks = pof2, send_index = 0, recv_index = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    blocks /= 2;
    if ((vrank & mask) == 0) {
      send_index += blocks;
    } else {
      recv_index += blocks;
    }
    out.Elements(Unfolded(vrank ^ mask, rem),
                 vsum(send_index, send_index + blocks - 1));
    send_index = recv_index;
  }
  const int vpeer = MirrorBits(vrank, Log2(pof2));
  const int peer = Unfolded(vpeer, rem);
  int index = send_index < rem ? 2 * send_index : rem + send_index;
  if (vpeer < rem) out.Elements(peer - 1, block(index++));
  if (vpeer != vrank) out.Elements(peer, block(index));
}

void ReduceScatterButterfly(int p, int me, std::span<const int64_t> c,
                            const ElementSends& out) {
  const int rem = p - FloorPowerOfTwo(p);
  int64_t total = 0;
  for (int64_t x : c) total += x;
  auto vsum = [&](int lo, int hi) {
    int64_t s = 0;
    for (int r = lo < rem ? 2 * lo : lo + rem;
         r <= (hi < rem ? 2 * hi + 1 : hi + rem); ++r) {
      s += c[r];
    }
    return s;
  };
  Butterfly(
      p, me, total, vsum, [&](int r) { return c[r]; }, out);
}

// ---- Reduce_scatter_block: n elements of the result on every rank.

void RecursiveHalvingReduceScatterBlock(int p, int me, int64_t n,
                                        const ElementSends& out) {
  const int pof2 = FloorPowerOfTwo(p), rem = p - pof2;
  if (me < 2 * rem && me % 2 == 0) {
    out.Elements(me + 1, n * p);
    return;
  }
  const int vrank = me < 2 * rem ? me / 2 : me - rem;
  int send_index = 0, recv_index = 0, last_index = pof2;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
    const int vpeer = vrank ^ mask;
    int64_t send = 0;
    if (vrank < vpeer) {
      send_index = recv_index + mask;
      send = n * RangeBlocks(send_index, last_index - 1, rem - 1);
    } else {
      recv_index = send_index + mask;
      send = n * RangeBlocks(send_index, recv_index - 1, rem - 1);
    }
    if (send > 0) out.Elements(Unfolded(vpeer, rem), send);
    send_index = recv_index;
    last_index = recv_index + mask;
  }
  if (me < 2 * rem) out.Elements(me - 1, n);
}

void ButterflyReduceScatterBlock(int p, int me, int64_t n,
                                 const ElementSends& out) {
  if ((p & (p - 1)) == 0) return HalvingButterfly(p, me, n * p, out);
  const int rem = p - FloorPowerOfTwo(p);
  Butterfly(
      p, me, n * p,
      [&](int lo, int hi) { return n * RangeBlocks(lo, hi, rem - 1); },
      [&](int) { return n; }, out);
}

// ---- Dispatch.

// Reduce and Bcast as other collectives call them (through the rules again).
void RuledReduce(int p, int root, int me, int64_t n, bool commutative,
                 const ElementSends& out) {
  const auto bytes = static_cast<int64_t>(n * out.type_size());
  ReduceAlgorithm(ReduceRule(p, bytes, commutative), p, root, me, n, out);
}
void RuledBcast(int p, int root, int me, int64_t n, const ElementSends& out) {
  const auto bytes = static_cast<int64_t>(n * out.type_size());
  BcastAlgorithm(BcastRule(p, bytes), p, root, me, n, out);
}

void Allreduce(int alg, const CollectiveCall& c, int me,
               const ElementSends& out) {
  const int p = c.size;
  const int64_t n = c.count;
  switch (alg) {
    case 1:
      return LinearAllreduce(p, me, n, out);
    case 2:
      RuledReduce(p, 0, me, n, c.commutative, out);
      return RuledBcast(p, 0, me, n, out);
    case 3:
      return RecursiveDoublingExchange(p, me, n, out);
    case 4:
    case 5:  // the segmented ring without segments is the ring
      return RingAllreduce(p, me, n, out);
    default:
      return RabenseifnerAllreduce(p, me, n, out);
  }
}

void ReduceScatter(int alg, const CollectiveCall& c, int me,
                   const ElementSends& out) {
  const int p = c.size;
  switch (alg) {
    case 1:  // reduce to 0, then the basic component's linear scatterv
      RuledReduce(p, 0, me, Total(c.counts), c.commutative, out);
      if (me == 0) {
        for (int j = 1; j < p; ++j) out.Elements(j, c.counts[j]);
      }
      return;
    case 2:
      return RecursiveHalvingReduceScatter(p, me, c.counts, out);
    case 3:
      return RingReduceScatter(p, me, c.counts, out);
    default:
      return ReduceScatterButterfly(p, me, c.counts, out);
  }
}

void ReduceScatterBlock(int alg, const CollectiveCall& c, int me,
                        const ElementSends& out) {
  const int p = c.size;
  const int64_t n = c.count;
  if (n == 0) return;
  if (alg == 1 || (alg == 3 && !c.commutative)) {  // reduce, then scatter
    RuledReduce(p, 0, me, n * p, c.commutative, out);
    const auto bytes = static_cast<int64_t>(n * out.type_size());
    return ScatterAlgorithm(ScatterRule(p, bytes), p, 0, me, n, out);
  }
  if (alg == 2) {
    const std::vector<int64_t> blocks(p, n);
    return RecursiveDoublingReduceScatter(p, me, blocks, out);
  }
  if (alg == 3) return RecursiveHalvingReduceScatterBlock(p, me, n, out);
  return ButterflyReduceScatterBlock(p, me, n, out);
}

// Allgatherv, Alltoallv/w, Gatherv, Scatterv: the per-rank counts.
void VariableBlocks(int alg, const CollectiveCall& c, int me,
                    const ElementSends& out) {
  const int p = c.size;
  switch (c.kind) {
    case Collective::kAllgatherv:
      if (alg != 1) return AllgathervAlgorithm(alg, p, me, c.counts, out);
      // gatherv to 0, then a broadcast of everything as one derived element
      if (me != 0 && c.counts[me] > 0) out.Elements(0, c.counts[me]);
      return RuledBcast(p, 0, me, 1,
                        out.Retyped(Total(c.counts) * out.type_size()));
    case Collective::kAlltoallv:
      // Pairwise (rank + 1, rank + 2, ...) or linear: one message to every
      // other rank, empty blocks included.
      for (int step = 1; step < p; ++step) {
        out.Elements((me + step) % p, c.counts[(me + step) % p]);
      }
      return;
    case Collective::kGatherv:
      if (me != c.root && c.count > 0) out.Elements(c.root, c.count);
      return;
    default:  // Scatterv
      if (me != c.root) return;
      for (int j = 0; j < p; ++j) {
        if (j != me && c.counts[j] > 0) out.Elements(j, c.counts[j]);
      }
      return;
  }
}

int Choose(const CollectiveCall& c) {
  const int p = c.size;
  const int64_t block = c.count * c.type_size;
  switch (c.kind) {
    case Collective::kBcast:
      return BcastRule(p, block);
    case Collective::kReduce:
      return ReduceRule(p, block, c.commutative);
    case Collective::kAllreduce:
      return AllreduceRule(p, block, c.commutative);
    case Collective::kAllgather:
      return AllgatherRule(p, block);
    case Collective::kAllgatherv:
      return AllgathervRule(p, Total(c.counts) * c.type_size / p);
    case Collective::kAlltoall:
      return AlltoallRule(p, block);
    case Collective::kAlltoallv:
      return AlltoallvRule(p);
    case Collective::kBarrier:
      return BarrierRule(p);
    case Collective::kGather:
      return GatherRule(p, block);
    case Collective::kScatter:
      return ScatterRule(p, block);
    case Collective::kReduceScatter:
      return ReduceScatterRule(p, Total(c.counts) * c.type_size, c.commutative);
    case Collective::kReduceScatterBlock:
      return ReduceScatterBlockRule(p, block, c.commutative);
    default:
      return 0;
  }
}

void Blocking(const CollectiveCall& c, int me, const ElementSends& out) {
  const int p = c.size, alg = Choose(c);
  const int64_t n = c.count;
  switch (c.kind) {
    case Collective::kBcast:
      if (n > 0) BcastAlgorithm(alg, p, c.root, me, n, out);
      return;
    case Collective::kReduce:
      if (n > 0) ReduceAlgorithm(alg, p, c.root, me, n, out);
      return;
    case Collective::kAllreduce:
      if (n > 0) Allreduce(alg, c, me, out);
      return;
    case Collective::kAllgather:  // empty blocks: nothing to do
      if (n > 0) AllgatherAlgorithm(alg, p, me, n, out);
      return;
    case Collective::kAlltoall:
      if (n == 0) return;
      if (c.in_place) return AllPairs(p, me, n, out);
      return AlltoallAlgorithm(alg, p, me, n, out);
    case Collective::kBarrier:
      return BarrierAlgorithm(alg, p, me, out);
    case Collective::kGather:
      if (n > 0) GatherAlgorithm(alg, p, c.root, me, n, out);
      return;
    case Collective::kScatter:
      if (n > 0) ScatterAlgorithm(alg, p, c.root, me, n, out);
      return;
    case Collective::kReduceScatter:
      return ReduceScatter(alg, c, me, out);
    case Collective::kReduceScatterBlock:
      return ReduceScatterBlock(alg, c, me, out);
    case Collective::kScan:
    case Collective::kExscan:  // the basic component's chain
      if (n > 0 && me + 1 < p) out.Elements(me + 1, n);
      return;
    default:
      return VariableBlocks(alg, c, me, out);
  }
}

}  // namespace

void OpenMpiSends(const CollectiveCall& call, int me, SendSink send) {
  if (call.size < 2 || me < 0 || me >= call.size) return;
  const ElementSends out(send, static_cast<double>(call.type_size));
  if (call.nonblocking) return internal::LibnbcSends(call, me, out);
  Blocking(call, me, out);
}

namespace internal {

int OpenMpiAlgorithm(const CollectiveCall& call) { return Choose(call); }

}  // namespace internal
}  // namespace rankmap::mpi_bindings::profile
