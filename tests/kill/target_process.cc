#include "tests/kill/target_process.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "tests/testing/run.h"

namespace coreutils_testing {

TargetProcess StartTarget(const std::vector<std::string>& args) {
  TargetProcess target;
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return target;
  const std::string path = RunfilePath("tests/kill/signal_target");
  std::vector<char*> argv = {const_cast<char*>(path.c_str())};
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  target.pid = fork();
  if (target.pid == 0) {
    dup2(pipe_fds[1], 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  target.out = pipe_fds[0];
  if (target.pid > 0 && NextLine(target) != "ready") Stop(&target);
  return target;
}

std::string NextLine(const TargetProcess& target) {
  std::string line;
  for (;;) {
    pollfd readable = {target.out, POLLIN, 0};
    if (poll(&readable, 1, 10000) <= 0) return "";
    char c;
    if (read(target.out, &c, 1) != 1) return "";
    if (c == '\n') return line;
    line += c;
  }
}

bool HasEnded(TargetProcess* target, int* signal) {
  int status = 0;
  if (waitpid(target->pid, &status, WNOHANG) != target->pid) return false;
  if (signal != nullptr) *signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  target->pid = -1;
  return true;
}

bool AwaitEnd(pid_t pid, int* status) {
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd >= 0) {  // Readable once the child has ended.
    pollfd ended = {pidfd, POLLIN, 0};
    int ready;
    do {
      ready = poll(&ended, 1, 10000);
    } while (ready < 0 && errno == EINTR);  // A signal to the test: wait again.
    close(pidfd);
    if (ready == 0) return false;
  }
  return waitpid(pid, status, 0) == pid;
}

pid_t FreePid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  if (pid > 0) waitpid(pid, nullptr, 0);
  return pid;
}

std::string FreePidOperand() {
  const pid_t pid = FreePid();
  return pid > 0 ? std::to_string(pid) : "no-free-pid";
}

int DeathSignal(TargetProcess* target) {
  int signal = -1, status = 0;
  if (target->pid > 0 && AwaitEnd(target->pid, &status)) {
    signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    target->pid = -1;
  }
  Stop(target);
  return signal;
}

void Stop(TargetProcess* target) {
  if (target->pid > 0) {
    kill(target->pid, SIGKILL);
    waitpid(target->pid, nullptr, 0);
    target->pid = -1;
  }
  if (target->out >= 0) close(target->out);
  target->out = -1;
}

unsigned long long PidfdInodeOf(pid_t pid) {  // NOLINT(runtime/int)
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) return 0;
  struct statfs fs;
  struct stat st;
  const bool pidfs = fstatfs(pidfd, &fs) == 0 && fs.f_type == 0x50494446 && fstat(pidfd, &st) == 0;
  close(pidfd);
  return pidfs ? st.st_ino : 0;
}

Options OpenFilesLimited(unsigned soft, unsigned hard) {
  Options limited;
  limited.before_exec = [soft, hard] {
    const rlimit limit = {soft, hard};
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(125);
  };
  return limited;
}

Options InAGroupOfItsOwn() {
  Options own;
  own.before_exec = [] {
    if (setsid() < 0) _exit(125);  // The forked child leads no group yet, so this cannot fail but for a bug.
  };
  return own;
}

namespace {

// In the process between the test and the namespace's PID 1: ends as `status` says that process ended.
[[noreturn]] void EndAs(int status) {
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  const int sig = WTERMSIG(status);
  signal(sig, SIG_DFL);  // The runner reset every disposition already; set again so that this kill ends us as it did.
  kill(getpid(), sig);
  _exit(128 + sig);  // Only for a signal whose default action is not to end a process.
}

}  // namespace

Options InAPidNamespaceOfItsOwn() {
  Options own;
  own.before_exec = [] {
    if (unshare(CLONE_NEWPID) != 0) _exit(125);
    const pid_t init = fork();  // The new namespace's PID 1: the binary under test, once the runner execs it.
    if (init < 0) _exit(125);
    if (init == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // The runner KILLs the process it forked if the case hangs: this goes too.
      if (setsid() < 0) _exit(125);      // So that `0` too reaches nothing outside.
      return;
    }
    int status;
    while (waitpid(init, &status, 0) < 0) {
      if (errno != EINTR) _exit(125);  // A signal the runner's child got does not end the wait.
    }
    EndAs(status);
  };
  return own;
}

std::vector<TargetProcess> StartTargets(int count, const std::vector<std::string>& args) {
  std::vector<TargetProcess> targets;
  for (int i = 0; i < count; ++i) {
    TargetProcess target = StartTarget(args);
    if (target.pid <= 0) break;
    targets.push_back(target);
  }
  return targets;
}

std::vector<std::string> WithPids(std::vector<std::string> argv, const std::vector<TargetProcess>& targets) {
  for (const TargetProcess& target : targets) argv.push_back(std::to_string(target.pid));
  return argv;
}

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

void DenyPidfdOpen() {
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),  // Another ABI's numbers: left alone.
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  // Unprivileged filters need no_new_privs; the filter is inherited across exec.
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) {
    _exit(125);
  }
}

}  // namespace coreutils_testing
