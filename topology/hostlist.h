// Slurm hostlist expressions: "tux[0-3,12],login1" -> tux0 tux1 tux2 tux3
// tux12 login1.
//
// Grammar (Slurm's): items separated by commas outside brackets; an item is
// text with bracket groups "[a-b,c]" whose ranges expand in order; zero
// padding is kept ("n[08-10]" -> n08 n09 n10); several groups in one item
// expand as a cartesian product, the last group varying fastest ("r[1-2]n[1-2]"
// -> r1n1 r1n2 r2n1 r2n2).
//
//   ASSIGN_OR_RETURN(std::vector<std::string> hosts,
//                    ExpandHostlist("tux[0-3,12]"));
#ifndef RANKMAP_TOPOLOGY_HOSTLIST_H_
#define RANKMAP_TOPOLOGY_HOSTLIST_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace rankmap::topology {

// Errors (InvalidArgument, the message starts with "hostlist '<expr>': " and
// names the column): unbalanced or nested brackets, empty items or ranges,
// non-numeric bounds, a range whose end is below its start. Limits
// (ResourceExhausted, checked before the names are made): more than
// max_hosts names, or names taking more than max_bytes (HostlistBytes).
// O(output).
absl::StatusOr<std::vector<std::string>> ExpandHostlist(
    std::string_view expression, int64_t max_hosts = int64_t{1} << 22,
    int64_t max_bytes = int64_t{1} << 30);

// The bytes `names` take: each string object and its characters.
int64_t HostlistBytes(const std::vector<std::string>& names);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_HOSTLIST_H_
