// Quoting for the POSIX shell: every string rankmap places in a generated
// script or prints as a command to run (output paths in `launch:` lines and
// wrapper scripts, host names, program arguments) goes through ShellQuote, so
// a path such as `a;rm -rf x` or `$(id)` stays one literal word.
//
//   out += "launch: mpirun --rankfile " + base::ShellQuote(path) + " ./app";
#ifndef RANKMAP_BASE_SHELL_QUOTE_H_
#define RANKMAP_BASE_SHELL_QUOTE_H_

#include <span>
#include <string>
#include <string_view>

namespace rankmap::base {

// `word` unchanged when it consists only of characters no shell treats
// specially ([A-Za-z0-9_@%+=:,./-], not starting with '~' and not empty;
// options such as -n stay plain), else wrapped in single quotes with each ' written as '\''. The
// result read by sh is exactly `word`. O(length).
std::string ShellQuote(std::string_view word);

// The words quoted and joined by single spaces.
std::string ShellJoin(std::span<const std::string> words);

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_SHELL_QUOTE_H_
