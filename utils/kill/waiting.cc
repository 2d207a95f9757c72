// utils/kill/waiting.cc -- --timeout and --wait: the targets' pidfds in one ppoll, never a sleep or a look at /proc.
#include "utils/kill/waiting.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "utils/kill/options.h"
#include "utils/kill/sending.h"
#include "uucore/cli.h"
#include "uucore/pidfd.h"
#include "uucore/signal_wait.h"

namespace kill_utility {
namespace {

void StopFollowing(Followed* target) {
  if (target->pidfd >= 0) close(target->pidfd);
  target->pidfd = -1;
}

// Waits until every followed target has exited or the deadline passes; those that have exited are no longer
// followed. False, reported, if the wait itself failed.
bool AwaitExits(Following* following, uucore::Deadline deadline) {
  fflush(stdout);  // --verbose's lines so far, before a wait that may be long.
  std::vector<int> pidfds;
  for (const Followed& target : following->targets) pidfds.push_back(target.pidfd);
  absl::StatusOr<std::vector<bool>> exited = uucore::WaitForExits(pidfds, deadline, &following->timer);
  if (!exited.ok()) {
    uucore::Error(exited.status().message());
    return false;
  }
  for (size_t i = 0; i < following->targets.size(); ++i) {
    if ((*exited)[i]) StopFollowing(&following->targets[i]);
  }
  return true;
}

// A follow-up signal to each target still running. False if one could not be sent (reported; no longer followed).
bool SendFollowUp(const Options& options, int signal, std::vector<Followed>* followed) {
  bool sent = true;
  for (Followed& target : *followed) {
    if (target.pidfd < 0) continue;
    if (options.verbose) printf("timeout, sending signal %d to pid %d\n", signal, static_cast<int>(target.pid));
    // ESRCH through a pidfd: the target has exited since the wait, which is what the signal was for.
    if (Deliver(options, target.pid, target.pidfd, signal) == 0 || errno == ESRCH) continue;
    ReportError(target.arg, errno);
    StopFollowing(&target);
    sent = false;
  }
  return sent;
}

bool AnyRunning(const std::vector<Followed>& followed) {
  for (const Followed& target : followed) {
    if (target.pidfd >= 0) return true;
  }
  return false;
}

}  // namespace

int FollowAndWait(const Options& options, Following* following, int status) {
  bool waited = true;
  for (const FollowUp& follow_up : options.follow_ups) {
    waited = AwaitExits(following, uucore::Deadline::In(follow_up.after));
    if (!waited) break;
    if (!SendFollowUp(options, follow_up.signal, &following->targets)) status = uucore::kExitFailure;
  }
  if (waited && options.wait) waited = AwaitExits(following, uucore::Deadline::In(options.wait_limit));
  const bool timed_out = waited && options.wait && AnyRunning(following->targets);
  for (Followed& target : following->targets) StopFollowing(&target);
  if (!waited) return uucore::kExitFailure;
  return timed_out ? uucore::kExitTimedOut : status;
}

}  // namespace kill_utility
