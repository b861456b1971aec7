// Stopping the command with SIGTERM or SIGINT at any moment, METIS included.
//
// Why not a signal handler: METIS (its GKlib) installs its own SIGTERM
// handler for the length of every call (gk_sigtrap; GKlib's SIGERR is
// SIGTERM) and turns the signal into a longjmp back into METIS, which then
// returns METIS_ERROR. The engine takes that for a failed split and carries
// on, so `timeout` or `kill` could not stop a long map; and on a thread
// outside METIS, GKlib's handler jumps through a buffer that thread never
// set. A handler of ours would be replaced during each METIS call.
//
// So both signals are blocked in every thread (threads inherit the mask) and
// one thread takes them with sigwait, which no disposition affects: it ends
// the process groups of the programs the command started (SIGTERM, SIGKILL
// after a grace period of 5 s) and removes its temporary files
// (base/leftovers.h), writes one line ("rankmap: map: stopped by SIGTERM") and
// ends the process with status 128 + the signal's number, what a shell
// reports for a process the signal killed. Signals ignored when the command starts (a background
// job's SIGINT) stay ignored. Child processes (smpirun for simulate) get the
// original mask back after fork, so they stay stoppable.
//
//   int main(...) { ...; cli::StopOnSignals("map"); return Run(...); }
#ifndef RANKMAP_CLI_STOP_SIGNALS_H_
#define RANKMAP_CLI_STOP_SIGNALS_H_

#include <string_view>

namespace rankmap::cli {

// Call once, before any thread starts. Not for commands that exec another
// program in this process (`bind`): the blocked mask would pass to it.
void StopOnSignals(std::string_view command);

}  // namespace rankmap::cli

#endif  // RANKMAP_CLI_STOP_SIGNALS_H_
