#include "core/model/slot_classes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "absl/strings/str_cat.h"

namespace rankmap::core {
namespace {

bool SameSpeed(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

}  // namespace

absl::StatusOr<SlotClasses> ClassesFromSpeeds(
    std::span<const double> process_speed, std::span<const double> leaf_speed) {
  std::vector<double> distinct;  // one representative speed per class
  auto class_of = [&](double s) -> int32_t {
    for (size_t c = 0; c < distinct.size(); ++c) {
      if (SameSpeed(distinct[c], s)) return static_cast<int32_t>(c);
    }
    return -1;
  };
  SlotClasses out;
  out.of_leaf.reserve(leaf_speed.size());
  for (double s : leaf_speed) {
    int32_t c = class_of(s);
    if (c < 0) {
      c = static_cast<int32_t>(distinct.size());
      distinct.push_back(s);
    }
    out.of_leaf.push_back(c);
  }
  out.of_process.reserve(process_speed.size());
  for (size_t u = 0; u < process_speed.size(); ++u) {
    const double s = process_speed[u];
    if (!(s > 0)) {
      out.of_process.push_back(-1);
      continue;
    }
    const int32_t c = class_of(s);
    if (c < 0) {
      std::string offered;
      for (double d : distinct)
        absl::StrAppend(&offered, offered.empty() ? "" : ", ", d);
      return absl::InvalidArgumentError(
          absl::StrCat("speeds: process ", u, " needs speed ", s,
                       " but the topology's leaves have speeds ", offered));
    }
    out.of_process.push_back(c);
  }
  return out;
}

absl::StatusOr<SlotClasses> ClassesForTree(
    const topology::Tree& tree, std::span<const double> process_speed) {
  SlotClasses out;
  {
    absl::StatusOr<SlotClasses> c =
        ClassesFromSpeeds(process_speed, tree.speeds());
    if (!c.ok()) return c.status();
    out = *std::move(c);
  }
  std::vector<int64_t> need, have;
  std::vector<double> speed;  // of each class
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    const size_t c = out.of_leaf[l];
    if (c >= have.size()) {
      have.resize(c + 1, 0);
      speed.resize(c + 1, tree.speed(l));
    }
    have[c] += tree.capacity(l);
  }
  need.assign(have.size(), 0);
  for (int32_t c : out.of_process) {
    if (c >= 0) ++need[c];
  }
  for (size_t c = 0; c < need.size(); ++c) {
    if (need[c] > have[c]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "speeds: ", need[c], " processes need speed ", speed[c],
          " but the topology has ", have[c], " slots of that speed"));
    }
  }
  return out;
}

absl::Status ValidateSlotClasses(const topology::Tree& tree,
                                 int32_t num_processes,
                                 const SlotClasses& classes) {
  if (static_cast<int64_t>(classes.of_process.size()) != num_processes ||
      static_cast<int64_t>(classes.of_leaf.size()) != tree.num_leaves()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "classes: ", classes.of_process.size(), " process classes for ",
        num_processes, " processes and ", classes.of_leaf.size(),
        " leaf classes for ", tree.num_leaves(), " leaves"));
  }
  std::map<int32_t, int64_t> need, have;
  for (int32_t c : classes.of_process) {
    if (c >= 0) ++need[c];
  }
  for (LeafId l = 0; l < tree.num_leaves(); ++l)
    have[classes.of_leaf[l]] += tree.capacity(l);
  for (const auto& [c, n] : need) {
    if (n > have[c]) {
      return absl::InvalidArgumentError(
          absl::StrCat("classes: ", n, " processes need class ", c,
                       " but the topology has ", have[c], " slots of it"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckClasses(const SlotClasses& classes, const Mapping& mapping) {
  for (size_t u = 0; u < mapping.size(); ++u) {
    if (!classes.Allowed(static_cast<int32_t>(u), mapping[u])) {
      return absl::InvalidArgumentError(
          absl::StrCat("classes: process ", u, " of class ",
                       classes.of_process[u], " sits on leaf ", mapping[u],
                       " of class ", classes.of_leaf[mapping[u]]));
    }
  }
  return absl::OkStatus();
}

void RepairToClasses(const topology::Tree& tree, const graphs::CommGraph& graph,
                     const SlotClasses& classes, Mapping* mapping) {
  const int32_t n = static_cast<int32_t>(mapping->size());
  std::vector<int32_t> load(tree.num_leaves(), 0);
  // Who keeps its leaf: processes on a leaf of their class, heaviest first
  // when a leaf is over its capacity with them.
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
    return graph.VertexVolume(a) > graph.VertexVolume(b);
  });
  std::vector<char> placed(n, 0);
  for (int32_t u : order) {
    const LeafId l = (*mapping)[u];
    if (classes.Allowed(u, l) && load[l] < tree.capacity(l)) {
      placed[u] = 1;
      ++load[l];
    }
  }
  // Free slots per class, by leaf index (leaves of a subtree are contiguous,
  // so the index neighbours are the tree neighbours).
  std::map<int32_t, std::set<LeafId>> free;
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    if (load[l] < tree.capacity(l)) free[classes.of_leaf[l]].insert(l);
  }
  auto any_free = [&](LeafId near) -> std::set<LeafId>* {
    // Processes without a class: the class with a free leaf closest in index.
    std::set<LeafId>* best = nullptr;
    LeafId best_d = 0;
    for (auto& [c, leaves] : free) {
      if (leaves.empty()) continue;
      auto it = leaves.lower_bound(near);
      LeafId d = it != leaves.end() ? *it - near : tree.num_leaves();
      if (it != leaves.begin()) d = std::min(d, near - *std::prev(it));
      if (best == nullptr || d < best_d) {
        best = &leaves;
        best_d = d;
      }
    }
    return best;
  };
  for (int32_t u : order) {
    if (placed[u]) continue;
    const LeafId old = (*mapping)[u];
    std::set<LeafId>* leaves = classes.of_process[u] >= 0
                                   ? &free[classes.of_process[u]]
                                   : any_free(old);
    if (leaves == nullptr || leaves->empty()) continue;  // cannot happen
    // The nearer of the free leaves around `old` by index, compared by tree
    // distance.
    auto it = leaves->lower_bound(old);
    LeafId to = -1;
    if (it != leaves->end()) to = *it;
    if (it != leaves->begin()) {
      const LeafId before = *std::prev(it);
      if (to < 0 || tree.Distance(old, before) <= tree.Distance(old, to))
        to = before;
    }
    (*mapping)[u] = to;
    if (++load[to] >= tree.capacity(to)) leaves->erase(to);
  }
}

}  // namespace rankmap::core
