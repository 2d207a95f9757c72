#include "tests/testing/run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"

extern char** environ;

namespace coreutils_testing {
double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

namespace {

[[noreturn]] void ChildFail(const char* what) {
  // Visible in the test's captured stderr; 200 is no status any utility uses.
  dprintf(2, "test runner: %s: %s\n", what, strerror(errno));
  _exit(200);
}

void MoveTo(int fd, int target) {
  if (fd == target) {
    fcntl(fd, F_SETFD, 0);
  } else if (dup2(fd, target) < 0) {
    ChildFail("dup2");
  }
}

// In a child before exec: a clean slate, whatever gtest or Bazel gave us: default dispositions, nothing blocked.
void ResetSignals() {
  for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
  // glibc's signal() refuses its own 32 and 33, which Bazel's process wrapper may hand down ignored.
  for (int sig : {32, 33}) {
    struct KernelSigaction {
      void (*handler)(int);
      unsigned long flags;
      void (*restorer)();
      uint64_t mask;
    } dfl = {SIG_DFL, 0, nullptr, 0};
    syscall(SYS_rt_sigaction, sig, &dfl, nullptr, sizeof dfl.mask);
  }
  const uint64_t none = 0;  // The system call itself: glibc's sigprocmask leaves 32 and 33 as they were.
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, nullptr, sizeof none);
}

// The child's environment: LC_ALL=C, PATH, TEST_TMPDIR and HOME, then options.env (or options.env alone).
std::vector<std::string> ChildEnvironment(const Options& options) {
  std::vector<std::string> env;
  if (!options.clear_env) {
    // LC_ALL=C unless the case sets its own (the first of two entries would win in getenv).
    bool own_lc_all = false;
    for (const std::string& e : options.env) own_lc_all = own_lc_all || e.rfind("LC_ALL=", 0) == 0;
    if (!own_lc_all) env.push_back("LC_ALL=C");
    const char* path_env = getenv("PATH");
    env.push_back(std::string("PATH=") + (path_env ? path_env : "/usr/bin:/bin"));
    for (const char* name : {"TEST_TMPDIR", "HOME"}) {
      if (const char* v = getenv(name)) env.push_back(std::string(name) + "=" + v);
    }
  }
  env.insert(env.end(), options.env.begin(), options.env.end());
  return env;
}

// Waits for `pid` to end, until `deadline` (Now()'s clock): on a pidfd, so the end is seen at once (else in steps of
// 5 ms). Past the deadline it KILLs the program and the process group it leads (timeout leads one: the command and
// its children with it), sets *hung, and reaps it. Returns waitpid's result.
pid_t AwaitEnd(pid_t pid, double deadline, int* wait_status, bool* hung) {
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  const timespec step = {0, 5 * 1000 * 1000};
  pid_t got;
  while ((got = waitpid(pid, wait_status, WNOHANG)) == 0 && Now() < deadline) {
    if (pidfd < 0) {
      nanosleep(&step, nullptr);
      continue;
    }
    pollfd p = {pidfd, POLLIN, 0};
    (void)poll(&p, 1, static_cast<int>((deadline - Now()) * 1000) + 1);  // Readable once it has ended.
  }
  if (pidfd >= 0) close(pidfd);
  if (got != 0) return got;
  *hung = true;
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  while ((got = waitpid(pid, wait_status, 0)) < 0 && errno == EINTR) {
  }
  return got;
}

// How a process with `wait_status` ended: its status (128 + N when killed by signal N) and that signal.
void SetEnding(int wait_status, Result* result) {
  if (WIFSIGNALED(wait_status)) {
    result->signal = WTERMSIG(wait_status);
    result->status = 128 + result->signal;
  } else {
    result->status = WEXITSTATUS(wait_status);
  }
}

}  // namespace

std::string RunfilePath(const std::string& path) {
  if (const char* srcdir = getenv("TEST_SRCDIR")) {  // bazel test
    const char* workspace = getenv("TEST_WORKSPACE");
    return std::string(srcdir) + "/" + (workspace ? workspace : "coreutils") + "/" + path;
  }
  if (const char* dir = getenv("RUNFILES_DIR")) return std::string(dir) + "/coreutils/" + path;  // bazel run
  // Run by hand (bazel-bin/tests/...): the runfiles tree beside the executable, from any directory.
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    const std::string beside = std::string(self) + ".runfiles/coreutils/" + path;
    if (access(beside.c_str(), F_OK) == 0) return beside;
  }
  return "bazel-bin/" + path;
}

std::string BinaryPath() {
  // Another build of the binary (tools/qemu-test: the aarch64 release binary, run through qemu-user).
  if (const char* other = getenv("COREUTILS_TEST_BINARY"); other != nullptr && *other != '\0') return other;
  return RunfilePath("utils/coreutils/coreutils");
}

Result SignalOnceStarted(const std::vector<std::string>& argv, const std::string& started, int sig,
                         double limit_seconds, const std::vector<std::string>& launcher) {
  std::vector<std::string> words = launcher;
  words.push_back(BinaryPath());
  words.insert(words.end(), argv.begin(), argv.end());
  std::vector<char*> exec_argv, exec_env;
  for (std::string& word : words) exec_argv.push_back(word.data());
  exec_argv.push_back(nullptr);
  std::vector<std::string> env = ChildEnvironment(Options());
  for (std::string& entry : env) exec_env.push_back(entry.data());
  exec_env.push_back(nullptr);
  const std::string err_path = MakeTempDir() + "/stderr";
  Result result;
  const double start = Now();
  const pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << strerror(errno);
    return result;
  }
  if (pid == 0) {
    ResetSignals();
    const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (null < 0 || err < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0) ChildFail("open");
    execve(exec_argv[0], exec_argv.data(), exec_env.data());
    ChildFail("execve");
  }
  // Polls, in steps of 10 ms: a test helper, not the code under test.
  const timespec step = {0, 10 * 1000 * 1000};
  int status = 0;
  pid_t got = 0;
  while (access(started.c_str(), F_OK) != 0 && Now() - start < limit_seconds) {
    got = waitpid(pid, &status, WNOHANG);
    if (got != 0) break;  // Ended (or cannot be waited for) before its command started.
    nanosleep(&step, nullptr);
  }
  if (got == 0) {
    if (access(started.c_str(), F_OK) != 0) ADD_FAILURE() << started << " did not appear";
    kill(pid, sig);
    got = AwaitEnd(pid, start + limit_seconds, &status, &result.hung);
  } else {
    ADD_FAILURE() << exec_argv[0] << " ended before " << started << " appeared";
  }
  if (got < 0) ADD_FAILURE() << "waitpid: " << strerror(errno);
  result.seconds = Now() - start;
  SetEnding(status, &result);
  result.err = ReadFile(err_path);
  return result;
}

Result Invoke(const std::vector<std::string>& argv, const Options& options) {
  return RunProgram(BinaryPath(), argv, options);
}

Result RunProgram(const std::string& path, const std::vector<std::string>& argv, const Options& options) {
  Result result;
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe: " << strerror(errno);
    return result;
  }
  const std::vector<std::string> env_strings = ChildEnvironment(options);
  std::vector<char*> cargv, cenv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (const std::string& e : env_strings) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);

  const double start = Now();
  pid_t pid = fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << strerror(errno);
    return result;
  }
  if (pid == 0) {
    ResetSignals();
    MoveTo(in[0], 0);
    if (!options.stdout_path.empty()) {
      int fd = open(options.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) ChildFail("open stdout_path");
      MoveTo(fd, 1);
    } else {
      MoveTo(out[1], 1);
    }
    MoveTo(err[1], 2);
    if (options.close_stdin) close(0);
    if (options.close_stdout) close(1);
    if (options.close_stderr) close(2);
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) ChildFail("chdir");
    if (options.before_exec) options.before_exec();
    execve(path.c_str(), cargv.data(), cenv.data());
    ChildFail("execve");
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);

  // Feed stdin and drain stdout/stderr together, so no pipe fills and blocks the child.
  size_t written = 0;
  int in_fd = in[1];
  if (options.input.empty()) close(in_fd), in_fd = -1;
  else fcntl(in_fd, F_SETFL, O_NONBLOCK);
  int fds[2] = {out[0], err[0]};
  std::string* sinks[2] = {&result.out, &result.err};
  const double deadline = start + options.limit_seconds;
  while (fds[0] >= 0 || fds[1] >= 0 || in_fd >= 0) {
    pollfd p[3];
    int n = 0;
    for (int i = 0; i < 2; ++i) p[n++] = {fds[i], POLLIN, 0};
    p[n++] = {in_fd, POLLOUT, 0};
    const double left = deadline - Now();
    if (left <= 0) {
      result.hung = true;
      // The program and, if it made one (timeout does), its process group: no command outlives a hung run.
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      break;
    }
    int r = poll(p, n, static_cast<int>(left * 1000) + 1);
    if (r < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i] >= 0 && (p[i].revents & (POLLIN | POLLHUP | POLLERR))) {
        char buf[65536];
        ssize_t got = read(fds[i], buf, sizeof buf);
        if (got > 0) {
          sinks[i]->append(buf, got);
        } else if (got == 0 || errno != EINTR) {
          close(fds[i]);
          fds[i] = -1;
        }
      }
    }
    if (in_fd >= 0 && (p[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(in_fd, options.input.data() + written, options.input.size() - written);
      if (w > 0) written += w;
      if (w < 0 || written == options.input.size()) close(in_fd), in_fd = -1;
    }
  }
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
  if (in_fd >= 0) close(in_fd);
  int wstatus = 0;
  (void)AwaitEnd(pid, deadline, &wstatus, &result.hung);  // Bounded too: one that closed stdout and stderr may run on.
  result.seconds = Now() - start;
  SetEnding(wstatus, &result);
  return result;
}

void ExpectCase(const Case& c, const Options& options) {
  Result r = Invoke(c.argv, options);
  EXPECT_FALSE(r.hung) << c.name;
  EXPECT_EQ(r.status, c.status) << c.name;
  EXPECT_EQ(r.out, c.out) << c.name;
  EXPECT_EQ(r.err, c.err) << c.name;
}

std::string ReadFile(const std::string& path) {
  std::string content;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return content;
  char buf[65536];
  for (ssize_t got; (got = read(fd, buf, sizeof buf)) != 0;) {
    if (got > 0) {
      content.append(buf, got);
    } else if (errno != EINTR) {
      break;
    }
  }
  close(fd);
  return content;
}

std::string MakeTempDir() {
  const char* base = getenv("TEST_TMPDIR");
  std::string templ = std::string(base ? base : "/tmp") + "/dirXXXXXX";
  if (mkdtemp(templ.data()) == nullptr) ADD_FAILURE() << "mkdtemp: " << strerror(errno);
  return templ;
}

}  // namespace coreutils_testing
