#include "core/split/tree_walk.h"

#include <atomic>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/factories.h"
#include "tests/progress_recorder.h"

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

// A split whose result depends only on (node, verts): processes are dealt to
// the children by a hash of the node and the process, capacity permitting.
absl::Status HashSplit(const topology::Tree& t, NodeId node,
                       std::vector<VertexId> verts,
                       std::vector<ChildShare>* shares) {
  const auto kids = t.children(node);
  std::vector<std::vector<VertexId>> parts(kids.size());
  for (VertexId v : verts) {
    size_t c = (static_cast<size_t>(v) * 2654435761u + node) % kids.size();
    while (static_cast<int64_t>(parts[c].size()) >= t.Capacity(kids[c]))
      c = (c + 1) % kids.size();
    parts[c].push_back(v);
  }
  for (size_t c = 0; c < kids.size(); ++c)
    shares->push_back({kids[c], std::move(parts[c])});
  return absl::OkStatus();
}

TEST(WalkTopDownParallelTest, SameMappingOnAnyNumberOfWorkers) {
  const topology::Tree t = testing::MakeTleaf("4 6 100 5 10 3 4 7 1");
  const int32_t n = 600;  // of 630 leaves
  const Mapping serial =
      WalkTopDown(t, n,
                  [&](NodeId node, std::vector<VertexId> verts,
                      std::vector<ChildShare>* s) {
                    return HashSplit(t, node, std::move(verts), s);
                  })
          .value();
  for (int32_t threads : {1, 2, 3, 8}) {
    std::atomic<int32_t> max_worker{0};
    absl::StatusOr<Mapping> m = WalkTopDown(
        t, n, threads,
        [&](int32_t worker, NodeId node, std::vector<VertexId> verts,
            std::vector<ChildShare>* s) {
          int32_t seen = max_worker.load();
          while (worker > seen &&
                 !max_worker.compare_exchange_weak(seen, worker)) {
          }
          return HashSplit(t, node, std::move(verts), s);
        });
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_EQ(*m, serial) << threads << " threads";
    EXPECT_LT(max_worker.load(), threads);
  }
}

TEST(WalkTopDownParallelTest, AnErrorOrAnExceptionStopsEveryWorker) {
  const topology::Tree t = testing::MakeTleaf("3 8 100 8 10 8 1");
  std::atomic<int32_t> calls{0};
  // Fails below the root: the walk ends with that error, not a hang.
  absl::StatusOr<Mapping> m =
      WalkTopDown(t, 512, 2,
                  [&](int32_t, NodeId node, std::vector<VertexId> verts,
                      std::vector<ChildShare>* s) -> absl::Status {
                    ++calls;
                    if (node != t.root())
                      return absl::InternalError("below the root");
                    return HashSplit(t, node, std::move(verts), s);
                  });
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(m.status().message(), "below the root");
  // At most the root and one node per worker started before the stop.
  EXPECT_LE(calls.load(), 3);
  EXPECT_THROW(
      (void)WalkTopDown(t, 512, 2,
                        [&](int32_t, NodeId node, std::vector<VertexId> verts,
                            std::vector<ChildShare>* s) -> absl::Status {
                          if (node != t.root())
                            throw std::runtime_error("boom");
                          return HashSplit(t, node, std::move(verts), s);
                        }),
      std::runtime_error);
}

TEST(WalkTopDownProgressTest, ReportsTheShareOfProcessLevelsInItsSlice) {
  // tleaf 2 2 10 2 1, 4 processes: 4 * 2 process-levels. The root splits 4
  // (50%), each node 2 (75%, then 100%, shown as 99% until the walk ends).
  // The phase's slice is [0.5, 1].
  const topology::Tree t = testing::MakeTleaf("2 2 10 2 1");
  for (int32_t threads : {1, 2}) {
    testing::ProgressRecorder sink;
    const ProgressPhase phase{
        .sink = &sink, .name = "walk", .from = 0.5, .to = 1.0};
    ASSERT_TRUE(WalkTopDown(
                    t, 4, threads,
                    [&](int32_t, NodeId node, std::vector<VertexId> verts,
                        std::vector<ChildShare>* s) {
                      return HashSplit(t, node, std::move(verts), s);
                    },
                    phase)
                    .ok());
    using R = std::pair<std::string, double>;
    EXPECT_EQ(
        sink.reports(),
        (std::vector<R>{
            {"walk", 0.75}, {"walk", 0.875}, {"walk", 0.995}, {"walk", 1.0}}))
        << threads << " threads";
  }
}

TEST(WalkTopDownProgressTest, IncreasingWholePercentsAndNoEndOnError) {
  const topology::Tree t = testing::MakeTleaf("4 6 100 5 10 3 4 7 1");
  for (int32_t threads : {1, 2, 3, 8}) {
    testing::ProgressRecorder sink;
    ASSERT_TRUE(
        WalkTopDown(t, 600, threads,
                    [&](int32_t, NodeId node, std::vector<VertexId> verts,
                        std::vector<ChildShare>* s) {
                      return HashSplit(t, node, std::move(verts), s);
                    },
                    {.sink = &sink, .name = "walk"})
            .ok());
    const auto reports = sink.reports();
    ASSERT_FALSE(reports.empty());
    ASSERT_LE(reports.size(), 100u);  // 1% .. 99%, then the end
    for (size_t i = 0; i + 1 < reports.size(); ++i) {
      EXPECT_LT(reports[i].second, reports[i + 1].second) << threads;
      const double percent = reports[i].second * 100;
      EXPECT_DOUBLE_EQ(percent, static_cast<int>(percent + 0.5));
    }
    EXPECT_EQ(reports.back().second, 1.0);
  }
  // An error below the root: the root's 25% is reported, the end is not.
  testing::ProgressRecorder sink;
  EXPECT_FALSE(
      WalkTopDown(t, 600, 2,
                  [&](int32_t, NodeId node, std::vector<VertexId> verts,
                      std::vector<ChildShare>* s) -> absl::Status {
                    if (node != t.root()) return absl::InternalError("no");
                    return HashSplit(t, node, std::move(verts), s);
                  },
                  {.sink = &sink, .name = "walk"})
          .ok());
  using R = std::pair<std::string, double>;
  EXPECT_EQ(sink.reports(), (std::vector<R>{{"walk", 0.25}}));
}

}  // namespace
}  // namespace rankmap::core
