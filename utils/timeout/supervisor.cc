#include "utils/timeout/supervisor.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "uucore/cgroup.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/process_tree.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "utils/timeout/pid1.h"
#include "utils/timeout/report.h"

namespace timeout {

void Monitor::Report(int sig, bool descendants) const {
  if (!options.verbose) return;
  const std::string name = timeout_report::SignalWord(sig);  // "sending signal 0", as GNU 9.10.
  const std::string command = uucore::Quote(options.command[0]);
  uucore::Notice(descendants ? uucore::Format("sending signal %s to the descendants of command %s", name, command)
                             : uucore::Format("sending signal %s to command %s", name, command));
}

void Monitor::SignalTree(int sig, uucore::StoppedProcesses stopped) {
  if (backend == TreeBackend::kCgroup) {
    // KILL without --report: nobody reads the count, so cgroup.kill at once, not after a listing of the group
    // (1% of the floor at 100 processes, 0.5% at 1,000, in helper phases on the 2-core VM).
    if (sig == SIGKILL && options.report == nullptr && leaf->features().kill && leaf->Kill().ok()) return;
    absl::StatusOr<int> n = leaf->Signal(sig, stopped, group_of_ours);
    if (n.ok()) {
      signalled += *n;
      return;
    }
    if (options.verbose) uucore::Notice(absl::StrCat("--tree: backend proc (", n.status().message(), ")"));
    backend = TreeBackend::kProc;
  }
  absl::StatusOr<int> n = uucore::SignalDescendants(self, sig, uucore::Enumeration::kAuto, stopped);
  if (n.ok()) signalled += *n;
}

void Monitor::Send(int sig, bool cont) {
  Report(sig, /*descendants=*/command_status.has_value());  // --tree after the command's exit: only they are left.
  if (tree()) {
    // Every descendant, frozen first so none can fork out of reach (uucore/cgroup.h, uucore/process_tree.h).
    if (cont) tree_signalled = true;
    SignalTree(sig, cont ? uucore::StoppedProcesses::kContinue : uucore::StoppedProcesses::kLeave);
    return;
  }
  // Errors are ignored, as GNU does: the command may already have exited (ESRCH), and then its exit is next.
  if (options.foreground && !pid1) {
    if (uucore::SendSignal(child, sig).ok()) ++signalled;  // Only the command itself: its children are not timed out.
    return;
  }
  // The command once, even though GNU signals it twice (by pid and with the group), which lets a shell that traps
  // the signal run its trap twice. Our own copy of the group's signal (when it is our group) is blocked and
  // dropped. As PID 1 with --foreground the command has its own group, but only the command is signalled.
  const bool whole_group = !options.foreground;
  const bool left_group = !whole_group || getpgid(child) != group;  // setsid, a shell's job, or --foreground.
  const bool killing_ourselves = whole_group && sig == SIGKILL && group == getpgrp();
  if (killing_ourselves && before_killing_ourselves) {
    before_killing_ourselves(left_group ? 2 : 1);  // While the command still runs.
  }
  // The command first (as GNU): a KILL to our own group ends timeout before its next line.
  if (left_group && uucore::SendSignal(child, sig).ok()) ++signalled;
  if (whole_group && uucore::SendSignal(-group, sig).ok()) ++signalled;  // A group counts as one (--report).
  if (cont && sig != SIGKILL && sig != SIGCONT) {
    // A stopped process acts on the signal only once continued.
    if (whole_group) (void)uucore::SendSignal(-group, SIGCONT);
    if (left_group) (void)uucore::SendSignal(child, SIGCONT);
  }
}

void Monitor::Expire(bool alarm_signal) {
  // Once the command has ended (--tree waiting for what it left), its status stands: this only clears the rest.
  if (!command_status.has_value()) {
    timed_out = true;
    // The report's timed_out is the limit itself (or ALRM), not -k's KILL after a signal passed on: that ending
    // was the caller's (a clock read, at expiry only).
    if (outcome != nullptr && !outcome->timed_out && (alarm_signal || limit.HasPassed())) {
      outcome->timed_out = true;
      outcome->signal = next_signal;
    }
  }
  limit = kill_at = uucore::Deadline::Never();
  if (kill_armed) killed = true;
  Send(next_signal);
  ArmKill();
}

void Monitor::Forward(int sig) {
  if (outcome != nullptr && std::find(outcome->forwarded.begin(), outcome->forwarded.end(), sig) ==
                                outcome->forwarded.end()) {
    outcome->forwarded.push_back(sig);
  }
  Send(sig, /*cont=*/!IsPassedOnAsPid1Only(sig));
  if (!pid1 || IsStopRequest(sig)) ArmKill();
}

void Monitor::CleanUpAfter() {
  Report(next_signal, /*descendants=*/true);
  tree_signalled = true;
  limit = uucore::Deadline::Never();  // The command's own timer is over; only -k counts now.
  if (kill_armed) killed = true;
  SignalTree(next_signal);
  ArmKill();
}

void Monitor::ArmKill() {
  if (kill_after == absl::ZeroDuration()) return;
  next_signal = SIGKILL;
  kill_armed = true;
  kill_at = uucore::Deadline::In(kill_after);
  kill_after = absl::ZeroDuration();
}

absl::Status ReapOnSigchld(Monitor& monitor, bool reap_all, bool* children_left) {
  *children_left = false;
  if (reap_all) {
    absl::StatusOr<uucore::Reaped> reaped = uucore::ReapChildren(monitor.child);
    if (!reaped.ok()) return reaped.status();
    if (reaped->watched.has_value()) monitor.command_status = reaped->watched;
    *children_left = reaped->children_left;
    return absl::OkStatus();
  }
  absl::StatusOr<std::optional<int>> reaped = uucore::TryReap(monitor.child);
  if (!reaped.ok()) return reaped.status();
  if (reaped->has_value()) monitor.command_status = **reaped;
  return absl::OkStatus();
}

}  // namespace timeout
