// `rankmap compare`: every algorithm and baseline on the same input, one table
// (cli/comparison.h), optionally ranked by a model's predicted exchange time
// or (--simulate) by the simulated time of the replay of the graph under each
// mapping.
#ifndef RANKMAP_CLI_COMPARE_COMMAND_H_
#define RANKMAP_CLI_COMPARE_COMMAND_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "cli/choice.h"
#include "cli/inputs.h"

namespace rankmap::cli {

struct CompareCommand {
  Inputs inputs;
  std::string
      model;  // empty, or rank by predicted time: hockney, lmo, hloggp, taulop
  std::string params;  // model parameter file; empty: defaults per level
  std::string preset = "default";
  uint64_t seed = 1;
  int32_t threads = 1;
  std::string svg;        // pictures of the best mapping; empty: none
  bool quiet = false;     // no progress line
  bool progress = false;  // a progress line even when stderr is no terminal
  // "tm,scotch": only these, whatever their size; empty: every algorithm,
  // baselines above their size limit noted instead of run (cli/comparison.h).
  std::string algorithms;
  // A column of simulated seconds per iteration (cli/simulate_command.h),
  // which then ranks the rows; a closing line compares the present order
  // (identity) with the fastest.
  bool simulate = false;
  int64_t iterations = 10;
  std::string smpi_model = "calibrated";
  // Objective, present order and margin for the engine's rows (cli/choice.h).
  Choice choice;
};

// Prints the sizes of the input, then the table. Errors: bad inputs, preset,
// model or algorithm list; bad input found by an algorithm; unwritable
// pictures; with simulate, those of `rankmap simulate`.
absl::Status RunCompare(const CompareCommand& cmd, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_COMPARE_COMMAND_H_
