#include "cli/progress_line.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Collects what the line writes; WaitFor blocks until a piece contains
// `text` (no clock is asserted on).
class Collector {
 public:
  ProgressLine::Sink Sink() {
    return [this](const std::string& s) {
      std::lock_guard<std::mutex> lock(mu_);
      pieces_.push_back(s);
      cv_.notify_all();
    };
  }
  void WaitFor(const std::string& text) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] {
      for (const std::string& p : pieces_) {
        if (p.find(text) != std::string::npos) return true;
      }
      return false;
    });
  }
  std::vector<std::string> Pieces() {
    std::lock_guard<std::mutex> lock(mu_);
    return pieces_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> pieces_;
};

TEST(ProgressLine, PipedLinesShowStepPhaseFractionAndElapsed) {
  Collector c;
  {
    ProgressLine line("mapping 64 processes", c.Sink(), /*terminal=*/false,
                      std::chrono::milliseconds(0),
                      std::chrono::milliseconds(1));
    line.Report("refinement", 0.4);
    c.WaitFor("refinement 40%");
    line.Report("refinement", 1);  // done: no percentage
    c.WaitFor("refinement (");
  }
  const std::vector<std::string> p = c.Pieces();
  ASSERT_GE(p.size(), 3u);
  // Piped: whole lines, written when the text changes.
  for (const std::string& s : p) EXPECT_EQ(s.back(), '\n') << s;
  EXPECT_THAT(p[0], StartsWith("rankmap: mapping 64 processes"));
  bool forty = false;
  for (const std::string& s : p) {
    if (s.find("rankmap: mapping 64 processes: refinement 40% (") == 0) {
      EXPECT_THAT(s, HasSubstr(" s)\n"));
      forty = true;
    }
  }
  EXPECT_TRUE(forty);
  EXPECT_THAT(p.back(), StartsWith("rankmap: mapping 64 processes done in "));
  // The same text is not repeated.
  for (size_t i = 1; i + 1 < p.size(); ++i) {
    EXPECT_NE(p[i].substr(0, p[i].rfind(" (")),
              p[i - 1].substr(0, p[i - 1].rfind(" (")));
  }
}

TEST(ProgressLine, TerminalRedrawsInPlaceAndShowsSubSteps) {
  Collector c;
  {
    ProgressLine line("comparing algorithms", c.Sink(), /*terminal=*/true,
                      std::chrono::milliseconds(0),
                      std::chrono::milliseconds(1));
    line.SetStep("mpipp, 5 of 8");
    line.Report("refinement", 0.5);
    c.WaitFor("comparing algorithms: mpipp, 5 of 8: refinement 50%");
  }
  const std::vector<std::string> p = c.Pieces();
  for (const std::string& s : p) EXPECT_EQ(s[0], '\r') << s;
  EXPECT_THAT(p.back(), StartsWith("\rrankmap: comparing algorithms done in"));
  EXPECT_EQ(p.back().back(), '\n');
}

TEST(ProgressLine, QuickStepIsSilent) {
  Collector c;
  {
    ProgressLine line("quick", c.Sink(), false, std::chrono::hours(1),
                      std::chrono::seconds(1));
    line.Report("refinement", 0.5);
  }  // the destructor wakes the watcher instead of waiting an hour
  EXPECT_TRUE(c.Pieces().empty());
}

TEST(ProgressLine, OffStartsNothing) {
  ProgressLine line("off", ProgressMode::kOff);
  line.Report("x", 0.5);  // no sink: ignored
  EXPECT_EQ(ProgressModeFor(true, false), ProgressMode::kOff);
  EXPECT_EQ(ProgressModeFor(true, true), ProgressMode::kOn);
  EXPECT_EQ(ProgressModeFor(false, false), ProgressMode::kAuto);
}

}  // namespace
}  // namespace rankmap::cli
