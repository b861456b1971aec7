// A progress line for long steps: when the guarded scope outlasts a delay,
// "rankmap: <what>..." is reported, and "rankmap: done in 2.3 s" when it ends.
// Quick steps and redirected output stay silent.
//
//   {
//     Progress progress("mapping 4096 processes", quiet);
//     ASSIGN_OR_RETURN(mapping, core::Map(tree, graph, options));
//   }
//
// A watcher thread waits for the delay or the end of the scope, whichever comes
// first; the destructor wakes and joins it, so a quick step costs one thread
// start and no waiting.
#ifndef RANKMAP_CLI_PROGRESS_H_
#define RANKMAP_CLI_PROGRESS_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace rankmap::cli {

class Progress {
 public:
  // Receives one line at a time, without the newline.
  using Sink = std::function<void(const std::string& line)>;

  // On stderr after one second; silent when `quiet` or when stderr is not a
  // terminal.
  Progress(std::string what, bool quiet);
  // Through `sink` after `delay`; silent when `sink` is empty. The sink is
  // called from the watcher thread for the first line and from the destructor
  // for the second.
  Progress(std::string what, Sink sink,
           std::chrono::steady_clock::duration delay);
  ~Progress();

  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  Sink sink_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;   // guarded by mu_
  bool shown_ = false;  // guarded by mu_
  std::chrono::steady_clock::time_point start_;
  std::thread watcher_;
};

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_PROGRESS_H_
