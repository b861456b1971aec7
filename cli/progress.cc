#include "cli/progress.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

#include "absl/strings/str_format.h"

namespace rankmap::cli {
namespace {

void WriteToStderr(const std::string& line) {
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace

Progress::Progress(std::string what, bool quiet)
    : Progress(std::move(what),
               quiet || !isatty(STDERR_FILENO) ? Sink() : Sink(WriteToStderr),
               std::chrono::seconds(1)) {}

Progress::Progress(std::string what, Sink sink,
                   std::chrono::steady_clock::duration delay)
    : sink_(std::move(sink)), start_(std::chrono::steady_clock::now()) {
  if (!sink_) return;
  watcher_ = std::thread([this, delay, what = std::move(what)] {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, delay, [this] { return done_; })) {
      sink_(absl::StrFormat("rankmap: %s...", what));
      shown_ = true;
    }
  });
}

Progress::~Progress() {
  if (!watcher_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  watcher_.join();
  if (shown_) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    sink_(absl::StrFormat("rankmap: done in %.1f s", s));
  }
}

}  // namespace rankmap::cli
