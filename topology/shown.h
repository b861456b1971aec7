// Values from an input file as an error message may show them: on one line
// and short. Attribute values and node descriptions can hold newlines
// (an XML character reference), terminal escapes or thousands of
// characters; echoed raw they would split or flood the one-line error every
// reader promises.
//
//   return Err(n, absl::StrCat("unknown topology '", Shown(value), "'"));
#ifndef RANKMAP_TOPOLOGY_SHOWN_H_
#define RANKMAP_TOPOLOGY_SHOWN_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace rankmap::topology {

// `text` with control, quote, backslash and non-ASCII bytes C-escaped
// ("\n", "\x1b"), cut after `max_chars` input characters with "..." added.
// O(min(length, max_chars)).
std::string Shown(std::string_view text, size_t max_chars = 64);

// `text` with only its control bytes escaped ("\n", "\x1b"): a whole
// message kept on one line, its quotes as they are. O(length).
std::string OneLine(std::string_view text);

}  // namespace rankmap::topology

#endif  // RANKMAP_TOPOLOGY_SHOWN_H_
