#include "core/tree_walk.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"

namespace rankmap::core {
namespace {

using graphs::VertexId;

TEST(WalkTopDownTest, VisitsChildrenInListedOrderAndMapsAtLeaves) {
  // tleaf 2 2 1 2 1: root -> two nodes -> two leaves each. The split sends the
  // first half of a node's processes to its last child, the rest to the first.
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  std::vector<NodeId> visited;
  auto split = [&](NodeId node, std::vector<VertexId> verts,
                   std::vector<ChildShare>* shares) -> absl::Status {
    visited.push_back(node);
    const auto kids = t.children(node);
    const size_t half = verts.size() / 2;
    shares->push_back({kids.back(), {verts.begin(), verts.begin() + half}});
    shares->push_back({kids.front(), {verts.begin() + half, verts.end()}});
    return absl::OkStatus();
  };
  absl::StatusOr<Mapping> m = WalkTopDown(t, 4, split);
  ASSERT_TRUE(m.ok()) << m.status();
  // Root: {0, 1} -> second node, {2, 3} -> first node; then each node sends
  // its first process to its second leaf.
  EXPECT_EQ(*m, (Mapping{3, 2, 1, 0}));
  ASSERT_EQ(visited.size(), 3u);
  EXPECT_EQ(visited[0], t.root());
  EXPECT_EQ(visited[1], t.parent(3));  // listed first, visited first
  EXPECT_EQ(visited[2], t.parent(0));
}

TEST(WalkTopDownTest, ErrorsStopTheWalkAndEmptySharesAreSkipped) {
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  int calls = 0;
  auto fail = [&](NodeId, std::vector<VertexId>,
                  std::vector<ChildShare>*) -> absl::Status {
    ++calls;
    return absl::InternalError("no");
  };
  EXPECT_EQ(WalkTopDown(t, 4, fail).status().code(),
            absl::StatusCode::kInternal);
  EXPECT_EQ(calls, 1);
  // Everything to the first child, nothing to the second: the empty share is
  // never split.
  calls = 0;
  auto first = [&](NodeId node, std::vector<VertexId> verts,
                   std::vector<ChildShare>* shares) -> absl::Status {
    ++calls;
    shares->push_back({t.children(node)[0], std::move(verts)});
    shares->push_back({t.children(node)[1], {}});
    return absl::OkStatus();
  };
  EXPECT_EQ(WalkTopDown(t, 3, first).value(), (Mapping{0, 0, 0}));
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace rankmap::core
