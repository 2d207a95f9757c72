// timeout: GNU's behaviour, one case per line, exact status/stdout/stderr. Timers of ~0.1 s against commands that
// would run 10 s; a case that waited for the command instead of the timer would take 10 s and fail its time bound.
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

constexpr char kTry[] = "Try 'timeout --help' for more information.\n";

// A case that also says how the process ended (killed by `signal`, or exited when 0) and how long it may take.
struct Expect {
  std::string name;
  std::vector<std::string> argv;
  int status;
  int signal;  // Killed by this signal (status is then 128 + signal), or 0 for a normal exit.
  std::string out, err;
  double max_seconds = 5;  // Generous for a loaded machine, far below the command's own 10 s.
};

void Check(const Expect& c, const Options& options = {}) {
  Result r = Invoke(c.argv, options);
  EXPECT_FALSE(r.hung) << c.name;
  EXPECT_EQ(r.status, c.status) << c.name;
  EXPECT_EQ(r.signal, c.signal) << c.name;
  EXPECT_EQ(r.out, c.out) << c.name;
  EXPECT_EQ(r.err, c.err) << c.name;
  EXPECT_LT(r.seconds, c.max_seconds) << c.name;
}

TEST(TimeoutTest, UsageErrors) {
  for (const Case& c : std::vector<Case>{
           {"no operands: only the Try line, as GNU", {"timeout"}, 125, "", kTry},
           {"duration without command", {"timeout", "1"}, 125, "", kTry},
           {"invalid duration", {"timeout", "x", "true"}, 125, "",
            std::string("timeout: invalid time interval 'x'\n") + kTry},
           {"trailing space in duration", {"timeout", "1 ", "true"}, 125, "",
            std::string("timeout: invalid time interval '1 '\n") + kTry},
           {"negative duration", {"timeout", "-0.1", "true"}, 125, "",
            std::string("timeout: invalid option -- '0'\n") + kTry},
           {"invalid signal", {"timeout", "-s", "FOO", "1", "true"}, 125, "",
            std::string("timeout: 'FOO': invalid signal\n") + kTry},
           {"invalid kill-after", {"timeout", "-k", "1x", "1", "true"}, 125, "",
            std::string("timeout: invalid time interval '1x'\n") + kTry},
           {"unknown long option", {"timeout", "--bogus", "1", "true"}, 125, "",
            std::string("timeout: unrecognized option '--bogus'\n") + kTry},
           {"unknown short option", {"timeout", "-x", "1", "true"}, 125, "",
            std::string("timeout: invalid option -- 'x'\n") + kTry},
           {"missing option argument", {"timeout", "-s"}, 125, "",
            std::string("timeout: option requires an argument -- 's'\n") + kTry},
           // GNU 9.10: the message names the program, the Try line (and getopt's own complaints) argv[0].
           {"messages name the program, the Try line argv[0] as given", {"/usr/local/bin/timeout", "x", "true"}, 125,
            "", "timeout: invalid time interval 'x'\nTry '/usr/local/bin/timeout --help' for more information.\n"},
           {"getopt's complaint names argv[0] as given", {"/usr/local/bin/timeout", "-x", "1", "true"}, 125, "",
            "/usr/local/bin/timeout: invalid option -- 'x'\nTry '/usr/local/bin/timeout --help' for more "
            "information.\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(TimeoutTest, HelpAndVersion) {
  Result help = Invoke({"timeout", "--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.err, "");
  EXPECT_EQ(help.out.rfind("Usage: timeout [OPTION]... DURATION COMMAND [ARG]...\n", 0), 0u);  // GNU 9.10's.
  for (const char* line : {"  -k, --kill-after=DURATION\n", "  -s, --signal=SIGNAL\n", "  -p, --preserve-status\n",
                           "  -f, --foreground\n", "  -v, --verbose", "  124  if COMMAND timed out",
                           "  137  if COMMAND (or timeout itself) was sent the KILL (9) signal (128+9)\n"}) {
    EXPECT_NE(help.out.find(line), std::string::npos) << line;
  }
  ExpectCase({"version", {"timeout", "--version"}, 0,
              "timeout (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n",
              ""});
  ExpectCase({"help wins over a bad duration after it", {"timeout", "--help", "x"}, 0, help.out, ""});
}

TEST(TimeoutTest, HelpToAFullDeviceIsAWriteError) {
  Options full;
  full.stdout_path = "/dev/full";
  Result r = Invoke({"timeout", "--help"}, full);
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err, "timeout: write error: No space left on device\n");
}

TEST(TimeoutTest, RunningTheCommand) {
  for (const Expect& c : std::vector<Expect>{
           {"the command's status passes through", {"timeout", "10", "sh", "-c", "exit 7"}, 7, 0, "", ""},
           {"the command's output passes through", {"timeout", "10", "sh", "-c", "echo out; echo err >&2"}, 0, 0,
            "out\n", "err\n"},
           {"options after DURATION belong to the command",
            {"timeout", "10", "sh", "-c", "printf '%s\\n' \"$@\"", "sh", "-s", "KILL", "-v"}, 0, 0, "-s\nKILL\n-v\n",
            ""},
           {"-- ends the options", {"timeout", "--", "10", "sh", "-c", "exit 3"}, 3, 0, "", ""},
           {"not found is 127", {"timeout", "10", "no-such-command"}, 127, 0, "",
            "timeout: failed to run command 'no-such-command': No such file or directory\n"},
           {"not runnable is 126", {"timeout", "10", "/etc"}, 126, 0, "",
            "timeout: failed to run command '/etc': Permission denied\n"},
           {"not a directory is 126, as GNU", {"timeout", "10", "/etc/passwd/x"}, 126, 0, "",
            "timeout: failed to run command '/etc/passwd/x': Not a directory\n"},
           {"the command's name is quoted", {"timeout", "10", "no'such"}, 127, 0, "",
            "timeout: failed to run command 'no\\'such': No such file or directory\n"},
           {"duration 0 disables the timer", {"timeout", "0", "sh", "-c", "sleep 0.3; exit 3"}, 3, 0, "", ""},
           {"infinite duration", {"timeout", "inf", "sh", "-c", "exit 4"}, 4, 0, "", ""},
           {"a duration too large for the kernel waits forever without error",
            {"timeout", "9223372036854775808d", "sh", "-c", "exit 5"}, 5, 0, "", ""},
           {"1e400 seconds", {"timeout", "1e400", "true"}, 0, 0, "", ""},
           {"signal 0 is accepted", {"timeout", "-s", "0", "10", "true"}, 0, 0, "", ""},
       }) {
    Check(c);
  }
}

TEST(TimeoutTest, TimingOut) {
  for (const Expect& c : std::vector<Expect>{
           {"timed out is 124", {"timeout", "0.1", "sleep", "10"}, 124, 0, "", ""},
           {"a suffix", {"timeout", "0.002m", "sleep", "10"}, 124, 0, "", ""},
           {"verbose names the signal and the command", {"timeout", "-v", "0.1", "sleep", "10"}, 124, 0, "",
            "timeout: sending signal TERM to command 'sleep'\n"},
           {"verbose with another signal", {"timeout", "--verbose", "--signal=INT", "0.1", "sleep", "10"}, 124, 0, "",
            "timeout: sending signal INT to command 'sleep'\n"},
           {"a signal by number", {"timeout", "-v", "-s", "1", "0.1", "sleep", "10"}, 124, 0, "",
            "timeout: sending signal HUP to command 'sleep'\n"},
           {"--preserve-status gives the command's status", {"timeout", "--preserve-status", "0.1", "sleep", "10"},
            143, 0, "", ""},
           {"-p is --preserve-status", {"timeout", "-p", "-s", "INT", "0.1", "sleep", "10"}, 130, 0, "", ""},
           {"-p with a command that handles the signal",
            {"timeout", "-p", "0.1", "sh", "-c", "trap 'exit 9' TERM; sleep 10 & wait"}, 9, 0, "", ""},
           {"-s KILL: timeout dies of it with its group, 137 as GNU", {"timeout", "-s", "KILL", "0.1", "sleep", "10"},
            137, SIGKILL, "", ""},
           {"-s KILL --foreground: exit status 137", {"timeout", "--foreground", "-s", "KILL", "0.1", "sleep", "10"},
            137, 0, "", ""},
           {"-s KILL with --preserve-status", {"timeout", "-p", "-s", "KILL", "0.1", "sleep", "10"}, 137, SIGKILL, "",
            ""},
           {"-k kills a command that ignores TERM",
            {"timeout", "-v", "-k", "0.1", "1", "sh", "-c", "trap '' TERM; sleep 10"}, 137, SIGKILL, "",
            "timeout: sending signal TERM to command 'sh'\ntimeout: sending signal KILL to command 'sh'\n"},
           {"-k --foreground kills only the command: exit status 137",
            {"timeout", "-f", "-k", "0.1", "1", "sh", "-c", "trap '' TERM; exec sleep 10"}, 137, 0, "", ""},
           {"-k 0 disables the kill", {"timeout", "-k", "0", "0.1", "sh", "-c", "trap '' TERM; sleep 0.5; exit 3"},
            124, 0, "", ""},
           {"-k is not needed when the command obeys", {"timeout", "-v", "-k", "5", "0.1", "sleep", "10"}, 124, 0, "",
            "timeout: sending signal TERM to command 'sleep'\n"},
           {"a stopped command gets SIGCONT after the signal", {"timeout", "0.1", "sh", "-c", "kill -STOP $$"}, 124,
            0, "", ""},
           {"a signal the command handles, after which it exits 0, is still a timeout",
            {"timeout", "0.1", "sh", "-c", "trap 'exit 0' TERM; sleep 10 & wait"}, 124, 0, "", ""},
           {"a signal that is ignored by default: still 124 once the command ends",
            {"timeout", "-s", "WINCH", "0.1", "sh", "-c", "sleep 0.5"}, 124, 0, "", ""},
           {"-s ALRM: our own copy is not taken for another expiry",
            {"timeout", "-v", "-s", "ALRM", "0.1", "sleep", "10"}, 124, 0, "", "timeout: sending signal ALRM to command 'sleep'\n"},
           {"a queued real-time copy of our own signal does not kill us on exit",
            {"timeout", "-s", "RTMIN+1", "0.1", "sleep", "10"}, 124, 0, "", ""},
           {"a signal timeout would die of is not turned on itself", {"timeout", "-s", "USR1", "0.1", "sleep", "10"},
            124, 0, "", ""},
           // The command cannot have ended before a deadline that passed while it was still being started (GNU's
           // timer, armed right after fork, fires then too): 124, however fast the command is once it runs.
           {"a deadline that passed during the start is a timeout", {"timeout", "-v", "1e-9", "sh", "-c", "exit 3"},
            124, 0, "", "timeout: sending signal TERM to command 'sh'\n"},
           {"also for a command that exits at once", {"timeout", "0.000001", "true"}, 124, 0, "", ""},
       }) {
    Check(c);
  }
}

// timeout stopped before its deadline, a backlog of 5,000 queued real-time signals for it, then continued after
// the deadline: it has timed out (124), as GNU's (its ALRM is taken before the queued ones). It used to look at
// the clock only when no signal was pending: it passed the signals on, the first one (default action) ended
// `sleep`, and timeout died of it as of the command's own signal (163). It is stopped once it has started sleep (its
// signals blocked by then: an ASan build's start-up runs with them unblocked, and the first would kill it).
TEST(TimeoutTest, ABacklogOfSignalsDoesNotHideTheDeadline) {
  constexpr char kScript[] = R"sh(
"$0" timeout 2 sleep 10 &
t=$!
i=0
until [ -n "$(cat /proc/$t/task/$t/children 2>/dev/null)" ] || [ $i -ge 200 ]; do sleep 0.05; i=$((i+1)); done
kill -STOP $t
python3 -c 'import os, signal, sys
try:
    for _ in range(5000): os.kill(int(sys.argv[1]), signal.SIGRTMIN + 1)
except OSError:  # EAGAIN: RLIMIT_SIGPENDING reached; fewer make the backlog shorter, not the test wrong.
    pass' $t
sleep 3
kill -CONT $t
wait $t
echo $?
)sh";
  Result r = RunProgram("/bin/sh", {"sh", "-c", kScript, BinaryPath()});
  EXPECT_EQ(r.out, "124\n");
  EXPECT_EQ(r.err, "");
}

// The command's children are in timeout's group and are signalled too; they would otherwise hold stdout open for
// 10 s, and the runner waits for stdout to close.
TEST(TimeoutTest, SignalsTheWholeGroup) {
  Check({"children of the command are timed out too", {"timeout", "0.1", "sh", "-c", "sleep 10 & wait"}, 124, 0, "",
         ""});
  Check({"a command that left the group is still signalled", {"timeout", "0.1", "setsid", "sleep", "10"}, 124, 0, "",
         ""});
  // -k's KILL goes to the group, which is timeout's own: timeout dies of it. The command, out of the group, gets it
  // first. (It did not: timeout was dead before it sent it, and the command ran on, holding stdout for 10 s.)
  // 1 s: setsid, then sh, must have set the trap before the TERM (0.2 s was too short for a loaded ASan run: 124).
  Check({"-k's KILL reaches a command that left the group",
         {"timeout", "-k", "0.2", "1", "setsid", "sh", "-c", "trap '' TERM; exec sleep 10"}, 137, SIGKILL, "", ""});
  Check({"timeout leads the command's process group",
         {"timeout", "10", "sh", "-c", "test \"$(cut -d' ' -f5 /proc/$$/stat)\" = $PPID && echo leader"}, 0, 0,
         "leader\n", ""});
}

TEST(TimeoutTest, ForegroundSignalsOnlyTheCommand) {
  // The child sleep 3 is not signalled and keeps stdout open until it ends.
  Result r = Invoke({"timeout", "--foreground", "0.1", "sh", "-c", "sleep 3 & wait"});
  EXPECT_EQ(r.status, 124);
  EXPECT_EQ(r.err, "");
  EXPECT_GT(r.seconds, 2.5);
  Check({"--foreground stays in the caller's group",
         {"timeout", "--foreground", "10", "sh", "-c", "test \"$(cut -d' ' -f5 /proc/$$/stat)\" != $PPID && echo no"},
         0, 0, "no\n", ""});
}

TEST(TimeoutTest, TheCommandsDeathIsPassedOn) {
  Check({"killed by a signal: timeout dies of the same one", {"timeout", "10", "sh", "-c", "kill -TERM $$"}, 143,
         SIGTERM, "", ""});
  Check({"killed by INT", {"timeout", "10", "sh", "-c", "kill -INT $$"}, 130, SIGINT, "", ""});
  Options in_temp;
  in_temp.cwd = MakeTempDir();  // Any core file lands here.
  Check({"a core dump is reported",
         {"timeout", "10", "sh", "-c", "ulimit -c unlimited 2>/dev/null || exit 99; kill -SEGV $$"}, 139, SIGSEGV,
         "", "timeout: the monitored command dumped core\n"},
        in_temp);
}

// The command's exit is seen at once: no poll interval. `timeout 10 true` costs about as much as starting the binary
// twice (timeout and true); the best of five stays far below the ~100 ms a timeout polling every 0.1 s would add.
// Measured against our own `true` (same start-up cost, also under sanitizers) so that slow start-ups do not count.
TEST(TimeoutTest, TheCommandsExitIsSeenAtOnce) {
  auto best_of_five = [](const std::vector<std::string>& argv) {
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
      Result r = Invoke(argv);
      EXPECT_EQ(r.status, 0);
      best = std::min(best, r.seconds);
    }
    return best;
  };
  const double alone = best_of_five({"true"});
  const double timed = best_of_five({"timeout", "10", "true"});
  EXPECT_LT(timed - alone, 0.07) << "timeout 10 true: " << timed << " s, true alone: " << alone << " s";
  Result r = Invoke({"timeout", "10", "sleep", "0.2"});
  EXPECT_EQ(r.status, 0);
  EXPECT_LT(r.seconds, 2);
}

// Signals sent to timeout reach the command: the command sends them to its parent, timeout, itself, then spins in
// shell builtins (a fork right after the kill would race with the shell's own signal handling in the new child).
TEST(TimeoutTest, ForwardsTheSignalsItReceives) {
  for (const char* sig : {"TERM", "INT", "HUP", "QUIT"}) {
    const std::string s = sig;
    Check({"forwards " + s,
           {"timeout", "-v", "10", "sh", "-c",
            "trap 'echo got " + s + "; exit 3' " + s + "; kill -" + s + " $PPID; while :; do :; done"},
           3, 0, "got " + s + "\n", "timeout: sending signal " + s + " to command 'sh'\n"});
  }
  Check({"ALRM counts as the timer expiring",
         {"timeout", "-v", "10", "sh", "-c", "kill -ALRM $PPID; while :; do :; done"}, 124, 0, "",
         "timeout: sending signal TERM to command 'sh'\n"});
  Check({"a forwarded signal arms -k",
         {"timeout", "-k", "0.2", "10", "sh", "-c", "trap '' TERM; kill -TERM $PPID; while :; do :; done"}, 137,
         SIGKILL, "", ""});
}

// GNU 9.11: every signal whose default action ends a process is passed on, and timeout waits for the command; a
// signal that ended timeout instead would leave the command running, orphaned. The command traps it and exits 3.
TEST(TimeoutTest, PassesOnEveryTerminatingSignal) {
  struct Sig {
    const char* name;   // As timeout -v names it.
    const char* shell;  // As sh's trap and kill take it (dash has no STKFLT name).
  };
  for (const Sig& sig : {Sig{"HUP", "HUP"}, Sig{"INT", "INT"}, Sig{"QUIT", "QUIT"}, Sig{"ILL", "ILL"},
                         Sig{"TRAP", "TRAP"}, Sig{"ABRT", "ABRT"}, Sig{"BUS", "BUS"}, Sig{"FPE", "FPE"},
                         Sig{"USR1", "USR1"}, Sig{"SEGV", "SEGV"}, Sig{"USR2", "USR2"}, Sig{"PIPE", "PIPE"},
                         Sig{"TERM", "TERM"}, Sig{"STKFLT", "16"}, Sig{"XCPU", "XCPU"}, Sig{"XFSZ", "XFSZ"},
                         Sig{"VTALRM", "VTALRM"}, Sig{"PROF", "PROF"}, Sig{"POLL", "IO"}, Sig{"PWR", "PWR"},
                         Sig{"SYS", "SYS"}, Sig{"RTMIN", "RTMIN"}, Sig{"RTMIN+1", "RTMIN+1"},
                         Sig{"RTMAX-1", "RTMAX-1"}, Sig{"RTMAX", "RTMAX"}}) {
    const std::string name = sig.name, shell = sig.shell;
    Check({"passes on " + name,
           // Short foreground sleeps, not `sleep 10 & wait`: a background child still between fork and exec runs
           // with sh's handler, which swallows the group's copy and `kill $!` alike, and the sleep lives on. (sh's
           // own stderr is silenced: it reports each sleep the signal kills, "Hangup".)
           {"timeout", "-v", "10", "sh", "-c",
            "trap 'echo got it; exit 3' " + shell + "; kill -" + shell +
                " $PPID; exec 2>/dev/null; i=0; while [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done"},
           3, 0, "got it\n", "timeout: sending signal " + name + " to command 'sh'\n"});
  }
}

// --help, the man page (generated with --help from utils/timeout/timeout.help) and README name the same signals, the
// ones PassesOnEveryTerminatingSignal checks.
TEST(TimeoutTest, HelpManPageAndReadmeListTheSignalsPassedOn) {
  const std::string list = "HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE TERM STKFLT XCPU XFSZ VTALRM PROF IO "
                           "PWR SYS and the real-time signals";
  auto words = [](const std::string& text) {  // Line breaks and runs of blanks as one space; roff's \- as -.
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '\\' && i + 1 < text.size() && text[i + 1] == '-') continue;
      if (c == '\n' || c == ' ') {
        if (!out.empty() && out.back() != ' ') out += ' ';
      } else {
        out += c;
      }
    }
    return out;
  };
  EXPECT_NE(words(Invoke({"timeout", "--help"}).out).find(list), std::string::npos) << "--help";
  EXPECT_NE(words(ReadFile(RunfilePath("utils/timeout/timeout.1"))).find(list), std::string::npos) << "timeout.1";
  EXPECT_NE(words(ReadFile(RunfilePath("README.md"))).find(list), std::string::npos) << "README.md";
}

// Deliberate difference from GNU 9.10: glibc's own signals 32 and 33 (no names; glibc's sigprocmask will not block
// them) are blocked through the system call, so timeout's copy of its group signal does not kill it: 124, where
// GNU 9.10 dies of it (160).
TEST(TimeoutTest, UnnamedExpirySignal) {
  Check({"-s 32", {"timeout", "-v", "-s", "32", "0.1", "sleep", "10"}, 124, 0, "",
         "timeout: sending signal 32 to command 'sleep'\n"});
  Check({"-s 33", {"timeout", "-s", "33", "0.1", "sleep", "10"}, 124, 0, "", ""});
}

TEST(TimeoutTest, DoesNotPassOnSignalsThatDoNotEndAProcess) {
  // The command ends by itself at once; had WINCH, URG or CONT reached it, its trap would have said so.
  for (const char* sig : {"WINCH", "URG", "CONT"}) {
    const std::string s = sig;
    Check({"keeps " + s,
           {"timeout", "-v", "10", "sh", "-c",
            "trap 'echo got " + s + "' " + s + "; kill -s " + s + " $PPID; sleep 0.3; exit 4"},
           4, 0, "", ""});
  }
}

TEST(TimeoutTest, APassedOnSignalArmsKillAfterAndTimeoutWaits) {
  Check({"USR1 then -k: the command ignores USR1 and is KILLed 0.2 s later",
         {"timeout", "-v", "-k", "0.2", "10", "sh", "-c", "trap '' USR1; kill -USR1 $PPID; while :; do sleep 0.1; done"},
         137, SIGKILL, "", "timeout: sending signal USR1 to command 'sh'\ntimeout: sending signal KILL to command 'sh'\n"});
  // As GNU (9.1, 9.10): -k's clock does not cancel the time limit; whichever comes first sends KILL.
  Check({"TERM then -k 20: the original 0.5 s limit still comes first, and sends KILL",
         {"timeout", "-v", "-k", "20", "0.5", "sh", "-c", "trap '' TERM; kill -TERM $PPID; while :; do sleep 0.1; done"},
         137, SIGKILL, "", "timeout: sending signal TERM to command 'sh'\ntimeout: sending signal KILL to command 'sh'\n",
         10});
  Check({"the command's status after a passed-on signal",
         {"timeout", "10", "sh", "-c", "trap 'kill $! 2>/dev/null; exit 7' USR2; kill -USR2 $PPID; sleep 10 & wait"},
         7, 0, "", ""});
}

// grep's SigBlk/SigIgn lines without signals 32 and 33: glibc reserves them and installs its own handlers in every
// process it starts (execve then resets them), so whether they show as ignored says nothing about timeout.
std::string WithoutGlibcSignals(const std::string& lines) {
  std::string out = lines;
  for (size_t at = 0; (at = out.find(":\t", at)) != std::string::npos; at += 2) {
    const uint64_t bits = strtoull(out.c_str() + at + 2, nullptr, 16) & ~(uint64_t{3} << 31);
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(bits));
    out.replace(at + 2, 16, hex);
  }
  return out;
}

// The child must start with the caller's mask and dispositions, not timeout's: grep reports its own. Two exceptions,
// as GNU: SIGCHLD is unblocked (TheCommandsSigchldIsUnblocked) and the -s signal is not ignored
// (TheExpirySignalStopsTheCommandEvenIfTheCallerIgnoredIt).
TEST(TimeoutTest, TheCommandGetsTheCallersMaskAndDispositions) {
  Options caller;
  caller.before_exec = [] {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGUSR1, SIGTERM, SIGCHLD}) sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, nullptr);
    for (int sig : {SIGHUP, SIGCHLD, SIGTTIN, SIGUSR2}) signal(sig, SIG_IGN);
  };
  const std::vector<std::string> grep = {"grep", "-E", "SigBlk|SigIgn", "/proc/self/status"};
  Result direct = RunProgram("/usr/bin/grep", grep, caller);
  ASSERT_EQ(direct.status, 0);
  // Exactly what before_exec asked for.
  ASSERT_EQ(WithoutGlibcSignals(direct.out), "SigBlk:\t0000000000014200\nSigIgn:\t0000000000110801\n");
  std::vector<std::string> argv = {"timeout", "10"};
  argv.insert(argv.end(), grep.begin(), grep.end());
  Result through = Invoke(argv, caller);
  EXPECT_EQ(through.status, 0);
  // The caller's mask without CHLD (0x10000); the caller's dispositions exactly.
  EXPECT_EQ(WithoutGlibcSignals(through.out), "SigBlk:\t0000000000004200\nSigIgn:\t0000000000110801\n");
  EXPECT_EQ(through.err, "");
  // With -s USR2, which the caller ignored: all the same but USR2 (0x800), which the command must not ignore.
  std::vector<std::string> usr2 = {"timeout", "-s", "USR2", "10"};
  usr2.insert(usr2.end(), grep.begin(), grep.end());
  Result expiry = Invoke(usr2, caller);
  EXPECT_EQ(expiry.status, 0);
  EXPECT_EQ(WithoutGlibcSignals(expiry.out), "SigBlk:\t0000000000004200\nSigIgn:\t0000000000110001\n");
  EXPECT_EQ(expiry.err, "");
  // And with nothing blocked or ignored by the caller, nothing is in the child either.
  Result clean = Invoke(argv);
  EXPECT_EQ(WithoutGlibcSignals(clean.out), "SigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
}

// A caller whose before_exec ignores (SIG_IGN) or blocks these signals.
Options Ignoring(std::vector<int> signals) {
  Options options;
  options.before_exec = [signals] {
    for (int sig : signals) signal(sig, SIG_IGN);
  };
  return options;
}
Options Blocking(std::vector<int> signals) {
  Options options;
  options.before_exec = [signals] {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : signals) sigaddset(&set, sig);
    sigprocmask(SIG_BLOCK, &set, nullptr);
  };
  return options;
}

// GNU's env reports on stderr each signal it starts with ignored or blocked: the command's view, exactly.
const std::vector<std::string> kListSignals = {"/usr/bin/env", "--list-signal-handling", "true"};
std::vector<std::string> Then(std::vector<std::string> argv, const std::vector<std::string>& command) {
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

// The signal sent on expiry must be able to stop the command even when timeout's caller ignored it (a non-interactive
// shell's `cmd &` ignores INT and QUIT, nohup ignores HUP): the command gets it at SIG_DFL, as GNU. Before the fix
// the command inherited SIG_IGN and ran its 10 s.
TEST(TimeoutTest, TheExpirySignalStopsTheCommandEvenIfTheCallerIgnoredIt) {
  struct IgnoredCase {
    int ignored;
    Expect expect;
  };
  for (const IgnoredCase& c : std::vector<IgnoredCase>{
           {SIGINT, {"-s INT, INT ignored", {"timeout", "-s", "INT", "0.2", "sleep", "10"}, 124, 0, "", ""}},
           {SIGTERM, {"TERM ignored", {"timeout", "0.2", "sleep", "10"}, 124, 0, "", ""}},
           {SIGHUP, {"-s HUP under nohup", {"timeout", "-v", "-s", "HUP", "0.2", "sleep", "10"}, 124, 0, "",
                     "timeout: sending signal HUP to command 'sleep'\n"}},
           {SIGQUIT, {"-s QUIT, QUIT ignored", {"timeout", "-s", "QUIT", "0.2", "sleep", "10"}, 124, 0, "", ""}},
           {SIGUSR1, {"-s USR1, USR1 ignored", {"timeout", "-s", "USR1", "0.2", "sleep", "10"}, 124, 0, "", ""}},
           {SIGINT, {"--foreground", {"timeout", "-f", "-s", "INT", "0.2", "sleep", "10"}, 124, 0, "", ""}},
           {SIGINT, {"-p: the command died of INT", {"timeout", "-p", "-s", "INT", "0.2", "sleep", "10"}, 130, 0, "",
                     ""}},
           {SIGINT, {"-i", {"timeout", "-i", "-s", "INT", "0.2", "sleep", "10"}, 124, 0, "", ""}},
       }) {
    Check(c.expect, Ignoring({c.ignored}));
  }
  // The command sees the -s signal at SIG_DFL, and every other signal as the caller left it.
  Check({"dispositions", Then({"timeout", "-s", "INT", "10"}, kListSignals), 0, 0, "",
         "HUP        ( 1): IGNORE\nUSR1       (10): IGNORE\n"},
        Ignoring({SIGINT, SIGHUP, SIGUSR1}));
  Check({"-s CHLD with CHLD ignored: CHLD at SIG_DFL", Then({"timeout", "-s", "CHLD", "10"}, kListSignals), 0, 0,
         "", ""},
        Ignoring({SIGCHLD}));
  Check({"-s KILL: nothing to reset", Then({"timeout", "-s", "KILL", "10"}, kListSignals), 0, 0, "",
         "INT        ( 2): IGNORE\n"},
        Ignoring({SIGINT}));
  // The everyday form: a script's background job starts with INT and QUIT ignored.
  const std::string dir = MakeTempDir();
  ASSERT_EQ(symlink(BinaryPath().c_str(), (dir + "/timeout").c_str()), 0);
  Result job = RunProgram("/bin/sh", {"sh", "-c", dir + "/timeout -s INT 0.2 sleep 10 & wait $!"});
  EXPECT_EQ(job.status, 124);
  EXPECT_EQ(job.err, "");
  EXPECT_LT(job.seconds, 5);
}

// GNU unblocks SIGCHLD and SIGALRM in the command (9.10 does; 9.1 kept ALRM blocked); the rest of the caller's mask
// stays, TERM included.
TEST(TimeoutTest, TheCommandsSigchldAndSigalrmAreUnblocked) {
  Check({"CHLD blocked by the caller", Then({"timeout", "10"}, kListSignals), 0, 0, "", ""}, Blocking({SIGCHLD}));
  Check({"ALRM blocked by the caller", Then({"timeout", "10"}, kListSignals), 0, 0, "", ""}, Blocking({SIGALRM}));
  Check({"the rest stays blocked", Then({"timeout", "10"}, kListSignals), 0, 0, "",
         "HUP        ( 1): BLOCK\nINT        ( 2): BLOCK\nTERM       (15): BLOCK\n"},
        Blocking({SIGTERM, SIGALRM, SIGCHLD, SIGINT, SIGHUP}));
}

// A command waiting for SIGTERM gets it: timeout's own blocking of TERM does not leak into the command.
TEST(TimeoutTest, ACommandWaitingForTermGetsIt) {
  Check({"trap runs", {"timeout", "-p", "0.1", "sh", "-c", "trap 'echo got TERM; exit 5' TERM; sleep 10 & wait"}, 5,
         0, "got TERM\n", ""});
}

TEST(TimeoutTest, WorksWithSigchldIgnoredOrBlocked) {
  Options ignored;
  ignored.before_exec = [] { signal(SIGCHLD, SIG_IGN); };
  Options blocked;
  blocked.before_exec = [] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, nullptr);
  };
  for (const Options* options : {&ignored, &blocked}) {
    Check({"status", {"timeout", "10", "sh", "-c", "exit 3"}, 3, 0, "", ""}, *options);
    Check({"quick exit", {"timeout", "10", "true"}, 0, 0, "", "", 2}, *options);
    Check({"timed out", {"timeout", "0.1", "sleep", "10"}, 124, 0, "", ""}, *options);
    Check({"killed", {"timeout", "10", "sh", "-c", "kill -TERM $$"}, 143, SIGTERM, "", ""}, *options);
  }
}

TEST(TimeoutTest, WorksWithStandardDescriptorsClosed) {
  Options no_stdin, no_stdout, no_stderr, none;
  no_stdin.close_stdin = true;
  no_stdout.close_stdout = true;
  no_stderr.close_stderr = true;
  none.close_stdin = none.close_stdout = none.close_stderr = true;
  for (const Options* options : {&no_stdin, &no_stdout, &no_stderr, &none}) {
    Check({"status", {"timeout", "10", "sh", "-c", "exit 3"}, 3, 0, "", ""}, *options);
    Check({"timed out", {"timeout", "0.1", "sleep", "10"}, 124, 0, "", ""}, *options);
  }
  // As GNU: a diagnostic that cannot be written makes timeout fail (125) instead of its intended status ...
  Check({"not found with stderr closed", {"timeout", "10", "no-such-command"}, 125, 0, "", ""}, no_stderr);
  // ... but not -v's notices (GNU 9.10): the expiry still happened.
  Check({"verbose with stderr closed", {"timeout", "-v", "0.1", "sleep", "10"}, 124, 0, "", ""}, no_stderr);
  Options full_stderr;
  full_stderr.env = {};
  Result r = RunProgram("/bin/sh", {"sh", "-c", "exec \"$0\" timeout -v 0.1 sleep 10 2>/dev/full", BinaryPath()});
  EXPECT_EQ(r.status, 124) << "verbose with stderr full";
}

// Deliberate difference from GNU 9.1: a signal ignored when timeout started stays ignored (by timeout and by the
// command), as a shell treats signals ignored on entry. GNU catches it anyway and gives the command SIG_DFL, so
// `nohup timeout ...` or `timeout ... &` in a script lose their protection. The exception is the -s signal, which
// the command gets at SIG_DFL so that expiry can stop it (TheExpirySignalStopsTheCommandEvenIfTheCallerIgnoredIt);
// received from outside, it is still not forwarded (GNU forwards it), so a hangup under `nohup timeout -s HUP` does
// not end the command before its time.
TEST(TimeoutTest, DifferenceFromGnuSignalsIgnoredAtStartStayIgnored) {
  Check({"HUP ignored by the caller is not forwarded",
         {"timeout", "-v", "10", "sh", "-c", "kill -HUP $PPID; sleep 0.2; echo alive"}, 0, 0, "alive\n", ""},
        Ignoring({SIGHUP}));
  Check({"nor is an ignored -s signal",
         {"timeout", "-v", "-s", "HUP", "10", "sh", "-c", "kill -HUP $PPID; sleep 0.2; echo alive"}, 0, 0, "alive\n",
         ""},
        Ignoring({SIGHUP}));
  Check({"the command keeps the other ignored signals", Then({"timeout", "10"}, kListSignals), 0, 0, "",
         "HUP        ( 1): IGNORE\nINT        ( 2): IGNORE\nQUIT       ( 3): IGNORE\n"},
        Ignoring({SIGHUP, SIGINT, SIGQUIT}));
}

// Deliberate difference from GNU 9.1, which resets them to SIG_DFL: the command keeps the caller's SIGCHLD, SIGTTIN
// and SIGTTOU dispositions. GNU's reset only undoes its own SIG_IGN of TTIN/TTOU (it cannot know the caller's); a
// caller that ignores TTOU (or TTIN) wants its background children to write to (or fail reading from) the terminal
// instead of being stopped, and timeout puts the command in a background group of its own, where a reset would stop
// it until the timer ran out.
TEST(TimeoutTest, DifferenceFromGnuTtinTtouKeepTheCallersHandling) {
  Check({"TTIN and TTOU ignored by the caller", Then({"timeout", "10"}, kListSignals), 0, 0, "",
         "TTIN       (21): IGNORE\nTTOU       (22): IGNORE\n"},
        Ignoring({SIGTTIN, SIGTTOU}));
  Check({"CHLD ignored by the caller", Then({"timeout", "10"}, kListSignals), 0, 0, "",
         "CHLD       (17): IGNORE\n"},
        Ignoring({SIGCHLD}));
}

// Deliberate difference from GNU (9.1 and 9.10): with -s CHLD the command's exit is still seen. GNU's handler for
// the -s signal takes SIGCHLD over, so it never notices the command end and waits for ever (or for -k's KILL, which
// kills timeout itself: 137).
TEST(TimeoutTest, DifferenceFromGnuChldAsTheSignalStillSeesTheCommandEnd) {
  Check({"CHLD is ignored by the command, which ends by itself later",
         {"timeout", "-s", "CHLD", "0.1", "sh", "-c", "sleep 0.5; exit 3"}, 124, 0, "", ""});
  Check({"its own status with -p", {"timeout", "-p", "-s", "CHLD", "0.1", "sh", "-c", "sleep 0.5; exit 3"}, 3, 0,
         "", ""});
}

// Deliberate difference from GNU 9.10: a SIGPIPE that timeout's own write raises (-v's notice to a pipe whose
// reader is gone) is dropped, not passed on to the command as if someone had sent it (9.10 does, so a command that
// ignores TERM dies of PIPE at once; 9.1 dies of it itself, 141, leaving the command running).
TEST(TimeoutTest, DifferenceFromGnuItsOwnSigpipeIsNotPassedOn) {
  // The notice goes to `true`'s pipe, long closed when it is written; the status goes to our stderr (fd 3).
  Result r = RunProgram("/bin/sh", {"sh", "-c",
                                    "{ \"$0\" timeout -v -p 0.5 sh -c 'trap \"\" TERM; sleep 1; exit 3' 2>&1 >/dev/null; "
                                    "echo \"status $?\" >&3; } 3>&2 | true",
                                    BinaryPath()});
  EXPECT_EQ(r.err, "status 3\n");  // GNU 9.10: 141 (the command died of PIPE).
}

// $0 the binary, $1 a directory, $2 the first signal for timeout: TERM (passed on) or ALRM (expiry, as GNU takes
// it). The command counts the TERMs it gets in $1/got and exits 5 at the second (6 after ~5 s without). Once it has
// got one, timeout is sent another TERM. Prints timeout's status and how many TERMs the command got.
constexpr char kSecondTerm[] = R"sh(
d=$1
: >"$d/got"
"$0" timeout -v 30 sh -c '
  exec 2>/dev/null  # Not "Terminated" for each sleep the group TERM ends.
  trap "echo got >>\"\$0/got\"" TERM
  : >"$0/ready"
  i=0
  while [ $i -lt 100 ]; do
    sleep 0.05; i=$((i+1))
    [ "$(wc -l <"$0/got")" -ge 2 ] && exit 5
  done
  exit 6' "$d" &
p=$!
i=0; while [ ! -e "$d/ready" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
kill -"$2" $p
i=0; while [ ! -s "$d/got" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
kill -TERM $p
wait $p
echo "status $? got $(wc -l <"$d/got")"
)sh";

// Deliberate difference from GNU: every copy of a signal timeout receives is passed on, also a second TERM after a
// first or after expiry. GNU ignores a signal for good once it has sent it to the process group (so that it does
// not catch its own copy), so its command never hears of the second (status 6, got 1, one notice): a program that
// takes a second TERM or INT as "stop now" cannot be told so through GNU's timeout.
TEST(TimeoutTest, DifferenceFromGnuEveryCopyOfASignalIsPassedOn) {
  const std::string notice = "timeout: sending signal TERM to command 'sh'\n";
  Result passed_on = RunProgram("/bin/sh", {"sh", "-c", kSecondTerm, BinaryPath(), MakeTempDir(), "TERM"});
  EXPECT_EQ(passed_on.out, "status 5 got 2\n");
  EXPECT_EQ(passed_on.err, notice + notice);
  Result after_expiry = RunProgram("/bin/sh", {"sh", "-c", kSecondTerm, BinaryPath(), MakeTempDir(), "ALRM"});
  EXPECT_EQ(after_expiry.out, "status 124 got 2\n");
  EXPECT_EQ(after_expiry.err, notice + notice);
}

// Accepted: -f and -p are the short options of newer GNU releases; 9.1 has only --foreground/--preserve-status.
TEST(TimeoutTest, ShortFormsOfNewerGnu) {
  Check({"-f", {"timeout", "-f", "10", "sh", "-c", "exit 2"}, 2, 0, "", ""});
  Check({"-p", {"timeout", "-p", "0.1", "sleep", "10"}, 143, 0, "", ""});
}

// As PID 1 of a new PID namespace: timeout cannot die of its own signals, so it exits with 128 + N instead.
TEST(TimeoutTest, AsPid1) {
  if (RunProgram("/usr/bin/unshare", {"unshare", "--pid", "--fork", "--mount-proc", "true"}).status != 0) {
    GTEST_SKIP() << "unshare --pid needs privileges here";
  }
  const std::string dir = MakeTempDir();
  ASSERT_EQ(symlink(BinaryPath().c_str(), (dir + "/timeout").c_str()), 0);
  auto as_pid1 = [&](std::vector<std::string> args) {
    std::vector<std::string> argv = {"unshare", "--pid", "--fork", "--mount-proc", dir + "/timeout"};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProgram("/usr/bin/unshare", argv);
  };
  struct Pid1Case {
    std::vector<std::string> args;
    int status;
  };
  for (const Pid1Case& c : std::vector<Pid1Case>{
           {{"0.1", "sleep", "10"}, 124},
           {{"10", "true"}, 0},
           {{"10", "sh", "-c", "exit 6"}, 6},
           {{"-s", "KILL", "0.1", "sleep", "10"}, 137},
           {{"10", "sh", "-c", "kill -TERM $$"}, 143},
           {{"-k", "0.1", "1", "sh", "-c", "trap '' TERM; sleep 10"}, 137},
           {{"10", "sh", "-c", "test $PPID = 1"}, 0},
       }) {
    Result r = as_pid1(c.args);
    EXPECT_EQ(r.status, c.status) << c.args[c.args.size() - 1];
    EXPECT_EQ(r.signal, 0) << c.args[c.args.size() - 1];
    EXPECT_EQ(r.err, "");
    EXPECT_LT(r.seconds, 5);
  }
}

}  // namespace
}  // namespace coreutils_testing
