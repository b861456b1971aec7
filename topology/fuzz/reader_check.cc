#include "topology/fuzz/reader_check.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "topology/hwloc_import.h"
#include "topology/ibnetdiscover.h"
#include "topology/network.h"
#include "topology/simgrid_platform.h"
#include "topology/slurm_topology.h"
#include "topology/switch_tree.h"
#include "topology/tleaf.h"

namespace rankmap::topology::fuzz {

LoadOptions FuzzOptions() {
  LoadOptions o;
  o.max_memory_bytes = kFuzzMemoryBudget;
  o.max_hwloc_work = kFuzzHwlocWork;
  return o;
}

absl::StatusOr<Tree> ReadTleafText(std::string_view text,
                                   std::string_view name) {
  return ParseTleaf(text, name, int64_t{1} << 30,
                    FuzzOptions().max_memory_bytes);
}

absl::StatusOr<Tree> ReadSyntheticText(std::string_view text,
                                       std::string_view /*name*/) {
  HwlocImportOptions o;
  o.max_memory_bytes = kFuzzMemoryBudget;
  o.max_hwloc_work = kFuzzHwlocWork;
  return TreeFromSynthetic(text, o);
}

absl::StatusOr<Tree> ReadNetworkText(std::string_view text,
                                     std::string_view name) {
  // No base directory: XML node paths cannot reach outside the test.
  return ParseNetworkSpec(text, name, "", FuzzOptions());
}

absl::StatusOr<Tree> ReadXmlText(std::string_view text, std::string_view name) {
  HwlocImportOptions o;
  o.max_memory_bytes = kFuzzMemoryBudget;
  o.max_hwloc_work = kFuzzHwlocWork;
  return TreeFromXmlBuffer(text, name, o);
}

absl::StatusOr<Tree> ReadSimGridText(std::string_view text,
                                     std::string_view name) {
  return ParseSimGridPlatform(text, name, int64_t{1} << 26, kFuzzMemoryBudget);
}

absl::StatusOr<Tree> ReadSlurmText(std::string_view text,
                                   std::string_view name) {
  ASSIGN_OR_RETURN(const SwitchTree net,
                   ParseSlurmTopology(text, name, kFuzzMemoryBudget));
  LoadOptions o = FuzzOptions();
  o.node = kFuzzNode;
  return AttachNodes(net, name, o);
}

absl::StatusOr<Tree> ReadIbnetdiscoverText(std::string_view text,
                                           std::string_view name) {
  ASSIGN_OR_RETURN(const SwitchTree net, ParseIbnetdiscover(text, name));
  LoadOptions o = FuzzOptions();
  o.node = kFuzzNode;
  return AttachNodes(net, name, o);
}

absl::Status CheckReader(TopologyReaderFn read, std::string_view text,
                         std::string_view name, std::string_view prefix,
                         bool* parsed) {
  absl::StatusOr<Tree> t = read(text, name);
  if (parsed != nullptr) *parsed = t.ok();
  if (!t.ok()) {
    const std::string message(t.status().message());
    const absl::StatusCode code = t.status().code();
    if (code != absl::StatusCode::kInvalidArgument &&
        code != absl::StatusCode::kNotFound &&
        code != absl::StatusCode::kResourceExhausted) {
      return absl::InternalError(
          absl::StrCat("unexpected error code: ", t.status().ToString()));
    }
    const bool named = message.rfind(std::string(prefix), 0) == 0 ||
                       message.find(std::string(name)) != std::string::npos;
    if (!named || message.find('\n') != std::string::npos) {
      return absl::InternalError(absl::StrCat(
          "error is not one line starting with '", std::string(prefix),
          "' or naming '", std::string(name), "': ", t.status().ToString()));
    }
    return absl::OkStatus();
  }
  if (absl::Status v = t->Validate(); !v.ok()) {
    return absl::InternalError(
        absl::StrCat("accepted tree breaks an invariant: ", v.ToString()));
  }
  return absl::OkStatus();
}

void FuzzReader(TopologyReaderFn read, std::string_view prefix,
                const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const absl::Status s = CheckReader(read, text, "fuzz", prefix);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    std::abort();
  }
}

}  // namespace rankmap::topology::fuzz
