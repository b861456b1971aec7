#include "mpi_bindings/job_tree.h"

#include <algorithm>
#include <fstream>
#include <numeric>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/factories.h"
#include "topology/binding.h"

namespace rankmap::mpi_bindings {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<ProcessInfo> Job(int n) {
  return std::vector<ProcessInfo>(n, {"node0", {0}});
}

graphs::CommGraph TwoPairs() {
  // 0 <-> 2 and 1 <-> 3, 5 bytes each: identity splits both pairs across
  // sockets.
  graphs::CommGraphBuilder b(4);
  EXPECT_TRUE(b.AddEdge(0, 2, 5).ok());
  EXPECT_TRUE(b.AddEdge(1, 3, 5).ok());
  return std::move(b).Build().value();
}

TEST(BuildJobTreeTest, OverridePacksRanksOnTheFirstSlots) {
  JobTreeOptions o;
  o.topology = "tleaf 3 2 100 2 10 2 1";  // 2 nodes x 2 sockets x 2 cores
  absl::StatusOr<JobTree> job = BuildJobTree(Job(8), o);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_THAT(job->slot_of_rank, ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
  EXPECT_EQ(job->tree.Capacity(job->tree.root()), 8);
  EXPECT_FALSE(job->real_machine);
  // Distances of the tleaf model: same socket 1, same node 11, across nodes
  // 111.
  EXPECT_EQ(job->tree.Distance(0, 1), 1);
  EXPECT_EQ(job->tree.Distance(0, 2), 11);
  EXPECT_EQ(job->tree.Distance(0, 4), 111);
}

TEST(BuildJobTreeTest, OddJobLeavesTheLastSlotEmpty) {
  JobTreeOptions o;
  o.topology = "tleaf 3 2 100 2 10 2 1";
  absl::StatusOr<JobTree> job = BuildJobTree(Job(7), o);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->tree.capacity(6), 1);
  EXPECT_EQ(job->tree.capacity(7), 0);
  EXPECT_EQ(job->tree.Capacity(job->tree.root()), 7);
}

TEST(BuildJobTreeTest, Errors) {
  JobTreeOptions o;
  o.topology = "tleaf 2 2 10 2 1";
  absl::StatusOr<JobTree> job = BuildJobTree(Job(5), o);
  ASSERT_FALSE(job.ok());
  EXPECT_THAT(std::string(job.status().message()),
              HasSubstr("has 4 slots but the job has 5"));
  EXPECT_FALSE(BuildJobTree({}, o).ok());
  o.topology = "tleaf 2 2 10";
  EXPECT_FALSE(BuildJobTree(Job(2), o).ok());
  o.topology = "pack:2 nosuchlevel:2";
  EXPECT_FALSE(BuildJobTree(Job(2), o).ok());
}

TEST(BuildJobTreeTest, HwlocPathPutsHostsUnderOneSwitch) {
  // Two hosts (both really this machine) with one process each, bound to our
  // first PU.
  absl::StatusOr<std::vector<int32_t>> pus = topology::CurrentBindingPus();
  ASSERT_TRUE(pus.ok()) << pus.status();
  const int32_t pu = pus->front();
  std::vector<ProcessInfo> procs = {
      {"alpha", {pu}}, {"beta", {pu}}, {"alpha", {pu}}};
  absl::StatusOr<JobTree> job = BuildJobTree(procs, JobTreeOptions{});
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_TRUE(job->real_machine);
  const topology::Tree& t = job->tree;
  EXPECT_EQ(t.kind(t.root()), "switch");
  EXPECT_EQ(t.host(job->slot_of_rank[0]), "alpha");
  EXPECT_EQ(t.host(job->slot_of_rank[1]), "beta");
  // Ranks 0 and 2 share alpha's only allowed PU; the leaf's capacity counts
  // both.
  EXPECT_EQ(job->slot_of_rank[0], job->slot_of_rank[2]);
  EXPECT_EQ(t.os_index(job->slot_of_rank[0]), pu);
  EXPECT_EQ(t.capacity(job->slot_of_rank[0]), 2);
  EXPECT_EQ(t.Capacity(t.root()), 3);
  EXPECT_GT(t.Distance(job->slot_of_rank[0], job->slot_of_rank[1]), 0.0);
}

// Inside Slurm: hosts alpha and beta under leaf switch s0, gamma under s1,
// both under top (SLURM_TOPOLOGY_ADDR as Slurm sets it per task).
TEST(BuildJobTreeTest, SlurmTopologyAddressesPutHostsUnderTheirSwitches) {
  absl::StatusOr<std::vector<int32_t>> pus = topology::CurrentBindingPus();
  ASSERT_TRUE(pus.ok()) << pus.status();
  const int32_t pu = pus->front();
  std::vector<ProcessInfo> procs = {{"gamma", {pu}, "top.s1.gamma"},
                                    {"alpha", {pu}, "top.s0.alpha"},
                                    {"beta", {pu}, "top.s0.beta"}};
  JobTreeOptions o;
  o.topology_addr_pattern = "switch.switch.node";
  absl::StatusOr<JobTree> job = BuildJobTree(procs, o);
  ASSERT_TRUE(job.ok()) << job.status();
  const topology::Tree& t = job->tree;
  const topology::LeafId g = job->slot_of_rank[0], a = job->slot_of_rank[1],
                         b = job->slot_of_rank[2];
  EXPECT_EQ(t.host(g), "gamma");
  EXPECT_EQ(t.host(a), "alpha");
  EXPECT_EQ(t.os_index(a), pu);
  // alpha and beta meet at s0 (depth 1), gamma only at the root.
  EXPECT_EQ(t.depth(t.Lca(a, b)), 1);
  EXPECT_EQ(t.depth(t.Lca(a, g)), 0);
  EXPECT_LT(t.Distance(a, b), t.Distance(a, g));
  EXPECT_EQ(t.kind(t.Lca(a, b)), "switch");
  // Without the pattern (or with a process outside Slurm), one switch over
  // all hosts as before.
  o.topology_addr_pattern.clear();
  job = BuildJobTree(procs, o);
  ASSERT_TRUE(job.ok());
  EXPECT_EQ(job->tree.depth(
                job->tree.Lca(job->slot_of_rank[1], job->slot_of_rank[2])),
            0);
  o.topology_addr_pattern = "switch.node";
  absl::StatusOr<JobTree> bad = BuildJobTree(procs, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("'top.s1.gamma' of host 'gamma' does not fit the "
                        "pattern 'switch.node'"));
}

TEST(BuildJobTreeTest, NetworkSpecPlacesRanksOnTheirHosts) {
  const std::string path = ::testing::TempDir() + "/net.txt";
  std::ofstream(path) << "network\ncluster a\nnode alpha tleaf 1 2 1\n"
                         "node beta tleaf 1 2 1\n";
  JobTreeOptions o;
  o.network = path;
  std::vector<ProcessInfo> procs = {
      {"beta", {}}, {"alpha", {}}, {"beta", {}}, {"alpha", {}}};
  absl::StatusOr<JobTree> job = BuildJobTree(procs, o);
  ASSERT_TRUE(job.ok()) << job.status();
  // alpha owns leaves 0-1, beta 2-3; each rank takes the next free leaf of its
  // host.
  EXPECT_THAT(job->slot_of_rank, ElementsAre(2, 0, 3, 1));
  EXPECT_EQ(job->tree.host(2), "beta");
  procs[0].host = "gamma";
  absl::StatusOr<JobTree> bad = BuildJobTree(procs, o);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("host 'gamma' of rank 0 is not in the network spec"));
}

TEST(NewRanksFromMappingTest, SharedSlotsAreHandedOutInRankOrder) {
  // Leaf 0 holds old ranks 0 and 2, leaf 1 holds old rank 1.
  JobTree job;
  job.tree = topology::Tree::FromLevels(std::vector<int64_t>{2},
                                        std::vector<double>{1})
                 ->WithCapacities({2, 1})
                 .value();
  job.slot_of_rank = {0, 1, 0};
  absl::StatusOr<std::vector<int32_t>> r = NewRanksFromMapping(job, {1, 0, 0});
  ASSERT_TRUE(r.ok()) << r.status();
  // New rank 0 goes to leaf 1 (old rank 1); new ranks 1 and 2 to leaf 0 (old
  // ranks 0, 2).
  EXPECT_THAT(*r, ElementsAre(1, 0, 2));
  EXPECT_FALSE(
      NewRanksFromMapping(job, {1, 1, 0}).ok());        // leaf 1 over capacity
  EXPECT_FALSE(NewRanksFromMapping(job, {0, 1}).ok());  // wrong size
}

TEST(ComputeReorderingTest, RoundRobinKeepsPairsOnOneSocket) {
  JobTreeOptions o;
  o.topology = "tleaf 2 2 10 2 1";
  JobTree job = BuildJobTree(Job(4), o).value();
  core::MappingOptions mo;
  mo.algorithm = core::Algorithm::kRoundRobin;
  absl::StatusOr<Reordering> r = ComputeReordering(job, TwoPairs(), mo);
  ASSERT_TRUE(r.ok()) << r.status();
  // Round robin puts processes 0,1,2,3 on leaves 0,2,1,3: 0 and 2 share socket
  // 0.
  EXPECT_THAT(r->mapping, ElementsAre(0, 2, 1, 3));
  EXPECT_THAT(r->new_rank, ElementsAre(0, 2, 1, 3));
  // Before: both pairs cross the root (distance 11): 2 * 5 * 11. After:
  // distance 1.
  EXPECT_DOUBLE_EQ(r->cost_before, 110.0);
  EXPECT_DOUBLE_EQ(r->cost_after, 10.0);
}

TEST(ComputeReorderingTest, RandomIsAPermutationWithMatchingCost) {
  JobTreeOptions o;
  o.topology = "tleaf 3 2 100 2 10 2 1";
  JobTree job = BuildJobTree(Job(7), o).value();
  graphs::CommGraph g = testing::MakeRandomGraph(7, 3, 11);
  core::MappingOptions mo;
  mo.algorithm = core::Algorithm::kRandom;
  mo.seed = 5;
  absl::StatusOr<Reordering> r = ComputeReordering(job, g, mo);
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<int32_t> sorted = r->new_rank;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int32_t> iota(7);
  std::iota(iota.begin(), iota.end(), 0);
  EXPECT_EQ(sorted, iota);
  // The process with old rank q sits on slot q and now plays vertex
  // new_rank[q]: the mapping must agree with that, and its J is the J of the
  // permuted placement.
  core::Mapping placed(7);
  for (int32_t q = 0; q < 7; ++q) placed[r->new_rank[q]] = job.slot_of_rank[q];
  EXPECT_EQ(placed, r->mapping);
  EXPECT_DOUBLE_EQ(r->cost_after, core::ComputeJ(job.tree, g, placed));
  // Same seed, same answer.
  EXPECT_EQ(ComputeReordering(job, g, mo)->new_rank, r->new_rank);
}

TEST(ComputeReorderingTest, ProcessSpeedsPutVerticesOnSlotsOfTheirSpeed) {
  // Two nodes of two cores, the second 4x faster; rank r sits on slot r.
  const std::string path = ::testing::TempDir() + "/speeds.net";
  std::ofstream(path) << "network\ncluster c\nspeed 1\n1 x core:2\nspeed 4\n"
                         "1 x core:2\n";
  JobTreeOptions o;
  o.topology = path;
  JobTree job = BuildJobTree(Job(4), o).value();
  core::MappingOptions mo;
  mo.algorithm = core::Algorithm::kIdentity;
  const std::vector<double> speeds = {4, 4, 1, 1};
  absl::StatusOr<Reordering> r = ComputeReordering(job, TwoPairs(), mo, speeds);
  ASSERT_TRUE(r.ok()) << r.status();
  for (int32_t u = 0; u < 4; ++u)
    EXPECT_EQ(job.tree.speed(r->mapping[u]), speeds[u]) << u;
  // Old ranks 2 and 3 sit on the fast node: they play vertices 0 and 1.
  EXPECT_LT(r->new_rank[2], 2);
  EXPECT_LT(r->new_rank[3], 2);
  EXPECT_THAT(ComputeReordering(job, TwoPairs(), mo, {}).value().new_rank,
              ElementsAre(0, 1, 2, 3));
  absl::StatusOr<Reordering> bad =
      ComputeReordering(job, TwoPairs(), mo, std::vector<double>{4, 4});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()),
              HasSubstr("2 process speeds for 4 processes"));
}

TEST(ComputeReorderingTest, SizeMismatchIsAnError) {
  JobTreeOptions o;
  o.topology = "tleaf 2 2 10 2 1";
  JobTree job = BuildJobTree(Job(4), o).value();
  absl::StatusOr<Reordering> r =
      ComputeReordering(job, testing::MakeGrid2D(1, 3), core::MappingOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("graph has 3 vertices but the communicator has 4"));
}

}  // namespace
}  // namespace rankmap::mpi_bindings
