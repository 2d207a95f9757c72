#include "utils/timeout/tree.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "uucore/cgroup.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/process_tree.h"
#include "utils/timeout/options.h"

namespace timeout {
namespace {

// --tree needs /proc of our own PID namespace to list descendants. Empty if it has one, else why not: not mounted
// (common in minimal images), or the /proc of another namespace (`unshare --pid --fork` without --mount-proc),
// where every pid it lists would be a stranger's.
std::string WhyNoProcessList(pid_t self) {
  char link[32];
  const ssize_t n = readlink("/proc/self", link, sizeof link - 1);
  if (n < 0) return errno == ENOENT ? "/proc is not mounted" : uucore::ErrnoText(errno);
  link[n] = '\0';
  if (absl::string_view(link) != absl::StrCat(self)) return "/proc belongs to another PID namespace";
  return "";
}

// Which backend --tree uses, and its cgroup leaf (see Tree::SetUp()).
TreeBackend ChooseTreeBackend(const Options& options, pid_t self, std::optional<uucore::CgroupLeaf>* leaf) {
  absl::StatusOr<uucore::Cgroup2Location> where = uucore::FindCgroup2();
  absl::Status no_cgroup = where.status();
  if (where.ok()) {
    (void)uucore::RemoveStaleLeaves(*where);  // Left by an earlier timeout that was SIGKILLed, once empty.
    absl::StatusOr<uucore::CgroupLeaf> made = uucore::CgroupLeaf::Create(*where);
    if (made.ok()) {
      leaf->emplace(*std::move(made));
      // Before the command starts, so that this line comes before anything it writes (if clone3 then refuses the
      // group, a second line names the proc backend and why).
      if (options.verbose) uucore::Notice("--tree: backend cgroup");
      return TreeBackend::kCgroup;
    }
    no_cgroup = made.status();
  }
  const std::string why_not = WhyNoProcessList(self);
  if (!why_not.empty()) {
    uucore::Notice(uucore::Format("--tree: cannot list processes (%s); signalling the process group only", why_not));
    return TreeBackend::kProcessGroup;
  }
  if (options.verbose) uucore::Notice(absl::StrCat("--tree: backend proc (no cgroup: ", no_cgroup.message(), ")"));
  return TreeBackend::kProc;
}

}  // namespace

const char* BackendName(TreeBackend backend) {
  switch (backend) {
    case TreeBackend::kCgroup: return "cgroup";
    case TreeBackend::kProc: return "proc";
    case TreeBackend::kProcessGroup: return "pgroup";
    case TreeBackend::kNone: break;
  }
  return nullptr;
}

absl::Status Tree::SetUp(const Options& options, pid_t self) {
  options_ = &options;
  self_ = self;
  if (options.kill_tree == KillTree::kOff) return absl::OkStatus();
  backend_ = ChooseTreeBackend(options, self, &leaf_);
  if (!reaches_all()) return absl::OkStatus();
  return uucore::BecomeSubreaper();
}

void Tree::UseTheWalk(const absl::Status& why) {
  if (options_->verbose) uucore::Notice(absl::StrCat("--tree: backend proc (", why.message(), ")"));
  backend_ = TreeBackend::kProc;
}

void Tree::StartOutsideTheCgroup(const absl::Status& why) {
  UseTheWalk(why);
  leaf_.reset();
}

int Tree::Signal(int sig, uucore::StoppedProcesses stopped, bool counted) {
  if (backend_ == TreeBackend::kCgroup) {
    // KILL with nobody to read the count: cgroup.kill at once, not after a listing of the group (1% of the floor at
    // 100 processes, 0.5% at 1,000, in helper phases on the 2-core VM).
    if (sig == SIGKILL && !counted && leaf_->features().kill && leaf_->Kill().ok()) return 0;
    absl::StatusOr<int> n = leaf_->Signal(sig, stopped, group_of_ours_);
    if (n.ok()) return *n;
    UseTheWalk(n.status());
  }
  absl::StatusOr<int> n = uucore::SignalDescendants(self_, sig, uucore::Enumeration::kAuto, stopped);
  return n.ok() ? *n : 0;
}

bool GroupPopulated(const uucore::CgroupLeaf& leaf) {
  absl::StatusOr<uucore::CgroupEvents> events = leaf.ReadEvents();
  return !events.ok() || events->populated;
}

bool TreeWait::KeepWaiting(bool children_left, bool tree_signalled) const {
  if (tree_signalled && TreeLeft(children_left)) return true;
  return by_group_ && children_left && !populated_ &&
         uucore::AChildIsInCgroup(tree_.leaf()->proc_path()).value_or(false);
}

}  // namespace timeout
