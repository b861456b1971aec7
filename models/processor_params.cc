#include "models/processor_params.h"

#include <algorithm>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace rankmap::models {
namespace {

std::pair<LeafId, LeafId> Key(LeafId a, LeafId b) {
  return a < b ? std::make_pair(a, b) : std::make_pair(b, a);
}

}  // namespace

const ProcessorParams* PointParams::FindProcessor(LeafId leaf) const {
  if (leaf < 0 || static_cast<size_t>(leaf) >= has_processor_.size() ||
      !has_processor_[leaf]) {
    return nullptr;
  }
  return &processors_[leaf];
}

const PairParams* PointParams::FindPair(LeafId a, LeafId b) const {
  if (pairs_.empty()) return nullptr;
  const auto key = Key(a, b);
  auto it = std::lower_bound(
      pairs_.begin(), pairs_.end(), key,
      [](const auto& entry, const auto& k) { return entry.first < k; });
  return it != pairs_.end() && it->first == key ? &it->second : nullptr;
}

ProcessorParams& PointParams::processor(LeafId leaf) {
  if (static_cast<size_t>(leaf) >= processors_.size()) {
    processors_.resize(leaf + 1);
    has_processor_.resize(leaf + 1, 0);
  }
  has_processor_[leaf] = 1;
  return processors_[leaf];
}

PairParams& PointParams::pair(LeafId a, LeafId b) {
  const auto key = Key(a, b);
  auto it = std::lower_bound(
      pairs_.begin(), pairs_.end(), key,
      [](const auto& entry, const auto& k) { return entry.first < k; });
  if (it == pairs_.end() || it->first != key) {
    it = pairs_.insert(it, {key, PairParams{}});
  }
  return it->second;
}

absl::StatusOr<std::vector<LeafId>> ResolveProcessors(
    std::string_view selector, const topology::Tree& tree) {
  const std::string sel(selector);
  std::vector<LeafId> out;
  int64_t index = 0;
  if (absl::SimpleAtoi(sel, &index)) {
    if (index < 0 || index >= tree.num_leaves()) {
      return absl::InvalidArgumentError(
          absl::StrCat("processor ", sel, " outside the leaves [0, ",
                       tree.num_leaves(), ") of this tree"));
    }
    out.push_back(static_cast<LeafId>(index));
    return out;
  }
  const size_t colon = sel.rfind(':');
  const std::string host = sel.substr(0, colon);
  int64_t os = -1;
  if (colon != std::string::npos &&
      (!absl::SimpleAtoi(sel.substr(colon + 1), &os) || os < 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "processor '", sel, "': expected <leaf>, <host> or <host>:<os index>"));
  }
  for (LeafId l = 0; l < tree.num_leaves(); ++l) {
    if (tree.host(l) == host && (os < 0 || tree.os_index(l) == os)) {
      out.push_back(l);
    }
  }
  if (out.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("no leaf of this tree is processor '", sel, "'"));
  }
  return out;
}

}  // namespace rankmap::models
