#include "topology/process_leaves.h"

#include <vector>

#include "base/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::topology {
namespace {

using ::rankmap::base::IsOk;
using ::testing::ElementsAre;

// Two hosts of two PUs (os indexes 0 and 1 on each).
Tree TwoHosts() {
  TreeBuilder b;
  const NodeId root = b.AddRoot("switch", 100);
  for (const char* host : {"a", "b"}) {
    const NodeId node = b.AddChild(root, "Machine", 1);
    for (int pu = 0; pu < 2; ++pu) {
      const NodeId leaf = b.AddChild(node, "PU");
      b.SetOsIndex(leaf, pu);
      b.SetHost(leaf, host);
    }
  }
  auto t = std::move(b).Build();
  EXPECT_THAT(t, IsOk());
  return *std::move(t);
}

TEST(LeavesOfProcesses, BoundProcessesLandOnTheirPu) {
  const Tree t = TwoHosts();
  const std::vector<ProcessWhere> where = {
      {"b", {1}}, {"a", {0}}, {"a", {1}}, {"b", {0}}};
  auto p = LeavesOfProcesses(t, where);
  ASSERT_THAT(p, IsOk());
  ASSERT_EQ(t.host(2), "b");
  EXPECT_THAT(p->leaf, ElementsAre(3, 0, 1, 2));
  EXPECT_THAT(p->exact, ElementsAre(true, true, true, true));
}

TEST(LeavesOfProcesses, UnboundProcessesShareTheirHostEvenly) {
  const Tree t = TwoHosts();
  // Four processes allowed both PUs of host a: two per leaf, lowest first.
  const std::vector<ProcessWhere> where(4, ProcessWhere{"a", {0, 1}});
  auto p = LeavesOfProcesses(t, where);
  ASSERT_THAT(p, IsOk());
  EXPECT_THAT(p->leaf, ElementsAre(0, 1, 0, 1));
  EXPECT_THAT(p->exact, ElementsAre(false, false, false, false));
}

TEST(LeavesOfProcesses, AnUnknownHostIsNamed) {
  const std::vector<ProcessWhere> where = {{"a", {0}}, {"zz", {0}}};
  EXPECT_EQ(LeavesOfProcesses(TwoHosts(), where).status().message(),
            "host 'zz' of process 1 is not in the topology");
}

}  // namespace
}  // namespace rankmap::topology
