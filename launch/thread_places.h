// OpenMP settings for a process bound to several leaves: one place per leaf
// (a PU, or the hardware threads of a core), threads kept close to their
// place, one thread per leaf.
//
//   ThreadPlaces t = ThreadPlacesOf({{0}, {1}});
//   t.num_threads  // 2
//   t.places       // "{0},{1}"          (OMP_PLACES)
//   t.proc_bind    // "close"            (OMP_PROC_BIND)
//   ThreadPlacesOf({{0, 32}, {1, 33}}).places  // "{0,32},{1,33}"
#ifndef RANKMAP_LAUNCH_THREAD_PLACES_H_
#define RANKMAP_LAUNCH_THREAD_PLACES_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rankmap::launch {

struct ThreadPlaces {
  int32_t num_threads = 0;  // OMP_NUM_THREADS
  std::string places;       // OMP_PLACES
  std::string proc_bind = "close";
};

// `leaves` are the PU os indexes of each leaf the process owns, in leaf
// order; empty leaves are skipped. O(PUs).
ThreadPlaces ThreadPlacesOf(const std::vector<std::vector<int32_t>>& leaves);

// "OMP_NUM_THREADS=2 OMP_PLACES={0},{1} OMP_PROC_BIND=close".
std::string FormatThreadPlaces(const ThreadPlaces& places);

}  // namespace rankmap::launch

#endif  // RANKMAP_LAUNCH_THREAD_PLACES_H_
