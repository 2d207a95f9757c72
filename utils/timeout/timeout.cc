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
//
// The run, step by step (Run() below; README "Layout" draws it): options.h parses; signal_plan.h plans the signals,
// blocked for good before anything else; group.h, tree.h, ending.h (the report) and relay.h set up; the spawn, as
// PID 1 through pid1.h; supervisor.h's one loop decides until the command is gone; ending.h ends.
#include "utils/timeout/timeout.h"

#include <sys/types.h>
#include <unistd.h>

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "uucore/cli.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"
#include "utils/timeout/ending.h"
#include "utils/timeout/group.h"
#include "utils/timeout/options.h"
#include "utils/timeout/pid1.h"
#include "utils/timeout/relay.h"
#include "utils/timeout/signal_plan.h"
#include "utils/timeout/supervisor.h"
#include "utils/timeout/tree.h"

namespace timeout {
namespace {

// HoldStandardDescriptors()
//
// --tree, --report and -i open descriptors of their own before the spawn: none may land on a closed 0, 1 or 2,
// where it would take the command's output (the report, a cgroup) or our messages. Without them nothing is opened
// and nothing is asked. Returns which were closed (bit i for fd i), for the relay.
unsigned HoldStandardDescriptors(const Options& options) {
  const bool opens = options.kill_tree != KillTree::kOff || options.report != nullptr || options.inactivity;
  return opens ? uucore::HoldClosedStandardDescriptors() : 0;
}

// OpenRelay()
//
// The relay, for -i (its pipes) and for the cgroup backend (its cgroup.events in the same wait) only, and on the
// heap: the default path makes no pipe, no signalfd, no extra system call, and does not even clear the buffers (an
// 8 KiB std::optional<Relay> on the stack is zero-filled: +8k instructions per run). Null without either.
// Error: Relay::Open()'s (timeout exits 125).
absl::StatusOr<std::unique_ptr<Relay>> OpenRelay(const Options& options, const SignalPlan& plan, unsigned closed,
                                                 const Tree& tree) {
  std::unique_ptr<Relay> relay;
  const bool watch_cgroup = tree.backend() == TreeBackend::kCgroup;
  if (!options.inactivity && !watch_cgroup) return relay;
  relay = std::make_unique<Relay>();
  absl::Status opened = relay->Open(plan.block, /*pipes=*/options.inactivity, closed);
  if (!opened.ok()) return opened;
  if (watch_cgroup) relay->Watch(tree.leaf()->events_fd());
  return relay;
}

// StartCommand()
//
// Spawns the command with `spawn` (its signals, and as PID 1 its own group), through the relay's pipes if there is
// a relay, and with the cgroup backend inside the tree's leaf (clone3), so that nothing it forks can start outside.
// Returns once it has exec'd (vfork semantics). If the kernel refuses the cgroup, nothing was started: the command
// starts again outside it, and the tree falls back to the /proc walk. Error: uucore::Spawn()'s.
absl::StatusOr<pid_t> StartCommand(const Options& options, uucore::SpawnOptions* spawn, Tree& tree, Relay* relay) {
  const auto start = [&] {
    return relay != nullptr ? relay->Spawn(options.command, *spawn) : uucore::Spawn(options.command, *spawn);
  };
  if (tree.backend() == TreeBackend::kCgroup) spawn->cgroup_fd = tree.leaf()->dir_fd();
  absl::StatusOr<pid_t> child = start();
  if (!child.ok() && absl::IsUnavailable(child.status()) && spawn->cgroup_fd >= 0) {
    spawn->cgroup_fd = -1;
    relay->Watch(-1);  // Not null: OpenRelay() makes a relay whenever the backend is the cgroup, to watch its events.
    tree.StartOutsideTheCgroup(child.status());
    child = start();
  }
  return child;
}

// Run()
//
// One run, as an outline: plan the signals, set up (group, tree, report, relay), spawn, supervise, end. Returns
// timeout's exit status, or does not return: it dies of the command's signal (Ending::End()).
int Run(const Options& options) {
  const pid_t self = getpid();
  const bool pid1 = self == 1;  // Whoever starts a PID namespace (a container) with us: init's duties are ours.
  // The deadline counts from now, before the command is spawned (as GNU arms its timer right after fork), so that a
  // busy machine's scheduling of the spawn does not make the expiry late. The report's elapsed_s counts from here
  // too, read just before the deadline's own clock read: a command that timed out never reports less than DURATION
  // (from the spawn's return it did, by the time its exec took).
  const absl::Duration started = uucore::MonotonicNow();
  const uucore::Deadline first_alarm = Supervisor::LimitFromNow(options);
  const unsigned closed_standard = HoldStandardDescriptors(options);

  // Plan the signals. Block before spawning, so that no signal or child exit can slip in before the wait: on top of
  // the mask we were started with (the entry point has blocked everything since our first instruction; whatever
  // arrived meanwhile is pending, and what we do not wait for acts now). Never unblocked: a copy of our own group
  // signal (or a late TERM) still pending at exit must not kill us on the way out.
  const SignalPlan plan = PlanSignals(options, pid1);
  uucore::ScopedSignalBlock block(plan.block, uucore::StartupSignalMask());
  block.KeepBlocked();
  const CommandSignals command_signals = CommandSignalsFor(options, block.old_mask());

  // Set up: the process group, the tree, the report, the relay.
  const ProcessGroup group = ProcessGroup::SetUp(options, self, pid1);
  Tree tree;
  if (absl::Status set_up = tree.SetUp(options, self); !set_up.ok()) {
    uucore::Error(set_up);
    return uucore::kExitCanceled;
  }
  Ending ending(options, started);
  if (!ending.OpenReport(tree.backend())) return uucore::kExitCanceled;
  absl::StatusOr<std::unique_ptr<Relay>> relay = OpenRelay(options, plan, closed_standard, tree);
  if (!relay.ok()) return ending.Fail(relay.status());

  // Spawn.
  uucore::SpawnOptions spawn = command_signals.ForSpawn();
  const bool own_terminal = pid1 && GiveCommandItsOwnGroup(self, &spawn);
  absl::StatusOr<pid_t> child = StartCommand(options, &spawn, tree, relay->get());
  // The spawn returns once the command has exec'd: a deadline already passed then passed before it could end.
  const bool expired_while_starting = first_alarm.HasPassed();
  ending.SetBackend(tree.backend());  // The walk's, if the kernel refused the cgroup.
  if (!child.ok()) return ending.CouldNotRun(child.status());
  const TerminalBack terminal_back(own_terminal);

  // Supervise, until the command (and with --tree what it left) is gone.
  Supervisor supervisor(options, {self, *child, group.Of(*child), pid1}, first_alarm, tree);
  tree.set_group_of_ours(group.OursAlone(*child));
  ending.Started(supervisor);
  if (absl::Status supervised = supervisor.Supervise(plan, relay->get(), expired_while_starting); !supervised.ok()) {
    return ending.Fail(supervised);
  }

  // End.
  return ending.End(supervisor, tree);
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
