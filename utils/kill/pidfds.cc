#include "utils/kill/pidfds.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "utils/kill/options.h"
#include "utils/kill/targets.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"

namespace kill_utility {
namespace {

// The soft limit of open files up to the hard one: a pidfd per target is held until the last wait. Nothing is
// exec'd, so no child inherits the raised limit.
void RaiseOpenFileLimit() {
  rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);  // Raising the soft limit to the hard one is always allowed.
}

bool OutOfDescriptors(int err) { return err == EMFILE || err == ENFILE; }

void ReportTooMany(const Options& options, int targets) {
  rlimit limit = {};
  getrlimit(RLIMIT_NOFILE, &limit);
  uucore::Error(uucore::Format("%s: cannot open a pidfd for each of %d targets within the limit of %llu open files: "
                               "nothing sent",
                               options.wait ? "--wait" : "--timeout", targets,
                               static_cast<unsigned long long>(limit.rlim_cur)));  // NOLINT(runtime/int)
}

void CloseAll(std::vector<TargetPidfd>* pidfds) {
  for (TargetPidfd& pidfd : *pidfds) {
    if (pidfd.fd >= 0) close(pidfd.fd);
  }
  pidfds->clear();
}

}  // namespace

TargetPidfd OpenTargetPidfd(pid_t pid) {
  TargetPidfd pidfd;
  pidfd.fd = uucore::PidfdOpen(pid);
  if (pidfd.fd >= 0) return pidfd;
  pidfd.err = errno;
  if (pidfd.is_a_thread() && kill(pid, 0) != 0 && errno == ESRCH) pidfd.err = ESRCH;  // Gone, not a thread.
  return pidfd;
}

bool OpenEveryPidfd(const Options& options, std::vector<TargetPidfd>* pidfds, uucore::DeadlineTimer* timer) {
  RaiseOpenFileLimit();
  absl::StatusOr<uucore::DeadlineTimer> made = uucore::DeadlineTimer::Create();  // First: the waits need it too.
  if (!made.ok()) {
    uucore::Error(made.status().message());
    return false;
  }
  *timer = *std::move(made);
  bool room = true;
  int targets = 0;
  for (char* const* arg = options.operands; *arg != nullptr; ++arg) {
    Target target;
    const bool valid = ParseTarget(*arg, &target);  // A group is a usage error by now: every valid one is a process.
    pidfds->push_back(valid && room ? OpenTargetPidfd(target.pid) : TargetPidfd());
    targets += valid ? 1 : 0;
    room = room && !OutOfDescriptors(pidfds->back().err);
  }
  if (room) return true;
  CloseAll(pidfds);
  ReportTooMany(options, targets);
  return false;
}

}  // namespace kill_utility
