#include "utils/timeout/tree.h"

#include <errno.h>
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

bool GroupPopulated(const uucore::CgroupLeaf& leaf) {
  absl::StatusOr<uucore::CgroupEvents> events = leaf.ReadEvents();
  return !events.ok() || events->populated;
}

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

}  // namespace timeout
