#include "cli/leaf_numbering.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "topology/tree_ops.h"

namespace rankmap::cli {

LeafNumbering LeafNumbering::For(const Inputs& in, const topology::Tree& tree) {
  LeafNumbering n;
  if (in.allowed.empty()) return n;
  n.caller_ = topology::NumbersBeforeRestrict(tree);
  for (core::LeafId l = 0; l < static_cast<core::LeafId>(n.caller_.size()); ++l)
    n.leaf_.emplace(n.caller_[l], l);
  return n;
}

int64_t LeafNumbering::ToCaller(core::LeafId leaf) const {
  return identity() ? leaf : caller_[leaf];
}

core::Mapping LeafNumbering::ToCaller(const core::Mapping& mapping) const {
  if (identity()) return mapping;
  core::Mapping out(mapping.size());
  for (size_t p = 0; p < mapping.size(); ++p) out[p] = caller_[mapping[p]];
  return out;
}

absl::StatusOr<core::Mapping> LeafNumbering::FromCaller(
    const core::Mapping& mapping, std::string_view name) const {
  if (identity()) return mapping;
  core::Mapping out(mapping.size());
  for (size_t p = 0; p < mapping.size(); ++p) {
    const auto it = leaf_.find(mapping[p]);
    if (it == leaf_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(name), ": process ", p, " is on leaf ",
                       mapping[p], ", which is not among the allowed leaves"));
    }
    out[p] = it->second;
  }
  return out;
}

}  // namespace rankmap::cli
