#include "tests/testing/ptrace.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

std::string Errno(const char* what) { return std::string(what) + ": " + strerror(errno); }

std::string Hex(uint64_t n) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(n));
  return buf;
}

// If the system call stopped at its entry makes a process (not a thread), its name and flags; else "".
std::string SpawnCall(pid_t pid, const __ptrace_syscall_info& info) {
  const uint64_t nr = info.entry.nr;
#ifdef SYS_vfork
  if (nr == SYS_vfork) return "vfork";
#endif
#ifdef SYS_fork
  if (nr == SYS_fork) return "fork";
#endif
  if (nr == SYS_clone) {
    const uint64_t flags = info.entry.args[0];
    return flags & CLONE_THREAD ? "" : "clone(flags " + Hex(flags) + ")";
  }
#ifdef SYS_clone3
  if (nr == SYS_clone3) {
    // struct clone_args begins with its 64-bit flags.
    errno = 0;
    const long flags = ptrace(PTRACE_PEEKDATA, pid, reinterpret_cast<void*>(info.entry.args[0]), nullptr);
    if (errno != 0) return "clone3(flags unreadable)";
    return flags & CLONE_THREAD ? "" : "clone3(flags " + Hex(static_cast<uint64_t>(flags)) + ")";
  }
#endif
  return "";
}

}  // namespace

bool WaitForStateChange(pid_t pid, double deadline, int* wstatus) {
  for (int pause = 50;; pause = pause < 5000 ? pause * 2 : pause) {
    const pid_t got = waitpid(pid, wstatus, __WALL | WNOHANG);
    if (got == pid) return true;
    if (got < 0 && errno != EINTR) return false;
    if (Now() >= deadline) return false;
    usleep(pause);
  }
}

std::string SignalAtSpawn(pid_t pid, int sig, Spawned* spawned) {
  // EXITKILL: a test that dies leaves no stopped tracee behind. TRACEEXEC: a later exec (GNU's wrapper script execs
  // ld.so) is an event stop, not a SIGTRAP to deliver.
  if (ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL) != 0) {
    return Errno("PTRACE_SETOPTIONS");
  }
  Spawned seen;
  bool signalled = false;  // At the spawn's entry, `sig` sent: the next system call stop is its exit.
  int deliver = 0;         // A signal the tracee got on the way, handed back to it with the next resume.
  for (const double deadline = Now() + 10;;) {
    if (ptrace(PTRACE_SYSCALL, pid, nullptr, reinterpret_cast<void*>(static_cast<long>(deliver))) != 0) {
      return Errno("PTRACE_SYSCALL");
    }
    deliver = 0;
    int wstatus;
    if (!WaitForStateChange(pid, deadline, &wstatus)) {
      return signalled ? "its " + seen.call + " never returned" : "no process-creating system call within 10 s";
    }
    if (!WIFSTOPPED(wstatus)) {
      return "it ended (wait status " + std::to_string(wstatus) + ") before " +
             (signalled ? "its " + seen.call + " returned" : std::string("making a process"));
    }
    const int stop = WSTOPSIG(wstatus);
    if (stop != (SIGTRAP | 0x80)) {
      if (wstatus >> 16 == 0) deliver = stop;  // A signal-delivery stop; event stops (an exec) deliver nothing.
      continue;
    }
    __ptrace_syscall_info info;
    if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, reinterpret_cast<void*>(sizeof info), &info) <= 0) {
      return Errno("PTRACE_GET_SYSCALL_INFO");
    }
    if (signalled) {
      if (info.op != PTRACE_SYSCALL_INFO_EXIT) return "no return from its " + seen.call;
      seen.result = info.exit.rval;
      if (spawned != nullptr) *spawned = seen;
      if (ptrace(PTRACE_DETACH, pid, nullptr, nullptr) != 0) return Errno("PTRACE_DETACH");
      return "";
    }
    if (info.op != PTRACE_SYSCALL_INFO_ENTRY) continue;
    seen.call = SpawnCall(pid, info);
    if (seen.call.empty()) continue;
    // Queued while the tracee is stopped: it makes the call with `sig` pending (or, unblocked, acts on it first).
    if (kill(pid, sig) != 0) return Errno("kill");
    signalled = true;
  }
}

TracedResult RunSignalledAtSpawn(const std::string& path, const std::vector<std::string>& argv, int sig,
                                 double limit_seconds) {
  TracedResult result;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    result.error = Errno("pipe");
    return result;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    result.error = Errno("pipe");
    close(out[0]);
    close(out[1]);
    return result;
  }
  std::vector<std::string> env = {"LC_ALL=C"};
  const char* path_env = getenv("PATH");
  env.push_back(std::string("PATH=") + (path_env ? path_env : "/usr/bin:/bin"));
  std::vector<char*> cargv, cenv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (const std::string& e : env) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);
  // The run's orphans come to us: a process that outlives the program is seen, however it then dies.
  int was_subreaper = 0;
  prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
    result.error = Errno("PR_SET_CHILD_SUBREAPER");
    return result;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    result.error = Errno("fork");
    if (!was_subreaper) prctl(PR_SET_CHILD_SUBREAPER, 0);
    return result;
  }
  if (pid == 0) {
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    setpgid(0, 0);  // Its own group: whatever is left of it afterwards can be found and KILLed.
    for (int s = 1; s < NSIG; ++s) signal(s, SIG_DFL);
    const uint64_t none = 0;  // The system call itself: glibc's sigprocmask leaves its own 32 and 33 as they were.
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, nullptr, sizeof none);
    const int null = open("/dev/null", O_RDONLY);
    dup2(null, 0);
    if (null > 2) close(null);  // Only 0: the program sees no descriptor the test opened.
    dup2(out[1], 1);
    dup2(err[1], 2);
    if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) _exit(200);
    execve(path.c_str(), cargv.data(), cenv.data());  // Stops with SIGTRAP once the new image is in place.
    _exit(201);
  }
  close(out[1]);
  close(err[1]);
  int wstatus;
  if (!WaitForStateChange(pid, Now() + 10, &wstatus) || !WIFSTOPPED(wstatus)) {
    result.error = "it never stopped at its exec (" + path + ")";
  } else {
    result.error = SignalAtSpawn(pid, sig, &result.spawned);
  }
  const double start = Now();
  const bool exited = result.error.empty() && WaitForStateChange(pid, start + limit_seconds, &wstatus);
  result.seconds = Now() - start;
  if (!exited) {
    kill(-pid, SIGKILL);  // Hung (status -1): it and everything of its group.
    kill(pid, SIGKILL);
    waitpid(pid, &wstatus, __WALL);
  } else if (WIFEXITED(wstatus)) {
    result.status = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    result.signal = WTERMSIG(wstatus);
    result.status = 128 + result.signal;
  }
  // A process it made and did not reap before it ended is ours now (the subreaper), running or a zombie.
  for (const double deadline = Now() + 10;;) {
    const pid_t got = waitpid(-1, &wstatus, __WALL | WNOHANG);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;  // ECHILD: nothing left.
    result.left_behind = result.left_behind || exited;
    if (got == 0) {
      kill(-pid, SIGKILL);  // Still running: KILLed, then reaped.
      if (Now() >= deadline) break;
      usleep(1000);
    }
  }
  if (!was_subreaper) prctl(PR_SET_CHILD_SUBREAPER, 0);
  for (int i = 0; i < 2; ++i) {
    const int fd = i == 0 ? out[0] : err[0];
    fcntl(fd, F_SETFL, O_NONBLOCK);  // A process left behind may hold the write end: take what is there.
    char buf[4096];
    for (ssize_t got; (got = read(fd, buf, sizeof buf)) > 0;) (i == 0 ? result.out : result.err).append(buf, got);
    close(fd);
  }
  return result;
}

std::string PtraceUnavailable() {
  static const std::string* reason = [] {
    const pid_t pid = fork();
    if (pid < 0) return new std::string(Errno("fork"));
    if (pid == 0) {
      if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) _exit(1);
      raise(SIGSTOP);
      _exit(0);
    }
    int wstatus;
    std::string* why = new std::string();
    if (!WaitForStateChange(pid, Now() + 10, &wstatus)) {
      *why = "a traced child never stopped";
    } else if (!WIFSTOPPED(wstatus)) {
      *why = "PTRACE_TRACEME failed (seccomp, or no permission to trace)";
    } else if (ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACESYSGOOD) != 0) {
      *why = Errno("PTRACE_SETOPTIONS");
    }
    kill(pid, SIGKILL);
    waitpid(pid, &wstatus, __WALL);
    return why;
  }();
  return *reason;
}

}  // namespace coreutils_testing
