// TreeMatch's grouping methods: how the units of one tree level are grouped by
// the arity above them (core/initial/treematch.h drives them level by level).
// Each method is here on its own so that tests can run it alone; the engine
// uses them only through TreeMatchMap and GroupUnits.
//
// A grouping of p units by arity k is `members`: members[g * k + i] is the
// unit at position i of group g (p a multiple of k, padding units included by
// the caller). The value of a group is the traffic that leaves it.
//
//   internal::Csr level = internal::FromGraph(graph);
//   std::vector<int32_t> pairs = internal::HeavyEdgePairs(level);
#ifndef RANKMAP_CORE_INITIAL_GROUPING_H_
#define RANKMAP_CORE_INITIAL_GROUPING_H_

#include <cstdint>
#include <vector>

#include "core/model/options.h"
#include "graphs/comm_graph.h"

namespace rankmap::core {

// Candidate groups are enumerated (paper mode) only when C(p, k) is at most
// this.
inline constexpr int64_t kCandidateLimit = 20000;
// Levels enumerate every k-subset only up to this many units (the candidate
// matrix is p x p).
inline constexpr int32_t kEnumerateUnits = 256;
// Sparse candidates (one group grown from each of p units) only while p x k
// entries and p x k^2 steps stay below these; wider levels are grouped by
// greedy growth alone.
inline constexpr int64_t kBucketedEntries = int64_t{1} << 24;
inline constexpr int64_t kBucketedWork = int64_t{1} << 31;
// Levels with more units than this are grouped only through split arities when
// split_arities is on (the direct greedy growth of big groups is skipped
// there).
inline constexpr int32_t kSplitOnlyUnits = 1 << 16;
// Exact perfect matching by branch and bound up to this many units.
inline constexpr int32_t kExactPairLimit = 20;
// Exhaustive grouping (exhaustive_limit) up to this many units.
inline constexpr int32_t kExhaustiveUnits = 16;

namespace internal {

// The graph between the units of one level: CSR with unsorted rows, padding
// units have none.
struct Csr {
  int32_t n = 0;
  std::vector<int64_t> xadj{0};
  std::vector<int32_t> adj;
  std::vector<double> w;

  double Volume(int32_t u) const {
    double s = 0.0;
    for (int64_t a = xadj[u]; a < xadj[u + 1]; ++a) s += w[a];
    return s;
  }
  double Total() const {  // sum over undirected edges
    double s = 0.0;
    for (double x : w) s += x;
    return s / 2;
  }
};

// The level graph of a CommGraph (same rows). O(n + m).
Csr FromGraph(const graphs::CommGraph& g);
// Appends zero-traffic units up to n.
void Pad(Csr* c, int32_t n);
// Contracts c by the grouping: group g (members [g*k, g*k+k)) becomes vertex g.
// O(n + m). scratch entries must all be -1 (it grows as needed); it is left
// that way.
Csr Contract(const Csr& c, const std::vector<int32_t>& members, int32_t k,
             std::vector<int64_t>* scratch);
// Volume inside the groups. O(n + m).
double InternalWeight(const Csr& c, const std::vector<int32_t>& members,
                      int32_t k);
// C(p, k), saturating at limit + 1.
int64_t Binomial(int64_t p, int64_t k, int64_t limit);

// Greedy growth: each group starts at the heaviest unassigned unit and
// repeatedly adds the unassigned unit most connected to the group
// (zero-traffic units last). O(p + m log m). With `assigned`, only the units
// not marked are grouped (their members are returned).
std::vector<int32_t> GreedyGroups(const Csr& c, int32_t k);
std::vector<int32_t> GreedyGroups(const Csr& c, int32_t k,
                                  std::vector<char> assigned);

// The paper's three greedy orders for the minimum-weight maximal independent
// set of the incompatibility graph of the candidate groups.
enum class IndependentSetOrder {
  kSmallestValueFirst,
  kLargestValueLast,  // the shortest prefix of the value order that covers
  kLargestWeightedDegreeFirst,
};
// True when every k-subset of p units is a candidate: p <= kEnumerateUnits
// and C(p, k) <= kCandidateLimit. Larger levels use sparse candidates: every
// edge for arity 2, else one group grown from each unit.
bool EnumerationFits(int32_t p, int32_t k);
// The paper's grouping with one order (completed by GreedyGroups when sparse
// candidates cannot cover every unit).
std::vector<int32_t> PaperGroupsBy(const Csr& c, int32_t k,
                                   IndependentSetOrder order);
// The best of the three orders (the paper keeps the best).
std::vector<int32_t> PaperGroups(const Csr& c, int32_t k);
// Branch and bound over all groupings of c by k, started from (and never worse
// than) `start`; optimal unless its node budget runs out.
std::vector<int32_t> ExactGroups(const Csr& c, int32_t k,
                                 std::vector<int32_t> start);
// Arity 2: heavy-edge matching, augmenting paths of length 3, then 2-opt
// re-pairing passes. O(m log m + passes * m).
std::vector<int32_t> HeavyEdgePairs(const Csr& c);
// The grouping TreeMatchOptions select (without arity splitting).
std::vector<int32_t> GroupDirect(const Csr& c, int32_t k,
                                 const TreeMatchOptions& o);

}  // namespace internal
}  // namespace rankmap::core

#endif  // RANKMAP_CORE_INITIAL_GROUPING_H_
