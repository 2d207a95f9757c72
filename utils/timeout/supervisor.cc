#include "utils/timeout/supervisor.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/process_tree.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "utils/timeout/pid1.h"
#include "utils/timeout/relay.h"
#include "utils/timeout/report.h"
#include "utils/timeout/signal_plan.h"
#include "utils/timeout/tree.h"

namespace timeout {

void Supervisor::ReportTo(timeout_report::Outcome* outcome, absl::Duration started,
                          std::function<void(int)> before_killing_ourselves) {
  outcome_ = outcome;
  started_ = started;
  before_killing_ourselves_ = std::move(before_killing_ourselves);
}

absl::Status Supervisor::Supervise(const SignalPlan& plan, Relay* relay, bool expired_while_starting) {
  // It has timed out however fast it ends now (GNU's timer, armed right after fork, has fired by then too): expire
  // before its exit can be seen, or a command quicker than our return from the spawn would escape a passed deadline.
  if (expired_while_starting) Expire();
  for (bool woke = false;; woke = true) {
    // After every wake: the wait reports the deadline only when nothing else is pending, so a command that never
    // pauses its output (-i), or a backlog of queued signals, would keep a passed deadline (the limit, -k's KILL)
    // from ever being seen. (Not before the first wait: `timeout 10 true` reads no clock for it.)
    if (woke && alarm().HasPassed()) Expire();
    absl::StatusOr<Wake> wake = NextWake(plan.block, relay);
    if (!wake.ok()) return wake.status();
    if (wake->output) {
      // Output restarts the timer, until the command has timed out or ended (--tree waiting for what it left:
      // their output moves nothing). A signal passed on does not stop it.
      if (options_.inactivity && !timed_out_ && !command_status_.has_value()) limit_ = LimitFromNow(options_);
      continue;  // What output does not move (-k's KILL) may have passed meanwhile: seen at the top.
    }
    if (wake->sig == 0) {  // The timer ran out.
      Expire();
      continue;
    }
    // Our own copy of a signal we sent to the group (kill(0, ...)), or a SIGPIPE of our own write: dropping it also
    // keeps `-s ALRM` from looping.
    if (wake->code == SI_USER && wake->sender == command_.self) continue;
    if (wake->sig != SIGCHLD) {
      OnSignal(wake->sig, plan.passed_on);
      continue;
    }
    absl::StatusOr<bool> done = OnChildExit();
    if (!done.ok()) return done.status();
    if (*done) {
      if (relay != nullptr) relay->Drain();
      return absl::OkStatus();
    }
  }
}

absl::StatusOr<Supervisor::Wake> Supervisor::NextWake(const sigset_t& waited, Relay* relay) {
  if (relay == nullptr) {
    siginfo_t info;
    absl::StatusOr<int> got = uucore::WaitForSignal(waited, alarm(), &info);
    if (!got.ok()) return got.status();
    return Wake{*got, info.si_code, info.si_pid};
  }
  absl::StatusOr<Relay::Event> event = relay->Wait(alarm());
  if (!event.ok()) return event.status();
  if (event->sig == Relay::kActivity) return Wake{0, 0, 0, /*output=*/true};
  if (event->sig == Relay::kWatched) {
    // cgroup.events changed (reading it re-arms it): when the group is empty, every process of the tree has
    // exited, and what is left to do is to reap them, as on SIGCHLD.
    if (tree_.leaf() != nullptr) (void)tree_.leaf()->ReadEvents();
    return Wake{SIGCHLD};
  }
  return Wake{event->sig, event->code, event->pid};
}

absl::StatusOr<bool> Supervisor::OnChildExit() {
  // Built before Reap(): cgroup.events read first, so a member that exits in between is reaped now (tree.h).
  const TreeWait tree_wait(tree_, tree_signalled_ || options_.kill_tree == KillTree::kOnExit);
  // Any child state change wakes us; only our command's exit ends the wait (stops and others' exits do not).
  bool children_left;
  absl::Status reaped = Reap(&children_left);
  if (!reaped.ok()) return reaped;
  if (!command_status_.has_value()) return false;
  if (outcome_ != nullptr && outcome_->elapsed == absl::ZeroDuration()) {
    outcome_->elapsed = uucore::MonotonicNow() - started_;
  }
  if (options_.kill_tree == KillTree::kOnExit && tree_.reaches_all() && tree_wait.TreeLeft(children_left) &&
      !tree_signalled_) {
    CleanUpAfter();
  }
  return !tree_wait.KeepWaiting(children_left, tree_signalled_);
}

void Supervisor::OnSignal(int sig, const sigset_t& passed_on) {
  // A signal we were started ignoring stays ignored. The disposition is ours from the start (only CHLD and the -s
  // signal's child copy are ever changed), so this asks the kernel only when such a signal arrives.
  if (uucore::IsIgnored(sig)) return;
  if (sigismember(&passed_on, sig) == 1) {
    Forward(sig);
    return;
  }
  if (sig == SIGALRM) {  // As GNU: someone else's ALRM is the timer running out (not as PID 1: passed on).
    Expire(/*alarm_signal=*/true);
    return;
  }
  // TTIN/TTOU, PIPE, or the -s signal: blocked only to be dropped.
}

void Supervisor::Notify(int sig, bool descendants) const {
  if (!options_.verbose) return;
  const std::string name = timeout_report::SignalWord(sig);  // "sending signal 0", as GNU 9.10.
  const std::string command = uucore::Quote(options_.command[0]);
  uucore::Notice(descendants ? uucore::Format("sending signal %s to the descendants of command %s", name, command)
                             : uucore::Format("sending signal %s to command %s", name, command));
}

void Supervisor::Send(int sig, bool cont) {
  Notify(sig, /*descendants=*/command_status_.has_value());  // --tree after the command's exit: only they are left.
  if (tree_.reaches_all()) {
    // Every descendant, frozen first so none can fork out of reach (uucore/cgroup.h, uucore/process_tree.h).
    if (cont) tree_signalled_ = true;
    signalled_ += tree_.Signal(sig, cont ? uucore::StoppedProcesses::kContinue : uucore::StoppedProcesses::kLeave,
                               /*counted=*/outcome_ != nullptr);
    return;
  }
  const pid_t child = command_.pid, group = command_.group;
  // Errors are ignored, as GNU does: the command may already have exited (ESRCH), and then its exit is next.
  if (options_.foreground && !command_.pid1) {
    if (uucore::SendSignal(child, sig).ok()) ++signalled_;  // Only the command itself: its children are not timed out.
    return;
  }
  // The command once, even though GNU signals it twice (by pid and with the group), which lets a shell that traps
  // the signal run its trap twice. Our own copy of the group's signal (when it is our group) is blocked and
  // dropped. As PID 1 with --foreground the command has its own group, but only the command is signalled.
  const bool whole_group = !options_.foreground;
  const bool left_group = !whole_group || getpgid(child) != group;  // setsid, a shell's job, or --foreground.
  const bool killing_ourselves = whole_group && sig == SIGKILL && group == getpgrp();
  if (killing_ourselves && before_killing_ourselves_) {
    outcome_->elapsed = uucore::MonotonicNow() - started_;  // The run ends with this KILL: no reaping to come.
    before_killing_ourselves_(left_group ? 2 : 1);  // While the command still runs.
  }
  // The command first (as GNU): a KILL to our own group ends timeout before its next line.
  if (left_group && uucore::SendSignal(child, sig).ok()) ++signalled_;
  if (whole_group && uucore::SendSignal(-group, sig).ok()) ++signalled_;  // A group counts as one (--report).
  if (cont && sig != SIGKILL && sig != SIGCONT) {
    // A stopped process acts on the signal only once continued.
    if (whole_group) (void)uucore::SendSignal(-group, SIGCONT);
    if (left_group) (void)uucore::SendSignal(child, SIGCONT);
  }
}

void Supervisor::Expire(bool alarm_signal) {
  // Once the command has ended (--tree waiting for what it left), its status stands: this only clears the rest.
  if (!command_status_.has_value()) {
    timed_out_ = true;
    // The report's timed_out is the limit itself (or ALRM), not -k's KILL after a signal passed on: that ending
    // was the caller's (a clock read, at expiry only).
    if (outcome_ != nullptr && !outcome_->timed_out && (alarm_signal || limit_.HasPassed())) {
      outcome_->timed_out = true;
      outcome_->signal = next_signal_;
    }
  }
  limit_ = kill_at_ = uucore::Deadline::Never();
  if (kill_armed_) killed_ = true;
  Send(next_signal_);
  ArmKill();
}

void Supervisor::Forward(int sig) {
  if (outcome_ != nullptr && std::find(outcome_->forwarded.begin(), outcome_->forwarded.end(), sig) ==
                                 outcome_->forwarded.end()) {
    outcome_->forwarded.push_back(sig);
  }
  Send(sig, /*cont=*/!(command_.pid1 && IsPassedOnAsPid1Only(sig)));  // Outside PID 1 none of them is passed on.
  if (!command_.pid1 || IsStopRequest(sig)) ArmKill();
}

void Supervisor::CleanUpAfter() {
  Notify(next_signal_, /*descendants=*/true);
  tree_signalled_ = true;
  limit_ = uucore::Deadline::Never();  // The command's own timer is over; only -k counts now.
  if (kill_armed_) killed_ = true;
  signalled_ += tree_.Signal(next_signal_, uucore::StoppedProcesses::kContinue, /*counted=*/outcome_ != nullptr);
  ArmKill();
}

void Supervisor::ArmKill() {
  if (kill_after_ == absl::ZeroDuration()) return;
  next_signal_ = SIGKILL;
  kill_armed_ = true;
  kill_at_ = uucore::Deadline::In(kill_after_);
  kill_after_ = absl::ZeroDuration();
}

absl::Status Supervisor::Reap(bool* children_left) {
  *children_left = false;
  if (command_.pid1 || tree_.reaches_all()) {
    absl::StatusOr<uucore::Reaped> reaped = uucore::ReapChildren(command_.pid);
    if (!reaped.ok()) return reaped.status();
    if (reaped->watched.has_value()) command_status_ = reaped->watched;
    *children_left = reaped->children_left;
    return absl::OkStatus();
  }
  absl::StatusOr<std::optional<int>> reaped = uucore::TryReap(command_.pid);
  if (!reaped.ok()) return reaped.status();
  if (reaped->has_value()) command_status_ = **reaped;
  return absl::OkStatus();
}

}  // namespace timeout
