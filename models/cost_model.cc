#include "models/cost_model.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"

namespace rankmap::models {
namespace {

double PairMax(const topology::Tree& tree, NodeId n) {
  double m = 0.0;
  const int32_t k = tree.num_children(n);
  for (int32_t i = 0; i < k; ++i) {
    for (int32_t j = 0; j < k; ++j) m = std::max(m, tree.pair_cost(n, i, j));
  }
  return m;
}

// The channel of leaves a, b: its parameters and the per-byte scale of
// pair-cost LCAs.
struct ChannelRef {
  const ChannelParams* params = nullptr;
  double byte_scale = 1.0;
  NodeId lca = -1;
  NodeId sender_child = -1;  // child of lca on a's side (a itself when a == b)
};

// pair_max: per node, its largest pair cost (0 when it has none); null to
// compute on demand. O(depth + arity^2 of a pair-cost LCA).
ChannelRef Resolve(const ModelParams& params, const topology::Tree& tree,
                   LeafId a, LeafId b, const std::vector<double>* pair_max) {
  ChannelRef r;
  if (a == b) {
    r.params = &params.self;
    r.lca = a;
    r.sender_child = a;
    return r;
  }
  NodeId x = a, y = b, cx = a, cy = b;
  while (x != y) {
    if (x < y) {
      cx = x;
      x = tree.parent(x);
    } else {
      cy = y;
      y = tree.parent(y);
    }
  }
  r.lca = x;
  r.sender_child = cx;
  r.params = &params.levels[tree.depth(x)];
  if (tree.has_pair_costs(x)) {
    const double m = pair_max != nullptr ? (*pair_max)[x] : PairMax(tree, x);
    if (m > 0)
      r.byte_scale =
          tree.pair_cost(x, tree.child_rank(cx), tree.child_rank(cy)) / m;
  }
  return r;
}

}  // namespace

double HockneyTime(const HockneyParams& p, double bytes, double byte_scale) {
  return p.alpha + p.beta * byte_scale * bytes;
}

double LmoTime(const LmoParams& p, double bytes, double byte_scale) {
  return p.L + p.Cs + p.ts * bytes + p.Cr + p.tr * bytes +
         byte_scale * bytes / p.rate;
}

double HLogGPTime(const HLogGPParams& p, double bytes, double byte_scale) {
  return p.L + p.os + p.orecv + std::max(bytes - 1.0, 0.0) * p.G * byte_scale;
}

absl::StatusOr<std::vector<double>> PredictPhaseTimes(
    Model model, const ModelParams& params, const topology::Tree& tree,
    const Flow& flow, const Mapping& mapping, const PredictOptions& options) {
  RETURN_IF_ERROR(ValidateFlow(flow));
  if (!options.shared_leaves) {
    RETURN_IF_ERROR(core::ValidateMapping(tree, flow.num_processes, mapping));
  } else {
    if (static_cast<int64_t>(mapping.size()) != flow.num_processes) {
      return absl::InvalidArgumentError(
          absl::StrCat("cost_model: mapping has ", mapping.size(),
                       " entries for ", flow.num_processes, " processes"));
    }
    for (size_t p = 0; p < mapping.size(); ++p) {
      if (mapping[p] < 0 || mapping[p] >= tree.num_leaves()) {
        return absl::InvalidArgumentError(
            absl::StrCat("cost_model: process ", p, " on leaf ", mapping[p],
                         ", outside [0, ", tree.num_leaves(), ")"));
      }
    }
  }
  if (static_cast<int32_t>(params.levels.size()) != tree.height()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cost_model: parameters for ", params.levels.size(),
                     " levels, but the tree has height ", tree.height()));
  }
  std::vector<double> pair_max(tree.num_nodes(), 0.0);
  for (NodeId v = tree.num_leaves(); v < tree.num_nodes(); ++v) {
    if (tree.has_pair_costs(v)) pair_max[v] = PairMax(tree, v);
  }
  std::vector<double> times;
  times.reserve(flow.phases.size());
  std::vector<double> per_process(flow.num_processes, 0.0);
  for (const Phase& phase : flow.phases) {
    if (model == Model::kTauLop) {
      // One params entry per level plus self; links are LCA nodes or levels.
      std::vector<TauLopParams> channels;
      channels.reserve(params.levels.size() + 1);
      for (const ChannelParams& c : params.levels) channels.push_back(c.taulop);
      channels.push_back(params.self.taulop);
      const int32_t self_channel = static_cast<int32_t>(params.levels.size());
      TauLopConcurrent conc;
      conc.sequences.reserve(phase.transmissions.size());
      for (const Transmission& t : phase.transmissions) {
        const LeafId a = mapping[t.src], b = mapping[t.dst];
        const ChannelRef c = Resolve(params, tree, a, b, &pair_max);
        TauLopTransmission x;
        x.channel = a == b ? self_channel : tree.depth(c.lca);
        x.bytes = t.bytes;
        x.byte_scale = c.byte_scale;
        switch (options.sharing) {
          case TauLopSharing::kPerLcaNode:
            x.link = c.lca;  // a leaf for a == b: never an LCA of two leaves
            break;
          case TauLopSharing::kPerLevel:
            x.link = x.channel;
            break;
          case TauLopSharing::kPerSenderUplink:
            // Leaves are uplinks too: same-leaf traffic gets ids past them.
            x.link = a == b ? int64_t{tree.num_nodes()} + a : c.sender_child;
            break;
        }
        conc.sequences.push_back({x});
      }
      ASSIGN_OR_RETURN(double t, EvaluateTauLop(conc, channels));
      times.push_back(t);
      continue;
    }
    // Eqs. 6-7: sum per sending process, max over processes.
    std::fill(per_process.begin(), per_process.end(), 0.0);
    for (const Transmission& t : phase.transmissions) {
      const LeafId a = mapping[t.src], b = mapping[t.dst];
      const ChannelRef c = Resolve(params, tree, a, b, &pair_max);
      double cost = 0.0;
      double scale = c.byte_scale;
      switch (model) {
        case Model::kHockney:
          cost = HockneyTime(c.params->hockney, t.bytes, c.byte_scale);
          break;
        case Model::kLmo:
          cost = LmoTime(PointLmo(c.params->lmo, params.points, a, b, &scale),
                         t.bytes, scale);
          break;
        case Model::kHLogGP: {
          const HLogGPParams h =
              PointHLogGP(c.params->hloggp, params.points, a, b, &scale);
          cost = std::max(HLogGPTime(h, t.bytes, scale), h.g);
          break;
        }
        case Model::kTauLop:
          break;
      }
      per_process[t.src] += cost;
    }
    double phase_time = 0.0;
    for (double v : per_process) phase_time = std::max(phase_time, v);
    times.push_back(phase_time);
  }
  return times;
}

absl::StatusOr<double> PredictTime(Model model, const ModelParams& params,
                                   const topology::Tree& tree, const Flow& flow,
                                   const Mapping& mapping,
                                   const PredictOptions& options) {
  ASSIGN_OR_RETURN(
      std::vector<double> times,
      PredictPhaseTimes(model, params, tree, flow, mapping, options));
  double total = 0.0;
  for (size_t p = 0; p < times.size(); ++p) {
    total += static_cast<double>(flow.phases[p].repetitions) * times[p];
  }
  return total;
}

}  // namespace rankmap::models
