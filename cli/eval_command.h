// `rankmap eval`: validates a given mapping and reports J, hop-bytes, the most
// loaded link, the volume crossing each tree level and, with a model, the
// predicted time of one exchange.
//
//   EvalCommand cmd;
//   cmd.inputs = ...;             // topology and communication graph
//   cmd.mapping = "m.txt";        // plain, rankfile or json (as map writes)
//   cmd.model = "hockney";
//   RETURN_IF_ERROR(RunEval(cmd, std::cout));
#ifndef RANKMAP_CLI_EVAL_COMMAND_H_
#define RANKMAP_CLI_EVAL_COMMAND_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "cli/inputs.h"

namespace rankmap::cli {

struct EvalCommand {
  Inputs inputs;
  std::string mapping;  // mapping file in any format `map` writes
  std::string model;    // empty, hockney, lmo, hloggp, taulop
  std::string params;   // model parameter file; empty: defaults per level
  std::string report;   // HTML report with the pictures; empty: none
  // n-to-1: the imbalance the partition is checked against.
  double imbalance = 0.03;
};

// With more processes than slots the mapping is checked as a partition
// (within `imbalance`); the report is the same. The model and its parameters
// are checked before anything is printed. Errors: bad inputs, model or
// parameter file, no mapping file, a mapping that fails validation (the
// message names the file). With `report`, the page is written after the text
// and named on `out`.
absl::Status RunEval(const EvalCommand& cmd, std::ostream& out);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_EVAL_COMMAND_H_
