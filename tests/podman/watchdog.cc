#include "tests/podman/watchdog.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "tests/testing/run.h"

namespace podman_testing {
namespace {

using coreutils_testing::Now;
using coreutils_testing::ReadFile;

constexpr char kDone[] = "done";  // The line of a normal end.

// Reads the test's lines until "done" (a normal end: false) or EOF, the test process dead (true).
bool TestProcessDied(int read_fd, std::vector<std::string>* told) {
  std::string pending;
  for (;;) {
    char buf[4096];
    const ssize_t got = read(read_fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return true;
    pending.append(buf, got);
    for (size_t newline; (newline = pending.find('\n')) != std::string::npos; pending.erase(0, newline + 1)) {
      if (pending.compare(0, newline, kDone) == 0) return false;
      told->push_back(pending.substr(0, newline));
    }
  }
}

void WriteLine(int fd, std::string line) {
  line += '\n';
  for (size_t at = 0; at < line.size();) {  // Whole, unless the watchdog is gone.
    const ssize_t put = write(fd, line.data() + at, line.size() - at);
    if (put > 0) at += put;
    if (put < 0 && errno != EINTR) return;
  }
}

// The mount namespace of /proc/PID as "DEV:INODE"; "" once the process has exited (a zombie has none).
std::string MountNamespace(const std::string& pid) {
  struct stat st;
  if (stat(("/proc/" + pid + "/ns/mnt").c_str(), &st) != 0) return "";
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

// One pass over /proc: KILLs the processes of namespace `ns` not spared; what it killed.
std::vector<std::string> KillPass(const std::string& ns, const std::set<std::string>& spare) {
  std::vector<std::string> killed;
  DIR* proc = opendir("/proc");
  while (dirent* entry = proc != nullptr ? readdir(proc) : nullptr) {
    const pid_t pid = atoi(entry->d_name);
    if (pid <= 0 || pid == getpid() || MountNamespace(entry->d_name) != ns) continue;
    std::string comm = ReadFile(std::string("/proc/") + entry->d_name + "/comm");
    if (!comm.empty() && comm.back() == '\n') comm.pop_back();
    if (spare.count(comm) != 0) continue;
    if (kill(pid, SIGKILL) == 0) killed.push_back(std::to_string(pid) + " " + comm);
    while (waitpid(-1, nullptr, WNOHANG) > 0) {  // Ours, if any, reaped.
    }
  }
  if (proc != nullptr) closedir(proc);
  return killed;
}

}  // namespace

Watchdog StartWatchdog(const std::function<void(const std::vector<std::string>& told)>& cleanup) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return {};
  const pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return {};
  }
  if (pid > 0) {
    close(p[0]);
    return {pid, p[1]};  // Held open, unwritten, for the test process's life.
  }
  close(p[1]);
  setpgid(0, 0);             // Out of the test's process group, which Bazel's timeout signals.
  signal(SIGPIPE, SIG_IGN);  // Its stderr may be a pipe no one reads any more.
  std::vector<std::string> told;
  if (!TestProcessDied(p[0], &told)) _exit(0);
  fprintf(stderr, "podman watchdog %d: the test process died; removing what it made\n", getpid());
  cleanup(told);
  _exit(0);  // Not exit(): the test's atexit handlers and gtest's are not ours to run.
}

void Tell(const Watchdog& watchdog, const std::string& line) {
  if (watchdog.pid > 0) WriteLine(watchdog.fd, line);
}

void StopWatchdog(Watchdog* watchdog) {
  if (watchdog->pid <= 0) return;
  WriteLine(watchdog->fd, kDone);
  close(watchdog->fd);
  while (waitpid(watchdog->pid, nullptr, 0) < 0 && errno == EINTR) {
  }
  *watchdog = {};
}

std::vector<std::string> KillMountNamespace(const std::set<std::string>& spare, double seconds) {
  const std::string ns = MountNamespace("self");
  // Never the host's: only a namespace the test made for itself (engine.cc unshares before it starts the watchdog).
  if (ns.empty() || ns == MountNamespace("1")) return {};
  const double deadline = Now() + seconds;
  std::set<std::string> killed;  // (One that takes a while to exit is KILLed again.)
  for (;;) {
    const std::vector<std::string> pass = KillPass(ns, spare);
    killed.insert(pass.begin(), pass.end());
    if (pass.empty() || Now() > deadline) return {killed.begin(), killed.end()};
    const timespec tick = {0, 20 * 1000 * 1000};  // The KILLed leave the namespace as they exit.
    nanosleep(&tick, nullptr);
  }
}

}  // namespace podman_testing
