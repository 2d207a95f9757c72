#include "uucore/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "uucore/duration.h"
#include "uucore/file.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"

namespace uucore {
namespace {

absl::Status ErrnoError(int err, absl::string_view what) {
  return absl::ErrnoToStatus(err, what);  // "WHAT: REASON", code from errno.
}

// One write(2) of `text` at offset 0 (cgroup files take a whole value per write) to a cgroup file held open (`name`
// for the message), retried on EINTR.
absl::Status WriteFd(int fd, absl::string_view name, absl::string_view text) {
  ssize_t n;
  do {
    n = pwrite(fd, text.data(), text.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return ErrnoError(errno, absl::StrCat("write ", name));
  return absl::OkStatus();
}

// WriteFd() to `name` opened for the one write.
absl::Status WriteFileAt(int dir_fd, const std::string& name, absl::string_view text) {
  const int fd = openat(dir_fd, name.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, absl::StrCat("open ", name));
  absl::Status written = WriteFd(fd, name, text);
  close(fd);
  return written;
}

// mountinfo's octal escapes: "\040" space, "\011" tab, "\012" newline, "\134" backslash.
std::string Unescape(absl::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const absl::string_view digits = field.substr(i + 1, 3);
      if (std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '7'; })) {
        out.push_back(static_cast<char>((digits[0] - '0') * 64 + (digits[1] - '0') * 8 + (digits[2] - '0')));
        i += 3;
        continue;
      }
    }
    out.push_back(field[i]);
  }
  return out;
}

// PATH relative to ROOT ("" when equal), or nullopt when PATH is not ROOT or below it.
std::optional<std::string> Below(absl::string_view path, absl::string_view root) {
  if (root == "/") return std::string(absl::StripPrefix(path, "/"));
  if (path == root) return std::string();
  if (absl::StartsWith(path, root) && path.size() > root.size() && path[root.size()] == '/')
    return std::string(path.substr(root.size() + 1));
  return std::nullopt;
}

// Sends through the pidfd when there is one; true unless the process is gone.
bool SendTo(pid_t pid, int pidfd, int sig) { return SignalVia(pid, pidfd, sig) == 0 || errno != ESRCH; }

bool Blocked(int sig) {
  sigset_t blocked;
  return pthread_sigmask(SIG_BLOCK, nullptr, &blocked) == 0 && sigismember(&blocked, sig) == 1;
}

bool Pending(int sig) {
  sigset_t pending;
  return sigpending(&pending) == 0 && sigismember(&pending, sig) == 1;
}

// Whether kill(-group, sig) spares the caller: it is not in the group, or this thread blocks `sig` (the copy stays
// pending, and KillGroup() takes it back; KILL and STOP cannot be blocked; other threads are the caller's to block
// it in too, see cgroup.h).
bool MayKillGroup(pid_t group, int sig) { return getpgrp() != group || Blocked(sig); }

// kill(-group, sig) from a caller that may be in the group: its own copy, pending since it is blocked, is taken back
// at once, so that a signal someone else sends it later is not merged into ours (standard signals do not queue) and
// dropped with it as the caller's own (timeout drops SI_USER from itself). One already pending before is left alone
// (ours merged into it). Only one that lands between the kill and the take-back, microseconds, is lost that way.
int KillGroup(pid_t group, int sig) {
  const bool ours_to_take = getpgrp() == group && Blocked(sig) && !Pending(sig);
  if (kill(-group, sig) != 0) return -1;
  if (!ours_to_take) return 0;
  sigset_t just;
  sigemptyset(&just);
  sigaddset(&just, sig);
  siginfo_t info;
  const timespec now = {0, 0};
  int got;
  while ((got = sigtimedwait(&just, &info, &now)) < 0 && errno == EINTR) {
  }
  // Not ours (it came between the check and the kill, and ours merged into it): queued back, its sender kept (a
  // process may queue any siginfo to itself).
  if (got == sig && !(info.si_code == SI_USER && info.si_pid == getpid())) {
    (void)syscall(SYS_rt_sigqueueinfo, getpid(), sig, &info);
  }
  return 0;
}

std::vector<pid_t> ParsePids(absl::string_view text) {
  std::vector<pid_t> pids;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    int pid;
    if (absl::SimpleAtoi(line, &pid) && pid > 0) pids.push_back(pid);
  }
  return pids;
}

// The subdirectories (child groups) of a group directory.
std::vector<std::string> ChildGroups(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* entry = readdir(d)) {
    if (entry->d_type != DT_DIR) continue;
    const absl::string_view name = entry->d_name;
    if (name == "." || name == "..") continue;
    names.push_back(absl::StrCat(dir, "/", name));
  }
  closedir(d);
  return names;
}

// cgroup.procs of DIR and of every group below it, appended to *pids. Errors only for DIR itself when `top`.
absl::Status CollectProcs(const std::string& dir, bool top, std::vector<pid_t>* pids) {
  absl::StatusOr<std::string> text = ReadFile(absl::StrCat(dir, "/cgroup.procs"));
  if (!text.ok()) return top ? text.status() : absl::OkStatus();  // A nested group may go away meanwhile.
  for (pid_t pid : ParsePids(*text)) pids->push_back(pid);
  for (const std::string& child : ChildGroups(dir)) (void)CollectProcs(child, false, pids);
  return absl::OkStatus();
}

absl::StatusOr<CgroupEvents> ParseEvents(absl::string_view text) {
  CgroupEvents events;
  bool seen = false;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    if (absl::ConsumePrefix(&line, "populated ")) {
      events.populated = line == "1";
      seen = true;
    } else if (absl::ConsumePrefix(&line, "frozen ")) {
      events.frozen = line == "1";
      seen = true;
    }
  }
  if (!seen) return absl::InternalError(absl::StrCat("unexpected cgroup.events: ", text));
  return events;
}

// Empties DIR (and the groups below it) into DEST's cgroup.procs and removes it, deepest first.
absl::Status RemoveTree(const std::string& dir, const std::string& dest) {
  // The usual case first: an empty group with no group below it goes with one rmdir (EBUSY otherwise).
  if (rmdir(dir.c_str()) == 0 || errno == ENOENT) return absl::OkStatus();
  absl::Status status = absl::OkStatus();
  for (const std::string& child : ChildGroups(dir)) {
    absl::Status removed = RemoveTree(child, dest);
    if (!removed.ok()) status = removed;
  }
  const int dest_fd = open(dest.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const int dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  bool froze = false;
  // Bounded: each round moves every process listed; a group frozen at the first round cannot gain new ones.
  for (int round = 0;; ++round) {
    if (rmdir(dir.c_str()) == 0) {
      status = absl::OkStatus();
      break;
    }
    if (errno == ENOENT) break;  // Already gone.
    status = ErrnoError(errno, absl::StrCat("cannot remove cgroup ", dir));
    if (errno != EBUSY || round == 100 || dest_fd < 0 || dir_fd < 0) break;
    // Still populated: freeze, so nobody forks while we move them; moved processes thaw in a group not frozen.
    if (!froze) froze = WriteFileAt(dir_fd, "cgroup.freeze", "1").ok();
    absl::StatusOr<std::string> procs = ReadFileAt(dir_fd, "cgroup.procs");
    if (!procs.ok()) break;
    for (pid_t pid : ParsePids(*procs)) (void)WriteFileAt(dest_fd, "cgroup.procs", absl::StrCat(pid));
    if (round > 0 && ParsePids(*procs).empty()) usleep(1000);  // Empty, yet busy: a dying process in the way.
  }
  if (!status.ok() && froze) (void)WriteFileAt(dir_fd, "cgroup.freeze", "0");  // Never leave anyone frozen.
  if (dest_fd >= 0) close(dest_fd);
  if (dir_fd >= 0) close(dir_fd);
  return status;
}

// The "0::PATH" line of a /proc/PID/cgroup text, without its "0::": the process's cgroup v2 group as its cgroup
// namespace sees it, with kRemoved after it once the group has been removed (a zombie still in it); nullopt without
// one (a v1-only process). The one reader of that line, for FindCgroup2In() and AChildIsInCgroup().
std::optional<absl::string_view> CgroupV2Line(absl::string_view proc_cgroup) {
  for (absl::string_view line : absl::StrSplit(proc_cgroup, '\n', absl::SkipEmpty())) {
    if (absl::ConsumePrefix(&line, "0::")) return line;
  }
  return std::nullopt;
}
constexpr absl::string_view kRemoved = " (deleted)";

std::string PidNamespaceId() {
  struct stat st;
  if (stat("/proc/self/ns/pid", &st) != 0) return "0";
  return absl::StrCat(st.st_ino);
}

}  // namespace

absl::StatusOr<Cgroup2Location> FindCgroup2In(absl::string_view mountinfo, absl::string_view cgroup) {
  const std::optional<absl::string_view> v2_line = CgroupV2Line(cgroup);
  if (!v2_line.has_value()) return absl::NotFoundError("not in a cgroup v2 group (no 0:: line in /proc/self/cgroup)");
  const std::string own(*v2_line);
  if (absl::EndsWith(own, kRemoved)) {
    return absl::NotFoundError(absl::StrCat("our cgroup v2 group ", own, " was removed"));
  }
  // A process moved out of its cgroup namespace's root sees its group as /../PATH: no mount of that namespace's
  // view shows it (a mount whose root is / would make it a path outside the mount).
  if (own == "/.." || absl::StartsWith(own, "/../")) {
    return absl::NotFoundError(absl::StrCat("our cgroup v2 group ", own, " is outside our cgroup namespace"));
  }
  bool any_mount = false;
  for (absl::string_view line : absl::StrSplit(mountinfo, '\n', absl::SkipEmpty())) {
    // ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTIONS
    const size_t dash = line.find(" - ");
    if (dash == absl::string_view::npos) continue;
    const std::vector<absl::string_view> after = absl::StrSplit(line.substr(dash + 3), ' ');
    if (after.empty() || after[0] != "cgroup2") continue;
    const std::vector<absl::string_view> before = absl::StrSplit(line.substr(0, dash), ' ');
    if (before.size() < 5) continue;
    any_mount = true;
    const std::string root = Unescape(before[3]);
    const std::string mount_point = Unescape(before[4]);
    const std::optional<std::string> relative = Below(own, root);
    if (!relative.has_value()) continue;
    Cgroup2Location location;
    location.mount_point = mount_point;
    location.own_path = own;
    location.own_dir = relative->empty() ? mount_point
                                         : absl::StrCat(mount_point == "/" ? "" : mount_point, "/", *relative);
    return location;
  }
  if (!any_mount) return absl::NotFoundError("no cgroup2 file system is mounted");
  return absl::NotFoundError(absl::StrCat("our cgroup v2 group ", own, " is not visible under any cgroup2 mount"));
}

absl::StatusOr<Cgroup2Location> FindCgroup2() {
  absl::StatusOr<std::string> mountinfo = ReadFile("/proc/self/mountinfo");
  if (!mountinfo.ok()) return mountinfo.status();
  absl::StatusOr<std::string> cgroup = ReadFile("/proc/self/cgroup");
  if (!cgroup.ok()) return cgroup.status();
  return FindCgroup2In(*mountinfo, *cgroup);
}

CgroupLeaf::CgroupLeaf(std::string path, std::string parent_dir, int dir_fd, int events_fd, int kill_fd,
                       int freeze_fd, CgroupFeatures features)
    : path_(std::move(path)), parent_dir_(std::move(parent_dir)), dir_fd_(dir_fd), events_fd_(events_fd),
      kill_fd_(kill_fd), freeze_fd_(freeze_fd), features_(features) {}

CgroupLeaf::CgroupLeaf(CgroupLeaf&& other) noexcept
    : path_(std::move(other.path_)), proc_path_(std::move(other.proc_path_)),
      parent_dir_(std::move(other.parent_dir_)), dir_fd_(other.dir_fd_),
      events_fd_(other.events_fd_), kill_fd_(other.kill_fd_), freeze_fd_(other.freeze_fd_),
      features_(other.features_) {
  other.path_.clear();
  other.dir_fd_ = other.events_fd_ = other.kill_fd_ = other.freeze_fd_ = -1;
}

CgroupLeaf& CgroupLeaf::operator=(CgroupLeaf&& other) noexcept {
  if (this == &other) return *this;
  (void)Remove();
  path_ = std::move(other.path_);
  proc_path_ = std::move(other.proc_path_);
  parent_dir_ = std::move(other.parent_dir_);
  dir_fd_ = other.dir_fd_;
  events_fd_ = other.events_fd_;
  kill_fd_ = other.kill_fd_;
  freeze_fd_ = other.freeze_fd_;
  features_ = other.features_;
  other.path_.clear();
  other.dir_fd_ = other.events_fd_ = other.kill_fd_ = other.freeze_fd_ = -1;
  return *this;
}

CgroupLeaf::~CgroupLeaf() { (void)Remove(); }

namespace {
// The numbers Create() has taken in this process: our leaves are PREFIX.NS.PID.N.l with N below it.
std::atomic<unsigned> leaves_made{0};
// The last field of a leaf whose creator holds its lock (Create()); older versions made PREFIX.NS.PID.N unlocked.
constexpr char kLockedMark[] = "l";
}  // namespace

absl::StatusOr<CgroupLeaf> CgroupLeaf::Create(const Cgroup2Location& where, absl::string_view prefix) {
  if (prefix.empty() || prefix.find_first_of("/.") != absl::string_view::npos)
    return absl::InvalidArgumentError(absl::StrCat("bad cgroup name prefix: ", prefix));
  // A migration (clone3 into the group included) needs write access to the common ancestor's cgroup.procs.
  const std::string own_procs = absl::StrCat(where.own_dir, "/cgroup.procs");
  if (access(own_procs.c_str(), W_OK) != 0) {
    return absl::PermissionDeniedError(absl::StrCat("cgroup ", where.own_dir, " is not delegated to us: cannot write ",
                                                    own_procs, ": ", strerror(errno)));
  }
  const std::string stem = absl::StrCat(where.own_dir, "/", prefix, ".", PidNamespaceId(), ".", getpid(), ".");
  std::string path;
  int dir_fd = -1, events_fd = -1;
  for (int tries = 0;; ++tries) {
    path = absl::StrCat(stem, leaves_made.fetch_add(1), ".", kLockedMark);
    if (mkdir(path.c_str(), 0755) != 0) {
      const int err = errno;
      if (err == EEXIST && tries < 1000) continue;  // Left by a dead process that had our pid: take the next number.
      return absl::Status(absl::ErrnoToStatusCode(err),
                          absl::StrCat("cannot create cgroup ", path, ": ", strerror(err)));
    }
    dir_fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    // Held while we live (closing the descriptor, even by SIGKILL, drops it): RemoveStaleLeaves() removes only a
    // leaf it can lock exclusively, so never one whose creator lives, in whatever PID namespace.
    if (dir_fd >= 0 && flock(dir_fd, LOCK_SH | LOCK_NB) != 0) {
      const int err = errno;  // EWOULDBLOCK: another's RemoveStaleLeaves() took it between our mkdir and now.
      close(dir_fd);
      rmdir(path.c_str());  // Ours, empty: not left behind whoever holds it (ENOENT if the remover was first).
      if (err == EWOULDBLOCK && tries < 1000) continue;
      return ErrnoError(err, absl::StrCat("cannot lock cgroup ", path));
    }
    events_fd = dir_fd < 0 ? -1 : openat(dir_fd, "cgroup.events", O_RDONLY | O_CLOEXEC);
    if (events_fd >= 0) break;
    const int err = errno;
    if (dir_fd >= 0) close(dir_fd);
    // ENOENT: removed by another's RemoveStaleLeaves() before our lock: take the next number.
    if (err == ENOENT && tries < 1000) continue;
    rmdir(path.c_str());
    return ErrnoError(err, absl::StrCat("open ", path, dir_fd < 0 ? "" : "/cgroup.events"));
  }
  // Opened now, not when needed (see kill_fd_); a file that cannot be opened is a feature we do not have.
  const int kill_fd = openat(dir_fd, "cgroup.kill", O_WRONLY | O_CLOEXEC);
  const int freeze_fd = openat(dir_fd, "cgroup.freeze", O_RDWR | O_CLOEXEC);  // Also read: Signal() asks its state.
  CgroupFeatures features;
  features.kill = kill_fd >= 0;
  features.freeze = freeze_fd >= 0;
  features.cpu_stat = faccessat(dir_fd, "cpu.stat", R_OK, 0) == 0;
  features.memory_peak = faccessat(dir_fd, "memory.peak", R_OK, 0) == 0;
  CgroupLeaf leaf(path, where.own_dir, dir_fd, events_fd, kill_fd, freeze_fd, features);
  const absl::string_view name = absl::string_view(path).substr(path.rfind('/') + 1);
  leaf.proc_path_ = absl::StrCat(where.own_path == "/" ? "" : where.own_path, "/", name);
  return leaf;
}

absl::StatusOr<CgroupEvents> CgroupLeaf::ReadEvents() const {
  if (events_fd_ < 0) return absl::FailedPreconditionError("cgroup removed");
  absl::StatusOr<std::string> text = ReadFd(events_fd_, "cgroup.events");
  if (!text.ok()) return text.status();
  return ParseEvents(*text);
}

absl::StatusOr<std::vector<pid_t>> CgroupLeaf::Procs() const {
  if (dir_fd_ < 0) return absl::FailedPreconditionError("cgroup removed");
  std::vector<pid_t> pids;
  absl::Status status = CollectProcs(path_, true, &pids);
  if (!status.ok()) return status;
  return pids;
}

absl::Status CgroupLeaf::Kill() {
  if (dir_fd_ < 0) return absl::FailedPreconditionError("cgroup removed");
  if (!features_.kill) return absl::UnimplementedError("no cgroup.kill (Linux 5.14)");
  return WriteFd(kill_fd_, "cgroup.kill", "1");
}

absl::Status CgroupLeaf::Freeze(bool frozen, absl::Duration wait) {
  if (dir_fd_ < 0) return absl::FailedPreconditionError("cgroup removed");
  if (!features_.freeze) return absl::UnimplementedError("no cgroup.freeze (Linux 5.2)");
  absl::Status written = WriteFd(freeze_fd_, "cgroup.freeze", frozen ? "1" : "0");
  if (!written.ok() || !frozen) return written;
  const Deadline deadline = Deadline::In(wait);  // Monotonic: a step of the wall clock neither cuts nor stretches it.
  for (;;) {
    absl::StatusOr<CgroupEvents> events = ReadEvents();  // Re-arms the poll before we look.
    if (!events.ok()) return events.status();
    if (events->frozen) return absl::OkStatus();
    if (deadline.HasPassed()) {
      return absl::DeadlineExceededError(
          absl::StrCat("cgroup ", path_, " not frozen after ", absl::FormatDuration(wait)));
    }
    pollfd p = {events_fd_, POLLPRI, 0};
    const timespec left = ToKernelTimespec(deadline.Remaining());  // Recomputed after every wake (EINTR included).
    if (ppoll(&p, 1, &left, nullptr) < 0 && errno != EINTR) return ErrnoError(errno, "poll cgroup.events");
  }
}

namespace {

// Signal()'s sending to members: `sig` through the pidfd (kill() with -1), then SIGCONT with `cont`: a stopped
// process acts on `sig` only once continued. Counts those reached.
struct MemberSignals {
  int sig;
  bool cont;
  int count = 0;

  void Send(pid_t pid, int pidfd) {
    if (!SendTo(pid, pidfd, sig)) return;
    ++count;
    if (cont) (void)SendTo(pid, pidfd, SIGCONT);
  }
};

// Signal()'s one listing, with the group frozen by the call and the caller a subreaper (see there): one kill() each,
// and the members of `group` (0: none) through one kill(-group).
absl::Status SignalListedOnce(const CgroupLeaf& leaf, pid_t group, MemberSignals* to) {
  absl::StatusOr<std::vector<pid_t>> procs = leaf.Procs();
  if (!procs.ok()) return procs.status();
  // The group's members are told from the others by getpgid() (a frozen process cannot change its group, nor
  // can its parent, frozen or us, change it), and reached by one kill(-group) below.
  const bool by_group = group > 0 && MayKillGroup(group, to->sig);
  std::set<pid_t> signalled;  // Each pid once, also one cgroup.procs lists twice (after a move).
  std::vector<pid_t> in_group;
  for (pid_t pid : *procs) {
    if (!signalled.insert(pid).second) continue;
    if (by_group && getpgid(pid) == group) {
      in_group.push_back(pid);
    } else {
      to->Send(pid, -1);
    }
  }
  // A listed member is frozen in the group, so the group id is not free for reuse meanwhile.
  if (!in_group.empty() && KillGroup(group, to->sig) == 0) {
    to->count += static_cast<int>(in_group.size());
    if (to->cont) (void)KillGroup(group, SIGCONT);
  } else {
    for (pid_t pid : in_group) to->Send(pid, -1);  // kill(-group) signalled no one (EPERM, ESRCH): each alone.
  }
  return absl::OkStatus();
}

// Signal()'s listing passes, until one finds none new (frozen, the second pass only confirms): each pid through a
// pidfd, checked to be still a member after the pidfd is taken.
absl::Status SignalUntilNoneNew(const CgroupLeaf& leaf, MemberSignals* to) {
  std::set<pid_t> signalled;  // Each pid once, also one cgroup.procs lists twice (after a move).
  for (;;) {
    absl::StatusOr<std::vector<pid_t>> procs = leaf.Procs();
    if (!procs.ok()) return procs.status();
    std::vector<std::pair<pid_t, int>> batch;  // (pid, pidfd or -1)
    for (pid_t pid : *procs) {
      if (!signalled.insert(pid).second) continue;
      const int pidfd = PidfdOpen(pid);
      if (pidfd < 0 && errno == ESRCH) continue;  // Gone since the listing.
      batch.emplace_back(pid, pidfd);
    }
    if (batch.empty()) return absl::OkStatus();
    // Taken after the pidfds: a pid listed again is still in the group, so each pidfd names a member, not a stranger
    // that got a reused pid (frozen members cannot exit; only one killed from outside and reaped could pass it on).
    absl::StatusOr<std::vector<pid_t>> again = leaf.Procs();
    const std::set<pid_t> members = again.ok() ? std::set<pid_t>(again->begin(), again->end()) : std::set<pid_t>();
    for (const auto& [pid, pidfd] : batch) {
      if (members.count(pid) != 0) to->Send(pid, pidfd);
      if (pidfd >= 0) close(pidfd);
    }
  }
}

}  // namespace

absl::Status CgroupLeaf::FreezeToSignal(absl::Duration wait, bool* thaw, bool* frozen_by_us) {
  *thaw = *frozen_by_us = false;
  if (!features_.freeze) return absl::OkStatus();
  absl::StatusOr<std::string> state = ReadFd(freeze_fd_, "cgroup.freeze");
  if (!state.ok()) return state.status();
  if (absl::StartsWith(*state, "1")) return absl::OkStatus();  // Frozen by someone else: it stays frozen.
  // Every member traps before it runs any more of its own code once the write has returned; `frozen 1` says all
  // have (a fork under way has ended, its child is listed). Signalling during that wait would spare each killed
  // process a second wake-up (~15% at 1,000), but a killed process counts as not frozen until it has exited, so
  // the thaw, and with it every handler in the tree, would wait for the slowest death (an order of magnitude later
  // behind an 8 GB process), with timeout's own wait blocked meanwhile. Measured (`helper phases`, 100 processes,
  // 16 rounds): slower in the median (4.9 against 4.5 ms), since the write itself is most of the freeze (0.3-0.8
  // ms, the kernel waking each member), and 2 rounds took 14-16 ms: `frozen` flipped more than once (a frozen
  // member woken to die leaves the frozen state) and the last flip waited out the kernel's limit on
  // notifications (see Freeze()).
  absl::Status frozen = Freeze(true, wait);
  // Not frozen in time: the freeze stays requested (it completes later) and is lifted below all the same; the
  // listing passes below then run until one finds none new.
  if (!frozen.ok() && frozen.code() != absl::StatusCode::kDeadlineExceeded) {
    (void)Freeze(false);
    return frozen;
  }
  *thaw = true;
  *frozen_by_us = frozen.ok();
  return absl::OkStatus();
}

absl::StatusOr<int> CgroupLeaf::Signal(int sig, StoppedProcesses stopped, pid_t group, absl::Duration freeze_wait) {
  if (dir_fd_ < 0) return absl::FailedPreconditionError("cgroup removed");
  if (sig == 0 || (sig == SIGKILL && features_.kill)) {
    absl::StatusOr<std::vector<pid_t>> procs = Procs();
    if (!procs.ok()) return procs.status();
    if (sig == SIGKILL) {
      absl::Status killed = Kill();
      if (!killed.ok()) return killed;
    }
    return static_cast<int>(procs->size());
  }
  // As timeout continues a process group it signals.
  MemberSignals to{sig, stopped == StoppedProcesses::kContinue && sig != SIGKILL && sig != SIGCONT};
  // Freeze unless someone (the caller, a SIGSTOP-like request) already has: then it stays frozen.
  bool thaw, frozen_by_us;
  if (absl::Status frozen = FreezeToSignal(freeze_wait, &thaw, &frozen_by_us); !frozen.ok()) return frozen;
  // Frozen by this call and the subreaper (timeout --tree): one listing and kill() each. No listed pid can be freed
  // for reuse while we are here unless its parent reaps it, and the parents are frozen members or us (the command's
  // parent, and the subreaper every orphan comes to), not reaping while we are here. Only a parent that ignores
  // SIGCHLD frees a child's pid at once; reusing it would take the pid counter wrapping round during this call.
  // Otherwise each pid goes through a pidfd, checked to be still a member (below). (The pidfd passes cost ~20% more
  // at 1,000 processes.)
  int subreaper = 0;
  const bool one_listing = frozen_by_us && prctl(PR_GET_CHILD_SUBREAPER, &subreaper, 0, 0, 0) == 0 && subreaper != 0;
  absl::Status status = one_listing ? SignalListedOnce(*this, group, &to) : SignalUntilNoneNew(*this, &to);
  if (thaw) {
    absl::Status thawed = Freeze(false);
    if (status.ok() && !thawed.ok()) status = thawed;
  }
  if (!status.ok() && to.count == 0) return status;
  return to.count;
}

absl::StatusOr<CgroupCpu> CgroupLeaf::ReadCpu() const {
  if (dir_fd_ < 0) return absl::FailedPreconditionError("cgroup removed");
  if (!features_.cpu_stat) return absl::UnimplementedError("no cpu.stat");
  absl::StatusOr<std::string> text = ReadFileAt(dir_fd_, "cpu.stat");
  if (!text.ok()) return text.status();
  CgroupCpu cpu;
  for (absl::string_view line : absl::StrSplit(*text, '\n', absl::SkipEmpty())) {
    const std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(line, absl::MaxSplits(' ', 1));
    int64_t usec;
    if (!absl::SimpleAtoi(kv.second, &usec)) continue;
    if (kv.first == "usage_usec") cpu.usage = absl::Microseconds(usec);
    if (kv.first == "user_usec") cpu.user = absl::Microseconds(usec);
    if (kv.first == "system_usec") cpu.system = absl::Microseconds(usec);
  }
  return cpu;
}

absl::StatusOr<int64_t> CgroupLeaf::ReadMemoryPeak() const {
  if (dir_fd_ < 0) return absl::FailedPreconditionError("cgroup removed");
  if (!features_.memory_peak) return absl::UnimplementedError("no memory.peak");
  absl::StatusOr<std::string> text = ReadFileAt(dir_fd_, "memory.peak");
  if (!text.ok()) return text.status();
  int64_t bytes;
  if (!absl::SimpleAtoi(absl::StripTrailingAsciiWhitespace(*text), &bytes))
    return absl::InternalError(absl::StrCat("unexpected memory.peak: ", *text));
  return bytes;
}

void CgroupLeaf::CloseFds() {
  for (int fd : {events_fd_, dir_fd_, kill_fd_, freeze_fd_}) {
    if (fd >= 0) close(fd);
  }
  events_fd_ = dir_fd_ = kill_fd_ = freeze_fd_ = -1;
}

absl::Status CgroupLeaf::Remove() {
  if (path_.empty()) return absl::OkStatus();
  const int locked = dir_fd_;  // Its lock kept until the group is gone: no RemoveStaleLeaves() meanwhile.
  dir_fd_ = -1;
  CloseFds();
  absl::Status status = RemoveTree(path_, parent_dir_);
  if (locked >= 0) close(locked);
  if (status.ok()) path_.clear();
  return status;
}

absl::StatusOr<bool> AChildIsInCgroup(absl::string_view group, Enumeration how) {
  absl::StatusOr<std::vector<pid_t>> children = ListChildren(how);
  if (!children.ok()) return children.status();
  const std::string below = absl::StrCat(group == "/" ? "" : group, "/");
  for (pid_t child : *children) {
    absl::StatusOr<std::string> text = ReadFile(absl::StrCat("/proc/", child, "/cgroup"));
    if (!text.ok()) continue;  // Reaped meanwhile: no longer a child.
    std::optional<absl::string_view> line = CgroupV2Line(*text);
    if (!line.has_value()) continue;
    // A group removed meanwhile (by hand: its count was 0 with a zombie still in it) is named with this suffix.
    absl::ConsumeSuffix(&*line, kRemoved);
    if (*line == group || absl::StartsWith(*line, below)) return true;
  }
  return false;
}

absl::StatusOr<int> RemoveStaleLeaves(const Cgroup2Location& where, absl::string_view prefix) {
  DIR* dir = opendir(where.own_dir.c_str());
  if (dir == nullptr) return ErrnoError(errno, absl::StrCat("opendir ", where.own_dir));
  const std::string leaf_prefix = absl::StrCat(prefix, ".");
  const std::string own_namespace = PidNamespaceId();
  const pid_t self = getpid();
  std::vector<std::string> stale;
  while (const dirent* entry = readdir(dir)) {
    absl::string_view name = entry->d_name;
    if (entry->d_type != DT_DIR || !absl::ConsumePrefix(&name, leaf_prefix)) continue;
    const std::vector<absl::string_view> ns_pid_n = absl::StrSplit(name, '.');
    int pid;
    unsigned n;
    if (ns_pid_n.size() < 3 || ns_pid_n.size() > 4 || !absl::SimpleAtoi(ns_pid_n[1], &pid) || pid <= 0 ||
        !absl::SimpleAtoi(ns_pid_n[2], &n) || (ns_pid_n.size() == 4 && ns_pid_n[3] != kLockedMark)) {
      continue;
    }
    // Of our namespace, kill() asks cheaply first (no descriptor for a live creator's leaf); of another, only
    // the lock can tell, and only of a leaf whose creator took one (an older version's is left alone).
    if (ns_pid_n[0] != own_namespace) {
      if (ns_pid_n.size() != 4) continue;
    } else if (pid == self) {
      // Our own pid: ours if this process made it, else an earlier process's with our pid in a namespace with our
      // namespace's inode (a container's PID 1 after another's), which asking kill() would take for us.
      if (n < leaves_made.load()) continue;
    } else if (kill(pid, 0) == 0 || errno != ESRCH) {
      continue;  // Its creator (or whoever has its pid now) is alive.
    }
    stale.push_back(absl::StrCat(where.own_dir, "/", entry->d_name));
  }
  closedir(dir);
  int removed = 0;
  for (const std::string& path : stale) {
    const int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;  // Gone meanwhile (its creator's Remove(), or another run's).
    // Exclusive, not waiting: refused while its creator lives (Create() holds it shared). rmdir then refuses a group
    // with processes or child groups (EBUSY): left alone.
    if (flock(fd, LOCK_EX | LOCK_NB) == 0 && rmdir(path.c_str()) == 0) ++removed;
    close(fd);
  }
  return removed;
}

}  // namespace uucore
