// The exit status of `rankmap` for a command's Status.
#ifndef RANKMAP_CLI_EXIT_CODE_H_
#define RANKMAP_CLI_EXIT_CODE_H_

#include "absl/status/status.h"

namespace rankmap::cli {

// 0 for OK, 2 for errors caused by the input (bad file, bad flag value), 1 for
// internal failures.
int ExitCodeFor(const absl::Status& status);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_EXIT_CODE_H_
