// The boundary where exceptions stop: runs a step that returns absl::Status or
// absl::StatusOr<T> and turns whatever it throws into a Status of that type.
// Callers are the interfaces whose callers cannot take an exception (the C
// API, the MPI libraries, whose ranks must reach the collectives that follow)
// and the engine's entry point.
//
//   absl::Status s = base::CatchAsStatus("rankmap_map", [&] { return MapC(r);
//   });
//   // std::bad_alloc       -> kResourceExhausted "rankmap_map: out of memory"
//   // std::exception e     -> kInternal "rankmap_map: internal error:
//   <e.what()>"
//   // anything else thrown -> kInternal "rankmap_map: internal error: unknown
//   exception"
//
// The three-argument form appends `out_of_memory_note()` (called only then)
// after "out of memory", to say what was being allocated:
//   "map: out of memory mapping 10 processes onto 8 leaves (estimated 2 GiB)".
#ifndef RANKMAP_BASE_CATCH_AS_STATUS_H_
#define RANKMAP_BASE_CATCH_AS_STATUS_H_

#include <exception>
#include <new>
#include <string>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace rankmap::base {

template <typename Step, typename Note>
std::invoke_result_t<Step&> CatchAsStatus(absl::string_view what, Step&& step,
                                          Note&& out_of_memory_note) {
  try {
    return step();
  } catch (const std::bad_alloc&) {
    const std::string note = out_of_memory_note();
    return absl::ResourceExhaustedError(
        absl::StrCat(what, ": out of memory", note.empty() ? "" : " ", note));
  } catch (const std::exception& e) {
    return absl::InternalError(
        absl::StrCat(what, ": internal error: ", e.what()));
  } catch (...) {
    return absl::InternalError(
        absl::StrCat(what, ": internal error: unknown exception"));
  }
}

template <typename Step>
std::invoke_result_t<Step&> CatchAsStatus(absl::string_view what, Step&& step) {
  return CatchAsStatus(what, step, [] { return std::string(); });
}

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_CATCH_AS_STATUS_H_
