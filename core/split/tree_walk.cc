#include "core/split/tree_walk.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <system_error>
#include <utility>

#include "core/parallel/joined_thread.h"

namespace rankmap::core {
namespace {

// Counts the process-levels split and reports each new whole percent. Not
// thread-safe: the parallel walk calls it under its lock.
class WalkMeter {
 public:
  WalkMeter(const topology::Tree& tree, int32_t n, const ProgressPhase& phase)
      : phase_(phase),
        total_(std::max<int64_t>(1, static_cast<int64_t>(n) *
                                        std::max<int32_t>(1, tree.height()))) {}

  void Split(size_t processes) {
    if (phase_.sink == nullptr) return;
    done_ += static_cast<int64_t>(processes);
    const int32_t percent =
        static_cast<int32_t>(std::min<int64_t>(99, 100 * done_ / total_));
    if (percent > reported_) {
      reported_ = percent;
      phase_.Report(percent / 100.0);
    }
  }

  void Done() const { phase_.Report(1.0); }

 private:
  const ProgressPhase& phase_;
  const int64_t total_;
  int64_t done_ = 0;
  int32_t reported_ = 0;
};

}  // namespace

absl::StatusOr<Mapping> WalkTopDown(const topology::Tree& tree, int32_t n,
                                    SplitFn split) {
  Mapping mapping(n, -1);
  std::vector<ChildShare> stack;
  std::vector<graphs::VertexId> all(n);
  std::iota(all.begin(), all.end(), 0);
  stack.push_back({tree.root(), std::move(all)});
  std::vector<ChildShare> shares;
  while (!stack.empty()) {
    ChildShare top = std::move(stack.back());
    stack.pop_back();
    if (top.verts.empty()) continue;
    if (tree.is_leaf(top.child)) {
      for (graphs::VertexId v : top.verts) mapping[v] = top.child;
      continue;
    }
    shares.clear();
    if (absl::Status s = split(top.child, std::move(top.verts), &shares);
        !s.ok()) {
      return s;
    }
    // Pushed in reverse so that children are visited in the order listed.
    for (size_t i = shares.size(); i-- > 0;)
      stack.push_back(std::move(shares[i]));
  }
  return mapping;
}

absl::StatusOr<Mapping> WalkTopDown(const topology::Tree& tree, int32_t n,
                                    int32_t threads, WorkerSplitFn split,
                                    const ProgressPhase& progress) {
  WalkMeter meter(tree, n, progress);
  if (threads <= 1) {
    absl::StatusOr<Mapping> m =
        WalkTopDown(tree, n,
                    [&](NodeId node, std::vector<graphs::VertexId> verts,
                        std::vector<ChildShare>* shares) {
                      const size_t k = verts.size();
                      absl::Status s = split(0, node, std::move(verts), shares);
                      if (s.ok()) meter.Split(k);
                      return s;
                    });
    if (m.ok()) meter.Done();
    return m;
  }
  Mapping mapping(n, -1);
  std::mutex mu;
  std::condition_variable cv;
  std::vector<ChildShare> stack;  // guarded by mu
  int64_t unfinished = 1;         // on the stack or being split; guarded by mu
  absl::Status status;            // the first error; guarded by mu
  std::exception_ptr thrown;      // the first exception; guarded by mu
  {
    std::vector<graphs::VertexId> all(n);
    std::iota(all.begin(), all.end(), 0);
    stack.push_back({tree.root(), std::move(all)});
  }
  auto work = [&](int32_t worker) {
    std::vector<ChildShare> shares;
    for (;;) {
      ChildShare top;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] {
          return !stack.empty() || unfinished == 0 || !status.ok() || thrown;
        });
        if (stack.empty() || !status.ok() || thrown) return;
        top = std::move(stack.back());
        stack.pop_back();
      }
      shares.clear();
      absl::Status s;
      const size_t k = tree.is_leaf(top.child) ? 0 : top.verts.size();
      if (!top.verts.empty()) {
        if (tree.is_leaf(top.child)) {
          for (graphs::VertexId v : top.verts) mapping[v] = top.child;
        } else {
          try {
            s = split(worker, top.child, std::move(top.verts), &shares);
          } catch (...) {
            std::lock_guard<std::mutex> lock(mu);
            if (!thrown) thrown = std::current_exception();
            cv.notify_all();
            return;
          }
        }
      }
      std::lock_guard<std::mutex> lock(mu);
      if (!s.ok() && status.ok()) status = s;
      // Pushed in reverse so that children are popped in the order listed.
      for (size_t i = shares.size(); i-- > 0;)
        stack.push_back(std::move(shares[i]));
      unfinished += static_cast<int64_t>(shares.size()) - 1;
      if (s.ok()) meter.Split(k);
      cv.notify_all();
    }
  };
  {
    std::vector<std::optional<JoinedThread>> helpers(threads - 1);
    for (int32_t w = 1; w < threads; ++w) {
      // A thread the system refuses is a worker less, not an error.
      try {
        helpers[w - 1].emplace([&work, w] { work(w); });
      } catch (const std::system_error&) {
        break;
      }
    }
    work(0);
    for (auto& h : helpers) {
      if (h) h->Join();  // work() lets nothing escape
    }
  }
  if (thrown) std::rethrow_exception(thrown);
  if (!status.ok()) return status;
  meter.Done();
  return mapping;
}

}  // namespace rankmap::core
