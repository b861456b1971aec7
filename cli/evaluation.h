// What several commands compute about a mapping: its facts and volumes as
// reports print them, and the predicted time of one exchange under a
// communication model. Whether inputs are n-to-1 and the checked cost of a
// mapping are core's (core::IsNTo1, core::CheckedCost in core/model/mapping.h).
#ifndef RANKMAP_CLI_EVALUATION_H_
#define RANKMAP_CLI_EVALUATION_H_

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"
#include "graphs/comm_graph.h"
#include "models/channel_params.h"
#include "topology/tree.h"

namespace rankmap::cli {

// Volume whose endpoints' lowest common ancestor is at `depth` ("same leaf":
// depth = tree height). Where nodes of different kinds share a depth (a
// network of unlike machines) there is one entry per kind, so that each label
// says what its volume crossed.
struct LevelVolume {
  int32_t depth = 0;
  std::string label;  // the level's kind, or "same leaf"
  double volume = 0.0;
};

// Top-down, kinds in left-to-right order of first appearance. O(nodes).
std::vector<LevelVolume> LevelVolumes(const topology::Tree& tree,
                                      const core::CostReport& cost);

// Label and value lines of a report ("J", "220").
using Facts = std::vector<std::pair<std::string, std::string>>;

// processes (with "(n-to-1)" when there are more than slots), leaves, J,
// hop-bytes and the most loaded link, as `eval` prints them.
Facts MappingFacts(const topology::Tree& tree, const graphs::CommGraph& graph,
                   const core::CostReport& cost);

// n-to-1: the largest excess of a leaf's vertex weight over its share of the
// total (the share in proportion to capacities), as a fraction: 0.02 when the
// heaviest leaf carries 2% more than its share. 0 for empty graphs. O(n +
// leaves).
double PartitionImbalance(const topology::Tree& tree,
                          const graphs::CommGraph& graph,
                          const core::Mapping& mapping);

// One line per fact: the label padded to 16 characters, then the value.
void PrintFacts(const Facts& facts, std::ostream& out);

// A communication model with its parameters resolved for one tree.
struct TimeModel {
  std::string name;    // hockney, lmo, hloggp or taulop
  std::string source;  // the parameter file, or "default parameters"
  models::Model model = models::Model::kHockney;
  models::ModelParams params;
};

// The model `model_name` (empty: none, nullopt) with the parameters of the
// file `params_path` resolved on `tree`, or the per-level defaults when it is
// empty. Commands call it before printing anything, so a bad file fails
// first. Errors: an unknown model, --params without --model, an unreadable or
// invalid parameter file (file:line).
absl::StatusOr<std::optional<TimeModel>> LoadTimeModel(
    const std::string& model_name, const std::string& params_path,
    const topology::Tree& tree);

// Predicted seconds of one halo-style exchange (every edge both ways, one
// phase); n-to-1 mappings (more processes than slots) too, processes on one
// leaf talking over the self channel. Errors: the model's (a mapping that
// does not fit the tree); a prediction that is not finite (volumes too large
// for the parameters of `model.source`, named in the message).
absl::StatusOr<double> PredictExchange(const TimeModel& model,
                                       const topology::Tree& tree,
                                       const graphs::CommGraph& graph,
                                       const core::Mapping& mapping);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_EVALUATION_H_
