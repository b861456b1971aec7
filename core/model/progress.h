// Progress of the engine's long phases, for whoever shows it (the rankmap
// command draws a line on stderr). The engine never prints: it reports to a
// sink passed in MappingOptions::progress; without one (the default) a report
// costs one pointer test, and reports happen per phase step, never per
// vertex.
//
//   class Line : public core::ProgressSink {
//     void Report(std::string_view phase, double fraction) override { ... }
//   };
//   Line line;
//   options.progress = &line;
//   ASSIGN_OR_RETURN(Mapping m, core::Map(tree, graph, options));
#ifndef RANKMAP_CORE_MODEL_PROGRESS_H_
#define RANKMAP_CORE_MODEL_PROGRESS_H_

#include <string_view>

namespace rankmap::core {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // `phase` ("portfolio: multisection", "refinement", "n-to-1 attempt 2 of
  // 4") has done `fraction` in [0, 1] of its work: 0 when it starts, 1 when
  // it ends. With threads >= 2 reports also come from a worker thread, so
  // implementations must be thread-safe.
  virtual void Report(std::string_view phase, double fraction) = 0;
};

// Reports when `sink` is not null.
inline void ReportProgress(ProgressSink* sink, std::string_view phase,
                           double fraction) {
  if (sink != nullptr) sink->Report(phase, fraction);
}

// Where a step of a phase reports, for code that does not know the phase: to
// `sink` under `name`, the step's own fraction f shown as from + f * (to -
// from) (a phase that runs a step several times, such as restarts, gives each
// run its slice).
struct ProgressPhase {
  ProgressSink* sink = nullptr;
  std::string_view name;
  double from = 0.0;
  double to = 1.0;

  void Report(double fraction) const {
    ReportProgress(sink, name, from + fraction * (to - from));
  }
};

}  // namespace rankmap::core

#endif  // RANKMAP_CORE_MODEL_PROGRESS_H_
