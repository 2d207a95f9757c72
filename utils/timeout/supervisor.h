// utils/timeout/supervisor.h -- the run's decisions once the command runs: expiry, passing signals on, -k, and
// whom each signal reaches.
//
// Owns: the deadlines (the limit, -k's KILL), what the next expiry sends, sending to the command, its group or its
// tree, -v's notices of it, reaping on SIGCHLD, and the report's timed_out, signal and forwarded as they happen. Must
// not touch: the signal mask and dispositions (planned and set before the spawn), descriptors, or the report file.
#ifndef UTILS_TIMEOUT_SUPERVISOR_H_
#define UTILS_TIMEOUT_SUPERVISOR_H_

#include <sys/types.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "uucore/cgroup.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"
#include "utils/timeout/options.h"
#include "utils/timeout/report.h"
#include "utils/timeout/tree.h"

namespace timeout {

// The run's state: its two deadlines (the limit, and -k's KILL once armed), and what the next expiry sends. Lives
// only inside Run().
struct Monitor {
  const Options& options;
  pid_t self, child;
  pid_t group;                   // The command's process group: ours, or (as PID 1) the command's own.
  bool pid1;                     // timeout is PID 1 (a container's init).
  uucore::Deadline limit;        // The time limit (-i: moved on by output); Never() once it has run out.
  int next_signal;               // What expiry sends: the -s signal, then KILL once -k has been armed.
  absl::Duration kill_after;     // -k, until armed (then zero: KILL is armed once).
  uucore::Deadline kill_at = uucore::Deadline::Never();  // -k's KILL once armed: output never moves it.
  TreeBackend backend = TreeBackend::kNone;
  uucore::CgroupLeaf* leaf = nullptr;  // The cgroup backend's group.
  // A process group that holds nothing but the tree and us: one we made (not a shell's job, which may hold the rest
  // of a pipeline, nor one we joined), or the command's own as PID 1; 0 when neither. The cgroup backend signals its
  // members with one kill(-group_of_ours) (uucore/cgroup.h).
  pid_t group_of_ours = 0;
  bool timed_out = false;        // As GNU counts it (the exit status): -k's expiry too.
  // --report: its timed_out, signal and forwarded, written as they happen (null without: nothing to keep).
  timeout_report::Outcome* outcome = nullptr;
  bool kill_armed = false;       // -k's KILL is what the next expiry sends.
  bool killed = false;           // -k's KILL was sent.
  bool tree_signalled = false;   // --tree sent the tree a signal: wait for every descendant before returning.
  int signalled = 0;             // Processes signalled (--report), all signals together.
  // --report: runs just before a KILL to our own process group, which kills timeout too (as GNU's does), given how
  // many KILLs are about to go out (the command's own, if it left the group, and the group's).
  std::function<void(int)> before_killing_ourselves = nullptr;
  std::optional<int> command_status = std::nullopt;  // The command's wait status once reaped.

  bool tree() const { return backend == TreeBackend::kCgroup || backend == TreeBackend::kProc; }
  uucore::Deadline alarm() const { return std::min(limit, kill_at); }  // The next expiry.

  // -v: GNU's words, in the user's language; a notice that cannot be written changes no exit status (GNU 9.10).
  void Report(int sig, bool descendants = false) const;

  // Every process of the tree: the cgroup's all at once, else the /proc walk (which a cgroup that refuses falls
  // back to for the rest of the run). Errors are ignored, as for a process group. `stopped`: see Send()'s `cont`.
  void SignalTree(int sig, uucore::StoppedProcesses stopped = uucore::StoppedProcesses::kContinue);

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
};

// Reaps on SIGCHLD. Only the command, unless timeout is PID 1 or a subreaper: then every orphan handed to it too, so
// that none stays a zombie. Sets *children_left when children (descendants) remain.
absl::Status ReapOnSigchld(Monitor& monitor, bool reap_all, bool* children_left);

}  // namespace timeout

#endif  // UTILS_TIMEOUT_SUPERVISOR_H_
