// Leaf numbers as the caller knows them. With --allowed the loaded tree keeps
// the allowed leaves only and numbers them 0..k-1, but the caller numbers
// leaves in the whole machine (a tleaf's leaf ids, hwloc's logical index of the
// PU or core): mapping files the commands write and read use the caller's
// numbers, so a file never names a leaf the caller did not allow.
//
//   const LeafNumbering numbering = LeafNumbering::For(cmd.inputs, tree);
//   out << FormatMapping(tree, numbering.ToCaller(mapping), ...);
#ifndef RANKMAP_CLI_LEAF_NUMBERING_H_
#define RANKMAP_CLI_LEAF_NUMBERING_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "cli/inputs.h"
#include "core/model/mapping.h"
#include "topology/tree.h"

namespace rankmap::cli {

class LeafNumbering {
 public:
  // The identity.
  LeafNumbering() = default;

  // The identity unless `in` restricts the machine (--allowed): then each
  // leaf's logical index (topology::Restrict keeps the number a leaf had in
  // the whole tree). Trees whose leaves repeat logical indexes (several hosts)
  // keep the identity: their leaf numbers are the caller's already.
  static LeafNumbering For(const Inputs& in, const topology::Tree& tree);

  bool identity() const { return caller_.empty(); }
  int64_t ToCaller(core::LeafId leaf) const;
  core::Mapping ToCaller(const core::Mapping& mapping) const;
  // Errors name `name`: a number that is no leaf of the restricted tree
  // ("leaf 88 is not among the allowed leaves").
  absl::StatusOr<core::Mapping> FromCaller(const core::Mapping& mapping,
                                           std::string_view name) const;

 private:
  std::vector<int32_t> caller_;  // by leaf; empty: identity
  absl::flat_hash_map<int32_t, core::LeafId> leaf_;
};

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_LEAF_NUMBERING_H_
