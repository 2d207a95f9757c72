// timeout -- run a command with a time limit. Follows GNU timeout(1) (coreutils 9.1, plus the -f/-p short options of
// later releases); tests/timeout/ pins every behaviour and each accepted difference.
//
// Usage: timeout [OPTION]... DURATION COMMAND [ARG]...   (options stop at DURATION: `timeout 1 ls -l` runs ls -l)
//   -s, --signal=SIG        signal to send on expiry (default TERM; a name, SIGname, number, RTMIN+n, or 0)
//   -k, --kill-after=DUR    also send KILL if the command is still running DUR after the first signal
//   -p, --preserve-status   exit with the command's status even when it timed out
//   -f, --foreground        leave the command in timeout's process group and signal only the command itself
//   -v, --verbose           "timeout: sending signal TERM to command 'CMD'" to stderr for every signal sent
// DURATION as uucore::ParseDuration (s, m, h, d suffixes; 0 disables the timer, `-k 0` the kill; "inf" waits forever).
// Signals received: TERM, INT, HUP, QUIT are passed on to the command (then to its group), and arm -k; ALRM counts
// as expiry. Signals ignored when timeout started stay ignored by timeout and the command (GNU catches them anyway).
// Process group: timeout leads a new group and the command inherits it, so the signal reaches the command's children
// (timeout ignores its own copy); SIGCONT follows so a stopped command sees it. With --foreground nothing changes
// groups, only the command is signalled, and no SIGCONT is sent (as GNU). SIGTTIN/SIGTTOU are blocked in timeout so a
// background timeout is never stopped by its command's terminal use; the command gets the caller's handling.
// The command starts with exactly the caller's signal mask and dispositions.
// Exit status:
//   124  the command timed out (and not --preserve-status)
//   125  timeout itself failed (usage, fork)
//   126  the command was found but could not be run; 127 it was not found
//   137  the command (or, without --foreground, timeout itself, through its group) was sent KILL
//   -    otherwise the command's status; a command killed by signal N makes timeout die of N too (128 + N as PID 1)
#include "utils/timeout/timeout.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "uucore/cli.h"
#include "uucore/duration.h"
#include "uucore/process.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "uucore/signals.h"

namespace {

constexpr char kHelp[] = R"(Usage: %s [OPTION] DURATION COMMAND [ARG]...
  or:  %s [OPTION]
Start COMMAND, and kill it if still running after DURATION.

Mandatory arguments to long options are mandatory for short options too.
  -p, --preserve-status
                 exit with the status of COMMAND even when it times out
  -f, --foreground
                 keep COMMAND in this process group, so that it can read
                   from the terminal and get its signals when timeout is
                   not run directly from a shell prompt; then only COMMAND
                   is signalled, not its children
  -k, --kill-after=DURATION
                 if COMMAND still runs this long after the first signal
                   was sent, send it the KILL signal too
  -s, --signal=SIGNAL
                 the signal to send on timeout: a name such as 'HUP' or a
                   number; 'kill -l' lists them
  -v, --verbose  report every signal sent on timeout to stderr
      --help        display this help and exit
      --version     output version information and exit

DURATION is a number, possibly with a fraction, followed by an optional unit:
's' for seconds (the default), 'm' for minutes, 'h' for hours, 'd' for days.
A DURATION of 0 disables that timeout.

When the time is up, COMMAND gets the TERM signal unless another SIGNAL was
chosen. A process can block or catch TERM; it cannot catch KILL.

Exit status:
  124  if COMMAND timed out and --preserve-status was not given
  125  if timeout itself failed
  126  if COMMAND was found but could not be run
  127  if COMMAND was not found
  137  if COMMAND (or timeout itself) was sent the KILL (9) signal (128+9)
  -    otherwise, the exit status of COMMAND
)";
constexpr char kShortOptions[] = "+fk:ps:v";  // '+': stop at DURATION so COMMAND's options pass through.
enum { kHelpOption = 256, kVersionOption };
constexpr option kLongOptions[] = {
    {"foreground", no_argument, nullptr, 'f'},      {"kill-after", required_argument, nullptr, 'k'},
    {"preserve-status", no_argument, nullptr, 'p'}, {"signal", required_argument, nullptr, 's'},
    {"verbose", no_argument, nullptr, 'v'},         {"help", no_argument, nullptr, kHelpOption},
    {"version", no_argument, nullptr, kVersionOption}, {nullptr, 0, nullptr, 0},
};

// The signals timeout passes on to the command when it receives them (ALRM means "expire now" instead).
constexpr int kForwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

struct Options {  // Everything Run() needs; no globals.
  enum class Action { kRun, kHelp, kVersion } action = Action::kRun;
  absl::Duration duration = absl::ZeroDuration(), kill_after = absl::ZeroDuration();
  int signal = SIGTERM;
  bool foreground = false, preserve_status = false, verbose = false;
  char** command = nullptr;
};

// Parses the command line without side effects; usage errors come back as the message to print (empty: getopt has
// already printed its own).
absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = getopt_long(argc, argv, kShortOptions, kLongOptions, nullptr)) != -1;) {
    switch (c) {
      case 'f': options.foreground = true; break;
      case 'p': options.preserve_status = true; break;
      case 'v': options.verbose = true; break;
      case 'k': {
        absl::StatusOr<absl::Duration> d = uucore::ParseDuration(optarg);
        if (!d.ok()) return d.status();
        options.kill_after = *d;
        break;
      }
      case 's': {
        absl::StatusOr<int> sig = uucore::ParseSignal(optarg, /*allow_zero=*/true);  // GNU accepts 0 ("EXIT").
        if (!sig.ok()) return sig.status();
        options.signal = *sig;
        break;
      }
      case kHelpOption: options.action = Options::Action::kHelp; return options;
      case kVersionOption: options.action = Options::Action::kVersion; return options;
      default: return absl::InvalidArgumentError("");  // getopt has said what was wrong.
    }
  }
  // GNU says only "Try ..." when DURATION or COMMAND is missing.
  if (argc - optind < 2) return absl::InvalidArgumentError("");
  absl::StatusOr<absl::Duration> d = uucore::ParseDuration(argv[optind]);
  if (!d.ok()) return d.status();
  options.duration = *d;
  options.command = argv + optind + 1;
  return options;
}

// The run's state: one timer, and what the next expiry sends. Lives only inside Run().
struct Monitor {
  const Options& options;
  pid_t child;
  uucore::Deadline alarm;        // The next expiry; Never() when disarmed.
  int next_signal;               // What expiry sends: the -s signal, then KILL once -k has been armed.
  absl::Duration kill_after;     // -k, until armed (then zero: KILL is armed once).
  bool timed_out = false;

  void Send(int sig) const {
    if (options.verbose) {
      uucore::Error(absl::StrCat("sending signal ", uucore::SignalName(sig), " to command ",
                                 uucore::Quote(options.command[0])));
    }
    // Errors are ignored, as GNU does: the command may already have exited (ESRCH), and then its exit is next.
    if (options.foreground) {
      (void)uucore::SendSignal(child, sig);  // Only the command itself: its children are not timed out.
      return;
    }
    // The command once, even though GNU signals it twice (by pid and with the group), which lets a shell that traps
    // the signal run its trap twice. Our own copy of the group's signal is blocked and dropped.
    const bool left_group = getpgid(child) != getpgrp();  // It may have made its own group (setsid, a shell's job).
    (void)uucore::SendSignal(0, sig);
    if (left_group) (void)uucore::SendSignal(child, sig);
    if (sig != SIGKILL && sig != SIGCONT) {
      // A stopped process acts on the signal only once continued.
      (void)uucore::SendSignal(0, SIGCONT);
      if (left_group) (void)uucore::SendSignal(child, SIGCONT);
    }
  }

  // The timer ran out, or someone sent us ALRM: the command has timed out.
  void Expire() {
    timed_out = true;
    alarm = uucore::Deadline::Never();
    Send(next_signal);
    ArmKill();
  }

  // A signal we received is passed on as it is.
  void Forward(int sig) {
    Send(sig);
    ArmKill();
  }

  // After the first signal, whatever sent it, -k starts counting: its expiry sends KILL.
  void ArmKill() {
    if (kill_after == absl::ZeroDuration()) return;
    next_signal = SIGKILL;
    alarm = uucore::Deadline::In(kill_after);
    kill_after = absl::ZeroDuration();
  }
};

// Ends timeout the way the command ended: killed by the same signal, without a core file of our own.
void DieOf(int sig) {
  const rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // The command's core file, if any, is the one that matters.
  signal(sig, SIG_DFL);
  sigset_t just;
  sigemptyset(&just);
  sigaddset(&just, sig);
  sigprocmask(SIG_UNBLOCK, &just, nullptr);  // Blocked for waiting: let it act now.
  raise(sig);
}

// The exit status for the command's wait status, as GNU computes it.
int StatusAfter(int wait_status, const Monitor& monitor) {
  bool preserve = monitor.options.preserve_status;
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    if (WCOREDUMP(wait_status)) uucore::Error("the monitored command dumped core");
    // Pass the command's death on to our caller; PID 1 cannot be killed by its own signal, so it exits instead.
    if (!monitor.timed_out && getpid() != 1) DieOf(sig);
    if (monitor.timed_out && sig == SIGKILL) preserve = true;  // 137 tells the caller that KILL was needed.
  }
  if (monitor.timed_out && !preserve) return uucore::kExitTimedOut;
  return uucore::ExitStatusOf(wait_status);
}

int Run(const Options& options) {
  // Which signals we wait for. A signal ignored when we started stays ignored, by us and by the command.
  sigset_t wait_set, block_set, child_ignore;
  sigemptyset(&wait_set);
  sigemptyset(&child_ignore);
  sigaddset(&wait_set, SIGCHLD);
  sigaddset(&wait_set, SIGALRM);
  for (int sig : kForwarded) sigaddset(&wait_set, sig);
  for (int sig : {SIGALRM, SIGTERM, SIGINT, SIGHUP, SIGQUIT}) {
    if (uucore::IsIgnored(sig)) sigdelset(&wait_set, sig);
  }
  block_set = wait_set;
  // Never stopped by the terminal on the command's behalf, nor by our own -v message from the background.
  sigaddset(&block_set, SIGTTIN);
  sigaddset(&block_set, SIGTTOU);
  // The signal we send to our own group must not end us (KILL cannot be blocked: GNU dies of it too, status 137).
  if (options.signal != 0) sigaddset(&block_set, options.signal);
  // Block before spawning, so that no signal or child exit can slip in before the wait. Never unblocked: a copy of
  // our own group signal (or a late TERM) still pending at exit must not kill us on the way out.
  uucore::ScopedSignalBlock block(block_set);
  block.KeepBlocked();

  // An inherited SIGCHLD SIG_IGN would let the kernel reap the child and lose its status: catch it instead, and give
  // the command back the SIG_IGN its caller chose.
  if (uucore::IsIgnored(SIGCHLD)) {
    (void)uucore::CatchSignal(SIGCHLD);
    sigaddset(&child_ignore, SIGCHLD);
  }
  if (!options.foreground) (void)uucore::BecomeGroupLeader();  // GNU goes on if it cannot.

  uucore::SpawnOptions spawn;
  spawn.mask = &block.old_mask();  // The caller's mask, not ours.
  spawn.ignore = &child_ignore;
  absl::StatusOr<pid_t> child = uucore::Spawn(options.command, spawn);
  if (!child.ok()) {
    const int status = uucore::ExecFailureStatus(child.status());
    if (status == uucore::kExitCanceled) {
      uucore::Error(child.status());  // "fork system call failed: ..."
    } else {
      uucore::Error(absl::StrCat("failed to run command ", uucore::Quote(options.command[0]), ": ",
                                 child.status().message()));
    }
    return status;
  }

  // The timer starts once the command runs, as GNU's does; 0 means no timer at all.
  Monitor monitor{options, *child,
                  options.duration == absl::ZeroDuration() ? uucore::Deadline::Never()
                                                           : uucore::Deadline::In(options.duration),
                  options.signal, options.kill_after};
  const pid_t self = getpid();
  for (;;) {
    siginfo_t info;
    absl::StatusOr<int> sig = uucore::WaitForSignal(block.set(), monitor.alarm, &info);
    if (!sig.ok()) {
      uucore::Error(sig.status());
      return uucore::kExitCanceled;
    }
    if (*sig == 0) {  // The timer ran out.
      monitor.Expire();
      continue;
    }
    // Our own copy of a signal we sent to the group (kill(0, ...)): dropping it also keeps `-s ALRM` from looping.
    if (info.si_code == SI_USER && info.si_pid == self) continue;
    if (*sig == SIGCHLD) {
      // Any child state change wakes us; only our command's exit ends the wait (stops and others' exits do not).
      absl::StatusOr<std::optional<int>> reaped = uucore::TryReap(monitor.child);
      if (!reaped.ok()) {
        uucore::Error(reaped.status());
        return uucore::kExitCanceled;
      }
      if (reaped->has_value()) return StatusAfter(**reaped, monitor);
      continue;
    }
    if (*sig == SIGALRM) {  // As GNU: someone else's ALRM is the timer running out.
      monitor.Expire();
      continue;
    }
    if (!sigismember(&wait_set, *sig)) continue;  // TTIN/TTOU, or the -s signal: blocked only to be dropped.
    monitor.Forward(*sig);
  }
}

}  // namespace

int TimeoutMain(int argc, char* argv[]) {
  absl::StatusOr<Options> options = ParseArgs(argc, argv);
  if (!options.ok()) return uucore::UsageError(options.status());
  switch (options->action) {
    case Options::Action::kHelp: return uucore::Help(kHelp);
    case Options::Action::kVersion: return uucore::Version("timeout");
    case Options::Action::kRun: break;
  }
  return Run(*options);
}
