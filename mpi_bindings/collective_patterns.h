// Communication patterns the MPI libraries build their collectives from, as
// the sends of one rank: trees (a rank's parent and children), recursive
// doubling with the non-power-of-two fold, rings, recursive halving. Both
// library models (openmpi_collectives.h, mpich_collectives.h) compose these;
// where the libraries differ (Open MPI's binomial broadcast tree is the mirror
// of MPICH's), each variant has its own function. MPI-free; the profiler's
// collective model (collective_model.h) is the front door.
//
//   Tree t = InOrderBinomialTree(/*size=*/8, /*root=*/0, /*me=*/4);
//   // t.parent == 0, t.children == {5, 6}
//   ElementSends out(send, /*type_size=*/8);
//   TreeBroadcast(t, /*count=*/100, out);   // 800 bytes to 5 and to 6
//
// Invariants: ranks are those of the communicator, 0 <= rank < size; a tree's
// root has parent -1; every send is one message (zero elements included).
#ifndef RANKMAP_MPI_BINDINGS_COLLECTIVE_PATTERNS_H_
#define RANKMAP_MPI_BINDINGS_COLLECTIVE_PATTERNS_H_

#include <array>
#include <cstdint>
#include <span>

#include "mpi_bindings/collective_call.h"

namespace rankmap::mpi_bindings::profile::patterns {

// Sends counted in elements of one type: Elements(peer, n) is one message of
// n * type_size bytes.
class ElementSends {
 public:
  ElementSends(SendSink send, double type_size)
      : send_(send), type_size_(type_size) {}
  // The same sink counting elements of another size (a collective that hands
  // its data to another one with a derived type).
  ElementSends Retyped(double type_size) const {
    return ElementSends(send_, type_size);
  }
  void Elements(int peer, int64_t n) const {
    send_(peer, static_cast<double>(n) * type_size_);
  }
  void Bytes(int peer, double bytes) const { send_(peer, bytes); }
  double type_size() const { return type_size_; }

 private:
  SendSink send_;
  double type_size_;
};

// A rank's links in a tree; children in the order the library sends to them.
// At most 64 children (a binomial tree of 2^31 ranks has 31; a 4-nomial one
// 3 * 16).
struct Tree {
  int parent = -1;
  int num_children = 0;
  std::array<int, 64> children{};
  std::span<const int> Children() const {
    return {children.data(), static_cast<size_t>(num_children)};
  }
  void Add(int child) {
    if (num_children < static_cast<int>(children.size())) {
      children[num_children++] = child;
    }
  }
};

// Smallest power of two >= n (n >= 1), and the largest <= n.
int CeilPowerOfTwo(int n);
int FloorPowerOfTwo(int n);
// Lowest set bit of v > 0.
inline int LowBit(int v) { return v & -v; }
// The nbits low bits of v in reverse order (Open MPI's mirror permutation).
int MirrorBits(int v, int nbits);

// ---- Trees (ranks shifted so that root is virtual rank 0).

// Binomial tree whose parent of virtual rank v is v minus its lowest set bit;
// children v + 1, v + 2, v + 4, ... below that bit. MPICH's binomial tree and
// Open MPI's "in-order" one (reduce, gather, scatter).
Tree InOrderBinomialTree(int size, int root, int me);
// Open MPI's broadcast binomial tree: parent of v is v minus its highest set
// bit; children v + 2^k for every 2^k above v (the mirror of the above).
Tree OpenMpiBinomialTree(int size, int root, int me);
// Open MPI's k-ary tree (coll_base_topo_build_tree): levels filled breadth
// first, child i of a rank at level l is rank + (i + 1) * fanout^l.
Tree KAryTree(int fanout, int size, int root, int me);
// A chain root -> root + 1 -> ... (Open MPI's pipeline; chain of fanout 1).
Tree ChainTree(int size, int root, int me);
// Open MPI's k-nomial tree of radix k (coll_base_topo_build_kmtree).
Tree KnomialTree(int radix, int size, int root, int me);
// Open MPI's in-order binary tree rooted at size - 1 (non-commutative
// reductions).
Tree InOrderBinaryTree(int size, int me);

// Broadcast down a tree: `count` elements to every child.
void TreeBroadcast(const Tree& tree, int64_t count, const ElementSends& out);
// Reduction up a tree: `count` elements to the parent (none at the root).
void TreeReduce(const Tree& tree, int64_t count, const ElementSends& out);

// ---- Exchanges.

// Recursive doubling on any size (both libraries): the first 2r ranks
// (r = size - largest power of two <= size) fold in pairs, even into odd; the
// power of two left exchange `count` with rank ^ 2^k; odd ranks unfold to
// their even partner.
void RecursiveDoublingExchange(int size, int me, int64_t count,
                               const ElementSends& out);
// Dissemination: `count` elements to me + 2^k for every 2^k < size (Bruck's
// barrier, MPICH's dissemination barrier).
void Dissemination(int size, int me, int64_t count, const ElementSends& out);
// Every rank sends `count` to every other rank, once.
void AllPairs(int size, int me, int64_t count, const ElementSends& out);

// ---- Small helpers shared by the libraries' algorithms.

// a - b, or 0 when that is negative.
inline int64_t Rectify(int64_t a, int64_t b) { return a > b ? a - b : 0; }
// v rounded down to a multiple of factor.
inline int RoundDown(int v, int factor) { return v / factor * factor; }
// log2 of a power of two.
int Log2(int pof2);
// The sum of a v form's counts.
int64_t Total(std::span<const int64_t> counts);
// After the first 2r ranks fold in pairs (r = size - largest power of two),
// virtual rank v is real rank 2v + 1 (the odd rank survives) or v + r ...
inline int Unfolded(int v, int rem) { return v < rem ? 2 * v + 1 : v + rem; }
// ... or 2v when the even rank survives.
inline int UnfoldedEven(int v, int rem) { return v < rem ? 2 * v : v + rem; }

// ---- Broadcasts in blocks.

// The root sends `count` to every other rank.
void LinearBroadcast(int size, int root, int me, int64_t count,
                     const ElementSends& out);
// A binomial scatter of ceil(count / size)-element blocks (rank v of the
// in-order tree gets the blocks of its subtree), then a recursive-doubling
// allgather whose non-power-of-two gaps are filled within each subtree (Open
// MPI's scatter_allgather, MPICH's scatter_recursive_doubling_allgather).
// What a rank forwards depends on what it received, so every rank is
// followed: O(size log size) time, O(size) memory.
void ScatterRecursiveDoublingBroadcast(int size, int root, int me,
                                       int64_t count, const ElementSends& out);
// The same scatter, then a ring allgather of the blocks (MPICH's
// scatter_ring_allgather): block j (virtual) is sent on around the ring.
void ScatterRingBroadcast(int size, int root, int me, int64_t count,
                          const ElementSends& out);

// ---- Allgather of `count`-element blocks.

// Bruck: at distance d = 1, 2, 4, ... what has gathered so far (d blocks, the
// rest at the last step) goes to rank - d.
void BruckAllgather(int size, int me, int64_t count, const ElementSends& out);
// The v form: counts[r] elements from rank r.
void BruckAllgatherv(int size, int me, std::span<const int64_t> counts,
                     const ElementSends& out);
// p - 1 blocks to rank + 1.
void RingAllgather(int size, int me, int64_t count, const ElementSends& out);
// Power-of-two sizes: the whole subtree gathered so far to rank ^ 2^k.
void RecursiveDoublingAllgather(int size, int me, int64_t count,
                                const ElementSends& out);
// The v form (power of two): the subtree's counts summed.
void RecursiveDoublingAllgatherv(int size, int me,
                                 std::span<const int64_t> counts,
                                 const ElementSends& out);

// ---- Rooted gathers and scatters along the in-order binomial tree.

// Rank v holds the blocks [v, v + lowbit(v)): it sends them (subtree blocks
// of `count` elements) to its parent.
void BinomialGather(int size, int root, int me, int64_t count,
                    const ElementSends& out);
// The root hands each child the blocks of its subtree, and so on down.
void BinomialScatter(int size, int root, int me, int64_t count,
                     const ElementSends& out);

// ---- Reduce-scatter: counts[r] elements of the result end on rank r.

// Recursive halving on the largest power of two of ranks; the first 2r ranks
// fold in pairs (even into odd) and the odd one hands its partner's block back
// at the end. Empty halves are not sent.
void RecursiveHalvingReduceScatter(int size, int me,
                                   std::span<const int64_t> counts,
                                   const ElementSends& out);
// Recursive doubling: every block outside the rank's current subtree goes to
// rank ^ 2^k; ranks of incomplete subtrees are filled in by halving.
void RecursiveDoublingReduceScatter(int size, int me,
                                    std::span<const int64_t> counts,
                                    const ElementSends& out);
// Power-of-two sizes (Traff's butterfly, MPICH's noncommutative): halves of
// the whole vector (`total` elements) to rank ^ 1, ^ 2, ^ 4, ...
void HalvingButterfly(int size, int me, int64_t total, const ElementSends& out);
// Elements held by virtual ranks a..b when the first r + 1 of them (indices
// 0..r) own two blocks each.
int64_t RangeBlocks(int a, int b, int r);

// ---- Open MPI's Rabenseifner reductions (coll/base's redscat algorithms,
// which libnbc repeats). Both need 2 <= largest power of two <= size and
// count >= that power of two.

// A reduce-scatter by recursive halving on the largest power of two of ranks
// (the first 2r fold in pairs: the odd one sends both halves, the even one
// its right half), then a binomial gather of the halves to the root; an odd
// root among the first 2r gets its result from rank 0.
void RedscatGatherReduce(int size, int root, int me, int64_t count,
                         const ElementSends& out);
// The same reduce-scatter, then a recursive-doubling allgather and the unfold
// to the first 2r ranks.
void RedscatAllgatherAllreduce(int size, int me, int64_t count,
                               const ElementSends& out);

}  // namespace rankmap::mpi_bindings::profile::patterns

#endif  // RANKMAP_MPI_BINDINGS_COLLECTIVE_PATTERNS_H_
