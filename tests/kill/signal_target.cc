// signal_target [--catch SIG]... [--ignore SIG]... [--block SIG]... [--exit-on SIG] [--threads N] -- a process for
// kill's tests to signal, which says what it got.
//
// It starts from default dispositions and an empty mask (glibc's own 32 and 33 included, whatever the test runner
// left), then, for each SIG (a number):
//   --ignore SIG   SIG_IGN;
//   --catch SIG    a handler that does nothing is installed (so /proc/PID/status's SigCgt shows it) and SIG is
//                  blocked; each SIG that comes is read from a signalfd (which leaves the mask as it is, where
//                  sigwaitinfo would unblock SIG while it waits) and written to stdout as one line
//                  "SIG CODE VALUE": CODE SI_USER, SI_QUEUE or si_code's number, VALUE si_value.sival_int for
//                  SI_QUEUE, else "-";
//   --block SIG    blocked, so that it stays pending;
//   --exit-on SIG  (one of the caught) exit 0 once it is written.
//   --threads N    N more threads, which wait for ever; each writes "thread TID" after "ready".
// Writes "ready\n" to stdout once all that is in place, then waits for ever (or until --exit-on's signal).
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

void Nothing(int) {}

// SIG_DFL or SIG_IGN through the kernel's rt_sigaction, which also takes glibc's own 32 and 33 (glibc's sigaction
// refuses them).
void SetDisposition(int sig, void (*disposition)(int)) {
  struct KernelSigaction {
    void (*handler)(int);
    unsigned long flags;  // NOLINT(runtime/int): the kernel's layout.
    void (*restorer)();
    uint64_t mask;
  } action = {disposition, 0, nullptr, 0};
  syscall(SYS_rt_sigaction, sig, &action, nullptr, sizeof(uint64_t));
}

const char* CodeName(int code) {
  static char number[16];
  if (code == SI_USER) return "SI_USER";
  if (code == SI_QUEUE) return "SI_QUEUE";
  snprintf(number, sizeof number, "%d", code);
  return number;
}

void* SayTidAndWait(void*) {
  printf("thread %ld\n", static_cast<long>(syscall(SYS_gettid)));  // NOLINT(runtime/int): syscall's type.
  fflush(stdout);
  for (;;) pause();
}

}  // namespace

int main(int argc, char** argv) {
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) SetDisposition(sig, SIG_DFL);
  }
  sigset_t caught, blocked;
  sigemptyset(&caught);
  sigemptyset(&blocked);
  int exit_on = 0, threads = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const int sig = atoi(argv[i + 1]);
    if (strcmp(argv[i], "--ignore") == 0) {
      SetDisposition(sig, SIG_IGN);
    } else if (strcmp(argv[i], "--catch") == 0) {
      struct sigaction action;
      memset(&action, 0, sizeof action);
      action.sa_handler = Nothing;
      sigaction(sig, &action, nullptr);
      sigaddset(&caught, sig);
      sigaddset(&blocked, sig);
    } else if (strcmp(argv[i], "--block") == 0) {
      sigaddset(&blocked, sig);
    } else if (strcmp(argv[i], "--exit-on") == 0) {
      exit_on = sig;
    } else if (strcmp(argv[i], "--threads") == 0) {
      threads = sig;
    } else {
      fprintf(stderr, "signal_target: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  sigprocmask(SIG_SETMASK, &blocked, nullptr);
  const int signals = sigisemptyset(&caught) ? -1 : signalfd(-1, &caught, SFD_CLOEXEC);
  printf("ready\n");
  fflush(stdout);
  for (int i = 0; i < threads; ++i) {
    pthread_t thread;
    // Started after "ready", under the mask above; each says its id, then waits.
    pthread_create(&thread, nullptr, SayTidAndWait, nullptr);
  }
  for (;;) {
    signalfd_siginfo info;
    if (signals < 0) {
      pause();
      continue;
    }
    if (read(signals, &info, sizeof info) != sizeof info) continue;  // EINTR: a stop and continue.
    const int sig = static_cast<int>(info.ssi_signo), code = info.ssi_code;
    if (code == SI_QUEUE) {
      printf("%d %s %d\n", sig, CodeName(code), info.ssi_int);
    } else {
      printf("%d %s -\n", sig, CodeName(code));
    }
    fflush(stdout);
    if (sig == exit_on) return 0;
  }
}
