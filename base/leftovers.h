// What a stopped command must not leave behind: the process groups of the
// programs it started (a launcher and its ranks, smpirun and smpimain) and
// the temporary files and directories it made. RunSubprocess
// (base/subprocess.h) starts every child in a group of its own and registers
// it while it runs; TempDir (base/temp_dir.h) and FileBatch
// (base/file_batch.h) register their paths while they live. The command's
// stop (cli/stop_signals.h) calls StopChildrenAndRemoveTemporaries before it
// exits.
//
//   pid_t pid = ForkRegistered();   // the child is in the registry at once
//   if (pid == 0) { setpgid(0, 0); execvp(...); }
//   ... waitpid(pid, ...); ForgetChildGroup(pid);
//
// Thread-safe. A stop is final: afterwards no child is started
// (ForkRegistered fails) and StopRequested() is true.
#ifndef RANKMAP_BASE_LEFTOVERS_H_
#define RANKMAP_BASE_LEFTOVERS_H_

#include <sys/types.h>

#include <string>

namespace rankmap::base {

// fork() with the registry held, so that a stop either sees the child's
// group or came first (then nothing is forked: -1 with errno ECANCELED). In
// the parent the child is made leader of its own group (setpgid; the child
// must call setpgid(0, 0) too, whichever runs first) and registered. Returns
// as fork() does.
pid_t ForkRegistered();

// The group `leader` leads has ended (its leader was waited for).
void ForgetChildGroup(pid_t leader);

// A temporary file or directory, removed (recursively) by a stop; forgotten
// once its owner removed or kept it.
void RegisterTemporary(const std::string& path);
void ForgetTemporary(const std::string& path);

// Removes `path` and, for a directory, everything under it (symbolic links
// are removed, never followed). Errors are ignored: what is gone is gone.
void RemovePath(const std::string& path);

// SIGTERM to every registered group, then SIGKILL to the groups that still
// have a process after `grace_seconds`, then removes every registered
// temporary. Returns the number of groups that needed SIGKILL. Afterwards
// StopRequested() is true, and a RunSubprocess waiting for its child never
// returns (the caller is about to end the process).
int StopChildrenAndRemoveTemporaries(double grace_seconds);

bool StopRequested();

}  // namespace rankmap::base

#endif  // RANKMAP_BASE_LEFTOVERS_H_
