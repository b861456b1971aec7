// Early-return helpers for absl::Status / absl::StatusOr, which Debian's abseil
// does not ship.
//
//   RETURN_IF_ERROR(builder.AddEdge(u, v, w));
//   ASSIGN_OR_RETURN(CommGraph g, std::move(builder).Build());
//
// base/ is the bottom layer: every package may use it; it depends on nothing
// of rankmap.
#ifndef RANKMAP_BASE_STATUS_MACROS_H_
#define RANKMAP_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define RANKMAP_STATUS_CONCAT_INNER_(a, b) a##b
#define RANKMAP_STATUS_CONCAT_(a, b) RANKMAP_STATUS_CONCAT_INNER_(a, b)

#define RETURN_IF_ERROR(expr)                                           \
  do {                                                                  \
    if (absl::Status rankmap_status_ = (expr); !rankmap_status_.ok()) { \
      return rankmap_status_;                                           \
    }                                                                   \
  } while (0)

#define RANKMAP_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return std::move(tmp).status();       \
  lhs = std::move(tmp).value()

#define ASSIGN_OR_RETURN(lhs, expr) \
  RANKMAP_ASSIGN_OR_RETURN_IMPL_(   \
      RANKMAP_STATUS_CONCAT_(rankmap_statusor_, __LINE__), lhs, expr)

#endif  // RANKMAP_BASE_STATUS_MACROS_H_
