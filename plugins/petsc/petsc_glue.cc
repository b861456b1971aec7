#include "plugins/petsc/petsc_glue.h"

#include <petscoptions.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace rankmap::plugins::petsc {
namespace {

// "-<word>_rankmap_<name>".
std::string OptionName(const char* word, const char* name) {
  return std::string("-") + word + "_rankmap_" + name;
}

// The engine's default imbalance (MappingOptions::imbalance), shown where
// the option is unset.
constexpr double kDefaultImbalance = 0.03;

// The type's name in -help output.
const char* ManualPage(const char* word) {
  return std::strcmp(word, "mat_partitioning") == 0 ? "MatPartitioningRankmap"
                                                    : "PetscPartitionerRankmap";
}

// A string option into *value (kept when the option is not given).
PetscErrorCode ReadString(PetscOptionItems* PetscOptionsObject,
                          const char* word, const char* name, const char* text,
                          std::string* value) {
  char buffer[PETSC_MAX_PATH_LEN];
  std::snprintf(buffer, sizeof buffer, "%s", value->c_str());
  PetscBool set = PETSC_FALSE;
  const std::string option = OptionName(word, name);
  PetscFunctionBegin;
  PetscCall(PetscOptionsString(option.c_str(), text, ManualPage(word), buffer,
                               buffer, sizeof buffer, &set));
  if (set) *value = buffer;
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode ReadOptions(PetscOptionItems* PetscOptionsObject,
                           const char* word, RankmapState* state) {
  JobPartitionOptions& o = state->options;
  const struct {
    const char* name;
    const char* text;
    std::string* value;
  } strings[] = {
      {"algorithm", "a preset (fast, default, strong) or an algorithm",
       &o.algorithm},
      {"objective", "auto | j | time", &o.objective},
      {"topology", "the machine to assume (tleaf, hwloc, network spec)",
       &o.topology},
      {"network", "a network spec over the job's hosts", &o.network},
      {"exchange",
       "one exchange as B,M: bytes per unit of edge weight, "
       "messages per neighbouring pair",
       &o.exchange},
      {"exchange_profile", "fit the exchange from PROFILE.mat,PART[,K]",
       &o.exchange_profile},
      {"compare", "also partition with this type and report both",
       &state->compare},
      {"write", "rank 0 writes PREFIX.graph, .part, .leaves", &o.write},
  };
  PetscReal imbalance = o.imbalance < 0 ? kDefaultImbalance : o.imbalance;
  PetscInt seed = static_cast<PetscInt>(o.seed);
  PetscBool set = PETSC_FALSE;
  PetscFunctionBegin;
  for (const auto& s : strings)
    PetscCall(ReadString(PetscOptionsObject, word, s.name, s.text, s.value));
  const std::string imb = OptionName(word, "imbalance");
  PetscCall(PetscOptionsReal(imb.c_str(),
                             "allowed imbalance of a part (default 0.03)",
                             ManualPage(word), imbalance, &imbalance, &set));
  if (set) o.imbalance = imbalance;
  const std::string sd = OptionName(word, "seed");
  PetscCall(PetscOptionsInt(sd.c_str(), "the engine's seed", ManualPage(word),
                            seed, &seed, &set));
  if (set) o.seed = static_cast<uint64_t>(seed);
  PetscReal memory = static_cast<PetscReal>(o.max_memory_bytes);
  const std::string mm = OptionName(word, "max_memory");
  PetscCall(PetscOptionsReal(mm.c_str(),
                             "bytes the partition may use on rank 0 (0: half "
                             "of physical memory)",
                             ManualPage(word), memory, &memory, &set));
  if (set) o.max_memory_bytes = static_cast<int64_t>(memory);
  o.compared_name = state->compare;
  o.option_prefix = OptionName(word, "");
  PetscFunctionReturn(0);
}

PetscErrorCode ViewState(const RankmapState& state, PetscViewer viewer) {
  PetscBool ascii = PETSC_FALSE;
  PetscFunctionBegin;
  PetscCall(
      PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(0);
  if (state.report.empty()) {
    const JobPartitionOptions& o = state.options;
    PetscCall(PetscViewerASCIIPrintf(
        viewer, "rankmap: algorithm %s, imbalance %g, machine %s\n",
        o.algorithm.empty() ? "default" : o.algorithm.c_str(),
        o.imbalance < 0 ? kDefaultImbalance : o.imbalance,
        !o.topology.empty()  ? o.topology.c_str()
        : !o.network.empty() ? o.network.c_str()
                             : "where the job runs"));
    PetscFunctionReturn(0);
  }
  for (const std::string& line : state.report)
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s\n", line.c_str()));
  PetscFunctionReturn(0);
}

PetscErrorCode PetscErrorOf(MPI_Comm comm, const absl::Status& s) {
  if (s.ok()) return 0;
  PetscErrorCode code = PETSC_ERR_LIB;
  if (s.code() == absl::StatusCode::kInvalidArgument ||
      s.code() == absl::StatusCode::kNotFound ||
      s.code() == absl::StatusCode::kFailedPrecondition)
    code = PETSC_ERR_ARG_WRONG;
  if (s.code() == absl::StatusCode::kResourceExhausted) code = PETSC_ERR_MEM;
  if (s.code() == absl::StatusCode::kUnimplemented) code = PETSC_ERR_SUP;
  const std::string message(s.message());
  return PetscError(comm, __LINE__, PETSC_FUNCTION_NAME, __FILE__, code,
                    PETSC_ERROR_INITIAL, "%s", message.c_str());
}

}  // namespace rankmap::plugins::petsc
