#include "uucore/process_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace uucore {
namespace {

// Reads a small /proc file whole; empty when it cannot be read (the process has gone).
std::string ReadSmallFile(const std::string& path) {
  std::string text;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;  // Interrupted before reading anything; read again.
    break;
  }
  close(fd);
  return text;
}

struct Stat {
  pid_t ppid = 0;
  char state = '?';
  long threads = 1;
  unsigned long long start_time = 0;  // clock ticks after boot: with the pid, names one process for good
  // A process whose main thread has exited shows 'Z' while its other threads run: it is alive.
  bool live() const { return state != 'Z' || threads > 1; }
};

// /proc/PID/stat's state, PPid, thread count and start time. The command name may hold spaces and ')': the fields
// start after the last ')'.
std::optional<Stat> ReadStat(pid_t pid) {
  const std::string text = ReadSmallFile(absl::StrCat("/proc/", pid, "/stat"));
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos || paren + 4 >= text.size()) return std::nullopt;
  // Field n (1-based, as in proc(5)); field 3, the state, starts two characters after the ')'. Empty if missing.
  const auto field = [&text, paren](int n) -> const char* {
    size_t at = paren + 2;
    for (int i = 3; i < n && at != std::string::npos; ++i) at = text.find(' ', at + 1);
    return at == std::string::npos ? "" : text.c_str() + at + (n > 3);
  };
  Stat stat;
  stat.state = *field(3);
  stat.ppid = static_cast<pid_t>(strtol(field(4), nullptr, 10));
  stat.threads = strtol(field(20), nullptr, 10);
  stat.start_time = strtoull(field(22), nullptr, 10);
  return stat;
}

// The numeric entries of a /proc directory (processes in /proc, threads in /proc/PID/task).
std::vector<pid_t> NumericEntries(const std::string& dir_path) {
  std::vector<pid_t> ids;
  DIR* dir = opendir(dir_path.c_str());
  if (dir == nullptr) return ids;
  while (const dirent* entry = readdir(dir)) {
    int id;
    if (absl::SimpleAtoi(entry->d_name, &id) && id > 0) ids.push_back(id);
  }
  closedir(dir);
  return ids;
}

std::vector<pid_t> ChildrenFromFiles(pid_t pid) {
  std::vector<pid_t> children;
  for (pid_t tid : NumericEntries(absl::StrCat("/proc/", pid, "/task"))) {
    const std::string text = ReadSmallFile(absl::StrCat("/proc/", pid, "/task/", tid, "/children"));
    for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
      int child;
      if (absl::SimpleAtoi(word, &child)) children.push_back(child);
    }
  }
  return children;
}

absl::StatusOr<std::vector<pid_t>> ListByChildrenFiles(pid_t root) {
  std::vector<pid_t> found;
  std::vector<pid_t> next = {root};
  while (!next.empty()) {  // Breadth first: parents before children.
    std::vector<pid_t> level;
    for (pid_t pid : next) {
      for (pid_t child : ChildrenFromFiles(pid)) level.push_back(child);
    }
    for (pid_t pid : level) {
      const std::optional<Stat> stat = ReadStat(pid);
      if (stat.has_value() && stat->live()) found.push_back(pid);
    }
    next = std::move(level);
  }
  return found;
}

absl::StatusOr<std::vector<pid_t>> ListByProcScan(pid_t root) {
  DIR* probe = opendir("/proc");
  if (probe == nullptr) return absl::ErrnoToStatus(errno, "opendir /proc");
  closedir(probe);
  // ppid -> (pid, zombie). Zombies stay in the map as links: the scan is not a snapshot, so a child read while its
  // parent was alive (after a pid wrap, a child can come before its parent in /proc order) keeps that parent as
  // its ppid even if the parent is a zombie by the time the scan reaches it. Dropping zombies cut such children,
  // still alive, out of the tree; SignalDescendants() then missed them.
  std::multimap<pid_t, std::pair<pid_t, bool>> children;
  for (pid_t pid : NumericEntries("/proc")) {
    const std::optional<Stat> stat = ReadStat(pid);
    if (stat.has_value()) children.emplace(stat->ppid, std::make_pair(pid, !stat->live()));
  }
  std::vector<pid_t> found;
  std::vector<pid_t> next = {root};
  while (!next.empty()) {
    std::vector<pid_t> level;
    for (pid_t pid : next) {
      const auto range = children.equal_range(pid);
      for (auto it = range.first; it != range.second; ++it) {
        level.push_back(it->second.first);
        if (!it->second.second) found.push_back(it->second.first);  // Live ones only are reported.
      }
    }
    next = std::move(level);
  }
  return found;
}

int PidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  errno = ENOSYS;
  return -1;
#endif
}

// A descendant being signalled: its pidfd, or -1 to fall back to kill() by pid.
struct Target {
  pid_t pid;
  int pidfd;
};

void SendTo(const Target& target, int sig) {
#ifdef SYS_pidfd_send_signal
  if (target.pidfd >= 0) {
    // Errors ignored: ESRCH means it has exited (the pidfd never reaches a process that reused the pid).
    (void)syscall(SYS_pidfd_send_signal, target.pidfd, sig, nullptr, 0);
    return;
  }
#endif
  (void)kill(target.pid, sig);
}

}  // namespace

absl::Status BecomeSubreaper() {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) return absl::ErrnoToStatus(errno, "prctl");
  return absl::OkStatus();
}

bool HasChildrenFiles() {
  return access(absl::StrCat("/proc/self/task/", getpid(), "/children").c_str(), R_OK) == 0;
}

absl::StatusOr<std::vector<pid_t>> ListDescendants(pid_t root, Enumeration how) {
  if (how == Enumeration::kAuto) how = HasChildrenFiles() ? Enumeration::kChildrenFiles : Enumeration::kProcScan;
  if (how == Enumeration::kChildrenFiles) {
    if (!HasChildrenFiles()) return absl::NotFoundError("no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)");
    return ListByChildrenFiles(root);
  }
  return ListByProcScan(root);
}

absl::StatusOr<int> SignalDescendants(pid_t root, int sig, Enumeration how) {
  if (sig == 0) return 0;
  // Freeze unless the signal itself stops all forking (KILL), or is the freeze (STOP).
  const bool freeze = sig != SIGKILL && sig != SIGSTOP;
  const int first = freeze ? SIGSTOP : sig;
  std::vector<Target> targets;
  // Who has been signalled, by (pid, start time): a process killed here can be reaped at once by a parent still
  // in wait(), and its pid given to a new process of the tree (pids wrap); by pid alone, that one went unsignalled.
  std::set<std::pair<pid_t, unsigned long long>> seen;
  // Whether some process with this pid was signalled: its children are accepted as part of the tree.
  const auto signalled_pid = [&seen](pid_t pid) {
    const auto it = seen.lower_bound({pid, 0});
    return it != seen.end() && it->first == pid;
  };
  absl::Status status = absl::OkStatus();
  std::set<pid_t> previous_tree;
  // Until a pass finds nobody new and lists what the pass before listed: everyone found so far is frozen (or dead)
  // and cannot fork, and nobody left the tree during the listing. A parent that exits while the listing runs can
  // hide a child read before it (after a pid wrap) with the parent's pid, reparented only later; the next pass
  // lists that child under its new parent.
  for (;;) {
    absl::StatusOr<std::vector<pid_t>> listed = ListDescendants(root, how);
    if (!listed.ok()) {
      status = listed.status();
      break;
    }
    std::set<pid_t> tree(listed->begin(), listed->end());
    bool found_new = false;
    for (pid_t pid : *listed) {
      const int pidfd = PidfdOpen(pid);
      if (pidfd < 0 && errno == ESRCH) continue;  // Exited (and reaped) since the listing.
      // Checked after opening: if the pid now names a stranger, its parent is outside the tree.
      const std::optional<Stat> stat = ReadStat(pid);
#ifdef SYS_pidfd_send_signal
      // Still alive after the read: the stat is the pidfd's process, not a newer one that reused the pid.
      if (pidfd >= 0 && syscall(SYS_pidfd_send_signal, pidfd, 0, nullptr, 0) != 0 && errno == ESRCH) {
        close(pidfd);
        found_new = true;  // It exited; whoever took its pid is looked at in the next pass.
        continue;
      }
#endif
      if (!stat.has_value() || seen.count({pid, stat->start_time}) != 0 ||
          (stat->ppid != root && tree.count(stat->ppid) == 0 && !signalled_pid(stat->ppid))) {
        if (pidfd >= 0) close(pidfd);
        continue;
      }
      seen.insert({pid, stat->start_time});
      targets.push_back({pid, pidfd});
      SendTo(targets.back(), first);
      found_new = true;
    }
    if (!found_new && tree == previous_tree) break;
    previous_tree = std::move(tree);
  }
  if (freeze) {
    for (const Target& target : targets) SendTo(target, sig);
    // A stopped process acts on the signal only once continued.
    if (sig != SIGCONT) {
      for (const Target& target : targets) SendTo(target, SIGCONT);
    }
  }
  for (const Target& target : targets) {
    if (target.pidfd >= 0) close(target.pidfd);
  }
  if (!status.ok() && targets.empty()) return status;
  return static_cast<int>(targets.size());
}

absl::StatusOr<Reaped> ReapChildren(pid_t watched) {
  Reaped reaped;
  for (;;) {
    int wait_status;
    const pid_t pid = waitpid(-1, &wait_status, WNOHANG);
    if (pid > 0) {
      if (pid == watched) {
        reaped.watched = wait_status;
      } else {
        ++reaped.others;
      }
      continue;  // SIGCHLD does not queue: look for more.
    }
    if (pid == 0) {
      reaped.children_left = true;
      return reaped;
    }
    if (errno == EINTR) continue;  // Interrupted before looking; look again.
    if (errno == ECHILD) return reaped;
    return absl::ErrnoToStatus(errno, "waitpid");
  }
}

}  // namespace uucore
