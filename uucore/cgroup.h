// uucore/cgroup.h -- a cgroup v2 leaf group for one command's whole tree: create, start into, signal, watch, remove.
//
// For timeout --tree (issue 16). A cgroup v2 group holds every descendant of a process started in it, however they
// fork, setsid or double-fork; the kernel kills them all at once (cgroup.kill), freezes them (cgroup.freeze), and
// says when the last one has gone (`populated 0` in cgroup.events, a pollable file).
//
//   absl::StatusOr<uucore::Cgroup2Location> where = uucore::FindCgroup2();
//   absl::StatusOr<uucore::CgroupLeaf> leaf = where.ok() ? uucore::CgroupLeaf::Create(*where) : where.status();
//   if (!leaf.ok()) ... fall back to the /proc walk (uucore/process_tree.h), saying why: leaf.status().message()
//   spawn.cgroup_fd = leaf->dir_fd();                          // clone3(CLONE_INTO_CGROUP): inside from the start
//   ... on expiry: leaf->Signal(SIGTERM); poll leaf->events_fd() for POLLPRI; leaf->ReadEvents()->populated ...
//   (void)leaf->Remove();                                      // also done by the destructor, on every path
//
// Every step the kernel or the hierarchy refuses returns a Status (never aborts), so that the caller can fall back.
// Nothing here prints, exits, or changes signal dispositions or masks. Requires Linux 5.2 (cgroup.freeze) for
// Signal() of other signals than KILL, 5.14 (cgroup.kill) for SIGKILL through cgroup.kill (else the freeze path),
// 5.7 for clone3(CLONE_INTO_CGROUP) (uucore/process.h).
#ifndef UUCORE_CGROUP_H_
#define UUCORE_CGROUP_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "uucore/process.h"
#include "uucore/process_tree.h"

namespace uucore {

// Where the cgroup v2 hierarchy is mounted and which of its groups the caller is in.
struct Cgroup2Location {
  std::string mount_point;  // "/sys/fs/cgroup" (pure v2) or "/sys/fs/cgroup/unified" (hybrid layout)
  std::string own_path;     // The caller's group as /proc/self/cgroup names it ("0::PATH"): "/", "/user.slice/..."
  std::string own_dir;      // The directory of that group under mount_point: where a child group is created
};

// FindCgroup2(), FindCgroup2In()
//
// Finds the cgroup v2 mount (fstype "cgroup2" in /proc/self/mountinfo) under which the caller's own v2 group (the
// "0::PATH" line of /proc/self/cgroup) is visible: PATH must lie under that mount's root (field 4 of mountinfo; not
// "/" for a bind mount of a subtree or a mount made outside the caller's cgroup namespace). Octal escapes of
// mountinfo ("\040" for a space) are decoded. The first such mount in mountinfo order wins.
// FindCgroup2In() parses the given texts instead of the caller's files (for tests).
// Errors: NotFound "no cgroup2 file system is mounted", "not in a cgroup v2 group (no 0:: line in
// /proc/self/cgroup)", "our cgroup v2 group PATH was removed", "our cgroup v2 group PATH is outside our cgroup
// namespace" (PATH /../...), "our cgroup v2 group PATH is not visible under any cgroup2 mount"; the errno of reading
// either file (no /proc).
[[nodiscard]] absl::StatusOr<Cgroup2Location> FindCgroup2();
[[nodiscard]] absl::StatusOr<Cgroup2Location> FindCgroup2In(absl::string_view mountinfo, absl::string_view cgroup);

// What a leaf group offers beyond cgroup.procs and cgroup.events, which every v2 group has. Files of controllers
// exist only where the parent enables the controller (cgroup.subtree_control); on a hybrid layout the memory
// controller usually stays with v1, and memory.peak is absent.
struct CgroupFeatures {
  bool kill = false;         // cgroup.kill (Linux 5.14), opened for writing by Create()
  bool freeze = false;       // cgroup.freeze (Linux 5.2), opened for reading and writing by Create()
  bool cpu_stat = false;     // cpu.stat with usage_usec, user_usec, system_usec (core file, every group)
  bool memory_peak = false;  // memory.peak (memory controller enabled for the group, Linux 5.19)
};

// The lines of cgroup.events.
struct CgroupEvents {
  bool populated = false;  // A live process is in the group or one of its descendant groups (zombies do not count).
  bool frozen = false;     // The group, with all its descendants, is frozen.
};

// Time spent by the group's processes, those that have exited included (cpu.stat).
struct CgroupCpu {
  absl::Duration usage, user, system;
};

// CgroupLeaf
//
// A leaf group this process created under its own group, removed again when the object is destroyed. Move-only.
// If the creating process dies without removing it (SIGKILL), the group stays: its processes run on in it, and the
// directory stays after they exit until someone removes it; RemoveStaleLeaves() does that for a later run.
class CgroupLeaf {
 public:
  // Create()
  //
  // Makes a new group `where.own_dir/PREFIX.NS.PID.N.l` (NS the caller's pid namespace inode, PID its pid, N a counter:
  // unique on this system while the caller lives; on EEXIST the next N is tried) and opens it for
  // clone3(CLONE_INTO_CGROUP), cgroup.events, and for writing cgroup.kill and cgroup.freeze (held, so that Kill() and
  // Freeze() need no new descriptor: the group can be killed and thawed however few the caller has left). Checks
  // first that a process may be moved in under our own group: its cgroup.procs must be writable (the common
  // ancestor's, as the kernel requires of a migration), which holds for root and in a delegated subtree. A new leaf
  // has no controllers enabled below it, so the "no internal processes" rule of cgroup v2 does not refuse it, whether
  // or not our own group has processes. The directory's descriptor holds a shared flock(2) until Remove() (or the
  // process's death) closes it: RemoveStaleLeaves() never removes a leaf whose creator lives (the ".l" says so to
  // it; versions before 5 December 2026 made PREFIX.NS.PID.N without a lock).
  // `prefix` must be a plain file name without '.'.
  // Errors: PermissionDenied "cgroup DIR is not delegated to us: cannot write DIR/cgroup.procs" (or mkdir's EACCES,
  // EPERM, EROFS with "cannot create cgroup DIR: REASON"); the errno of mkdir or open otherwise (ENOSPC or EAGAIN
  // when cgroup.max.descendants or cgroup.max.depth is reached); flock's errno "cannot lock cgroup DIR" (ENOLCK, or
  // EWOULDBLOCK after 1,000 leaves taken by removers); InvalidArgument for a bad prefix.
  [[nodiscard]] static absl::StatusOr<CgroupLeaf> Create(const Cgroup2Location& where,
                                                         absl::string_view prefix = "coreutils-timeout");

  CgroupLeaf(CgroupLeaf&& other) noexcept;
  CgroupLeaf& operator=(CgroupLeaf&& other) noexcept;
  CgroupLeaf(const CgroupLeaf&) = delete;
  CgroupLeaf& operator=(const CgroupLeaf&) = delete;
  ~CgroupLeaf();  // Remove(), errors ignored.

  // The group's directory (absolute), and an O_RDONLY|O_DIRECTORY|O_CLOEXEC descriptor of it for
  // SpawnOptions::cgroup_fd. -1 after Remove().
  const std::string& path() const { return path_; }
  int dir_fd() const { return dir_fd_; }
  // The group as the "0::PATH" line of /proc/PID/cgroup names it for a process in it (Cgroup2Location::own_path
  // and the leaf's name). A process keeps naming it until it is reaped, while it exits and as a zombie, though the
  // group no longer counts it in `populated`.
  const std::string& proc_path() const { return proc_path_; }

  // events_fd()
  //
  // An O_RDONLY|O_CLOEXEC descriptor of cgroup.events, for poll/ppoll/epoll in the caller's one wait loop: the kernel
  // reports POLLPRI|POLLERR once the file has changed (populated or frozen flipped) since it was last read; ReadEvents()
  // reads it from offset 0, which re-arms it. POLLIN is always set and means nothing. -1 after Remove().
  int events_fd() const { return events_fd_; }

  // What this group offers (probed once by Create()).
  const CgroupFeatures& features() const { return features_; }

  // ReadEvents()
  //
  // The current cgroup.events (pread at offset 0: re-arms events_fd()). `populated` turns false when the last
  // process of the group and its descendant groups has exited; exited processes may still be zombies waiting to be
  // reaped by their parent (or the subreaper).
  // Error: the errno of pread; Internal if the file has neither line.
  [[nodiscard]] absl::StatusOr<CgroupEvents> ReadEvents() const;

  // Procs()
  //
  // The processes (thread group ids) in the group and in its descendant groups (those a nested `timeout --tree`
  // made), from cgroup.procs of each. A snapshot, unless the group is frozen.
  // Error: the errno of reading the group's own cgroup.procs.
  [[nodiscard]] absl::StatusOr<std::vector<pid_t>> Procs() const;

  // Signal()
  //
  // Sends `sig` to every process in the group and its descendant groups, returns how many processes were signalled.
  //   - SIGKILL with cgroup.kill: counts Procs(), then writes "1" to cgroup.kill; the kernel kills every process
  //     in the subtree, including those forked meanwhile, atomically. The count is of the processes there just
  //     before.
  //   - Any other signal (or KILL without cgroup.kill) with cgroup.freeze: writes "1" to cgroup.freeze (once that
  //     returns, every member is marked to trap before it runs any more of its own code: no handler runs and nobody
  //     starts a fork; one under way completes), waits up to `freeze_wait` for `frozen 1` in cgroup.events (a
  //     process in uninterruptible sleep can delay it), then reads Procs() and signals each through a pidfd (the
  //     pid is checked to be still in the group after the pidfd is taken, so a reused pid is never signalled;
  //     kill() where pidfds are unavailable), then thaws ("0"), on every path, unless the group was frozen before
  //     the call. When this call froze the group and the caller is a child subreaper (timeout --tree) that does not
  //     reap during the call (no other thread, no SIGCHLD handler), one listing and kill() each: zombies wait for a
  //     frozen parent or the caller, so no listed pid is reused (unless a parent ignores SIGCHLD; see cgroup.cc).
  //     A signal with a handler runs once thawed; a default fatal one kills a frozen process at once. If the freeze
  //     does not complete in time, the processes are signalled anyway, listed until a pass finds none new (a process
  //     forked in that window may be missed; a later KILL through cgroup.kill misses none).
  //   - Without cgroup.freeze: the same listing passes without the freeze.
  // In both listing paths each process signalled then gets SIGCONT (unless `sig` is KILL or CONT), so that a stopped
  // one acts on `sig`, as timeout continues a process group it signals; with `stopped` kLeave it does not (the
  // freezer leaves job control alone: a process stopped before the freeze is stopped after the thaw).
  // sig 0 counts Procs() and sends nothing. Errors for single processes (ESRCH, EPERM) are ignored, as kill(1) of
  // a group would.
  // `group` (0: none) is a process group that the caller vouches for: outside this cgroup it holds no process that
  // `sig` must spare (timeout's own new group: timeout itself, and whoever joins it on purpose). On the one-listing
  // path, the listed members of that group get `sig` (and SIGCONT) through one kill(-group), which the kernel
  // delivers to all without preemption, as cgroup.kill does, instead of one kill() each (`helper phases`, 100
  // processes in one group, 2-core VM: TERM 4.1 -> 3.7 ms, KILL's cgroup.kill 3.3). The others still get one kill()
  // each. kill(-group) also reaches the group's members outside the cgroup: a descendant that moved itself to
  // another cgroup (it takes write access to one) but kept its process group gets `sig` (not a later KILL through
  // cgroup.kill), and is not counted. A caller that is itself in `group` gets this only for a signal the calling
  // thread blocks (a caller with other threads blocks it in those too), and its own copy is taken back at once
  // (sigtimedwait; unless one was pending before), so that a later signal from elsewhere is not merged into it;
  // KILL, STOP and any signal it does not block go one by one. So do the members when kill(-group) signals no one.
  // Errors: the errno of writing cgroup.kill or cgroup.freeze or of reading cgroup.procs (the caller falls back to
  // the /proc walk); FailedPrecondition after Remove().
  [[nodiscard]] absl::StatusOr<int> Signal(int sig, StoppedProcesses stopped = StoppedProcesses::kContinue,
                                           pid_t group = 0, absl::Duration freeze_wait = absl::Seconds(1));

  // Kill()
  //
  // Writes "1" to cgroup.kill (no count, no read first).
  // Errors: Unimplemented without cgroup.kill (Linux < 5.14); the errno of the write; FailedPrecondition after
  // Remove().
  absl::Status Kill();

  // Freeze()
  //
  // Writes "1" (frozen) or "0" to cgroup.freeze and, when freezing, waits up to `wait` for `frozen 1`. The kernel
  // sends cgroup.events' notifications at most once per 10 ms per file (cgroup_file_notify()): a freeze within
  // ~10 ms of the file's last change (the command's start, an earlier freeze or thaw) is seen when that interval
  // ends (measured here: 11-14 ms, against 0.2 ms otherwise); it is read once at once, before any wait.
  // Errors: Unimplemented without cgroup.freeze (Linux < 5.2); DeadlineExceeded "cgroup PATH not frozen after
  // WAIT" (the freeze stays requested); the errno of the write or of poll.
  absl::Status Freeze(bool frozen, absl::Duration wait = absl::Seconds(1));

  // ReadCpu()
  //
  // cpu.stat's usage_usec, user_usec and system_usec: CPU time of every process that ran in the group, exited ones
  // included, from the moment they entered it.
  // Errors: Unimplemented without cpu.stat; the errno of reading it.
  [[nodiscard]] absl::StatusOr<CgroupCpu> ReadCpu() const;

  // ReadMemoryPeak()
  //
  // memory.peak in bytes: the group's highest memory use (all its processes together, page cache included).
  // Errors: Unimplemented without memory.peak; the errno of reading it.
  [[nodiscard]] absl::StatusOr<int64_t> ReadMemoryPeak() const;

  // Remove()
  //
  // Removes the group (rmdir) and closes its descriptors. Descendant groups are removed first (deepest first). A
  // group that still has processes (the command exited leaving daemons, under `--tree=timeout`) is emptied first:
  // frozen, its processes moved to our own group (written to its cgroup.procs, where they run on exactly as they
  // would have without the leaf), then removed. Idempotent: succeeds at once after a successful Remove().
  // Errors: the errno of the last rmdir or move (the group is then left; the descriptors are closed anyway).
  absl::Status Remove();

 private:
  CgroupLeaf(std::string path, std::string parent_dir, int dir_fd, int events_fd, int kill_fd, int freeze_fd,
             CgroupFeatures features);
  void CloseFds();
  // Signal()'s freeze: freezes the group unless it is frozen already (by the caller, or a SIGSTOP-like request: it
  // stays so), waiting up to `wait`. *thaw: this call asked for the freeze and must lift it; *frozen_by_us: the
  // freeze completed in time. Error: ReadFd()'s or Freeze()'s but DeadlineExceeded (the freeze then lifted).
  absl::Status FreezeToSignal(absl::Duration wait, bool* thaw, bool* frozen_by_us);

  std::string path_;
  std::string proc_path_;
  std::string parent_dir_;  // Our own group's directory, where leftovers go.
  int dir_fd_ = -1;
  int events_fd_ = -1;
  // cgroup.kill and cgroup.freeze (read and write), open from Create() on: KILL, the freeze state and the thaw need
  // no new descriptor, so a caller whose descriptors have run out can still kill the group and never leaves it frozen.
  int kill_fd_ = -1;
  int freeze_fd_ = -1;
  CgroupFeatures features_;
};

// AChildIsInCgroup()
//
// Whether a child of the caller is in the cgroup v2 group `group` or below it, by the "0::PATH" line of its
// /proc/PID/cgroup (`group` as that line names it: CgroupLeaf::proc_path()). Live or not: the kernel takes an
// exiting process out of its group's count (cgroup_exit(), `populated`) before it becomes a zombie and signals its
// parent, and a tracer can hold it there, yet its cgroup file names the group until it is reaped (with " (deleted)"
// after it once the group has been removed). So where a group says `populated 0`, this tells its last members, still
// to be reaped, from children that were never in it. The children: ListChildren(how) (uucore/process_tree.h). A
// child that leaves meanwhile may be missed: its SIGCHLD follows.
// Error: ListChildren()'s.
[[nodiscard]] absl::StatusOr<bool> AChildIsInCgroup(absl::string_view group, Enumeration how = Enumeration::kAuto);

// RemoveStaleLeaves()
//
// Removes the groups a CgroupLeaf::Create() with this prefix left under `where.own_dir` in an earlier run that
// died without Remove() (SIGKILL), once they are empty (rmdir refuses a group with processes or child groups, so a
// group in use is never removed). A group goes only if an exclusive flock(2) on it is granted at once, which its
// creator's shared lock refuses while the creator lives, in any PID namespace: so also the groups of namespaces
// gone for good, whose creators no pid can name. Of our own namespace, a group whose creator pid exists is not even
// opened; one with our own pid counts as ours only if this process's Create() made it (else it was left by an
// earlier process that had our pid in a namespace with our namespace's inode: each container's PID 1). Groups
// made by versions without the lock (no ".l") are taken only from our own namespace, by the pid rules above (one of
// another namespace may have a live creator that holds no lock). Returns how many were removed.
// Error: the errno of opendir(where.own_dir).
[[nodiscard]] absl::StatusOr<int> RemoveStaleLeaves(const Cgroup2Location& where,
                                                    absl::string_view prefix = "coreutils-timeout");

}  // namespace uucore

#endif  // UUCORE_CGROUP_H_
