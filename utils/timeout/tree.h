// utils/timeout/tree.h -- --tree: which backend reaches the command's whole tree.
//
// Owns: the choice of backend before the spawn (a cgroup v2 leaf, else the /proc walk, else only the process group)
// and why (-v), the leaf itself, and what --tree reads of it to know the tree is gone (cgroup.events). Must not touch:
// the signal mask, the command's process group, or any decision of when to signal (the supervisor's).
#ifndef UTILS_TIMEOUT_TREE_H_
#define UTILS_TIMEOUT_TREE_H_

#include <sys/types.h>

#include <optional>
#include <string>

#include "uucore/cgroup.h"
#include "utils/timeout/options.h"

namespace timeout {

// How --tree reaches the whole tree (README "timeout beyond GNU"): a cgroup v2 leaf the command starts in (exact,
// escape-proof), else the /proc walk of uucore/process_tree.h, else (no /proc of our own PID namespace) only the
// process group, as without --tree.
enum class TreeBackend { kNone, kCgroup, kProc, kProcessGroup };

// The backend's name in the report ("cgroup", "proc", "pgroup"); null for kNone.
const char* BackendName(TreeBackend backend);

// Whether the cgroup backend's group still holds a process; true where cgroup.events cannot be read (then the wait
// goes on until no child is left, as before).
bool GroupPopulated(const uucore::CgroupLeaf& leaf);

// Which backend --tree uses, and its cgroup leaf: a cgroup v2 group we may create (root, or a delegated subtree),
// else /proc of our own PID namespace, else the process group (said on stderr: --tree cannot do its job). With -v,
// says which one and why.
TreeBackend ChooseTreeBackend(const Options& options, pid_t self, std::optional<uucore::CgroupLeaf>* leaf);

}  // namespace timeout

#endif  // UTILS_TIMEOUT_TREE_H_
