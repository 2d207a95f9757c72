#include "tests/testing/pid_namespace.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace coreutils_testing {

std::string PidNamespaceUnavailable() {
  static const std::string* reason = [] {
    if (geteuid() != 0) return new std::string("needs root to make a PID namespace");
    // The child is the new namespace's PID 1; it exits at once.
    const long pid = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, nullptr, nullptr, nullptr, nullptr);
    if (pid == 0) _exit(0);
    if (pid < 0) return new std::string(std::string("clone(CLONE_NEWPID): ") + strerror(errno));
    while (waitpid(static_cast<pid_t>(pid), nullptr, 0) < 0 && errno == EINTR) {  // A signal does not end the wait.
    }
    return new std::string();
  }();
  return *reason;
}

}  // namespace coreutils_testing
