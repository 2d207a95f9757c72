#include "utils/timeout/ending.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"
#include "utils/timeout/supervisor.h"

namespace timeout {

void DieOf(int sig) {
  const rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // The command's core file, if any, is the one that matters.
  signal(sig, SIG_DFL);
  sigset_t just;
  sigemptyset(&just);
  uucore::AddSignal(&just, sig);
  // Blocked for waiting: let it act now (the raw call, so that glibc's own 32 and 33 are unblocked too).
  syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &just, nullptr, 8);
  raise(sig);
}

Ending EndingFor(int wait_status, const Monitor& monitor) {
  bool preserve = monitor.options.preserve_status;
  Ending ending{uucore::ExitStatusOf(wait_status)};
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    if (WCOREDUMP(wait_status)) uucore::Error(uucore::Format("the monitored command dumped core"));
    // Pass the command's death on to our caller; PID 1 cannot be killed by its own signal, so it exits instead.
    if (!monitor.timed_out && !monitor.pid1) ending.die_of = sig;
    if (monitor.timed_out && sig == SIGKILL) preserve = true;  // 137 tells the caller that KILL was needed.
  }
  if (monitor.timed_out && !preserve) ending.status = uucore::kExitTimedOut;
  return ending;
}

}  // namespace timeout
