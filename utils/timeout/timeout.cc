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
#include "utils/timeout/report.h"
#include "utils/timeout/timeout_help.h"

namespace {

constexpr char kShortOptions[] = "+fik:ps:v";  // '+': stop at DURATION so COMMAND's options pass through.
enum { kTreeOption = 256, kReportOption };
constexpr auto kLongOptions = uucore::LongOptions({
    {"foreground", no_argument, nullptr, 'f'},      {"kill-after", required_argument, nullptr, 'k'},
    {"preserve-status", no_argument, nullptr, 'p'}, {"signal", required_argument, nullptr, 's'},
    {"verbose", no_argument, nullptr, 'v'},         {"inactivity", no_argument, nullptr, 'i'},
    {"tree", optional_argument, nullptr, kTreeOption},  {"report", required_argument, nullptr, kReportOption},
});
constexpr uucore::CommandLine kCommandLine = {"timeout", help::kTimeout, kShortOptions, kLongOptions.data()};

// The signals whose default action ends a process: sent to timeout, each is passed on to the command (then
// SIGCONT) and timeout keeps waiting, so that no signal kills timeout and orphans the command (GNU 9.11): HUP INT
// QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE TERM STKFLT XCPU XFSZ VTALRM PROF IO PWR SYS, and the real-time
// signals SIGRTMIN..SIGRTMAX. ALRM means "expire now" instead, except as PID 1, where it is the application's.
// Built as every signal but these (sigfillset already leaves out glibc's own 32 and 33): their default does not end
// a process (CHLD CONT TSTP TTIN TTOU URG WINCH), they cannot be caught (KILL STOP), or ALRM. A dozen sigdelset
// calls instead of fifty sigaddset: ~1,200 instructions less on every run.
constexpr int kNotPassedOn[] = {SIGCHLD, SIGCONT, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG,
                                SIGWINCH, SIGKILL, SIGSTOP, SIGALRM};

// As PID 1 also passed on, though their default action ends no process, since the kernel would drop them for PID 1
// and tini and dumb-init pass them on: a resize (WINCH: httpd's STOPSIGNAL), out-of-band data (URG) and job control
// (`docker kill -s TSTP` stops the application, `-s CONT` continues it). Without the CONT that follows the others.
constexpr int kPassedOnAsPid1[] = {SIGWINCH, SIGURG, SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT};
bool IsPassedOnAsPid1Only(int sig) {
  return std::find(std::begin(kPassedOnAsPid1), std::end(kPassedOnAsPid1), sig) != std::end(kPassedOnAsPid1);
}

// As PID 1, the passed-on signals that ask the command to stop, and so start the -k clock (a reload HUP or a USR1
// must not get the application KILLed -k later). Outside PID 1 every passed-on signal starts it, as in GNU.
bool IsStopRequest(int sig) { return sig == SIGTERM || sig == SIGINT || sig == SIGQUIT; }

enum class KillTree { kOff, kOnTimeout, kOnExit };

struct Options {  // Everything Run() needs; no globals.
  int finished_status = -1;  // >= 0: --help or --version already answered with this status.
  absl::Duration duration = absl::ZeroDuration(), kill_after = absl::ZeroDuration();
  int signal = SIGTERM;
  bool foreground = false, preserve_status = false, verbose = false;
  bool inactivity = false;  // -i: the timer restarts at every output.
  KillTree kill_tree = KillTree::kOff;
  const char* report = nullptr;  // --report=FILE: the JSON outcome (utils/timeout/report.h).
  char** command = nullptr;
};

// Parses the command line without side effects; usage errors come back as the message to print (empty: getopt has
// already printed its own).
absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    switch (c) {
      case 'f': options.foreground = true; break;
      case 'p': options.preserve_status = true; break;
      case 'v': options.verbose = true; break;
      case 'i': options.inactivity = true; break;
      case kReportOption: options.report = optarg; break;
      case kTreeOption: {
        const absl::string_view when = optarg == nullptr ? "timeout" : optarg;
        if (when == "timeout") {
          options.kill_tree = KillTree::kOnTimeout;
        } else if (when == "exit") {
          options.kill_tree = KillTree::kOnExit;
        } else {  // As GNU's argmatch words it.
          return absl::InvalidArgumentError(absl::StrCat(
              uucore::Format("invalid argument %s for %s", uucore::Quote(when), uucore::Quote("--tree")), "\n",
              uucore::Format("Valid arguments are:"), "\n  - ", uucore::Quote("timeout"), "\n  - ",
              uucore::Quote("exit")));
        }
        break;
      }
      case 'k': {
        absl::StatusOr<absl::Duration> d = uucore::ParseDuration(optarg);
        if (!d.ok()) return d.status();
        options.kill_after = *d;
        break;
      }
      case 's': {
        // GNU accepts 0 ("EXIT") and the numbers without a name (32, 33).
        absl::StatusOr<int> sig = uucore::ParseSignal(optarg, /*allow_zero=*/true, /*allow_unnamed=*/true);
        if (!sig.ok()) return sig.status();
        options.signal = *sig;
        break;
      }
      case uucore::kAnswered: options.finished_status = uucore::AnsweredStatus(); return options;
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

// How --tree reaches the whole tree (README "timeout beyond GNU"): a cgroup v2 leaf the command starts in (exact,
// escape-proof), else the /proc walk of uucore/process_tree.h, else (no /proc of our own PID namespace) only the
// process group, as without --tree.
enum class TreeBackend { kNone, kCgroup, kProc, kProcessGroup };

const char* BackendName(TreeBackend backend) {
  switch (backend) {
    case TreeBackend::kCgroup: return "cgroup";
    case TreeBackend::kProc: return "proc";
    case TreeBackend::kProcessGroup: return "pgroup";
    case TreeBackend::kNone: break;
  }
  return nullptr;
}

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
  void Report(int sig, bool descendants = false) const {
    if (!options.verbose) return;
    const std::string name = timeout_report::SignalWord(sig);  // "sending signal 0", as GNU 9.10.
    const std::string command = uucore::Quote(options.command[0]);
    uucore::Notice(descendants ? uucore::Format("sending signal %s to the descendants of command %s", name, command)
                               : uucore::Format("sending signal %s to command %s", name, command));
  }

  // Every process of the tree: the cgroup's all at once, else the /proc walk (which a cgroup that refuses falls
  // back to for the rest of the run). Errors are ignored, as for a process group. `stopped`: see Send()'s `cont`.
  void SignalTree(int sig, uucore::StoppedProcesses stopped = uucore::StoppedProcesses::kContinue) {
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

  // `cont`: follow with SIGCONT, so that a stopped process acts on the signal; without, one stays stopped.
  void Send(int sig, bool cont = true) {
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

  // The limit or -k's KILL is due, or someone sent us ALRM (`alarm_signal`): the command has timed out.
  void Expire(bool alarm_signal = false) {
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

  // A signal we received is passed on as it is. It starts the -k clock, but as PID 1 only if it asks the command to
  // stop: the other signals are the application's own business (reload, rotate logs, ...).
  void Forward(int sig) {
    if (outcome != nullptr && std::find(outcome->forwarded.begin(), outcome->forwarded.end(), sig) ==
                                  outcome->forwarded.end()) {
      outcome->forwarded.push_back(sig);
    }
    Send(sig, /*cont=*/!IsPassedOnAsPid1Only(sig));
    if (!pid1 || IsStopRequest(sig)) ArmKill();
  }

  // --tree=exit: the command has exited by itself and left descendants running; they get what expiry sends.
  void CleanUpAfter() {
    Report(next_signal, /*descendants=*/true);
    tree_signalled = true;
    limit = uucore::Deadline::Never();  // The command's own timer is over; only -k counts now.
    if (kill_armed) killed = true;
    SignalTree(next_signal);
    ArmKill();
  }

  // After the first signal, whatever sent it, -k starts counting: its expiry sends KILL. A time limit still to come
  // (a signal passed on before it) keeps running, as GNU's: whichever comes first now sends KILL.
  void ArmKill() {
    if (kill_after == absl::ZeroDuration()) return;
    next_signal = SIGKILL;
    kill_armed = true;
    kill_at = uucore::Deadline::In(kill_after);
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
  uucore::AddSignal(&just, sig);
  // Blocked for waiting: let it act now (the raw call, so that glibc's own 32 and 33 are unblocked too).
  syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &just, nullptr, 8);
  raise(sig);
}

// How timeout ends, from the command's wait status, as GNU computes it: a status to exit with, or (the command was
// killed by a signal and did not time out) that signal to die of, so that the caller sees the command's death.
struct Ending {
  int status;
  int die_of = 0;
};

Ending EndingFor(int wait_status, const Monitor& monitor) {
  bool preserve = monitor.options.preserve_status;
  Ending ending{uucore::ExitStatusOf(wait_status)};
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    if (WCOREDUMP(wait_status)) uucore::Error(uucore::Format("the monitored command dumped core"));
    // Pass the command's death on to our caller; PID 1 cannot be killed by its own signal, so it exits instead.
    if (!monitor.timed_out && !monitor.pid1) ending.die_of = sig;
    if (monitor.timed_out && sig == SIGKILL) preserve = true;  // 137 tells the caller that KILL was needed.
  }
  if (monitor.timed_out && !preserve) ending.status = uucore::kExitTimedOut;
  return ending;
}

// The wait of -i and of the cgroup backend of --tree: one ppoll per wake over a signalfd (the signals stay blocked),
// a timerfd for the deadline (uucore::DeadlineTimer: ppoll's own timeout is 0.1% late) and descriptors. -i: the
// command's stdout and stderr are pipes that timeout copies to its own, so every write is seen. Where timeout's
// output is a pipe or /dev/null, splice() moves the bytes inside the kernel and timeout holds none; else (a file,
// a terminal, a socket) each stream holds at most one chunk in flight. Either way a pipe is read only once what
// came before is out, so a stalled reader of timeout's output stalls the command as it would without timeout (and
// counts as inactivity). --tree with a cgroup: its cgroup.events, which the kernel flags (POLLPRI) when the group
// empties.
class Relay {
 public:
  // A wake of Wait(): a signal (with its sender), the deadline, output moved, or the watched file changed.
  struct Event {
    int sig = 0;  // > 0: this signal; 0: the deadline passed; kActivity: output moved (restart the timer);
                  // kWatched: the watched descriptor reported POLLPRI.
    int code = 0;
    pid_t pid = 0;
  };
  static constexpr int kActivity = -1;
  static constexpr int kWatched = -2;

  ~Relay() {
    for (Stream& s : streams_) CloseFrom(s);
    if (sigfd_ >= 0) close(sigfd_);
  }

  // Before Spawn(): a signalfd for `signals` (which must stay blocked) and, with `pipes` (-i), pipes for those of
  // fds 1 and 2 that were open when timeout started (`closed`: bit i for fd i, from
  // uucore::HoldClosedStandardDescriptors()), one pipe for both when they share an open file description, as with
  // 2>&1, so that their order is kept.
  absl::Status Open(const sigset_t& signals, bool pipes, unsigned closed) {
    const bool open1 = (closed & 2u) == 0, open2 = (closed & 4u) == 0;
    sigfd_ = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sigfd_ < 0) return absl::ErrnoToStatus(errno, "signalfd");
    // The deadline as a timer in the poll set: ppoll's own timeout would fire 0.1% of the duration late.
    absl::StatusOr<uucore::DeadlineTimer> timer = uucore::DeadlineTimer::Create();
    if (!timer.ok()) return timer.status();
    timer_ = *std::move(timer);
    if (!pipes) return absl::OkStatus();
    const pid_t me = getpid();
    const bool shared = open1 && open2 && syscall(SYS_kcmp, me, me, KCMP_FILE, 1, 2) == 0;
    for (int fd : {1, 2}) {
      if (!(fd == 1 ? open1 : open2)) continue;  // A closed descriptor stays closed for the command, as without -i.
      Stream& s = streams_[fd - 1];
      s.to = fd;
      if (fd == 2 && shared) {
        s.to = -1;
        streams_[0].also = 2;
        continue;
      }
      int ends[2];
      if (pipe2(ends, O_CLOEXEC) != 0) return absl::ErrnoToStatus(errno, "pipe");
      s.from = ends[0];  // Above 2: a closed 0, 1 or 2 is held (uucore::HoldClosedStandardDescriptors()).
      s.child_end = ends[1];
      fcntl(s.from, F_SETFL, O_NONBLOCK);  // Ours alone: drained without blocking once the command has exited.
      ChooseHow(fd, s);
    }
    return absl::OkStatus();
  }

  // Spawns with the pipes' write ends as the command's fds 1 and 2, restoring timeout's own afterwards.
  absl::StatusOr<pid_t> Spawn(char* const argv[], const uucore::SpawnOptions& spawn) {
    int saved[2] = {-1, -1};
    const auto restore = [&saved] {
      for (int i = 0; i < 2; ++i) {
        if (saved[i] < 0) continue;
        dup2(saved[i], i + 1);  // Our own stdout/stderr back, for the copy and for our messages.
        close(saved[i]);
      }
    };
    for (int i = 0; i < 2; ++i) {
      const Stream& s = streams_[i];
      const int end = s.child_end >= 0 ? s.child_end : (i == 1 && streams_[0].also == 2 ? streams_[0].child_end : -1);
      if (end < 0) continue;
      saved[i] = fcntl(i + 1, F_DUPFD_CLOEXEC, 3);
      if (saved[i] < 0) {  // Out of descriptors: without ours kept aside, the copy would write into its own pipe.
        const int err = errno;
        restore();
        return absl::ErrnoToStatus(err, "dup");
      }
      dup2(end, i + 1);  // Without close-on-exec: the command inherits it.
    }
    absl::StatusOr<pid_t> child = uucore::Spawn(argv, spawn);
    restore();
    // Kept after a failure: the caller may start the command again (without the cgroup, when clone3 refused it).
    if (!child.ok()) return child;
    for (Stream& s : streams_) {
      if (s.child_end >= 0) close(s.child_end);  // Only the command holds the write ends: its exit gives EOF.
      s.child_end = -1;
    }
    return child;
  }

  // Also wake when `fd` reports POLLPRI (a cgroup.events file: the caller reads it, which re-arms it); -1: none.
  void Watch(int fd) { watched_ = fd; }

  // Waits, in one ppoll per wake, for a signal (read from the signalfd: they stay blocked), the deadline (a
  // timerfd at its absolute time), the pipes or the watched descriptor; moves output as it comes. EINTR (a
  // stop/continue) is absorbed: the timer still aims at the same instant.
  absl::StatusOr<Event> Wait(uucore::Deadline deadline) {
    for (;;) {
      if (absl::Status armed = timer_.Arm(deadline); !armed.ok()) return armed;
      pollfd fds[7] = {{sigfd_, POLLIN, 0},   {-1, 0, 0}, {-1, 0, 0}, {watched_, POLLPRI, 0},
                       {-1, 0, 0},            {-1, 0, 0}, {timer_.fd(), POLLIN, 0}};
      for (int i = 0; i < 2; ++i) {
        const Stream& s = streams_[i];
        if (s.len > s.off || s.full) {
          fds[i + 1] = {s.to, POLLOUT, 0};  // Bytes are waiting for room: read no more until they are out.
        } else if (s.from >= 0) {
          fds[i + 1] = {s.from, POLLIN, 0};
          // Idle: our output's own POLLERR (a pipe whose reader is gone), so that the pipe closes before the
          // command's next write, which then fails (SIGPIPE) as it would have on that output, not into our buffer.
          fds[i + 4] = {s.to, 0, 0};
        }
      }
      if (ppoll(fds, 7, nullptr, nullptr) < 0) {
        if (errno == EINTR) continue;  // A stop/continue or a handled signal: wait again.
        return absl::ErrnoToStatus(errno, "ppoll");
      }
      if (fds[6].revents != 0) timer_.Consume();  // Fired (maybe for an earlier deadline): the next Arm() aims again.
      bool moved = false;
      for (int i = 0; i < 2; ++i) {
        if (fds[i + 4].revents & POLLERR) {
          CloseFrom(streams_[i]);  // What the command wrote meanwhile would have been lost in that pipe as well.
          continue;
        }
        if (fds[i + 1].fd >= 0 && fds[i + 1].revents != 0) moved |= Move(streams_[i]);
      }
      if (fds[0].revents != 0) {
        signalfd_siginfo info;
        const ssize_t n = read(sigfd_, &info, sizeof info);
        if (n == static_cast<ssize_t>(sizeof info)) {
          // Output moved in the same wake is not lost: the caller restarts its timer on the next one at once.
          pending_activity_ = pending_activity_ || moved;
          return Event{static_cast<int>(info.ssi_signo), info.ssi_code, static_cast<pid_t>(info.ssi_pid)};
        }
      }
      if (moved || pending_activity_) {
        pending_activity_ = false;
        return Event{kActivity};
      }
      if (fds[3].revents & (POLLPRI | POLLERR)) return Event{kWatched};
      if (deadline.HasPassed()) return Event{0};
    }
  }

  // Once the command has exited: copies what it left in the pipes, without waiting for EOF (a descendant may hold
  // a write end for ever; timeout returns when the command does, and later output from descendants is dropped).
  void Drain() {
    for (Stream& s : streams_) {
      while (s.splice && s.from >= 0) {
        if (Move(s)) continue;
        if (!s.full) break;  // Empty for now, EOF, or an error: nothing more to move. (Refused: copied below.)
        AwaitRoom(s.to);
      }
      if (s.splice) continue;
      while (s.from >= 0 || s.len > s.off) {
        if (s.len > s.off) {
          if (!WriteAll(s)) break;
          continue;
        }
        const ssize_t n = read(s.from, s.buf, s.chunk);
        if (n < 0 && errno == EINTR) continue;  // Interrupted before reading; read again.
        if (n <= 0) break;                       // Empty for now (EAGAIN), EOF, or an error: nothing more to copy.
        s.len = static_cast<size_t>(n);
        s.off = 0;
      }
    }
  }

 private:
  struct Stream {
    int from = -1;        // Our read end of the command's pipe.
    int child_end = -1;   // The write end, until the command has it.
    int to = -1;          // Where the output goes: timeout's own fd 1 or 2.
    int also = -1;        // 2 when the command's fd 2 is this same pipe (2>&1).
    bool splice = false;  // Moved by splice(), nothing held here; else copied through buf.
    bool full = false;    // splice: bytes wait in the command's pipe for room in our output.
    // One read's worth: PIPE_BUF, which a pipe, terminal or socket that polls writable takes without blocking; all of
    // buf for a file, which has no reader to wait for.
    size_t chunk = PIPE_BUF;
    char buf[1 << 16];  // Touched only as far as chunk: Relay is on the heap, its pages come as they are written.
    size_t len = 0, off = 0;
  };

  // As much as a pipe can hold (F_SETPIPE_SZ's default limit); a splice moves what there is, up to this.
  static constexpr size_t kSpliceMax = 1 << 20;

  // How the command's bytes reach our `fd`: splice() to a pipe (SPLICE_F_NONBLOCK holds for both ends) or
  // /dev/null. Copied to the rest: a regular file in whole-buffer writes (no reader to wait for; and write() takes
  // the file position under the kernel's lock, splice() does not, so writers sharing the file, as `make -j >log`
  // makes them, would overwrite each other), a terminal or a socket in PIPE_BUF ones.
  static void ChooseHow(int fd, Stream& s) {
    struct stat st;
    const int flags = fcntl(fd, F_GETFL);
    if (fstat(fd, &st) != 0 || flags < 0) return;
    if (S_ISREG(st.st_mode)) s.chunk = sizeof s.buf;
    const bool dev_null = S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3);
    s.splice = (flags & O_APPEND) == 0 && (S_ISFIFO(st.st_mode) || dev_null);
  }

  // Once the command has exited (Drain()): our output, full (EAGAIN: non-blocking, or splice), is waited for, as a
  // blocking write would wait.
  static void AwaitRoom(int fd) {
    pollfd out = {fd, POLLOUT, 0};
    (void)poll(&out, 1, -1);  // EINTR: the caller tries again, and comes back here if it must.
  }

  // Bytes waiting in the pipe `fd` (so that splice's EAGAIN is our output's doing, not an empty pipe's).
  static bool Pending(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 && n > 0;
  }

  static void CloseFrom(Stream& s) {
    if (s.from >= 0) close(s.from);
    if (s.child_end >= 0) close(s.child_end);  // Held only if no command was started.
    s.from = s.child_end = -1;
    s.full = false;  // Nothing is waiting any more.
  }

  // One step for a ready stream: splice what the pipe holds, or write the chunk in flight, or read the next. True if
  // bytes moved.
  static bool Move(Stream& s) {
    if (s.splice) {
      const ssize_t n = splice(s.from, nullptr, s.to, nullptr, kSpliceMax, SPLICE_F_NONBLOCK);
      if (n > 0) {
        s.full = false;
        return true;
      }
      if (n == 0) {
        CloseFrom(s);  // EOF, as below.
        return false;
      }
      if (errno == EINTR) return false;  // Interrupted before moving; poll again.
      if (errno == EAGAIN) {
        s.full = Pending(s.from);  // No room in our output: poll it for room, not the pipe for bytes.
        return false;
      }
      if (errno != EINVAL) {
        CloseFrom(s);  // Our output is gone (EPIPE), as a failed write below.
        return false;
      }
      s.splice = s.full = false;  // This output takes no splice after all: copy from now on.
    }
    if (s.len > s.off) {
      const ssize_t n = write(s.to, s.buf + s.off, s.len - s.off);
      if (n > 0) {
        s.off += static_cast<size_t>(n);
        return true;
      }
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) return false;  // Not taken this time; poll again.
      // Our output is gone (EPIPE: SIGPIPE is blocked in timeout): close the pipe so that the command's next write
      // fails with EPIPE/SIGPIPE, as it would have written to the closed output itself.
      s.len = s.off = 0;
      CloseFrom(s);
      return false;
    }
    const ssize_t n = read(s.from, s.buf, s.chunk);
    if (n > 0) {
      s.len = static_cast<size_t>(n);
      s.off = 0;
      return true;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return false;  // Nothing after all; poll again.
    CloseFrom(s);  // EOF: the command (and all who share the pipe) closed it; the other stream goes on.
    return false;
  }

  static bool WriteAll(Stream& s) {
    while (s.len > s.off) {
      const ssize_t n = write(s.to, s.buf + s.off, s.len - s.off);
      if (n > 0) {
        s.off += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;  // Interrupted before writing; write again.
      if (n < 0 && errno == EAGAIN) {
        AwaitRoom(s.to);
        continue;
      }
      s.len = s.off = 0;
      CloseFrom(s);
      return false;
    }
    s.len = s.off = 0;
    return true;
  }

  Stream streams_[2];
  int sigfd_ = -1;
  uucore::DeadlineTimer timer_;
  int watched_ = -1;
  bool pending_activity_ = false;
};

// Reaps on SIGCHLD. Only the command, unless timeout is PID 1 or a subreaper: then every orphan handed to it too, so
// that none stays a zombie. Sets *children_left when children (descendants) remain.
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

// Whether the cgroup backend's group still holds a process; true where cgroup.events cannot be read (then the wait
// goes on until no child is left, as before).
bool GroupPopulated(const uucore::CgroupLeaf& leaf) {
  absl::StatusOr<uucore::CgroupEvents> events = leaf.ReadEvents();
  return !events.ok() || events->populated;
}

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

// Which backend --tree uses, and its cgroup leaf: a cgroup v2 group we may create (root, or a delegated subtree),
// else /proc of our own PID namespace, else the process group (said on stderr: --tree cannot do its job). With -v,
// says which one and why.
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

int TimeoutMain(int argc, char* argv[]) {
  // Every signal is still blocked since our first instruction (utils/coreutils/entry.S): Run() keeps them pending
  // until it waits for them; anything else runs with the mask we were started with (`timeout --help | head -c1`
  // dies of SIGPIPE, as GNU's does: uucore::GetoptLong answers --help and --version with that mask).
  absl::StatusOr<Options> options = ParseArgs(argc, argv);
  if (!options.ok()) {
    uucore::RestoreStartupSignalMask();
    return uucore::UsageError(options.status());
  }
  if (options->finished_status >= 0) return options->finished_status;
  return Run(*options);
}
