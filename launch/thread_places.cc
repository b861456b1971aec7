#include "launch/thread_places.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace rankmap::launch {

ThreadPlaces ThreadPlacesOf(const std::vector<std::vector<int32_t>>& leaves) {
  ThreadPlaces out;
  for (const std::vector<int32_t>& pus : leaves) {
    if (pus.empty()) continue;
    if (out.num_threads > 0) out.places += ',';
    absl::StrAppend(&out.places, "{", absl::StrJoin(pus, ","), "}");
    ++out.num_threads;
  }
  return out;
}

std::string FormatThreadPlaces(const ThreadPlaces& places) {
  return absl::StrCat("OMP_NUM_THREADS=", places.num_threads,
                      " OMP_PLACES=", places.places,
                      " OMP_PROC_BIND=", places.proc_bind);
}

}  // namespace rankmap::launch
