// utils/timeout/tree.h -- --tree: the backend that reaches the command's whole tree, and when the tree is gone.
//
// Owns: the backend, chosen before the spawn (a cgroup v2 leaf the command starts in, exact and escape-proof; else
// the /proc walk of uucore/process_tree.h; else, with no /proc of our own PID namespace, only the process group, as
// without --tree), why (-v), the fall-backs from the cgroup to the walk, the leaf itself and its removal
// (RemoveLeaf(), called by the ending when it is time), signalling every process of the tree, and the rule for
// waiting until it is gone (TreeWait). Must not touch: the signal mask, the command's process group (group.h), or
// the decision of when and what to signal (the supervisor's).
#ifndef UTILS_TIMEOUT_TREE_H_
#define UTILS_TIMEOUT_TREE_H_

#include <sys/types.h>

#include <optional>

#include "absl/status/status.h"
#include "uucore/cgroup.h"
#include "uucore/process.h"
#include "utils/timeout/options.h"

namespace timeout {

enum class TreeBackend { kNone, kCgroup, kProc, kProcessGroup };

// The backend's name in the report ("cgroup", "proc", "pgroup"); null for kNone.
const char* BackendName(TreeBackend backend);

// Tree
//
// --tree's reach, for the whole run. Without --tree: kNone, and nothing here is asked.
class Tree {
 public:
  // SetUp()
  //
  // With --tree, before the spawn: chooses the backend (a cgroup v2 group we may create: root, or a delegated
  // subtree; else /proc of our own PID namespace; else the process group, said on stderr: --tree cannot do its
  // job; with -v, says which and why) and, for the cgroup and the walk, makes timeout a subreaper, so that no
  // descendant can be orphaned to init before we reap it. `self`: timeout's pid, the root of the walk.
  // Error: BecomeSubreaper()'s (timeout exits 125).
  absl::Status SetUp(const Options& options, pid_t self);

  TreeBackend backend() const { return backend_; }
  // Whether signals reach every descendant (the cgroup or the walk), and every orphan comes to us to be reaped.
  bool reaches_all() const { return backend_ == TreeBackend::kCgroup || backend_ == TreeBackend::kProc; }
  // The cgroup backend's group, once made; kept when a signal falls back to the walk (its account is still read).
  uucore::CgroupLeaf* leaf() { return leaf_.has_value() ? &*leaf_ : nullptr; }
  const uucore::CgroupLeaf* leaf() const { return leaf_.has_value() ? &*leaf_ : nullptr; }

  // The kernel refused to start the command in the cgroup (clone3; `why`); nothing was started. The /proc walk
  // instead, said with -v; the leaf is removed before the command starts again: nothing of it is left for the run.
  void StartOutsideTheCgroup(const absl::Status& why);

  // The cgroup backend's group is removed (its processes all gone), if there is one. Before timeout may die of the
  // command's signal, which runs no destructor (the leaf's own would remove it too); the leaf's account is read
  // first (the report's).
  void RemoveLeaf() {
    if (leaf_.has_value()) (void)leaf_->Remove();
  }

  // The group the cgroup backend may signal with one kill (ProcessGroup::OursAlone()), once the command runs.
  void set_group_of_ours(pid_t group) { group_of_ours_ = group; }

  // Signal()
  //
  // Every process of the tree: the cgroup's all at once, else the /proc walk (which a cgroup that refuses falls back
  // to for the rest of the run, said with -v). Errors are ignored, as for a process group. `stopped`: whether a
  // stopped process is continued (uucore::StoppedProcesses). Returns how many processes were signalled, if
  // `counted` (the caller reads the count: --report); without, a KILL to the cgroup may be one write to its
  // cgroup.kill, which counts nothing (0).
  int Signal(int sig, uucore::StoppedProcesses stopped, bool counted);

 private:
  void UseTheWalk(const absl::Status& why);  // -v: "--tree: backend proc (WHY)".

  const Options* options_ = nullptr;
  pid_t self_ = 0;
  TreeBackend backend_ = TreeBackend::kNone;
  std::optional<uucore::CgroupLeaf> leaf_;
  // A process group that holds nothing but the tree and us (group.h), or 0. The cgroup backend signals its members
  // with one kill(-group_of_ours) (uucore/cgroup.h).
  pid_t group_of_ours_ = 0;
};

// GroupPopulated()
//
// Whether the cgroup backend's group still holds a process; true where cgroup.events cannot be read (then the wait
// goes on until no child is left, as before).
bool GroupPopulated(const uucore::CgroupLeaf& leaf);

// TreeWait
//
// Whether timeout, its command reaped, waits on for the tree: the rule, asked on each SIGCHLD in two looks, one
// before reaping and one after (uucore::ReapChildren()'s children_left).
class TreeWait {
 public:
  // Before reaping. The cgroup backend's tree is the group: a child of ours outside it (one started before us and
  // inherited through exec, as by `sh -c 'daemon & exec timeout --tree ...'`) is neither signalled nor waited for
  // (it kept timeout waiting for as long as it ran). Read before reaping, so that a member that exits in between is
  // reaped now (one still unreaped after is found by its /proc/PID/cgroup: KeepWaiting()); and only where the answer
  // is used (`waiting`: a tree signalled, or --tree=exit), not on every child's exit of a plain --tree run.
  TreeWait(const Tree& tree, bool waiting)
      : tree_(tree),
        by_group_(waiting && tree.backend() == TreeBackend::kCgroup && tree.leaf() != nullptr),
        populated_(!by_group_ || GroupPopulated(*tree.leaf())) {}

  // After reaping: whether something of the tree is left (children of ours, and with the cgroup, in the group).
  bool TreeLeft(bool children_left) const { return children_left && populated_; }

  // After reaping the command: whether to go on waiting. --tree: once the tree was signalled, return only when
  // nothing of it is left (ECHILD, as subreaper; with the cgroup backend, also once the group is empty and no child
  // of ours is of it any more: the kernel takes a dying member out of the group's count before it becomes a zombie,
  // and a tracer can hold it there. Where /proc cannot tell, we do not wait: a child not of the group would keep us
  // waiting as long as it lives, and a member still on its way out is then left unreaped.)
  bool KeepWaiting(bool children_left, bool tree_signalled) const;

 private:
  const Tree& tree_;
  bool by_group_;
  bool populated_;
};

}  // namespace timeout

#endif  // UTILS_TIMEOUT_TREE_H_
