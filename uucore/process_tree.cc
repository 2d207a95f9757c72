#include "uucore/process_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kcmp.h>
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
#include "absl/time/time.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"

namespace uucore {
namespace {

// Reads a small /proc file whole (relative to `dir_fd`, AT_FDCWD for an absolute path); empty when it cannot be
// read (the process has gone). `one_record`: the file is one line made at once (stat), so a read that does not fill
// the buffer has it all and the read that would return 0 is saved.
// Not uucore::ReadFileAt() (uucore/file.h), on purpose: the walk reads a stat per process per pass, and here a
// missing file is an answer (gone), not an error to build a Status for; `one_record` saves a read each time.
std::string ReadSmallFile(int dir_fd, const char* path, bool one_record = false) {
  std::string text;
  const int fd = openat(dir_fd, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, static_cast<size_t>(n));
      if (one_record && static_cast<size_t>(n) < sizeof buf) break;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;  // Interrupted before reading anything; read again.
    break;
  }
  close(fd);
  return text;
}

constexpr unsigned long kPfExiting = 0x4;  // PF_EXITING in /proc/PID/stat's flags: do_exit() has begun

struct Stat {
  pid_t ppid = 0;
  char state = '?';
  unsigned long flags = 0;  // the main thread's PF_* flags
  long threads = 1;
  unsigned long long start_time = 0;  // clock ticks after boot: with the pid, names one process for good
  // A process whose main thread has exited shows 'Z' while its other threads run: it is alive.
  bool live() const { return state != 'Z' && state != 'X' ? true : threads > 1; }
  // Whether the process may be handing its children up to a reaper: it has begun exiting (PF_EXITING is set early
  // in do_exit, before the children are reparented) or has exited. A main thread that exited on its own while
  // other threads run does not count: the children stay with those threads.
  bool exiting() const {
    if (!live()) return true;
    if (state == 'Z') return false;  // The main thread exited by itself; the others run on.
    return (flags & kPfExiting) != 0;
  }
};

// A /proc/PID/stat (or /proc/PID/task/TID/stat) file's state, PPid, thread count and start time. The command name
// may hold spaces and ')': the fields start after the last ')'.
std::optional<Stat> ReadStatFile(int proc_fd, const char* path) {
  const std::string text = ReadSmallFile(proc_fd, path, /*one_record=*/true);
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
  stat.flags = strtoul(field(9), nullptr, 10);
  stat.threads = strtol(field(20), nullptr, 10);
  stat.start_time = strtoull(field(22), nullptr, 10);
  return stat;
}

// /proc/PID/stat, relative to `proc_fd` (AT_FDCWD: from /).
std::optional<Stat> ReadStat(int proc_fd, pid_t pid) {
  char path[32];
  snprintf(path, sizeof path, proc_fd == AT_FDCWD ? "/proc/%d/stat" : "%d/stat", static_cast<int>(pid));
  return ReadStatFile(proc_fd, path);
}

std::optional<Stat> ReadStat(pid_t pid) { return ReadStat(AT_FDCWD, pid); }

// The numeric entries of a /proc directory (processes in /proc, threads in /proc/PID/task), relative to `dir_fd`.
std::vector<pid_t> NumericEntries(int dir_fd, const char* dir_path) {
  std::vector<pid_t> ids;
  const int fd = openat(dir_fd, dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* dir = fd < 0 ? nullptr : fdopendir(fd);
  if (dir == nullptr) {
    if (fd >= 0) close(fd);
    return ids;
  }
  while (const dirent* entry = readdir(dir)) {
    int id;
    if (absl::SimpleAtoi(entry->d_name, &id) && id > 0) ids.push_back(id);
  }
  closedir(dir);
  return ids;
}

std::vector<pid_t> NumericEntries(const std::string& dir_path) { return NumericEntries(AT_FDCWD, dir_path.c_str()); }

// /proc, opened once per call: paths below it are looked up from there, not from /.
class ProcDir {
 public:
  ProcDir() : fd_(open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {}
  ~ProcDir() {
    if (fd_ >= 0) close(fd_);
  }
  ProcDir(const ProcDir&) = delete;
  ProcDir& operator=(const ProcDir&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// The children of `pid`: those of each of its threads (/proc/PID/task/TID/children lists what one thread forked).
// A single-threaded process (`threads`, from its stat) has one such file, read without listing task/.
std::vector<pid_t> ChildrenFromFiles(int proc_fd, pid_t pid, long threads) {
  std::vector<pid_t> children;
  char path[64];
  std::vector<pid_t> tids;
  if (threads <= 1) {
    tids.push_back(pid);
  } else {
    snprintf(path, sizeof path, "%d/task", static_cast<int>(pid));
    tids = NumericEntries(proc_fd, path);
  }
  for (pid_t tid : tids) {
    snprintf(path, sizeof path, "%d/task/%d/children", static_cast<int>(pid), static_cast<int>(tid));
    const std::string text = ReadSmallFile(proc_fd, path);
    pid_t child = 0;
    for (char c : text) {  // "PID PID ... " : decimal numbers, each followed by a space.
      if (c >= '0' && c <= '9') {
        child = child * 10 + (c - '0');
      } else if (child > 0) {
        children.push_back(child);
        child = 0;
      }
    }
    if (child > 0) children.push_back(child);
  }
  return children;
}

absl::StatusOr<std::vector<pid_t>> ListByChildrenFiles(pid_t root) {
  ProcDir proc;
  if (proc.fd() < 0) return absl::ErrnoToStatus(errno, "open /proc");
  std::vector<pid_t> found;
  const std::optional<Stat> root_stat = ReadStat(proc.fd(), root);
  std::vector<pid_t> next = ChildrenFromFiles(proc.fd(), root, root_stat.has_value() ? root_stat->threads : 2);
  while (!next.empty()) {  // Breadth first: parents before children.
    std::vector<pid_t> level;
    for (pid_t pid : next) {
      const std::optional<Stat> stat = ReadStat(proc.fd(), pid);
      if (!stat.has_value() || !stat->live()) continue;  // A zombie's children have gone to a reaper already.
      found.push_back(pid);
      for (pid_t child : ChildrenFromFiles(proc.fd(), pid, stat->threads)) level.push_back(child);
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

// A descendant being signalled: its pidfd, or -1 to fall back to kill() by pid.
struct Target {
  pid_t pid;
  int pidfd;
  bool stopped_before = false;  // Stopped ('T') when found, before the walk's own SIGSTOP.
};

// Errors ignored: ESRCH means it has exited (the pidfd never reaches a process that reused the pid).
void SendTo(const Target& target, int sig) { (void)SignalVia(target.pid, target.pidfd, sig); }

bool Alive(const Target& target) { return SignalVia(target.pid, target.pidfd, 0) == 0 || errno != ESRCH; }

// Signalling a tree: each process gets STOP as it is found, and the signal itself only once the walk is over, when
// nobody can fork any more. Freeze unless the signal itself stops all forking (KILL), or is the freeze (STOP).
bool FreezesFirst(int sig) { return sig != SIGKILL && sig != SIGSTOP; }

// Whether a process sent the walk's STOP can add no child any more, by what /proc shows of each of its threads:
// - stopped ('T', or 't' in a tracing stop): back from any fork it was in. A STOP sent to one process does not
//   restart a fork under way, as a fatal or group-wide signal does: the child can appear after the STOP was sent.
// - gone ('Z', 'X', or no longer listed).
// - asleep ('D') in a vfork: a vfork parent sleeps until its child execs or exits, which the walk's STOP on the
//   child holds off; its fork is over (the child is linked), and it goes back to user space, where the STOP lands,
//   before it can fork again. Known from the thread's wchan (SleepsInVfork), read before the children. Where wchan
//   does not say so (unreadable, or the thread woke meanwhile), a single-threaded process still counts if a child
//   shares its memory (kIfVforkChild, for IsFrozen() once the children are read): only a vfork child not yet
//   exec'd does, and its parent cannot fork before it execs. Not with several threads: another thread's vfork child
//   shares the memory too, and a 'D' thread beside it may be inside a fork of its own (its child not yet linked).
// Every thread: /proc/PID/stat shows the main thread, stopped while another may still be inside a fork. Read before
// the children, which are final only if read after the process was seen frozen.
enum class Frozen { kNo, kYes, kIfVforkChild };

Frozen SeenFrozen(int proc_fd, pid_t pid, const Stat& stat) {
  const auto of = [pid, &stat](char state, pid_t tid) {
    if (state == 'T' || state == 't' || state == 'Z' || state == 'X') return Frozen::kYes;
    if (state != 'D') return Frozen::kNo;
    if (process_tree_internal::SleepsInVfork(pid, tid)) return Frozen::kYes;
    return stat.threads <= 1 ? Frozen::kIfVforkChild : Frozen::kNo;
  };
  if (stat.threads <= 1) return of(stat.state, pid);
  Frozen all = Frozen::kYes;
  char path[64];
  snprintf(path, sizeof path, proc_fd == AT_FDCWD ? "/proc/%d/task" : "%d/task", static_cast<int>(pid));
  for (pid_t tid : NumericEntries(proc_fd, path)) {
    snprintf(path, sizeof path, proc_fd == AT_FDCWD ? "/proc/%d/task/%d/stat" : "%d/task/%d/stat",
             static_cast<int>(pid), static_cast<int>(tid));
    const std::optional<Stat> thread = ReadStatFile(proc_fd, path);
    if (!thread.has_value()) continue;  // Gone since the listing.
    const Frozen frozen = of(thread->state, tid);
    if (frozen == Frozen::kNo) return Frozen::kNo;
    if (frozen == Frozen::kIfVforkChild) all = frozen;
  }
  return all;
}

bool IsFrozen(Frozen seen, pid_t pid, const std::vector<pid_t>& children) {
  return seen == Frozen::kYes ||
         (seen == Frozen::kIfVforkChild && process_tree_internal::SharesMemoryWithAChild(pid, children));
}

// The signals that stop a process by default and that it may catch.
bool IsStopSignal(int sig) { return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU; }

// Whether the process takes `sig` other than by its default action: it catches, ignores or blocks it (SigCgt, SigIgn
// and SigBlk of /proc/PID/status; SigBlk is the main thread's). True when that cannot be read.
bool TakesSignalItself(pid_t pid, int sig) {
  char path[32];
  snprintf(path, sizeof path, "/proc/%d/status", static_cast<int>(pid));
  const std::string text = ReadSmallFile(AT_FDCWD, path, /*one_record=*/false);
  for (const char* key : {"\nSigBlk:\t", "\nSigIgn:\t", "\nSigCgt:\t"}) {
    const size_t at = text.find(key);
    if (at == std::string::npos) return true;
    if (((strtoull(text.c_str() + at + strlen(key), nullptr, 16) >> (sig - 1)) & 1) != 0) return true;
  }
  return false;
}

// The end of a walk that sent each target its first signal: with the tree frozen, the signal itself and then CONT;
// every pidfd closed. Returns how many were signalled.
int FinishSignalling(const std::vector<Target>& targets, int sig, StoppedProcesses stopped) {
  if (IsStopSignal(sig) && stopped == StoppedProcesses::kLeave) {
    // TSTP, TTIN or TTOU: the walk's own STOP has already done what its default action does, so a process that
    // takes it so stays stopped. One that catches, ignores or blocks it is continued and sent it at once (SIGCONT
    // discards a pending stop signal). Continuing every process first let one fork before its signal came, and the
    // child ran on. (One stopped before stays stopped and gets nothing.)
    for (const Target& target : targets) {
      if (target.stopped_before || !TakesSignalItself(target.pid, sig)) continue;
      SendTo(target, SIGCONT);
      SendTo(target, sig);
    }
  } else {
    if (FreezesFirst(sig)) {
      for (const Target& target : targets) SendTo(target, sig);
    }
    // A stopped process acts on the signal only once continued; STOP too is followed by CONT, as timeout continues
    // the group it signals (and the cgroup backend its group). kLeave: only the walk's own STOP is undone.
    if (sig != SIGKILL && sig != SIGCONT) {
      for (const Target& target : targets) {
        if (stopped == StoppedProcesses::kContinue || (FreezesFirst(sig) && !target.stopped_before)) {
          SendTo(target, SIGCONT);
        }
      }
    }
  }
  for (const Target& target : targets) {
    if (target.pidfd >= 0) close(target.pidfd);
  }
  return static_cast<int>(targets.size());
}

// Between passes that wait for a STOP to land: 50 us at first (it usually takes that), doubling up to 5 ms, so that a
// process that stays asleep in D (on I/O, or on a FUSE server of the tree that is stopped) keeps the walk from a hot
// loop until the 5 s bound.
class PauseBetweenPasses {
 public:
  void Wait() {
    usleep(next_us_);
    next_us_ = std::min<useconds_t>(next_us_ * 2, 5000);
  }

 private:
  useconds_t next_us_ = 50;
};

// Whether the process has exited entirely (a zombie with no thread left, or gone): its children have been handed
// to a reaper by then. A pidfd turns readable exactly then; without one, /proc says so (a reused pid would read as
// not exited, which only costs another pass).
bool FullyExited(int proc_fd, const Target& target, unsigned long long start_time) {
  if (target.pidfd >= 0) {
    pollfd p = {target.pidfd, POLLIN, 0};
    return poll(&p, 1, 0) == 1;
  }
  const std::optional<Stat> stat = ReadStat(proc_fd, target.pid);
  return !stat.has_value() || stat->start_time != start_time || !stat->live();
}

// SignalDescendants() through /proc/PID/task/TID/children. Each pass walks down from the root, signalling each new
// process before reading its children. A signalled process forks no more once the signal has landed (KILL aborts a
// fork under way; a STOP lets it finish, so the freeze counts only a read after /proc showed the process stopped),
// so its children file read then is final, provided the process was not already exiting (and handing its children
// up to a reaper, possibly after we read the reaper's). "Not exiting" is
// known from any later stat that shows neither PF_EXITING nor a zombie, since exiting cannot be undone. The walk is
// over when a pass finds nobody new, every signalled process is where the pass found it and known complete, and
// those no longer found had exited entirely before the pass began (their children were handed up in time for it).
// Between passes, when only dying processes stand in the way, it waits for their exits (pidfds turn readable)
// instead of walking again: in a KILLed tree that leaves the CPUs to the exits. The wait is bounded (5 s in all);
// after that a process stuck in exit no longer holds the walk up.
class ChildrenFilesWalk {
 public:
  // `proc_fd`: /proc, open. `first`: what each process gets as it is found (SIGSTOP, the freeze, or the signal).
  ChildrenFilesWalk(int proc_fd, pid_t root, int first) : proc_fd_(proc_fd), root_(root), first_(first) {}

  // Walks until a pass is clean, or past the bound; returns every process signalled, for FinishSignalling().
  std::vector<Target> Walk();

 private:
  struct Known {
    size_t target;           // index in targets
    int read_pass = -1;      // the first pass that read its children after it was signalled
    int visited_pass = -1;   // the last pass that found it
    bool complete = false;   // children read after the signal, while it was not exiting
    bool dying = false;      // exiting at the last look
    bool resolved = false;   // exited entirely before a pass began
  };
  // By (pid, start time): a pid reused by a new process of the tree is a new process.
  using KnownMap = std::map<std::pair<pid_t, unsigned long long>, Known>;

  // What one pass found.
  struct Pass {
    int number;
    bool clean = true;           // nothing new, nothing moved, nothing unsettled
    bool found_new = false;      // someone was signalled in this pass
    bool awaiting_stop = false;  // a STOP sent has not been seen to land yet
  };

  // Who has exited entirely since the last pass: one poll over their pidfds.
  void MarkExited();
  // One pass down from the root, breadth first: parents before children.
  void WalkOnce(Pass* pass);
  // One process the pass found, listed by `parent`: signalled if new; its children queued.
  void Visit(pid_t pid, pid_t parent, Pass* pass, std::vector<std::pair<pid_t, pid_t>>* queue);
  // A process not signalled yet: signalled and known from now on if it is of the tree and alive, else the pass is
  // unclean (or, for a zombie's first sight, asks for one more pass). Returns its entry, or known_.end(); *stat is
  // its stat, read after its pidfd was taken.
  KnownMap::iterator Admit(pid_t pid, pid_t parent, std::optional<Stat>* stat, Pass* pass);
  // Nobody new: only processes on their way out stand in the way. Wait for them to exit rather than walk again:
  // block on the one signalled last (likely the last to go), then take whoever else has gone in one poll.
  void AwaitDying();

  const int proc_fd_;
  const pid_t root_;
  const int first_;
  std::vector<Target> targets_;
  KnownMap known_;
  std::set<std::pair<pid_t, unsigned long long>> zombies_;  // Unreaped exited processes of the tree seen so far.
  const Deadline bound_ = Deadline::In(absl::Seconds(5));
  PauseBetweenPasses pause_;
};

std::vector<Target> ChildrenFilesWalk::Walk() {
  int passes_after_wait = 0;
  for (int number = 0;; ++number) {
    MarkExited();
    Pass pass{number};
    WalkOnce(&pass);
    for (const auto& [key, k] : known_) {
      if (k.visited_pass != number && !k.resolved) pass.clean = false;  // Missed by this pass, and maybe still alive.
    }
    if (pass.clean) break;
    if (pass.found_new) continue;
    AwaitDying();
    // Bounded: past the wait, two more passes at most, whatever has not settled.
    if (bound_.HasPassed() && ++passes_after_wait > 2) break;
    if (pass.awaiting_stop) pause_.Wait();
  }
  return std::move(targets_);
}

void ChildrenFilesWalk::MarkExited() {
  std::vector<pollfd> polls;
  std::vector<Known*> polled;
  for (auto& [key, k] : known_) {
    if (k.resolved) continue;
    if (targets_[k.target].pidfd >= 0) {
      polls.push_back({targets_[k.target].pidfd, POLLIN, 0});
      polled.push_back(&k);
    } else if (FullyExited(proc_fd_, targets_[k.target], key.second)) {
      k.resolved = true;
    }
  }
  if (!polls.empty() && poll(polls.data(), polls.size(), 0) > 0) {
    for (size_t i = 0; i < polls.size(); ++i) {
      if (polls[i].revents != 0) polled[i]->resolved = true;
    }
  }
}

void ChildrenFilesWalk::WalkOnce(Pass* pass) {
  const std::optional<Stat> root_stat = ReadStat(proc_fd_, root_);
  std::vector<std::pair<pid_t, pid_t>> queue;  // (pid, the parent whose children file listed it)
  for (pid_t child : ChildrenFromFiles(proc_fd_, root_, root_stat.has_value() ? root_stat->threads : 2)) {
    queue.emplace_back(child, root_);
  }
  for (size_t i = 0; i < queue.size(); ++i) {  // Breadth first: parents before children.
    const pid_t pid = queue[i].first, parent = queue[i].second;
    Visit(pid, parent, pass, &queue);
  }
}

void ChildrenFilesWalk::Visit(pid_t pid, pid_t parent, Pass* pass, std::vector<std::pair<pid_t, pid_t>>* queue) {
  const auto any = known_.lower_bound({pid, 0});
  const bool pid_known = any != known_.end() && any->first.first == pid;
  std::optional<Stat> stat;
  auto it = known_.end();
  if (pid_known) {
    stat = ReadStat(proc_fd_, pid);
    if (!stat.has_value()) {  // Gone (reaped) since its parent was read: where were its children?
      pass->clean = false;
      return;
    }
    it = known_.find({pid, stat->start_time});
  }
  bool signalled_now = false;  // Found in this pass: its stat was read before the STOP was sent.
  if (it == known_.end()) {
    it = Admit(pid, parent, &stat, pass);
    if (it == known_.end()) return;
    signalled_now = true;
  }
  Known& k = it->second;
  if (k.visited_pass == pass->number) return;  // Found twice (moved to a reaper already walked): once is enough.
  k.visited_pass = pass->number;
  k.dying = stat->exiting();
  if (!k.dying && k.read_pass >= 0 && k.read_pass < pass->number) k.complete = true;
  if (stat->ppid != parent) pass->clean = false;  // Moved: its old parent may be exiting.
  if (!k.complete && !k.resolved) pass->clean = false;
  if (!stat->live()) return;  // Its children went to a reaper at its exit.
  // Evidence only from a stat read after the STOP was sent (one read before, 'T', could be a process continued
  // meanwhile by someone else and now inside a fork); a new process is looked at again in the next pass.
  const Frozen frozen =
      k.read_pass < 0 && first_ == SIGSTOP && !signalled_now ? SeenFrozen(proc_fd_, pid, *stat) : Frozen::kNo;
  const std::vector<pid_t> children = ChildrenFromFiles(proc_fd_, pid, stat->threads);
  for (pid_t child : children) queue->emplace_back(child, pid);
  // Frozen by STOP, a process's children are final once read after it was seen stopped (the stat above): a fork
  // under way when the STOP came may still have been adding a child before that.
  if (k.read_pass < 0) {
    if (first_ != SIGSTOP || IsFrozen(frozen, pid, children) || bound_.HasPassed()) {
      k.read_pass = pass->number;
    } else {
      pass->awaiting_stop = true;
    }
  }
}

ChildrenFilesWalk::KnownMap::iterator ChildrenFilesWalk::Admit(pid_t pid, pid_t parent, std::optional<Stat>* stat,
                                                               Pass* pass) {
  // New: a pidfd first, then the stat, then a check that the pidfd's process was alive after the read: the stat is
  // the pidfd's process, and a stranger that got a reused pid has another parent.
  const int pidfd = PidfdOpen(pid);
  if (pidfd < 0 && errno == ESRCH) {
    pass->clean = false;
    return known_.end();
  }
  *stat = ReadStat(proc_fd_, pid);
  const Target target = {pid, pidfd, stat->has_value() && (*stat)->state == 'T'};
  // Its parent: the one that listed it, or the root or a signalled process it was handed up to meanwhile (the
  // parent of a KILLed shell's children dies under our feet). Else a stranger took the pid.
  const auto ours = [&](pid_t ppid) {
    const auto p = known_.lower_bound({ppid, 0});
    return ppid == parent || ppid == root_ || (p != known_.end() && p->first.first == ppid);
  };
  if (stat->has_value() && ours((*stat)->ppid) && !(*stat)->live()) {
    // A zombie of the tree, not yet reaped (its reaper may be the caller, busy here): nothing to signal. Its
    // children went to a reaper before it became one, maybe after this pass read the reaper's children: the first
    // sight of it asks for one more pass, later ones change nothing. (Unsettled at every sight, it kept each pass
    // unclean until the 5 s bound, e.g. in a nested timeout --tree whose tree the outer one had just killed.)
    if (zombies_.insert({pid, (*stat)->start_time}).second) pass->clean = false;
    if (pidfd >= 0) close(pidfd);
    return known_.end();
  }
  if (!stat->has_value() || !ours((*stat)->ppid) || !Alive(target)) {
    if (pidfd >= 0) close(pidfd);
    pass->clean = false;  // Exited or replaced since the listing: the next pass looks again.
    return known_.end();
  }
  targets_.push_back(target);
  SendTo(target, first_);
  Known fresh;
  fresh.target = targets_.size() - 1;
  pass->found_new = true;
  pass->clean = false;
  return known_.emplace(std::make_pair(pid, (*stat)->start_time), fresh).first;
}

void ChildrenFilesWalk::AwaitDying() {
  for (;;) {
    const absl::Duration left = bound_.Remaining();
    if (left == absl::ZeroDuration()) break;
    std::vector<pollfd> dying;
    std::vector<Known*> whose;
    for (auto& [key, k] : known_) {
      if (!k.resolved && k.dying && targets_[k.target].pidfd >= 0) {
        dying.push_back({targets_[k.target].pidfd, POLLIN, 0});
        whose.push_back(&k);
      }
    }
    if (dying.empty()) break;
    size_t last = 0;
    for (size_t j = 1; j < whose.size(); ++j) {
      if (whose[j]->target > whose[last]->target) last = j;
    }
    const int timeout_ms = static_cast<int>(absl::ToInt64Milliseconds(left)) + 1;
    if (poll(&dying[last], 1, timeout_ms) <= 0) break;
    if (poll(dying.data(), dying.size(), 0) > 0) {
      for (size_t j = 0; j < dying.size(); ++j) {
        if (dying[j].revents != 0) whose[j]->resolved = true;
      }
    }
  }
}

absl::StatusOr<int> SignalByChildrenFiles(pid_t root, int sig, StoppedProcesses stopped) {
  ProcDir proc;
  if (proc.fd() < 0) return absl::ErrnoToStatus(errno, "open /proc");
  const int first = FreezesFirst(sig) ? SIGSTOP : sig;  // To each process as it is found.
  return FinishSignalling(ChildrenFilesWalk(proc.fd(), root, first).Walk(), sig, stopped);
}

}  // namespace

namespace process_tree_internal {

bool SleepsInVfork(pid_t pid, pid_t tid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task/%d/wchan", static_cast<int>(pid), static_cast<int>(tid));
  std::string name = ReadSmallFile(AT_FDCWD, path, /*one_record=*/true);
  name = name.substr(0, name.find('.'));  // A compiler's clone of a function: "name.isra.0", "name.constprop.0".
  return name == "wait_for_vfork_done" || name == "kernel_clone" || name == "_do_fork" || name == "do_fork";
}

bool SharesMemoryWithAChild(pid_t pid, const std::vector<pid_t>& children) {
  for (pid_t child : children) {
    if (syscall(SYS_kcmp, pid, child, KCMP_VM, 0, 0) == 0) return true;  // Fails (not 0) if either has gone.
  }
  return false;
}

}  // namespace process_tree_internal

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

namespace {

// SignalDescendants() through one scan of /proc per pass (ListDescendants(kProcScan)): each new process of the tree
// is sent `first` (the freeze, or the signal) as it is found, until a pass finds nobody new and lists what the pass
// before listed.
absl::StatusOr<int> SignalByProcScan(pid_t root, int sig, StoppedProcesses stopped) {
  const int first = FreezesFirst(sig) ? SIGSTOP : sig;  // To each process as it is found.
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
  // Frozen by STOP: every process signalled so far was seen stopped in the pass before, so none was still in a fork
  // that could add a child after that pass's listing (see SeenFrozen). Bounded: 5 s, then as if it had.
  bool stopped_before_this_pass = first != SIGSTOP;
  const Deadline bound = Deadline::In(absl::Seconds(5));
  PauseBetweenPasses pause;
  // Until a pass finds nobody new and lists what the pass before listed: everyone found so far is frozen (or dead)
  // and cannot fork, and nobody left the tree during the listing. A parent that exits while the listing runs can
  // hide a child read before it (after a pid wrap) with the parent's pid, reparented only later; the next pass
  // lists that child under its new parent.
  for (;;) {
    absl::StatusOr<std::vector<pid_t>> listed = ListDescendants(root, Enumeration::kProcScan);
    if (!listed.ok()) {
      status = listed.status();
      break;
    }
    std::set<pid_t> tree(listed->begin(), listed->end());
    bool found_new = false;
    std::vector<std::pair<pid_t, Frozen>> stopped_earlier;  // Sent STOP before this pass, alive in it: frozen?
    std::map<pid_t, std::vector<pid_t>> children;           // By parent, as this pass's stats show (freeze only).
    for (pid_t pid : *listed) {
      const int pidfd = PidfdOpen(pid);
      if (pidfd < 0 && errno == ESRCH) continue;  // Exited (and reaped) since the listing.
      // Checked after opening: if the pid now names a stranger, its parent is outside the tree.
      const std::optional<Stat> stat = ReadStat(pid);
      // Still alive after the read: the stat is the pidfd's process, not a newer one that reused the pid.
      if (pidfd >= 0 && SignalVia(pid, pidfd, 0) != 0 && errno == ESRCH) {
        close(pidfd);
        found_new = true;  // It exited; whoever took its pid is looked at in the next pass.
        continue;
      }
      if (first == SIGSTOP && stat.has_value()) children[stat->ppid].push_back(pid);
      if (first == SIGSTOP && stat.has_value() && seen.count({pid, stat->start_time}) != 0 && stat->live() &&
          !stat->exiting()) {
        stopped_earlier.emplace_back(pid, SeenFrozen(AT_FDCWD, pid, *stat));
      }
      if (!stat.has_value() || seen.count({pid, stat->start_time}) != 0 ||
          (stat->ppid != root && tree.count(stat->ppid) == 0 && !signalled_pid(stat->ppid))) {
        if (pidfd >= 0) close(pidfd);
        continue;
      }
      seen.insert({pid, stat->start_time});
      targets.push_back({pid, pidfd, stat->state == 'T'});
      SendTo(targets.back(), first);
      found_new = true;
    }
    if (!found_new && tree == previous_tree && stopped_before_this_pass) break;
    const bool all_stopped = std::all_of(stopped_earlier.begin(), stopped_earlier.end(), [&](const auto& entry) {
      return IsFrozen(entry.second, entry.first, children[entry.first]);
    });
    const bool settled = all_stopped || bound.HasPassed();
    stopped_before_this_pass = first != SIGSTOP || (settled && !found_new);
    if (!found_new && !settled) pause.Wait();
    previous_tree = std::move(tree);
  }
  const int signalled = FinishSignalling(targets, sig, stopped);
  if (!status.ok() && signalled == 0) return status;
  return signalled;
}

}  // namespace

absl::StatusOr<int> SignalDescendants(pid_t root, int sig, Enumeration how, StoppedProcesses stopped) {
  if (sig == 0) return 0;
  if (how == Enumeration::kAuto) how = HasChildrenFiles() ? Enumeration::kChildrenFiles : Enumeration::kProcScan;
  if (how == Enumeration::kChildrenFiles) {
    if (!HasChildrenFiles()) return absl::NotFoundError("no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)");
    return SignalByChildrenFiles(root, sig, stopped);
  }
  return SignalByProcScan(root, sig, stopped);
}

absl::StatusOr<std::vector<pid_t>> ListChildren(Enumeration how) {
  if (how == Enumeration::kAuto) how = HasChildrenFiles() ? Enumeration::kChildrenFiles : Enumeration::kProcScan;
  if (how == Enumeration::kChildrenFiles && !HasChildrenFiles()) {
    return absl::NotFoundError("no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)");
  }
  ProcDir proc;
  if (proc.fd() < 0) return absl::ErrnoToStatus(errno, "open /proc");
  // Our pid as this /proc numbers it: under `unshare --pid --fork` without --mount-proc it is not getpid().
  char link[32];
  const ssize_t n = readlinkat(proc.fd(), "self", link, sizeof link - 1);
  if (n < 0) return absl::ErrnoToStatus(errno, "readlink /proc/self");
  link[n] = '\0';
  pid_t self;
  if (!absl::SimpleAtoi(link, &self)) return absl::InternalError(absl::StrCat("/proc/self is '", link, "'"));
  std::vector<pid_t> children;
  if (how == Enumeration::kChildrenFiles) {
    const std::optional<Stat> own = ReadStat(proc.fd(), self);
    children = ChildrenFromFiles(proc.fd(), self, own.has_value() ? own->threads : 2);  // 2: list task/ to be sure.
  } else {
    for (pid_t pid : NumericEntries(proc.fd(), ".")) {
      const std::optional<Stat> stat = ReadStat(proc.fd(), pid);
      if (stat.has_value() && stat->ppid == self) children.push_back(pid);
    }
  }
  return children;
}

absl::StatusOr<Reaped> ReapChildren(pid_t watched) {
  Reaped reaped;
  for (;;) {
    int wait_status;
    // __WALL: a child whose exit signal is not SIGCHLD (clone(2)), which a caller may have left us through exec,
    // is reaped too rather than left a zombie for good (orphans handed to us always signal SIGCHLD).
    const pid_t pid = waitpid(-1, &wait_status, WNOHANG | __WALL);
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
