// The progress line of long commands, on stderr: the step, the engine's
// current phase (core/model/progress.h), the fraction of it done and the time
// since the step began:
//   rankmap: mapping 4096 processes onto 4096 leaves: refinement 67% (3.1 s)
// Nothing is shown before `delay` (2 s): quick runs stay silent. On a
// terminal the line is redrawn in place; forced elsewhere (--progress into a
// pipe or file) a new line is written when the text changes, at most once per
// `interval`, and every 10 s during a long phase. When the step ends, "rankmap:
// <step> done in 7.2 s" follows if anything was shown.
//
//   ProgressLine line("mapping 4096 processes", ProgressMode::kAuto);
//   options.progress = &line;
//   ASSIGN_OR_RETURN(mapping, core::Map(tree, graph, options));
//
// A watcher thread redraws every `interval`; the destructor wakes and joins
// it, so a quick step costs one thread start and no waiting.
#ifndef RANKMAP_CLI_PROGRESS_LINE_H_
#define RANKMAP_CLI_PROGRESS_LINE_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "core/model/progress.h"

namespace rankmap::cli {

// kAuto: only when stderr is a terminal; kOn: always (--progress); kOff:
// never (--quiet).
enum class ProgressMode { kAuto, kOn, kOff };

ProgressMode ProgressModeFor(bool quiet, bool force);

class ProgressLine : public core::ProgressSink {
 public:
  // Receives the text exactly as it would be written ('\r' and '\n'
  // included).
  using Sink = std::function<void(const std::string& text)>;
  using Duration = std::chrono::steady_clock::duration;

  // On stderr, as `mode` says, after 2 s, redrawn every 0.5 s (a terminal)
  // or at most once a second (otherwise).
  ProgressLine(std::string step, ProgressMode mode);
  // Through `sink` (silent when empty).
  ProgressLine(std::string step, Sink sink, bool terminal, Duration delay,
               Duration interval);
  ~ProgressLine() override;

  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // The engine's phase and its fraction done.
  void Report(std::string_view phase, double fraction) override;
  // A sub-step of the command ("mpipp, 5 of 8"), shown before the phase.
  void SetStep(std::string sub_step);

 private:
  std::string TextLocked() const;
  void Draw();  // watcher thread

  Sink sink_;
  const bool terminal_;
  const std::string step_;
  const Duration delay_, interval_;
  const std::chrono::steady_clock::time_point start_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;      // guarded by mu_
  bool shown_ = false;     // guarded by mu_
  std::string sub_step_;   // guarded by mu_
  std::string phase_;      // guarded by mu_
  double fraction_ = 0.0;  // guarded by mu_
  std::string last_;       // guarded by mu_: text last written
  size_t last_width_ = 0;  // guarded by mu_
  std::chrono::steady_clock::time_point last_write_;  // guarded by mu_
  std::thread watcher_;
};

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_PROGRESS_LINE_H_
