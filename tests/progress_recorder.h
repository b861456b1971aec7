// A progress sink that keeps every report, for tests of the engine's progress
// (core/model/progress.h). Thread-safe, as the interface requires: reports may
// come from workers.
//
//   testing::ProgressRecorder rec;
//   options.progress = &rec;
//   ... Map(tree, graph, options) ...
//   EXPECT_EQ(rec.Fractions("refinement").back(), 1.0);
#ifndef RANKMAP_TESTS_PROGRESS_RECORDER_H_
#define RANKMAP_TESTS_PROGRESS_RECORDER_H_

#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/progress.h"

namespace rankmap::testing {

class ProgressRecorder : public core::ProgressSink {
 public:
  void Report(std::string_view phase, double fraction) override {
    std::lock_guard<std::mutex> lock(mu_);
    reports_.push_back({std::string(phase), fraction});
  }

  // Every report, in the order received.
  std::vector<std::pair<std::string, double>> reports() const {
    std::lock_guard<std::mutex> lock(mu_);
    return reports_;
  }

  // The fractions reported for one phase, in order.
  std::vector<double> Fractions(std::string_view phase) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<double> f;
    for (const auto& [p, x] : reports_) {
      if (p == phase) f.push_back(x);
    }
    return f;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, double>> reports_;
};

}  // namespace rankmap::testing

#endif  // RANKMAP_TESTS_PROGRESS_RECORDER_H_
