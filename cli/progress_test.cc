#include "cli/progress.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rankmap::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::MatchesRegex;

// Collects the lines a Progress reports, from any thread.
class Lines {
 public:
  Progress::Sink Sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mu_);
      lines_.push_back(line);
      cv_.notify_all();
    };
  }
  // Waits (generously: the machine may be loaded) for the first line.
  bool WaitForFirst() {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(60),
                        [this] { return !lines_.empty(); });
  }
  std::vector<std::string> Get() {
    std::lock_guard<std::mutex> lock(mu_);
    return lines_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
};

TEST(ProgressTest, ReportsAStepThatOutlastsTheDelay) {
  Lines lines;
  {
    Progress progress("mapping 8 processes", lines.Sink(),
                      std::chrono::milliseconds(1));
    ASSERT_TRUE(lines.WaitForFirst());
  }
  EXPECT_THAT(lines.Get(),
              ElementsAre("rankmap: mapping 8 processes...",
                          MatchesRegex("rankmap: done in [0-9]+\\.[0-9] s")));
}

TEST(ProgressTest, QuickStepIsSilentAndDoesNotWaitForTheDelay) {
  Lines lines;
  const auto start = std::chrono::steady_clock::now();
  { Progress progress("mapping", lines.Sink(), std::chrono::hours(1)); }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::minutes(1));
  EXPECT_THAT(lines.Get(), IsEmpty());
}

// A watcher would call the empty sink at once (and throw): none must start.
TEST(ProgressTest, EmptySinkStartsNoWatcher) {
  { Progress progress("mapping", Progress::Sink(), std::chrono::seconds(0)); }
  { Progress progress("mapping", /*quiet=*/true); }
}

}  // namespace
}  // namespace rankmap::cli
