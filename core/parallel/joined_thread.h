// A worker thread that cannot take the process down: it is joined when it goes
// out of scope (also while an exception unwinds the caller, where a joinable
// std::thread would call std::terminate), and an exception thrown on it (such
// as std::bad_alloc) is handed back to the caller by Join() instead of
// terminating the process.
//
//   JoinedThread worker([&] { Refine(&a); });
//   Refine(&b);                 // may throw: worker is still joined
//   worker.Join();              // rethrows what Refine(&a) threw
#ifndef RANKMAP_CORE_PARALLEL_JOINED_THREAD_H_
#define RANKMAP_CORE_PARALLEL_JOINED_THREAD_H_

#include <exception>
#include <thread>
#include <utility>

namespace rankmap::core {

class JoinedThread {
 public:
  JoinedThread() = default;
  template <typename F>
  explicit JoinedThread(F f)
      : thread_([this, f = std::move(f)]() mutable {
          try {
            f();
          } catch (...) {
            error_ = std::current_exception();
          }
        }) {}
  JoinedThread(const JoinedThread&) = delete;
  JoinedThread& operator=(const JoinedThread&) = delete;
  ~JoinedThread() {
    if (thread_.joinable()) thread_.join();
  }

  bool joinable() const { return thread_.joinable(); }

  // Waits for the thread, then rethrows its exception, if any. No-op when not
  // started or already joined.
  void Join() {
    if (!thread_.joinable()) return;
    thread_.join();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

 private:
  std::exception_ptr error_;
  std::thread thread_;  // last: started after error_ exists
};

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_PARALLEL_JOINED_THREAD_H_
