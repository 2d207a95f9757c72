// utils/timeout/supervisor.h -- the run once the command runs: one wait, and every decision taken after it.
//
// Owns: the one loop (OpenBSD's timeout.c: nothing runs in a handler; the wait takes each signal and this decides),
// the deadlines (the limit, -i's restart of it, -k's KILL), what the next expiry sends, passing signals on, sending
// to the command, its group or its tree, -v's notices of it, reaping on SIGCHLD (every orphan as PID 1 or with
// --tree), and the report's timed_out, signal, forwarded and elapsed as they happen (elapsed: when the command is
// reaped, or just before a KILL to our own group ends timeout too). Must not touch: the signal mask
// and dispositions (planned and set before the spawn: signal_plan.h), descriptors (the relay's), the report file or
// timeout's exit status (ending.h).
#ifndef UTILS_TIMEOUT_SUPERVISOR_H_
#define UTILS_TIMEOUT_SUPERVISOR_H_

#include <signal.h>
#include <sys/types.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "uucore/signal_wait.h"
#include "utils/timeout/options.h"
#include "utils/timeout/relay.h"
#include "utils/timeout/report.h"
#include "utils/timeout/signal_plan.h"
#include "utils/timeout/tree.h"

namespace timeout {

// Who the run is about, once the command runs.
struct Command {
  pid_t self;   // timeout
  pid_t pid;    // the command
  pid_t group;  // The command's process group: ours, or (as PID 1) the command's own (ProcessGroup::Of()).
  bool pid1;    // timeout is PID 1 (a container's init).
};

// Supervisor
//
// The run's state and its decisions, from the spawn until the command (and with --tree its tree) is gone. Lives
// only inside Run().
class Supervisor {
 public:
  // The time limit from now: DURATION, or never for 0. (From before the spawn, as GNU arms its timer right after
  // fork; -i restarts it at every output.)
  static uucore::Deadline LimitFromNow(const Options& options) {
    return options.duration == absl::ZeroDuration() ? uucore::Deadline::Never()
                                                     : uucore::Deadline::In(options.duration);
  }

  // `limit`: LimitFromNow() as taken before the spawn.
  Supervisor(const Options& options, const Command& command, uucore::Deadline limit, Tree& tree)
      : options_(options), command_(command), limit_(limit), next_signal_(options.signal),
        kill_after_(options.kill_after), tree_(tree) {}

  // Supervise()
  //
  // The one loop: waits for the next event (one sigtimedwait per wake; with a relay, its one ppoll), then decides:
  // the deadline (expiry), a child's exit (reap; the command's ends the loop, unless the tree is waited for), a
  // signal (passed on, ALRM's expiry, or dropped), output (-i: the limit starts again). Returns once the command
  // has been reaped (command_status()) and, with --tree, what it left is gone, the relay drained.
  // `expired_while_starting`: the limit passed before the spawn returned (the command has timed out however fast it
  // ends now). Error: the wait's or waitpid's (timeout exits 125).
  absl::Status Supervise(const SignalPlan& plan, Relay* relay, bool expired_while_starting);

  // What the ending reads.
  const Options& options() const { return options_; }
  const Command& command() const { return command_; }
  std::optional<int> command_status() const { return command_status_; }  // The command's wait status once reaped.
  bool timed_out() const { return timed_out_; }  // As GNU counts it (the exit status): -k's expiry too.
  bool killed() const { return killed_; }        // -k's KILL was sent.
  int signalled() const { return signalled_; }   // Processes signalled (--report), all signals together.

  // --report: its timed_out, signal, forwarded and elapsed (from `started`), written as they happen; and a hook run
  // just before a KILL to our own process group, which kills timeout too (as GNU's does), given how many KILLs are
  // about to go out (the command's own, if it left the group, and the group's), while the command still runs;
  // elapsed is written before the hook runs.
  void ReportTo(timeout_report::Outcome* outcome, absl::Duration started,
                std::function<void(int)> before_killing_ourselves);

 private:
  // A wake of the wait: a signal with its sender (sig 0: the deadline passed), or output moved (-i).
  struct Wake {
    int sig = 0;
    int code = 0;
    pid_t sender = 0;
    bool output = false;
  };

  uucore::Deadline alarm() const { return std::min(limit_, kill_at_); }  // The next expiry.

  // The next wake: from the relay's ppoll if there is one (cgroup.events changing counts as SIGCHLD), else from one
  // sigtimedwait on `waited`.
  absl::StatusOr<Wake> NextWake(const sigset_t& waited, Relay* relay);

  // SIGCHLD: reaps; true once the command has been reaped and nothing of the tree is to be waited for.
  absl::StatusOr<bool> OnChildExit();

  // Any other signal received: passed on, taken as expiry, or dropped.
  void OnSignal(int sig, const sigset_t& passed_on);

  // -v: GNU's words, in the user's language; a notice that cannot be written changes no exit status (GNU 9.10).
  void Notify(int sig, bool descendants = false) const;

  // `cont`: follow with SIGCONT, so that a stopped process acts on the signal; without, one stays stopped.
  void Send(int sig, bool cont = true);

  // The limit or -k's KILL is due, or someone sent us ALRM (`alarm_signal`): the command has timed out.
  void Expire(bool alarm_signal = false);

  // A signal we received is passed on as it is. It starts the -k clock, but as PID 1 only if it asks the command to
  // stop: the other signals are the application's own business (reload, rotate logs, ...).
  void Forward(int sig);

  // --tree=exit: the command has exited by itself and left descendants running; they get what expiry sends.
  void CleanUpAfter();

  // After the first signal, whatever sent it, -k starts counting: its expiry sends KILL. A time limit still to come
  // (a signal passed on before it) keeps running, as GNU's: whichever comes first now sends KILL.
  void ArmKill();

  // Reaps on SIGCHLD. Only the command, unless timeout is PID 1 or a subreaper: then every orphan handed to it too,
  // so that none stays a zombie. Sets *children_left when children (descendants) remain.
  absl::Status Reap(bool* children_left);

  const Options& options_;
  const Command command_;
  uucore::Deadline limit_;     // The time limit (-i: moved on by output); Never() once it has run out.
  int next_signal_;            // What expiry sends: the -s signal, then KILL once -k has been armed.
  absl::Duration kill_after_;  // -k, until armed (then zero: KILL is armed once).
  uucore::Deadline kill_at_ = uucore::Deadline::Never();  // -k's KILL once armed: output never moves it.
  Tree& tree_;
  bool timed_out_ = false;
  bool kill_armed_ = false;      // -k's KILL is what the next expiry sends.
  bool killed_ = false;
  bool tree_signalled_ = false;  // --tree sent the tree a signal: wait for every descendant before returning.
  int signalled_ = 0;
  std::optional<int> command_status_ = std::nullopt;
  // --report (null without: nothing to keep).
  timeout_report::Outcome* outcome_ = nullptr;
  absl::Duration started_;
  std::function<void(int)> before_killing_ourselves_ = nullptr;
};

}  // namespace timeout

#endif  // UTILS_TIMEOUT_SUPERVISOR_H_
