#include "cli/stop_signals.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>

#include "base/leftovers.h"

namespace rankmap::cli {
namespace {

sigset_t original_mask;

// How long the children get to end after SIGTERM (srun relays it to the
// step's tasks, mpirun to its daemons) before SIGKILL.
constexpr double kGraceSeconds = 5;

void RestoreMaskInChild() {
  pthread_sigmask(SIG_SETMASK, &original_mask, nullptr);
}

[[noreturn]] void WaitAndStop(sigset_t stop, std::string command) {
  int sig = 0;
  while (sigwait(&stop, &sig) != 0) {
  }
  base::StopChildrenAndRemoveTemporaries(kGraceSeconds);
  char line[256];
  const int n =
      std::snprintf(line, sizeof line, "rankmap: %s: stopped by %s\n",
                    command.c_str(), sig == SIGTERM ? "SIGTERM" : "SIGINT");
  if (n > 0) {
    [[maybe_unused]] const ssize_t w = write(STDERR_FILENO, line, n);
  }
  _exit(128 + sig);
}

}  // namespace

void StopOnSignals(std::string_view command) {
  sigset_t stop;
  sigemptyset(&stop);
  for (const int sig : {SIGTERM, SIGINT}) {
    struct sigaction current;
    if (sigaction(sig, nullptr, &current) == 0 &&
        current.sa_handler != SIG_IGN) {
      sigaddset(&stop, sig);
    }
  }
  if (sigisemptyset(&stop)) return;
  if (pthread_sigmask(SIG_BLOCK, &stop, &original_mask) != 0) return;
  pthread_atfork(nullptr, nullptr, RestoreMaskInChild);
  std::thread(WaitAndStop, stop, std::string(command)).detach();
}

}  // namespace rankmap::cli
