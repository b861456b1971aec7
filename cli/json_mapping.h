// The JSON mapping `rankmap map --format json` writes, read back: the array
// of leaf indexes under the top-level object's "mapping" key.
//
//   {"algorithm": "portfolio", "j": 16, "processes": 4, "mapping": [0, 1, 1,
//   0]}
//
// Only the top-level key counts: a "mapping" inside another value (a nested
// object, a string) is skipped like any other value, so a file whose own
// "mapping" is missing is refused rather than read from elsewhere. The file
// must be one JSON object: every other value is scanned (strings with their
// escapes, nested objects and arrays of any depth, without recursion) and
// checked for balance, but not interpreted; a second top-level "mapping" is
// an error.
//
//   ASSIGN_OR_RETURN(core::Mapping m, ParseJsonMapping(text, "m.json"));
#ifndef RANKMAP_CLI_JSON_MAPPING_H_
#define RANKMAP_CLI_JSON_MAPPING_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "core/model/mapping.h"

namespace rankmap::cli {

// Errors (InvalidArgument) read `name:line: what was wrong (expected a JSON
// object with a top-level "mapping" array of leaf indexes)`: not an object,
// no or two "mapping" keys, an entry that is not an integer in [0, 2^31),
// unbalanced brackets, an unterminated string, text after the object.
// O(size of text), memory O(entries + nesting depth).
absl::StatusOr<core::Mapping> ParseJsonMapping(std::string_view text,
                                               std::string_view name);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_JSON_MAPPING_H_
