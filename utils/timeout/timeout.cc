// timeout -- run a command with a time limit. Follows GNU timeout(1) of coreutils 9.11; tests/timeout/ pins every
// behaviour and each accepted difference. --help and the man page timeout(1): timeout.help.
//
// Usage: timeout [OPTION]... DURATION COMMAND [ARG]...   (options stop at DURATION: `timeout 1 ls -l` runs ls -l)
//   -s, --signal=SIG        signal to send on expiry (default TERM; a name, SIGname, number, RTMIN+n, or 0)
//   -k, --kill-after=DUR    also send KILL if the command is still running DUR after the first signal
//   -p, --preserve-status   exit with the command's status even when it timed out
//   -f, --foreground        leave the command in timeout's process group and signal only the command itself
//   -v, --verbose           "timeout: sending signal TERM to command 'CMD'" to stderr for every signal sent
// Beyond GNU (off by default; README "timeout beyond GNU", timeout.1):
//   -i, --inactivity        DURATION counts from the command's last output: stdout/stderr go through pipes
//       --tree[=WHEN]       subreaper; signal every descendant (setsid, daemons too) and wait for all to exit;
//                           WHEN: 'timeout' (expiry or a forwarded signal, the default) or 'exit' (also on its exit).
//                           Backend: a cgroup v2 leaf the command starts in, else the /proc walk, else the group.
//       --report=FILE       one JSON object on how the command ended (utils/timeout/report.h); 125 if unopenable
//   As PID 1 (always): reap every orphan; the command gets its own process group (and the terminal's foreground,
//   if timeout's session has one); ALRM, WINCH, URG, TSTP, TTIN, TTOU and CONT are passed on too (the last six
//   without a CONT after them), and -k starts only on expiry or TERM/INT/QUIT.
// DURATION as uucore::ParseDuration (s, m, h, d suffixes; 0 disables the timer, `-k 0` the kill; "inf" waits forever).
// Signals received (GNU 9.11): every one whose default action ends a process (passed_on: HUP INT QUIT ILL TRAP ABRT
// BUS FPE USR1 SEGV USR2 PIPE TERM STKFLT XCPU XFSZ VTALRM PROF IO PWR SYS, SIGRTMIN..SIGRTMAX) is passed on to the
// command (then SIGCONT) and arms -k; timeout goes on waiting. ALRM counts as expiry. Not passed on: CHLD CONT TSTP
// TTIN TTOU URG WINCH. Signals ignored when timeout started stay ignored by timeout and the command (GNU catches
// them anyway), except that the command gets the -s signal at SIG_DFL, so that expiry can stop it (as GNU).
// Parent death: if timeout dies, even of KILL, the command gets the -s signal (PR_SET_PDEATHSIG, as GNU 9.11).
// Process group: timeout leads a new group and the command inherits it, so the signal reaches the command's children
// (timeout ignores its own copy); SIGCONT follows so a stopped command sees it. With --foreground nothing changes
// groups, only the command is signalled, and no SIGCONT is sent (as GNU). SIGTTIN/SIGTTOU are blocked in timeout so a
// background timeout is never stopped by its command's terminal use; the command gets the caller's handling.
// Start-up: every signal is blocked from the binary's first instruction (utils/coreutils/entry.S) until the wait, so
// none sent meanwhile is lost; the command starts with the exact mask timeout was started with, but SIGCHLD
// unblocked, and the caller's dispositions, but the -s signal not ignored (both as GNU).
// Exit status:
//   124  the command timed out (and not --preserve-status)
//   125  timeout itself failed (usage, fork)
//   126  the command was found but could not be run; 127 it was not found
//   137  the command (or, without --foreground, timeout itself, through its group) was sent KILL
//   -    otherwise the command's status; a command killed by signal N makes timeout die of N too (128 + N as PID 1)
#include "utils/timeout/timeout.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/kcmp.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "uucore/cli.h"
#include "uucore/cgroup.h"
#include "uucore/duration.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/process_tree.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "uucore/signals.h"
#include "utils/timeout/ending.h"
#include "utils/timeout/options.h"
#include "utils/timeout/pid1.h"
#include "utils/timeout/relay.h"
#include "utils/timeout/report.h"
#include "utils/timeout/supervisor.h"
#include "utils/timeout/tree.h"

namespace timeout {
namespace {

// The signals whose default action ends a process: sent to timeout, each is passed on to the command (then
// SIGCONT) and timeout keeps waiting, so that no signal kills timeout and orphans the command (GNU 9.11): HUP INT
// QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE TERM STKFLT XCPU XFSZ VTALRM PROF IO PWR SYS, and the real-time
// signals SIGRTMIN..SIGRTMAX. ALRM means "expire now" instead, except as PID 1, where it is the application's.
// Built as every signal but these (sigfillset already leaves out glibc's own 32 and 33): their default does not end
// a process (CHLD CONT TSTP TTIN TTOU URG WINCH), they cannot be caught (KILL STOP), or ALRM. A dozen sigdelset
// calls instead of fifty sigaddset: ~1,200 instructions less on every run.
constexpr int kNotPassedOn[] = {SIGCHLD, SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG,
                                SIGWINCH, SIGKILL, SIGSTOP, SIGALRM};

// Long function: to be split into named steps (issue 34); this marker goes with that change.
int Run(const Options& options) {
  const pid_t self = getpid();
  const bool pid1 = self == 1;  // Whoever starts a PID namespace (a container) with us: init's duties are ours.
  // The deadline counts from now, before the command is spawned (as GNU arms its timer right after fork), so that a
  // busy machine's scheduling of the spawn does not make the expiry late.
  const auto timer = [&options] {
    return options.duration == absl::ZeroDuration() ? uucore::Deadline::Never()
                                                     : uucore::Deadline::In(options.duration);
  };
  // The report's elapsed_s counts from here too, read just before the deadline's own clock read: a command that
  // timed out never reports less than DURATION (from the spawn's return it did, by the time its exec took).
  const absl::Duration started = uucore::MonotonicNow();
  const uucore::Deadline first_alarm = timer();
  // --tree, --report and -i open descriptors of their own before the spawn: none may land on a closed 0, 1 or 2,
  // where it would take the command's output (the report, a cgroup) or our messages. Without them nothing is opened
  // and nothing is asked.
  const unsigned closed_standard = options.kill_tree != KillTree::kOff || options.report != nullptr ||
                                           options.inactivity
                                       ? uucore::HoldClosedStandardDescriptors()
                                       : 0;

  // Which signals we wait for: CHLD, ALRM, and every signal that would otherwise end us (passed_on, the real-time
  // ones included). As PID 1 nothing else is needed either: the kernel drops what PID 1 neither handles nor blocks, and these
  // are all PID 1 must pass on. A signal ignored when we started stays ignored by us (never passed on, even the -s
  // one: `nohup timeout -s HUP` must survive a hangup) and by the command (but for the -s one, see child_default);
  // that is checked when one arrives (blocked, an ignored signal is queued, not dropped), not here for ~50 signals.
  sigset_t wait_set, block_set, child_ignore, passed_on;
  sigemptyset(&child_ignore);
  sigfillset(&passed_on);
  for (int sig : kNotPassedOn) sigdelset(&passed_on, sig);
  if (pid1) sigaddset(&passed_on, SIGALRM);  // The application's alarm, not ours: our timer needs no signal.
  if (pid1) {
    for (int sig : kPassedOnAsPid1) sigaddset(&passed_on, sig);
  }
  wait_set = passed_on;
  sigaddset(&wait_set, SIGCHLD);
  if (!pid1) sigaddset(&wait_set, SIGALRM);  // Someone else's ALRM: expire now.
  block_set = wait_set;
  // Never stopped by the terminal on the command's behalf, nor by our own -v message from the background, nor when
  // handing the terminal to the command and back (as PID 1).
  sigaddset(&block_set, SIGTTIN);
  sigaddset(&block_set, SIGTTOU);
  // A write to our closed output fails with EPIPE (handled), never kills us and orphans the command; an ignored
  // PIPE is already harmless. Our own SIGPIPE comes from ourselves and is dropped as such.
  sigaddset(&block_set, SIGPIPE);
  // The signal we send to our own group must not end us (KILL cannot be blocked: GNU dies of it too, status 137).
  // AddSignal: -s 32 and 33 (glibc's own) are blocked too, so they time out with 124 (GNU 9.10 dies of them).
  if (options.signal != 0) uucore::AddSignal(&block_set, options.signal);
  // Block before spawning, so that no signal or child exit can slip in before the wait: on top of the mask we were
  // started with (the entry point has blocked everything since our first instruction; whatever arrived meanwhile is
  // pending, and what we do not wait for acts now). Never unblocked: a copy of our own group signal (or a late TERM)
  // still pending at exit must not kill us on the way out.
  uucore::ScopedSignalBlock block(block_set, uucore::StartupSignalMask());
  block.KeepBlocked();

  // The command must be able to receive what expiry sends: a -s signal the caller ignored (nohup's HUP, INT in a
  // script's `cmd &`) is SIG_DFL in the command, as GNU. KILL and STOP cannot be ignored; 0 sends nothing.
  sigset_t child_default;
  sigemptyset(&child_default);
  if (options.signal != 0 && uucore::IsIgnored(options.signal)) sigaddset(&child_default, options.signal);
  // An inherited SIGCHLD SIG_IGN would let the kernel reap the child and lose its status: catch it instead, and give
  // the command back the SIG_IGN its caller chose (unless CHLD is the -s signal, reset above).
  if (uucore::IsIgnored(SIGCHLD)) {
    (void)uucore::CatchSignal(SIGCHLD);
    if (options.signal != SIGCHLD) sigaddset(&child_ignore, SIGCHLD);
  }
  // As PID 1 the command gets a process group of its own, so that its kill(0, ...) and a terminal's Ctrl-C reach
  // it alone (and once), and Ctrl-Z can stop it; we lead our own group already (a session leader). Elsewhere the
  // command inherits our new group, as GNU's (unless --foreground).
  const bool led_a_group = getpgrp() == self;  // A shell's job (with the rest of a pipeline), a session, PID 1.
  // setpgid(0, 0) joins, rather than makes, a group that bears our pid already: its old leader left it, leaving
  // members there, and then exec'd us. Not ours alone then (--tree only: the cgroup backend signals a group of ours
  // whole). ESRCH: no such group; EPERM: there is one, of members we may not signal.
  const bool group_taken = options.kill_tree != KillTree::kOff && !led_a_group && !options.foreground && !pid1 &&
                           (kill(-self, 0) == 0 || errno == EPERM);
  if (!options.foreground && !pid1) (void)uucore::BecomeGroupLeader();  // GNU goes on if it cannot.
  // --tree: the backend is chosen before spawning (a cgroup leaf to start the command in; else /proc; else the
  // process group), and we become a subreaper, so that no descendant can be orphaned to init before we reap it.
  std::optional<uucore::CgroupLeaf> leaf;
  const TreeBackend backend = options.kill_tree == KillTree::kOff ? TreeBackend::kNone
                                                                  : ChooseTreeBackend(options, self, &leaf);
  const bool tree = backend == TreeBackend::kCgroup || backend == TreeBackend::kProc;
  if (tree) {
    absl::Status subreaper = uucore::BecomeSubreaper();
    if (!subreaper.ok()) {
      uucore::Error(subreaper);
      return uucore::kExitCanceled;
    }
  }
  const bool reap_all = pid1 || tree;

  // --report: opened before the command starts, so that a FILE we cannot write stops us now (125), not after.
  std::optional<timeout_report::ReportFile> report;
  if (options.report != nullptr) {
    absl::StatusOr<timeout_report::ReportFile> opened = timeout_report::ReportFile::Open(options.report);
    if (!opened.ok()) {
      uucore::Error(opened.status());
      return uucore::kExitCanceled;
    }
    report.emplace(*std::move(opened));
  }
  timeout_report::Outcome outcome;
  // outcome.signal (the expiry's signal) stays null unless the command timed out: not when it could not even run.
  outcome.backend = BackendName(backend) ? std::optional<std::string>(BackendName(backend)) : std::nullopt;
  // Every exit from here on says how it ended in the report, if there is one (once: see before_killing_ourselves).
  bool reported = false;
  const auto finish = [&](int status) {
    outcome.status = status;
    if (report.has_value() && !reported) {
      reported = true;
      absl::Status written = report->Write(outcome);
      if (!written.ok()) {
        uucore::Error(written);
        return uucore::kExitCanceled;
      }
    }
    return status;
  };

  // -i, and the cgroup backend (its cgroup.events in the same wait), only, and on the heap: the default path makes
  // no pipe, no signalfd, no extra system call, and does not even clear the buffers (an 8 KiB std::optional<Relay>
  // on the stack is zero-filled: +8k instructions per run).
  std::unique_ptr<Relay> relay;
  if (options.inactivity || backend == TreeBackend::kCgroup) {
    relay = std::make_unique<Relay>();
    absl::Status opened = relay->Open(block.set(), /*pipes=*/options.inactivity, closed_standard);
    if (!opened.ok()) {
      uucore::Error(opened);
      return finish(uucore::kExitCanceled);
    }
    if (backend == TreeBackend::kCgroup) relay->Watch(leaf->events_fd());
  }

  // The caller's mask, not ours; but SIGCHLD unblocked, as GNU: a command must see its own children exit. SIGALRM
  // too, as GNU 9.10 (which unblocks it for its own timer before it saves the mask its command gets).
  sigset_t child_mask = block.old_mask();
  sigdelset(&child_mask, SIGCHLD);
  sigdelset(&child_mask, SIGALRM);
  uucore::SpawnOptions spawn;
  spawn.mask = &child_mask;
  spawn.reset_default = &child_default;
  spawn.ignore = &child_ignore;
  // If timeout dies (even of KILL), the command gets what expiry would send it, as GNU 9.11 does; a command whose
  // timeout is already gone when it gets there does not start (125).
  spawn.parent_death_signal = options.signal;
  // As PID 1: a group of its own, and the terminal's foreground if stdin is the controlling terminal of our own
  // session (as a container runtime sets up an init with a terminal; tini's default).
  const bool own_terminal = pid1 && getsid(0) == self && tcgetpgrp(STDIN_FILENO) == getpgrp();
  if (pid1) {
    spawn.new_process_group = true;
    spawn.terminal_foreground = own_terminal ? STDIN_FILENO : -1;
  }
  // The cgroup backend: the command starts inside the leaf (clone3), so nothing it forks can start outside.
  if (backend == TreeBackend::kCgroup) spawn.cgroup_fd = leaf->dir_fd();
  const auto start = [&] { return relay ? relay->Spawn(options.command, spawn) : uucore::Spawn(options.command, spawn); };
  absl::StatusOr<pid_t> child = start();
  if (!child.ok() && absl::IsUnavailable(child.status()) && spawn.cgroup_fd >= 0) {
    // The kernel refused to start it in the cgroup (clone3); nothing was started. The /proc walk instead.
    if (options.verbose) uucore::Notice(absl::StrCat("--tree: backend proc (", child.status().message(), ")"));
    spawn.cgroup_fd = -1;
    relay->Watch(-1);
    leaf.reset();  // Removed before the command starts again: nothing of it is left for the run.
    child = start();
    outcome.backend = BackendName(TreeBackend::kProc);
  }
  // The spawn returns once the command has exec'd: a deadline already passed then passed before it could end.
  const bool expired_while_starting = first_alarm.HasPassed();
  if (!child.ok()) {
    const int status = uucore::ExecFailureStatus(child.status());
    std::string message;
    if (status == uucore::kExitCanceled) {
      message = std::string(child.status().message());  // "fork system call failed: ..."
    } else {
      message = absl::StrCat(uucore::Format("failed to run command %s", uucore::Quote(options.command[0])), ": ",
                             child.status().message());
    }
    uucore::Error(message);
    outcome.error = message;
    return finish(status);
  }
  outcome.command.pid = *child;
  // The terminal is ours again once the command is gone (a shell takes it back from a finished job the same way).
  struct TerminalBack {
    bool active;
    ~TerminalBack() {
      if (active) tcsetpgrp(STDIN_FILENO, getpgrp());  // TTOU is blocked: allowed from the background.
    }
  } terminal_back{own_terminal};

  Monitor monitor{options, self, *child, pid1 ? *child : getpgrp(), pid1, first_alarm, options.signal,
                  options.kill_after};
  monitor.backend = leaf.has_value() ? TreeBackend::kCgroup : (backend == TreeBackend::kCgroup ? TreeBackend::kProc
                                                                                                : backend);
  monitor.leaf = leaf.has_value() ? &*leaf : nullptr;
  if (pid1) {
    monitor.group_of_ours = *child;
  } else if (!options.foreground && !led_a_group && !group_taken && getpgrp() == self) {
    monitor.group_of_ours = self;
  }
  if (report.has_value()) monitor.outcome = &outcome;
  // The report's account of the run so far: what the monitor did (`more_signalled`: a signal about to go out), and
  // the usage of every child and descendant reaped so far.
  const auto account = [&](int more_signalled) {
    outcome.killed = monitor.killed;
    outcome.signalled = monitor.signalled + more_signalled;
    rusage children;
    if (getrusage(RUSAGE_CHILDREN, &children) == 0) {
      outcome.cpu_user = absl::DurationFromTimeval(children.ru_utime);
      outcome.cpu_sys = absl::DurationFromTimeval(children.ru_stime);
      outcome.max_rss_kib = children.ru_maxrss;
    }
  };
  // What the report says once the command has ended, before the leaf goes (its cpu.stat) and before we die of the
  // command's signal.
  const auto ended = [&](const Ending& ending) {
    if (report.has_value()) {  // Without one, none of this is read: no system call for it.
      account(0);
      outcome.backend = BackendName(monitor.backend) ? std::optional<std::string>(BackendName(monitor.backend))
                                                     : std::nullopt;
      timeout_report::CommandEnded(*child, *monitor.command_status, &outcome);
      if (leaf.has_value()) {
        // The group's own account: every process that ran in it, also those reaped by others than us.
        if (absl::StatusOr<uucore::CgroupCpu> cpu = leaf->ReadCpu(); cpu.ok()) {
          outcome.cpu_user = cpu->user;
          outcome.cpu_sys = cpu->system;
        }
        if (absl::StatusOr<int64_t> peak = leaf->ReadMemoryPeak(); peak.ok()) outcome.max_rss_kib = *peak / 1024;
      }
    }
    if (leaf.has_value()) (void)leaf->Remove();  // Before we may die of the command's signal, which runs no destructor.
    const int status = finish(ending.status);
    if (ending.die_of != 0 && status == ending.status) DieOf(ending.die_of);
    return status;
  };
  if (report.has_value()) {
    // Our KILL to the group is our end too, before we can reap the command: the report says now what the caller
    // will see (137, the command killed by KILL), with the command's usage read from /proc while it still lives.
    monitor.before_killing_ourselves = [&](int kills) {
      outcome.elapsed = uucore::MonotonicNow() - started;
      monitor.command_status = SIGKILL;  // The wait status of a process killed by KILL.
      account(kills);
      (void)timeout_report::AddLiveUsage(*child, &outcome);
      timeout_report::CommandEnded(*child, SIGKILL, &outcome);
      (void)finish(EndingFor(SIGKILL, monitor).status);
      monitor.command_status.reset();
    };
  }
  // It has timed out however fast it ends now (GNU's timer, armed right after fork, has fired by then too): expire
  // before its exit can be seen, or a command quicker than our return from the spawn would escape a passed deadline.
  if (expired_while_starting) monitor.Expire();
  for (bool woke = false;; woke = true) {
    // After every wake: the wait reports the deadline only when nothing else is pending, so a command that never
    // pauses its output (-i), or a backlog of queued signals, would keep a passed deadline (the limit, -k's KILL)
    // from ever being seen. (Not before the first wait: `timeout 10 true` reads no clock for it.)
    if (woke && monitor.alarm().HasPassed()) monitor.Expire();
    int sig, code;
    pid_t sender;
    if (relay) {
      absl::StatusOr<Relay::Event> event = relay->Wait(monitor.alarm());
      if (!event.ok()) {
        uucore::Error(event.status());
        return finish(uucore::kExitCanceled);
      }
      if (event->sig == Relay::kActivity) {
        // Output restarts the timer, until the command has timed out or ended (--tree waiting for what it left:
        // their output moves nothing). A signal passed on does not stop it.
        if (options.inactivity && !monitor.timed_out && !monitor.command_status.has_value()) {
          monitor.limit = timer();
        }
        continue;  // What output does not move (-k's KILL) may have passed meanwhile: seen at the top.
      }
      if (event->sig == Relay::kWatched) {
        // cgroup.events changed (reading it re-arms it): when the group is empty, every process of the tree has
        // exited, and what is left to do is to reap them, as on SIGCHLD.
        if (monitor.leaf != nullptr) (void)monitor.leaf->ReadEvents();
        sig = SIGCHLD, code = 0, sender = 0;
      } else {
        sig = event->sig, code = event->code, sender = event->pid;
      }
    } else {
      siginfo_t info;
      absl::StatusOr<int> got = uucore::WaitForSignal(block.set(), monitor.alarm(), &info);
      if (!got.ok()) {
        uucore::Error(got.status());
        return finish(uucore::kExitCanceled);
      }
      sig = *got, code = info.si_code, sender = info.si_pid;
    }
    if (sig == 0) {  // The timer ran out.
      monitor.Expire();
      continue;
    }
    // Our own copy of a signal we sent to the group (kill(0, ...)), or a SIGPIPE of our own write: dropping it also
    // keeps `-s ALRM` from looping.
    if (code == SI_USER && sender == self) continue;
    if (sig == SIGCHLD) {
      // The cgroup backend's tree is the group: a child of ours outside it (one started before us and inherited
      // through exec, as by `sh -c 'daemon & exec timeout --tree ...'`) is neither signalled nor waited for (it kept
      // timeout waiting for as long as it ran). Read before reaping, so that a member that exits in between is
      // reaped now (one still unreaped after is found below by its /proc/PID/cgroup); and only where the answer is
      // used (a tree signalled, or --tree=exit), not on every child's exit of a plain --tree run.
      const bool tree_wait = monitor.tree_signalled || options.kill_tree == KillTree::kOnExit;
      const bool by_group = tree_wait && monitor.backend == TreeBackend::kCgroup && monitor.leaf != nullptr;
      const bool group_populated = !by_group || GroupPopulated(*monitor.leaf);
      // Any child state change wakes us; only our command's exit ends the wait (stops and others' exits do not).
      bool children_left;
      absl::Status reaped = ReapOnSigchld(monitor, reap_all, &children_left);
      if (!reaped.ok()) {
        uucore::Error(reaped);
        return finish(uucore::kExitCanceled);
      }
      if (!monitor.command_status.has_value()) continue;
      if (outcome.elapsed == absl::ZeroDuration()) outcome.elapsed = uucore::MonotonicNow() - started;
      const bool tree_left = children_left && group_populated;
      if (options.kill_tree == KillTree::kOnExit && monitor.tree() && tree_left && !monitor.tree_signalled) {
        monitor.CleanUpAfter();
      }
      // --tree: once the tree was signalled, return only when nothing of it is left (ECHILD, as subreaper; with the
      // cgroup backend, also once the group is empty and no child of ours is of it any more: the kernel takes a dying
      // member out of the group's count before it becomes a zombie, and a tracer can hold it there. Where /proc
      // cannot tell, we do not wait: a child not of the group would keep us waiting as long as it lives, and a
      // member still on its way out is then left unreaped.)
      if (monitor.tree_signalled && tree_left) continue;
      if (by_group && children_left && !group_populated &&
          uucore::AChildIsInCgroup(monitor.leaf->proc_path()).value_or(false)) {
        continue;
      }
      if (relay) relay->Drain();
      return ended(EndingFor(*monitor.command_status, monitor));
    }
    // A signal we were started ignoring stays ignored. The disposition is ours from the start (only CHLD and the -s
    // signal's child copy are ever changed), so this asks the kernel only when such a signal arrives.
    if (uucore::IsIgnored(sig)) continue;
    if (sigismember(&passed_on, sig) == 1) {
      monitor.Forward(sig);
      continue;
    }
    if (sig == SIGALRM) {  // As GNU: someone else's ALRM is the timer running out (not as PID 1: passed on).
      monitor.Expire(/*alarm_signal=*/true);
      continue;
    }
    // TTIN/TTOU, PIPE, or the -s signal: blocked only to be dropped.
  }
}

}  // namespace
}  // namespace timeout

int TimeoutMain(int argc, char* argv[]) {
  // Every signal is still blocked since our first instruction (utils/coreutils/entry.S): Run() keeps them pending
  // until it waits for them; anything else runs with the mask we were started with (`timeout --help | head -c1`
  // dies of SIGPIPE, as GNU's does: uucore::GetoptLong answers --help and --version with that mask).
  absl::StatusOr<timeout::Options> options = timeout::ParseArgs(argc, argv);
  if (!options.ok()) {
    uucore::RestoreStartupSignalMask();
    return uucore::UsageError(options.status());
  }
  if (options->finished_status >= 0) return options->finished_status;
  return timeout::Run(*options);
}
