#include "cli/progress_line.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace rankmap::cli {
namespace {

void WriteToStderr(const std::string& text) {
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

ProgressMode ProgressModeFor(bool quiet, bool force) {
  if (force) return ProgressMode::kOn;
  return quiet ? ProgressMode::kOff : ProgressMode::kAuto;
}

ProgressLine::ProgressLine(std::string step, ProgressMode mode)
    : ProgressLine(std::move(step),
                   mode == ProgressMode::kOff || (mode == ProgressMode::kAuto &&
                                                  !isatty(STDERR_FILENO))
                       ? Sink()
                       : Sink(WriteToStderr),
                   isatty(STDERR_FILENO) != 0, std::chrono::seconds(2),
                   isatty(STDERR_FILENO) ? std::chrono::milliseconds(500)
                                         : std::chrono::milliseconds(1000)) {}

ProgressLine::ProgressLine(std::string step, Sink sink, bool terminal,
                           Duration delay, Duration interval)
    : sink_(std::move(sink)),
      terminal_(terminal),
      step_(std::move(step)),
      delay_(delay),
      interval_(interval),
      start_(std::chrono::steady_clock::now()) {
  if (sink_) watcher_ = std::thread([this] { Draw(); });
}

ProgressLine::~ProgressLine() {
  if (!watcher_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  cv_.notify_all();
  watcher_.join();
  if (shown_) {
    const std::string text =
        absl::StrFormat("rankmap: %s done in %.1f s", step_,
                        Seconds(std::chrono::steady_clock::now() - start_));
    std::string pad;
    if (terminal_ && last_width_ > text.size())
      pad.assign(last_width_ - text.size(), ' ');
    sink_(absl::StrCat(terminal_ ? "\r" : "", text, pad, "\n"));
  }
}

void ProgressLine::Report(std::string_view phase, double fraction) {
  if (!sink_) return;
  std::lock_guard<std::mutex> lock(mu_);
  phase_ = std::string(phase);
  fraction_ = fraction;
}

void ProgressLine::SetStep(std::string sub_step) {
  if (!sink_) return;
  std::lock_guard<std::mutex> lock(mu_);
  sub_step_ = std::move(sub_step);
  phase_.clear();
}

std::string ProgressLine::TextLocked() const {
  std::string text = absl::StrCat("rankmap: ", step_);
  if (!sub_step_.empty()) absl::StrAppend(&text, ": ", sub_step_);
  if (!phase_.empty()) {
    absl::StrAppend(&text, ": ", phase_);
    if (fraction_ > 0 && fraction_ < 1)
      absl::StrAppend(&text, absl::StrFormat(" %.0f%%", 100 * fraction_));
  }
  return text;
}

void ProgressLine::Draw() {
  std::unique_lock<std::mutex> lock(mu_);
  if (cv_.wait_for(lock, delay_, [this] { return done_; })) return;
  while (!done_) {
    const std::string text = TextLocked();
    const auto now = std::chrono::steady_clock::now();
    const std::string line =
        absl::StrFormat("%s (%.1f s)", text, Seconds(now - start_));
    if (terminal_) {
      // Redrawn in place, padded over a longer previous line.
      std::string pad;
      if (last_width_ > line.size()) pad.assign(last_width_ - line.size(), ' ');
      sink_(absl::StrCat("\r", line, pad));
      last_width_ = line.size();
      shown_ = true;
    } else if (text != last_ || now - last_write_ >= std::chrono::seconds(10)) {
      sink_(absl::StrCat(line, "\n"));
      shown_ = true;
      last_write_ = now;
    }
    last_ = text;
    cv_.wait_for(lock, interval_, [this] { return done_; });
  }
}

}  // namespace rankmap::cli
