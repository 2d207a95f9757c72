// kill: util-linux 2.42's options (-q, --timeout, -l 0xMASK, -d, PID:PIDFD_INODE, -r, --verbose) with GNU's syntax,
// outputs and messages, one behaviour per case. util-linux's kill is not installed here, so each case states the
// output of util-linux 2.42.4's kill (built by ../shared/tools/reference-peers --util-linux-kill) where it has the
// option, taken black-box under LC_ALL=C and C.UTF-8; where ours differs on purpose (GNU's message or format wins, or
// ours goes further) the case is named DifferenceFromUtilLinux... and says what util-linux does.
// tools/kill-sweep runs many more argument combinations through ours, util-linux's and GNU's kill side by side.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/kill/target_process.h"
#include "tests/testing/pid_namespace.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

const char kTry[] = "Try 'kill --help' for more information.\n";

std::string Usage(const std::string& message) { return "kill: " + message + "\n" + kTry; }
std::string Str(int n) { return std::to_string(n); }

// Every signal of a full mask, as -l names them (GNU's names: POLL, RTMIN+N, RTMAX-N; 32 and 33 by number).
const char kFullMask[] =
    "HUP\nINT\nQUIT\nILL\nTRAP\nABRT\nBUS\nFPE\nKILL\nUSR1\nSEGV\nUSR2\nPIPE\nALRM\nTERM\nSTKFLT\nCHLD\nCONT\nSTOP\n"
    "TSTP\nTTIN\nTTOU\nURG\nXCPU\nXFSZ\nVTALRM\nPROF\nWINCH\nPOLL\nPWR\nSYS\n32\n33\nRTMIN\nRTMIN+1\nRTMIN+2\n"
    "RTMIN+3\nRTMIN+4\nRTMIN+5\nRTMIN+6\nRTMIN+7\nRTMIN+8\nRTMIN+9\nRTMIN+10\nRTMIN+11\nRTMIN+12\nRTMIN+13\nRTMIN+14\n"
    "RTMIN+15\nRTMAX-14\nRTMAX-13\nRTMAX-12\nRTMAX-11\nRTMAX-10\nRTMAX-9\nRTMAX-8\nRTMAX-7\nRTMAX-6\nRTMAX-5\nRTMAX-4\n"
    "RTMAX-3\nRTMAX-2\nRTMAX-1\nRTMAX\n";

// -l 0xMASK and --list=0xMASK: util-linux prints the same for these.
TEST(KillUtilLinuxTest, MaskListing) {
  for (const Case& c : std::vector<Case>{
           {"-l 0xMASK: its signals' names", {"kill", "-l", "0x0000000000384000"}, 0, "TERM\nTSTP\nTTIN\nTTOU\n", ""},
           {"--list=0xMASK", {"kill", "--list=0x3"}, 0, "HUP\nINT\n", ""},
           {"abbreviated --li=0xMASK", {"kill", "--li=0x4000"}, 0, "TERM\n", ""},
           {"--list 0xMASK (an operand)", {"kill", "--list", "0x4000"}, 0, "TERM\n", ""},
           {"upper-case hex digits", {"kill", "-l", "0x4A00"}, 0, "USR1\nUSR2\nTERM\n", ""},
           {"leading zeros beyond 16 digits", {"kill", "-l", "0x000000000000000001"}, 0, "HUP\n", ""},
           {"an empty mask names nothing", {"kill", "-l", "0x0"}, 0, "", ""},
           {"bits 31 and 32 are 32 and 33", {"kill", "-l", "0x180000000"}, 0, "32\n33\n", ""},
           {"the highest bit is RTMAX", {"kill", "-l", "0x8000000000000000"}, 0, "RTMAX\n", ""},
       }) {
    ExpectCase(c);
  }
}

// GNU's -l: several operands, masks among them, and -t rows; the message for a bad one is GNU's for that operand.
TEST(KillUtilLinuxTest, DifferenceFromUtilLinuxMasksFollowGnusListing) {
  for (const Case& c : std::vector<Case>{
           // util-linux: "kill: too many arguments", status 1.
           {"masks among other operands", {"kill", "-l", "0x3", "KILL", "0x4000"}, 0, "HUP\nINT\n9\nTERM\n", ""},
           {"--list=0xMASK and operands", {"kill", "--list=0x1", "9"}, 0, "HUP\nKILL\n", ""},
           // util-linux has no mask for -L (its -t), which lists every signal.
           {"-t 0xMASK: a row for each", {"kill", "-t", "0x4002"}, 0, " 2 INT      Interrupt\n15 TERM     Terminated\n",
            ""},
           // util-linux: "kill: invalid sigmask format: 0x"; GNU: "'0x': invalid signal", as here.
           {"0x alone", {"kill", "-l", "0x"}, 1, "", "kill: '0x': invalid signal\n"},
           {"not hex", {"kill", "-l", "0xg"}, 1, "", "kill: '0xg': invalid signal\n"},
           {"beyond 64 bits", {"kill", "-l", "0x10000000000000000"}, 1, "",
            "kill: '0x10000000000000000': invalid signal\n"},
           {"0X is not 0x", {"kill", "-l", "0X3"}, 1, "", "kill: '0X3': invalid signal\n"},
           {"a sign is no digit", {"kill", "-l", "0x-1"}, 1, "", "kill: '0x-1': invalid signal\n"},
           {"bad mask reported, others listed", {"kill", "-l", "0xz", "0x1"}, 1, "HUP\n",
            "kill: '0xz': invalid signal\n"},
           {"--list=0xg", {"kill", "--list=0xg"}, 1, "", "kill: '0xg': invalid signal\n"},
           // util-linux: "IO", then "RT0" ... "RT30".
           {"names are GNU's", {"kill", "-l", "0xffffffffffffffff"}, 0, kFullMask, ""},
           // util-linux prints KILL; --list takes no SIGNAL in GNU, and only a mask here.
           {"--list=SIGNAL is still GNU's complaint", {"kill", "--list=KILL"}, 1, "",
            Usage("option '--list' doesn't allow an argument")},
           {"--list=0xMASK twice", {"kill", "--list=0x1", "--list=0x2"}, 1, "",
            Usage("multiple -l or -t options specified")},
           {"--list=0xMASK with -t", {"kill", "--list=0x1", "-t"}, 1, "", Usage("multiple -l or -t options specified")},
       }) {
    ExpectCase(c);
  }
}

// Options of util-linux's that GNU's kill does not have, read with GNU's grammar and said in GNU's way (util-linux's
// own messages have no Try line and other words).
TEST(KillUtilLinuxTest, DifferenceFromUtilLinuxUsageErrorsInGnusWay) {
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  for (const Case& c : std::vector<Case>{
           // util-linux: "kill: argument error: 'x'" and the like, without the Try line.
           {"-q not a number", {"kill", "-q", "x", pid}, 1, "", Usage("'x': invalid queue value")},
           {"-q hex", {"kill", "-q", "0x10", pid}, 1, "", Usage("'0x10': invalid queue value")},
           {"-q beyond int", {"kill", "-q", "2147483648", pid}, 1, "", Usage("'2147483648': invalid queue value")},
           {"-q empty", {"kill", "--queue=", pid}, 1, "", Usage("'': invalid queue value")},
           {"-q trailing garbage", {"kill", "-q5x", pid}, 1, "", Usage("'5x': invalid queue value")},
           {"-q needs an argument", {"kill", "-q"}, 1, "", Usage("option requires an argument -- 'q'")},
           {"--queue needs an argument", {"kill", "--queue"}, 1, "", Usage("option '--queue' requires an argument")},
           {"--timeout needs an argument", {"kill", "--timeout"}, 1, "",
            Usage("option '--timeout' requires an argument")},
           // util-linux crashes (SIGSEGV) here.
           {"--timeout without its signal", {"kill", "--timeout", "100"}, 1, "",
            Usage("missing follow-up signal after '--timeout 100'")},
           {"--timeout= without its signal", {"kill", "--timeout=100"}, 1, "",
            Usage("missing follow-up signal after '--timeout 100'")},
           {"--timeout MS not a number", {"kill", "--timeout", "x", "KILL", pid}, 1, "",
            Usage("'x': invalid number of milliseconds")},
           // util-linux takes a negative MS as poll's "for ever".
           {"--timeout MS negative", {"kill", "--timeout", "-5", "KILL", pid}, 1, "",
            Usage("'-5': invalid number of milliseconds")},
           {"--timeout MS beyond int", {"kill", "--timeout", "2147483648", "KILL", pid}, 1, "",
            Usage("'2147483648': invalid number of milliseconds")},
           // util-linux: "unknown signal FOO; valid signals:" and its table.
           {"--timeout bad signal", {"kill", "--timeout", "100", "FOO", pid}, 1, "", Usage("'FOO': invalid signal")},
           {"--timeout's signal is a name or number, not -SIGNAL", {"kill", "--timeout", "100", "-9", pid}, 1, "",
            Usage("'-9': invalid signal")},
           // util-linux: "kill: too few arguments" / "invalid PID argument: 'x'" / "too many arguments".
           {"-d needs an argument", {"kill", "-d"}, 1, "", Usage("option requires an argument -- 'd'")},
           {"--show-process-state needs an argument", {"kill", "--show-process-state"}, 1, "",
            Usage("option '--show-process-state' requires an argument")},
           {"-d not a PID", {"kill", "-d", "x"}, 1, "", Usage("'x': invalid process id")},
           {"-d 0", {"kill", "-d", "0"}, 1, "", Usage("'0': invalid process id")},
           {"-d a group", {"kill", "-d", "-1"}, 1, "", Usage("'-1': invalid process id")},
           {"-d PID:INODE", {"kill", "-d", pid + ":2"}, 1, "", Usage("'" + pid + ":2': invalid process id")},
           {"-d with a PID operand", {"kill", "-d", pid, pid}, 1, "", Usage("extra operand '" + pid + "'")},
           {"-d twice", {"kill", "-d", pid, "-d", pid}, 1, "", Usage("multiple -d options specified")},
           {"-d with -l", {"kill", "-d", pid, "-l"}, 1, "", Usage("cannot combine -d with -l or -t")},
           {"-t with -d", {"kill", "-t", "-d", pid}, 1, "", Usage("cannot combine -d with -l or -t")},
           {"-d with a signal", {"kill", "-d", pid, "-s", "HUP"}, 1, "", Usage("cannot combine signal with -d")},
           {"-d with -q", {"kill", "-q", "1", "-d", pid}, 1, "", Usage("cannot combine -q with -d")},
           {"-d with --verbose", {"kill", "--verbose", "-d", pid}, 1, "", Usage("cannot combine --verbose with -d")},
           // util-linux lists, ignoring the other options.
           {"-l with -q", {"kill", "-l", "-q", "1"}, 1, "", Usage("cannot combine -q with -l or -t")},
           {"-t with -r", {"kill", "-r", "-t"}, 1, "", Usage("cannot combine -r with -l or -t")},
           {"-l with --verbose", {"kill", "--verbose", "-l"}, 1, "", Usage("cannot combine --verbose with -l or -t")},
           {"-l with --timeout", {"kill", "-l", "--timeout", "1", "KILL"}, 1, "",
            Usage("cannot combine --timeout with -l or -t")},
           {"-l with --wait", {"kill", "-l", "--wait"}, 1, "", Usage("cannot combine --wait with -l or -t")},
           {"-l with a signal still says GNU's", {"kill", "-q", "1", "-s", "HUP", "-l"}, 1, "",
            Usage("cannot combine signal with -l or -t")},
           {"no PID", {"kill", "-q", "1", "--verbose"}, 1, "", Usage("no process ID specified")},
           // util-linux: "failed to obtain a valid file descriptor for PID -5: Invalid argument" (--timeout), or
           // nothing at all and status 1 (-r).
           {"--timeout with a process group", {"kill", "--timeout", "10", "KILL", "--", "-" + pid}, 1, "",
            Usage("--timeout: cannot wait for '-" + pid +
                  "': a group of processes has no pidfd, and waiting for one would mean polling")},
       }) {
    ExpectCase(c);
  }
  // Should the check ever go, the TERM reaches the case's own new group alone, and the case fails on its status.
  ExpectCase({"-r with our process group", {"kill", "-r", "0"}, 1, "",
              Usage("-r: '0' names a group of processes, not one whose handler can be looked up")},
             InAGroupOfItsOwn());
}

// As root, a kill that went wrong here would HUP every process of the machine: the case runs as PID 1 of a PID
// namespace of its own, where -1 reaches nothing.
TEST(KillUtilLinuxTest, RequireHandlerRefusesEveryProcess) {
  if (const std::string why = PidNamespaceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ExpectCase({"-r with every process", {"kill", "-r", "-s", "HUP", "-1"}, 1, "",
              Usage("-r: '-1' names a group of processes, not one whose handler can be looked up")},
             InAPidNamespaceOfItsOwn());
}

// GNU's abbreviations --s, --t and --v stay GNU's, though util-linux's --show-process-state, --timeout and
// --verbose now share their first letters (getopt would otherwise call them ambiguous); so do getopt's words for them.
TEST(KillUtilLinuxTest, GnusAbbreviationsStay) {
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  const std::string version =
      "kill (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n";
  for (const Case& c : std::vector<Case>{
           {"--v is --version", {"kill", "--v"}, 0, version, ""},
           {"--ve is --version", {"kill", "--ve"}, 0, version, ""},
           {"--ver is --version", {"kill", "--ver"}, 0, version, ""},
           {"--vers is --version", {"kill", "--vers"}, 0, version, ""},
           {"--t is --table", {"kill", "--t", "9"}, 0, " 9 KILL     Killed\n", ""},
           {"--s is --signal", {"kill", "--s", "FOO", pid}, 1, "", Usage("'FOO': invalid signal")},
           {"--s= is --signal=", {"kill", "--s=FOO", pid}, 1, "", Usage("'FOO': invalid signal")},
           {"--s without its argument", {"kill", "--s"}, 1, "", Usage("option '--signal' requires an argument")},
           {"--t takes no argument", {"kill", "--t=9"}, 1, "", Usage("option '--table' doesn't allow an argument")},
           {"--v takes no argument", {"kill", "--v=1"}, 1, "", Usage("option '--version' doesn't allow an argument")},
           {"--ver takes no argument", {"kill", "--ver=1"}, 1, "",
            Usage("option '--version' doesn't allow an argument")},
           {"--ti is --timeout", {"kill", "--ti", "x", "KILL", pid}, 1, "",
            Usage("'x': invalid number of milliseconds")},
           {"--sh is --show-process-state", {"kill", "--sh", "x"}, 1, "", Usage("'x': invalid process id")},
           {"--verb is --verbose", {"kill", "--verb"}, 1, "", Usage("no process ID specified")},
       }) {
    ExpectCase(c);
  }
}

// Short options GNU's kill rejects now mean something, so a lower-case signal name (a user's mistake) is reported
// at another letter than GNU reports it.
TEST(KillUtilLinuxTest, DifferenceFromGnuLowerCaseSignalNamesMeetNewShortOptions) {
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  for (const Case& c : std::vector<Case>{
           // GNU: "invalid option -- 'q'".
           {"-quit reads as -q uit", {"kill", "-quit", pid}, 1, "", Usage("'uit': invalid queue value")},
           // GNU: "invalid option -- 'r'"; here -r, then -t, then 'm'.
           {"-rtmin reads as -r -t -m", {"kill", "-rtmin", pid}, 1, "", Usage("invalid option -- 'm'")},
           // GNU: "invalid option -- 'd'"; -d takes the rest as its PID.
           {"-done reads as -d one", {"kill", "-done"}, 1, "", Usage("'one': invalid process id")},
       }) {
    ExpectCase(c);
  }
}

// util-linux's options that are not ours: process names are out of scope, so -p and -a stay invalid as in GNU;
// -h and -V are GNU's (-V a signal letter).
TEST(KillUtilLinuxTest, DifferenceFromUtilLinuxNameOptionsStayGnus) {
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  for (const Case& c : std::vector<Case>{
           {"-p", {"kill", "-p", pid}, 1, "", Usage("invalid option -- 'p'")},
           {"-a", {"kill", "-a", pid}, 1, "", Usage("invalid option -- 'a'")},
           {"--pid", {"kill", "--pid", pid}, 1, "", Usage("unrecognized option '--pid'")},
           {"-h", {"kill", "-h"}, 1, "", Usage("invalid option -- 'h'")},
           {"-V", {"kill", "-V"}, 1, "", Usage("'V': invalid signal")},
           {"a name is no PID", {"kill", "-s", "0", "sleep"}, 1, "", "kill: 'sleep': invalid process id\n"},
       }) {
    ExpectCase(c);
  }
}

// -q VALUE: the target sees SI_QUEUE and VALUE, as with util-linux's kill; without -q, SI_USER.
TEST(KillUtilLinuxTest, QueueSendsTheValueWithSiQueue) {
  struct QueueCase {
    std::string name;
    std::vector<std::string> options;
    std::string seen;
  };
  const std::string usr1 = Str(SIGUSR1);
  for (const QueueCase& c : std::vector<QueueCase>{
           {"-q VALUE", {"-q", "42", "-USR1"}, usr1 + " SI_QUEUE 42"},
           {"--queue=VALUE", {"--queue=-7", "-s", "USR1"}, usr1 + " SI_QUEUE -7"},
           {"-qVALUE after the PID", {"-USR1", "PID", "-q+5"}, usr1 + " SI_QUEUE 5"},
           {"the lowest int", {"-q", "-2147483648", "-USR1"}, usr1 + " SI_QUEUE -2147483648"},
           {"leading blanks, as strtol reads them", {"-q", " 3", "-USR1"}, usr1 + " SI_QUEUE 3"},
           {"-N after -q is still the signal, as in util-linux", {"-q", "1", "-" + usr1}, usr1 + " SI_QUEUE 1"},
           {"without -q: SI_USER", {"-USR1"}, usr1 + " SI_USER -"},
       }) {
    TargetProcess target = StartTarget({"--catch", usr1});
    ASSERT_GT(target.pid, 0);
    std::vector<std::string> argv = {"kill"};
    bool pid_given = false;
    for (const std::string& option : c.options) {
      pid_given = pid_given || option == "PID";
      argv.push_back(option == "PID" ? Str(target.pid) : option);
    }
    if (!pid_given) argv.push_back(Str(target.pid));
    ExpectCase({c.name, argv, 0, "", ""});
    EXPECT_EQ(NextLine(target), c.seen) << c.name;
    Stop(&target);
  }
}

TEST(KillUtilLinuxTest, QueueToAMissingProcess) {
  TargetProcess gone = StartTarget();
  ASSERT_GT(gone.pid, 0);
  const std::string pid = Str(gone.pid);
  Stop(&gone);
  ExpectCase({"gone", {"kill", "-q", "1", pid}, 1, "", "kill: '" + pid + "': No such process\n"});
  ExpectCase({"signal 0 checks", {"kill", "-q", "1", "-0", pid}, 1, "", "kill: '" + pid + "': No such process\n"});
}

// --timeout MS SIGNAL: SIGNAL to a target still running MS after the signal before it; the chain in order.
TEST(KillUtilLinuxTest, TimeoutSendsTheFollowUpToATargetStillRunning) {
  TargetProcess target = StartTarget({"--ignore", Str(SIGTERM)});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"TERM ignored, KILL follows", {"kill", "--timeout", "100", "KILL", Str(target.pid)}, 0, "", ""});
  EXPECT_EQ(DeathSignal(&target), SIGKILL);
}

// The chain ends with a signal the target catches and exits on, so that it reads both and says so in order however
// late it runs (ending with KILL, the target had to read HUP within the 50 ms before KILL).
TEST(KillUtilLinuxTest, TimeoutChainInOrderSaidByVerbose) {
  const std::string hup = Str(SIGHUP), usr1 = Str(SIGUSR1);
  TargetProcess target =
      StartTarget({"--ignore", Str(SIGTERM), "--catch", hup, "--catch", usr1, "--exit-on", usr1});
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid);
  // The same lines as util-linux's kill.
  ExpectCase({"HUP, then USR1", {"kill", "--verbose", "--timeout", "50", "HUP", "--timeout", "50", "USR1", pid}, 0,
              "sending signal 15 to pid " + pid + "\ntimeout, sending signal " + hup + " to pid " + pid +
                  "\ntimeout, sending signal " + usr1 + " to pid " + pid + "\n",
              ""});
  EXPECT_EQ(NextLine(target), hup + " SI_USER -");
  EXPECT_EQ(NextLine(target), usr1 + " SI_USER -");
  EXPECT_EQ(DeathSignal(&target), 0);  // It exited on USR1, the end of the chain.
}

// Each target --timeout follows holds a pidfd from before the first signal: kill raises its soft limit of open files
// to the hard one, so 40 targets under `ulimit -S -n 16 -H -n 64` all get TERM, then KILL, as with util-linux (which
// opens one pidfd at a time).
TEST(KillUtilLinuxTest, TimeoutFollowsMoreTargetsThanTheSoftLimitOfOpenFiles) {
  std::vector<TargetProcess> targets = StartTargets(40, {"--ignore", Str(SIGTERM)});
  ASSERT_EQ(targets.size(), 40u);
  const std::vector<std::string> argv = WithPids({"kill", "--timeout", "100", "KILL"}, targets);
  ExpectCase({"40 targets, soft limit 16, hard 64", argv, 0, "", ""}, OpenFilesLimited(16, 64));
  for (TargetProcess& target : targets) EXPECT_EQ(DeathSignal(&target), SIGKILL) << target.pid;
}

// util-linux follows one target after the other, with one pidfd open at a time, so it signals them all however low
// the limit; here, when the hard limit cannot hold every target's pidfd, nothing is sent: one line says so, status 1.
TEST(KillUtilLinuxTest, DifferenceFromUtilLinuxTimeoutSendsNothingBeyondTheHardLimitOfOpenFiles) {
  std::vector<TargetProcess> targets = StartTargets(40);
  ASSERT_EQ(targets.size(), 40u);
  std::vector<std::string> argv = WithPids({"kill", "--verbose", "--timeout", "100", "KILL"}, targets);
  argv.push_back("x");  // Not reported either: the one line is all.
  ExpectCase({"40 targets, hard limit 32", argv, 1, "",
              "kill: --timeout: cannot open a pidfd for each of 40 targets within the limit of 32 open files: "
              "nothing sent\n"},
             OpenFilesLimited(16, 32));
  for (TargetProcess& target : targets) {
    EXPECT_FALSE(HasEnded(&target));
    Stop(&target);
  }
}

TEST(KillUtilLinuxTest, TimeoutSendsNothingMoreToATargetThatHasExited) {
  TargetProcess target = StartTarget();
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid);
  // TERM ends it long before 60 s: kill returns then, without the follow-up.
  ExpectCase({"no follow-up", {"kill", "--verbose", "--timeout", "60000", "KILL", pid}, 0,
              "sending signal 15 to pid " + pid + "\n", ""});
  EXPECT_EQ(DeathSignal(&target), SIGTERM);
}

// util-linux follows one target after the other, its whole chain each; here every target gets each signal in turn.
TEST(KillUtilLinuxTest, DifferenceFromUtilLinuxTimeoutFollowsEveryTargetAtOnce) {
  TargetProcess a = StartTarget({"--ignore", Str(SIGTERM)}), b = StartTarget({"--ignore", Str(SIGTERM)});
  ASSERT_GT(a.pid, 0);
  ASSERT_GT(b.pid, 0);
  const std::string pid_a = Str(a.pid), pid_b = Str(b.pid);
  ExpectCase({"two targets", {"kill", "--verbose", "--timeout", "100", "KILL", pid_a, pid_b}, 0,
              "sending signal 15 to pid " + pid_a + "\nsending signal 15 to pid " + pid_b +
                  "\ntimeout, sending signal 9 to pid " + pid_a + "\ntimeout, sending signal 9 to pid " + pid_b + "\n",
              ""});
  EXPECT_EQ(DeathSignal(&a), SIGKILL);
  EXPECT_EQ(DeathSignal(&b), SIGKILL);
}

// With -q, util-linux sends --timeout's signals with SI_QUEUE and the value 1 (and without -q the signal number);
// here each carries -q's VALUE, and without -q they are plain (SI_USER), as the first signal is.
TEST(KillUtilLinuxTest, DifferenceFromUtilLinuxFollowUpsCarryTheQueueValue) {
  const std::string usr1 = Str(SIGUSR1), usr2 = Str(SIGUSR2);
  TargetProcess target = StartTarget({"--catch", usr1, "--catch", usr2, "--exit-on", usr2});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"-q", {"kill", "-q", "7", "-USR1", "--timeout", "50", "USR2", Str(target.pid)}, 0, "", ""});
  EXPECT_EQ(NextLine(target), usr1 + " SI_QUEUE 7");
  EXPECT_EQ(NextLine(target), usr2 + " SI_QUEUE 7");
  EXPECT_EQ(DeathSignal(&target), 0);
  target = StartTarget({"--catch", usr1, "--catch", usr2, "--exit-on", usr2});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"no -q", {"kill", "-USR1", "--timeout", "50", "USR2", Str(target.pid)}, 0, "", ""});
  EXPECT_EQ(NextLine(target), usr1 + " SI_USER -");
  EXPECT_EQ(NextLine(target), usr2 + " SI_USER -");
  EXPECT_EQ(DeathSignal(&target), 0);
}

// -N after util-linux's options alone is the signal, as util-linux reads it (GNU's rule, -N a signal only as the
// first argument, would make it process group N).
TEST(KillUtilLinuxTest, MinusNumberAfterUtilLinuxOptionsIsTheSignal) {
  TargetProcess target = StartTarget({"--ignore", Str(SIGTERM)});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"--timeout MS SIGNAL -N", {"kill", "--timeout", "50", "KILL", "-" + Str(SIGHUP), Str(target.pid)}, 0,
              "", ""});
  EXPECT_EQ(DeathSignal(&target), SIGHUP);
  target = StartTarget();
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid);
  ExpectCase({"--verbose -0", {"kill", "--verbose", "-0", pid}, 0, "sending signal 0 to pid " + pid + "\n", ""});
  ExpectCase({"-r --verbose -N (not caught: not sent)", {"kill", "-r", "--verbose", "-" + Str(SIGUSR1), pid}, 1,
              "not signalling pid " + pid + ", it has no userspace handler for signal " + Str(SIGUSR1) + "\n", ""});
  EXPECT_FALSE(HasEnded(&target));
  Stop(&target);
}

TEST(KillUtilLinuxTest, PidAndPidfdInode) {
  TargetProcess target = StartTarget({"--catch", Str(SIGUSR1)});
  ASSERT_GT(target.pid, 0);
  const unsigned long long inode = PidfdInodeOf(target.pid);  // NOLINT(runtime/int)
  if (inode == 0) {
    Stop(&target);
    GTEST_SKIP() << "no pidfd inodes here (Linux < 6.9)";
  }
  const std::string pid = Str(target.pid), right = pid + ":" + std::to_string(inode),
                    wrong = pid + ":" + std::to_string(inode + 1);
  ExpectCase({"the right inode: signalled", {"kill", "-USR1", right}, 0, "", ""});
  EXPECT_EQ(NextLine(target), Str(SIGUSR1) + " SI_USER -");
  // util-linux: "kill: failed to obtain a valid file descriptor for PID N: No such process".
  ExpectCase({"another inode: nothing sent", {"kill", "-USR1", wrong}, 1, "",
              "kill: '" + wrong + "': pid " + pid + " is another process (pidfd inode " + std::to_string(inode) +
                  "): nothing sent\n"});
  const std::string mismatch = "kill: '" + wrong + "': pid " + pid + " is another process (pidfd inode " +
                               std::to_string(inode) + "): nothing sent\n";
  // util-linux's -q sends to PID whatever its inode (its sigqueue path skips the check).
  ExpectCase({"DifferenceFromUtilLinux: -q checks the inode too", {"kill", "-q", "9", "-USR1", wrong}, 1, "",
              mismatch});
  // util-linux prints "sending signal 10 to pid N" before its check fails.
  ExpectCase({"DifferenceFromUtilLinux: --verbose names no signal it does not send",
              {"kill", "--verbose", "-USR1", wrong}, 1, "", mismatch});
  ExpectCase({"with -q", {"kill", "-q", "9", "-USR1", right}, 0, "", ""});
  EXPECT_EQ(NextLine(target), Str(SIGUSR1) + " SI_QUEUE 9");
  ExpectCase({"with --verbose", {"kill", "--verbose", "-s", "0", right}, 0, "sending signal 0 to pid " + pid + "\n",
              ""});
  ExpectCase({"the others are still signalled", {"kill", "-s", "0", wrong, pid}, 1, "",
              "kill: '" + wrong + "': pid " + pid + " is another process (pidfd inode " + std::to_string(inode) +
                  "): nothing sent\n"});
  EXPECT_FALSE(HasEnded(&target));
  Stop(&target);
  ExpectCase({"gone", {"kill", right}, 1, "", "kill: '" + right + "': No such process\n"});
}

// A thread's id (not its process's leader) names no process to follow: --timeout, --wait and PID:PIDFD_INODE say
// so, and send it nothing (util-linux: "kill: failed to obtain a valid file descriptor for PID TID: No such file or
// directory"). Where nothing needs a pidfd, kill(2) takes the id as GNU's kill does, and signals the thread's process.
TEST(KillUtilLinuxTest, DifferenceFromUtilLinuxAThreadIsNoProcessToFollow) {
  TargetProcess target = StartTarget({"--threads", "1"});
  ASSERT_GT(target.pid, 0);
  const std::string line = NextLine(target);
  ASSERT_EQ(line.rfind("thread ", 0), 0u) << line;
  const std::string tid = line.substr(7);
  ASSERT_NE(tid, Str(target.pid));
  for (const Case& c : std::vector<Case>{
           {"--timeout", {"kill", "--timeout", "100", "KILL", tid}, 1, "",
            "kill: '" + tid + "': a thread, not a process (--timeout follows processes)\n"},
           {"--wait", {"kill", "-s", "0", "--wait", tid}, 1, "",
            "kill: '" + tid + "': a thread, not a process (--wait follows processes)\n"},
           {"--verbose names the signal first", {"kill", "--verbose", "--wait", tid}, 1,
            "sending signal 15 to pid " + tid + "\n",
            "kill: '" + tid + "': a thread, not a process (--wait follows processes)\n"},
           {"TID:INODE", {"kill", tid + ":1"}, 1, "",
            "kill: '" + tid + ":1': a thread, not a process (PID:PIDFD_INODE names processes)\n"},
           {"-s 0 alone checks its process", {"kill", "-s", "0", tid}, 0, "", ""},
       }) {
    ExpectCase(c);
  }
  EXPECT_FALSE(HasEnded(&target));
  ExpectCase({"plain kill signals its process", {"kill", tid}, 0, "", ""});
  EXPECT_EQ(DeathSignal(&target), SIGTERM);
}

TEST(KillUtilLinuxTest, PidAndPidfdInodeMalformed) {
  // util-linux takes each as a process name: "kill: cannot find process "1:0"".
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would check it.
  for (const std::string& bad : std::vector<std::string>{pid + ":0", pid + ":", pid + ":x", pid + ":+2", pid + ": 2",
                                                         pid + ":2 ", "0:5", "-1:5", ":5", pid + ":2:3",
                                                         pid + ":18446744073709551616"}) {
    ExpectCase({bad, {"kill", "-s", "0", "--", bad}, 1, "", "kill: '" + bad + "': invalid process id\n"});
  }
}

// Without pidfd_open (Linux < 5.3, or a seccomp profile), PID:PIDFD_INODE and --wait refuse; nothing is sent.
TEST(KillUtilLinuxTest, WithoutPidfdsPidfdInodeAndWaitingRefuse) {
  TargetProcess target = StartTarget();
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid);
  Options no_pidfd;
  no_pidfd.before_exec = DenyPidfdOpen;
  ExpectCase({"PID:PIDFD_INODE", {"kill", pid + ":1"}, 1, "",
              "kill: '" + pid + ":1': PID:PIDFD_INODE needs Linux 6.9 or later\n"},
             no_pidfd);
  ExpectCase({"--wait", {"kill", "--wait", pid}, 1, "",
              "kill: '" + pid + "': --wait needs pidfd_open (Linux 5.3 or later): Function not implemented\n"},
             no_pidfd);
  ExpectCase({"--timeout", {"kill", "--timeout", "1", "KILL", pid}, 1, "",
              "kill: '" + pid + "': --timeout needs pidfd_open (Linux 5.3 or later): Function not implemented\n"},
             no_pidfd);
  EXPECT_FALSE(HasEnded(&target));
  // -r needs none: it reads /proc/PID/status by pid, as util-linux does.
  ExpectCase({"-r", {"kill", "-r", pid}, 1, "", ""}, no_pidfd);
  ExpectCase({"plain", {"kill", pid}, 0, "", ""}, no_pidfd);
  EXPECT_EQ(DeathSignal(&target), SIGTERM);
}

// -r: only a target that catches the signal gets it; as util-linux, a target left alone is silent (--verbose says
// so), and status 1 means none was signalled.
TEST(KillUtilLinuxTest, RequireHandler) {
  const std::string usr1 = Str(SIGUSR1), usr2 = Str(SIGUSR2);
  TargetProcess catching = StartTarget({"--catch", usr1, "--ignore", usr2}), plain = StartTarget();
  ASSERT_GT(catching.pid, 0);
  ASSERT_GT(plain.pid, 0);
  const std::string c = Str(catching.pid), p = Str(plain.pid);
  ExpectCase({"caught: sent", {"kill", "-r", "-USR1", c}, 0, "", ""});
  EXPECT_EQ(NextLine(catching), usr1 + " SI_USER -");
  ExpectCase({"not caught: not sent, status 1", {"kill", "-r", "-USR1", p}, 1, "", ""});
  ExpectCase({"--verbose says why", {"kill", "--require-handler", "--verbose", "-s", "USR1", p}, 1,
              "not signalling pid " + p + ", it has no userspace handler for signal " + usr1 + "\n", ""});
  ExpectCase({"one of two caught: 0", {"kill", "-r", "--verbose", "-USR1", p, c}, 0,
              "not signalling pid " + p + ", it has no userspace handler for signal " + usr1 +
                  "\nsending signal " + usr1 + " to pid " + c + "\n",
              ""});
  EXPECT_EQ(NextLine(catching), usr1 + " SI_USER -");
  ExpectCase({"ignored is not caught", {"kill", "-r", "-s", usr2, c}, 1, "", ""});
  ExpectCase({"signal 0 is never caught", {"kill", "-r", "-0", c}, 1, "", ""});
  ExpectCase({"with -q", {"kill", "-r", "-q", "3", "-USR1", c}, 0, "", ""});
  EXPECT_EQ(NextLine(catching), usr1 + " SI_QUEUE 3");
  EXPECT_FALSE(HasEnded(&plain));
  EXPECT_FALSE(HasEnded(&catching));
  Stop(&catching);
  Stop(&plain);
  // util-linux says nothing here, with status 1.
  ExpectCase({"DifferenceFromUtilLinux: a missing target is reported", {"kill", "-r", c}, 1, "",
              "kill: '" + c + "': No such process\n"});
}

// A zombie catches nothing (its SigCgt is empty): left alone, as util-linux leaves it.
TEST(KillUtilLinuxTest, RequireHandlerLeavesAZombieAlone) {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, child, &info, WEXITED | WNOWAIT), 0);  // A zombie now, not reaped.
  ExpectCase({"a zombie", {"kill", "-r", "--verbose", "-USR1", Str(child)}, 1,
              "not signalling pid " + Str(child) + ", it has no userspace handler for signal " + Str(SIGUSR1) + "\n",
              ""});
  waitpid(child, nullptr, 0);
}

TEST(KillUtilLinuxTest, Verbose) {
  TargetProcess target = StartTarget();
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid);
  ExpectCase({"a line per target", {"kill", "--verbose", "-s", "0", pid, " +" + pid}, 0,
              "sending signal 0 to pid " + pid + "\nsending signal 0 to pid " + pid + "\n", ""});
  ExpectCase({"a group by its number", {"kill", "--verbose", "-s", "0", "0"}, 0, "sending signal 0 to pid 0\n", ""});
  ExpectCase({"an invalid PID gets no line", {"kill", "--verbose", "-s", "0", "x"}, 1, "",
              "kill: 'x': invalid process id\n"});
  ExpectCase({"the default signal", {"kill", "--verbose", pid}, 0, "sending signal 15 to pid " + pid + "\n", ""});
  EXPECT_EQ(DeathSignal(&target), SIGTERM);
  // As util-linux: the line comes before the signal that fails, also where a pidfd is opened first.
  ExpectCase({"gone, with --timeout", {"kill", "--verbose", "--timeout", "1", "KILL", pid}, 1,
              "sending signal 15 to pid " + pid + "\n", "kill: '" + pid + "': No such process\n"});
  // util-linux: "kill: sending signal to N failed: No such process".
  ExpectCase({"DifferenceFromUtilLinux: GNU's message for a failure", {"kill", "--verbose", "-s", "0", pid}, 1,
              "sending signal 0 to pid " + pid + "\n", "kill: '" + pid + "': No such process\n"});
  Options full;
  full.stdout_path = "/dev/full";
  ExpectCase({"a line that cannot be written", {"kill", "--verbose", "-s", "0", "0"}, 1, "",
              "kill: write error: No space left on device\n"},
             full);
}

// -d PID: as util-linux prints it (a line per mask that is not empty, each name followed by a space).
TEST(KillUtilLinuxTest, ShowProcessState) {
  TargetProcess target = StartTarget({"--catch", Str(SIGUSR1), "--ignore", Str(SIGHUP), "--ignore", Str(SIGQUIT),
                                      "--block", Str(SIGUSR2), "--catch", Str(SIGTERM)});
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid);
  ExpectCase({"-d", {"kill", "-d", pid}, 0, "Blocked: USR1 USR2 TERM \nIgnored: HUP QUIT \nCaught: USR1 TERM \n", ""});
  ASSERT_EQ(kill(target.pid, SIGUSR2), 0);  // Blocked: stays pending for the process.
  ExpectCase({"--show-process-state= with a pending signal", {"kill", "--show-process-state=" + pid}, 0,
              "Pending (process): USR2 \nBlocked: USR1 USR2 TERM \nIgnored: HUP QUIT \nCaught: USR1 TERM \n", ""});
  ExpectCase({"the PID as strtoimax reads it", {"kill", "-d", " +" + pid}, 0,
              "Pending (process): USR2 \nBlocked: USR1 USR2 TERM \nIgnored: HUP QUIT \nCaught: USR1 TERM \n", ""});
  Stop(&target);
  // util-linux: "kill: failed to initialize procfs handler: No such file or directory".
  ExpectCase({"DifferenceFromUtilLinux: a missing process", {"kill", "-d", pid}, 1, "",
              "kill: '" + pid + "': No such process\n"});
}

// -d names signals as util-linux's -d does, where GNU has no -d: IO for 29, 32 and 33 by number, RT0 to RT30 for
// the real-time ones (-l keeps GNU's POLL, RTMIN, RTMIN+1 ... RTMAX). Every signal that can be in a mask (all but
// KILL and STOP), byte for byte util-linux 2.42's output under C and C.UTF-8.
TEST(KillUtilLinuxTest, ShowProcessStateNamesSignalsAsUtilLinux) {
  std::vector<std::string> ignore_all;
  for (int sig = 1; sig <= 64; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ignore_all.insert(ignore_all.end(), {"--ignore", Str(sig)});
  }
  TargetProcess target = StartTarget(ignore_all);
  ASSERT_GT(target.pid, 0);
  const std::string every =
      "Ignored: HUP INT QUIT ILL TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT TSTP TTIN TTOU URG "
      "XCPU XFSZ VTALRM PROF WINCH IO PWR SYS 32 33 RT0 RT1 RT2 RT3 RT4 RT5 RT6 RT7 RT8 RT9 RT10 RT11 RT12 RT13 RT14 "
      "RT15 RT16 RT17 RT18 RT19 RT20 RT21 RT22 RT23 RT24 RT25 RT26 RT27 RT28 RT29 RT30 \n";
  Options utf8;
  utf8.env = {"LC_ALL=C.UTF-8"};
  ExpectCase({"every signal but KILL and STOP", {"kill", "-d", Str(target.pid)}, 0, every, ""});
  ExpectCase({"under C.UTF-8", {"kill", "-d", Str(target.pid)}, 0, every, ""}, utf8);
  Stop(&target);
  target = StartTarget({"--catch", Str(SIGRTMIN + 1), "--ignore", Str(SIGPOLL), "--ignore", "33"});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"each mask its line", {"kill", "-d", Str(target.pid)}, 0, "Blocked: RT1 \nIgnored: IO 33 \nCaught: RT1 \n",
              ""});
  Stop(&target);
}

}  // namespace
}  // namespace coreutils_testing
