// ParallelFor: a range cut into one contiguous piece per worker, the first on
// the calling thread, the others on JoinedThreads
// (core/parallel/joined_thread.h). Ranges shorter than min_per_worker per
// worker use fewer workers, so small ranges never pay for a thread start. The
// pieces depend on the thread count: callers whose results must not depend on
// it write only per-index outputs.
//
//   ParallelFor(threads, 0, n, 4096, [&](int32_t worker, int64_t lo,
//                                        int64_t hi) { ... });
#ifndef RANKMAP_CORE_PARALLEL_PARALLEL_FOR_H_
#define RANKMAP_CORE_PARALLEL_PARALLEL_FOR_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <system_error>
#include <vector>

#include "core/parallel/joined_thread.h"

namespace rankmap::core::multilevel {

// fn(worker, lo, hi) for disjoint pieces covering [begin, end); worker in [0,
// threads). Exceptions thrown by fn on a worker are rethrown here.
template <typename F>
void ParallelFor(int32_t threads, int64_t begin, int64_t end,
                 int64_t min_per_worker, F fn) {
  const int64_t n = end - begin;
  if (n <= 0) return;
  const int64_t most =
      std::max<int64_t>(1, n / std::max<int64_t>(1, min_per_worker));
  const int32_t workers =
      static_cast<int32_t>(std::clamp<int64_t>(most, 1, std::max(1, threads)));
  if (workers == 1) {
    fn(0, begin, end);
    return;
  }
  auto piece = [&](int32_t w) { return begin + n * w / workers; };
  std::vector<std::optional<JoinedThread>> helpers(workers - 1);
  int32_t started = 1;
  for (int32_t w = 1; w < workers; ++w) {
    // A thread the system refuses is a worker less: its piece runs here.
    try {
      helpers[w - 1].emplace(
          [&fn, &piece, w] { fn(w, piece(w), piece(w + 1)); });
      ++started;
    } catch (const std::system_error&) {
      break;
    }
  }
  fn(0, piece(0), piece(1));
  for (int32_t w = started; w < workers; ++w) fn(0, piece(w), piece(w + 1));
  for (auto& h : helpers) {
    if (h) h->Join();
  }
}

}  // namespace rankmap::core::multilevel

#endif  // RANKMAP_CORE_PARALLEL_PARALLEL_FOR_H_
