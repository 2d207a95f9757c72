// kill: GNU kill(1) 9.11 as GNU 9.10's kill behaves (GNU's kill is not installed here: /usr/bin/kill is procps's,
// so each case states GNU's output), one behaviour per case. Signals are sent to real children of this test, which
// then checks how each child died.
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/kill/target_process.h"
#include "tests/testing/locales.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

const char kTry[] = "Try 'kill --help' for more information.\n";

const char kHelp[] = R"(Usage: kill [-s SIGNAL | -SIGNAL] PID...
  or:  kill -l [SIGNAL]...
  or:  kill -t [SIGNAL]...
  or:  kill -d PID
Deliver a signal (TERM by default) to each PID, or tell about signals.

An argument that a long option requires is required by its short form too.
  -s, --signal=SIGNAL, -SIGNAL
                   the signal to deliver, given by name or by number
  -l, --list       name every signal; or, for each SIGNAL, give its number
                     if it is a name and its name if it is a number
  -t, --table      like -l, but as a table giving each signal's number,
                     name and description
  -q, --queue=VALUE
                   send the signal with sigqueue, VALUE (an int) as its data
  -r, --require-handler
                   signal only a process that catches the signal
      --timeout MS SIGNAL
                   MS milliseconds after the signal, send SIGNAL to each PID
                     still running; may be repeated, for a chain of signals
      --wait[=DURATION]
                   return once every PID has exited, or once DURATION has
                     passed (after the last --timeout's signal)
  -d, --show-process-state=PID
                   show the signals that PID has pending, blocks, ignores
                     and catches
      --verbose    say which signal goes to which PID before sending it
      --help       show this help text, then exit
      --version    show version information, then exit

A SIGNAL is a name such as 'HUP' (the 'SIG' prefix is optional), a number
such as '1', or the exit status a shell reports for a process that the
signal ended (129 for HUP, for instance).
A PID is a process ID.  0 stands for the current process group, -1 for every
process that may be signalled, and any other -N for process group N.
PID:PIDFD_INODE names process PID only while its pidfd has that inode
(Linux 6.9 or later); otherwise nothing is sent to it.
With -l and -t, a SIGNAL 0xMASK (also --list=0xMASK) stands for the signals
set in a mask as /proc/PID/status shows it, such as 0x4002 for INT and TERM.
DURATION is a number of seconds, or of minutes, hours or days with the suffix
'm', 'h' or 'd'; it may have a fraction.

Exit status:
  0    if every PID was signalled and, with --wait, has exited
  1    if a PID could not be signalled, or on a usage error
  124  if DURATION passed before every PID had exited
)";

// What GNU 9.10 lists here: EXIT (0), then every signal that has a name (glibc's 32 and 33 have none).
const char kList[] = R"(EXIT
HUP
INT
QUIT
ILL
TRAP
ABRT
BUS
FPE
KILL
USR1
SEGV
USR2
PIPE
ALRM
TERM
STKFLT
CHLD
CONT
STOP
TSTP
TTIN
TTOU
URG
XCPU
XFSZ
VTALRM
PROF
WINCH
POLL
PWR
SYS
RTMIN
RTMIN+1
RTMIN+2
RTMIN+3
RTMIN+4
RTMIN+5
RTMIN+6
RTMIN+7
RTMIN+8
RTMIN+9
RTMIN+10
RTMIN+11
RTMIN+12
RTMIN+13
RTMIN+14
RTMIN+15
RTMAX-14
RTMAX-13
RTMAX-12
RTMAX-11
RTMAX-10
RTMAX-9
RTMAX-8
RTMAX-7
RTMAX-6
RTMAX-5
RTMAX-4
RTMAX-3
RTMAX-2
RTMAX-1
RTMAX
)";
const char kTable[] = R"( 0 EXIT     Unknown signal 0
 1 HUP      Hangup
 2 INT      Interrupt
 3 QUIT     Quit
 4 ILL      Illegal instruction
 5 TRAP     Trace/breakpoint trap
 6 ABRT     Aborted
 7 BUS      Bus error
 8 FPE      Floating point exception
 9 KILL     Killed
10 USR1     User defined signal 1
11 SEGV     Segmentation fault
12 USR2     User defined signal 2
13 PIPE     Broken pipe
14 ALRM     Alarm clock
15 TERM     Terminated
16 STKFLT   Stack fault
17 CHLD     Child exited
18 CONT     Continued
19 STOP     Stopped (signal)
20 TSTP     Stopped
21 TTIN     Stopped (tty input)
22 TTOU     Stopped (tty output)
23 URG      Urgent I/O condition
24 XCPU     CPU time limit exceeded
25 XFSZ     File size limit exceeded
26 VTALRM   Virtual timer expired
27 PROF     Profiling timer expired
28 WINCH    Window changed
29 POLL     I/O possible
30 PWR      Power failure
31 SYS      Bad system call
34 RTMIN    Real-time signal 0
35 RTMIN+1  Real-time signal 1
36 RTMIN+2  Real-time signal 2
37 RTMIN+3  Real-time signal 3
38 RTMIN+4  Real-time signal 4
39 RTMIN+5  Real-time signal 5
40 RTMIN+6  Real-time signal 6
41 RTMIN+7  Real-time signal 7
42 RTMIN+8  Real-time signal 8
43 RTMIN+9  Real-time signal 9
44 RTMIN+10 Real-time signal 10
45 RTMIN+11 Real-time signal 11
46 RTMIN+12 Real-time signal 12
47 RTMIN+13 Real-time signal 13
48 RTMIN+14 Real-time signal 14
49 RTMIN+15 Real-time signal 15
50 RTMAX-14 Real-time signal 16
51 RTMAX-13 Real-time signal 17
52 RTMAX-12 Real-time signal 18
53 RTMAX-11 Real-time signal 19
54 RTMAX-10 Real-time signal 20
55 RTMAX-9  Real-time signal 21
56 RTMAX-8  Real-time signal 22
57 RTMAX-7  Real-time signal 23
58 RTMAX-6  Real-time signal 24
59 RTMAX-5  Real-time signal 25
60 RTMAX-4  Real-time signal 26
61 RTMAX-3  Real-time signal 27
62 RTMAX-2  Real-time signal 28
63 RTMAX-1  Real-time signal 29
64 RTMAX    Real-time signal 30
)";

std::string Usage(const std::string& message) { return "kill: " + message + "\n" + kTry; }

TEST(KillTest, CommandLine) {
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  for (const Case& c : std::vector<Case>{
           {"help", {"kill", "--help"}, 0, kHelp, ""},
           {"abbreviated help", {"kill", "--he"}, 0, kHelp, ""},
           {"version", {"kill", "--version"}, 0,
            "kill (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n", ""},
           {"no PID", {"kill"}, 1, "", Usage("no process ID specified")},
           {"-SIGNAL but no PID", {"kill", "-9"}, 1, "", Usage("no process ID specified")},
           {"-s but no PID", {"kill", "-s", "KILL"}, 1, "", Usage("no process ID specified")},
           {"a negative first PID without -- is -SIGNAL", {"kill", "-5000"}, 1, "", Usage("'5000': invalid signal")},
           {"only --", {"kill", "--"}, 1, "", Usage("no process ID specified")},
           {"invalid -s signal", {"kill", "-s", "FOO", pid}, 1, "", Usage("'FOO': invalid signal")},
           {"invalid --signal", {"kill", "--signal=FOO", pid}, 1, "", Usage("'FOO': invalid signal")},
           {"invalid -SIGNAL", {"kill", "-FOO", pid}, 1, "", Usage("'FOO': invalid signal")},
           {"invalid -SIGNAL number", {"kill", "-65", pid}, 1, "", Usage("'65': invalid signal")},
           {"-SIGNAL above SIGRTMAX", {"kill", "-65", pid}, 1, "", Usage("'65': invalid signal")},
           {"-SIGNAL must be a whole argument: digit", {"kill", "-l9"}, 1, "", Usage("invalid option -- 9")},
           {"-SIGNAL must be a whole argument: name", {"kill", "-lKILL"}, 1, "", Usage("invalid option -- K")},
           {"-SIGNAL must be a whole argument: after -t", {"kill", "-t9", pid}, 1, "", Usage("invalid option -- 9")},
           {"-n with an invalid signal", {"kill", "-n", "x", pid}, 1, "", Usage("'x': invalid signal")},
           {"lower-case -SIGNAL is options", {"kill", "-term", pid}, 1, "", Usage("invalid option -- 'e'")},
           {"-s needs an argument", {"kill", "-s"}, 1, "", Usage("option requires an argument -- 's'")},
           {"--signal needs an argument", {"kill", "--signal"}, 1, "",
            Usage("option '--signal' requires an argument")},
           {"unknown option", {"kill", "-x", pid}, 1, "", Usage("invalid option -- 'x'")},
           {"unknown long option", {"kill", "--bogus"}, 1, "", Usage("unrecognized option '--bogus'")},
           {"two -s", {"kill", "-s", "HUP", "-s", "INT", pid}, 1, "", Usage("'INT': multiple signals specified")},
           {"-SIGNAL then -s", {"kill", "-9", "-s", "INT", pid}, 1, "", Usage("'INT': multiple signals specified")},
           {"-NAME after the first argument is still a signal", {"kill", "-s", "0", "-KILL", pid}, 1, "",
            Usage("'KILL': multiple signals specified")},
           {"-NAME after a PID is still a signal", {"kill", "-s", "0", pid, "-HUP"}, 1, "",
            Usage("'HUP': multiple signals specified")},
           {"-l with -s", {"kill", "-l", "-s", "1"}, 1, "", Usage("cannot combine signal with -l or -t")},
           {"-t with -s", {"kill", "-t", "-s", "1"}, 1, "", Usage("cannot combine signal with -l or -t")},
           {"-s after a SIGNAL operand of -l", {"kill", "-l", "9", "-s", "1"}, 1, "",
            Usage("cannot combine signal with -l or -t")},
           {"-s with -l", {"kill", "-s", "1", "-l"}, 1, "", Usage("cannot combine signal with -l or -t")},
           {"-SIGNAL with -t", {"kill", "-9", "-t"}, 1, "", Usage("cannot combine signal with -l or -t")},
           {"two -l", {"kill", "-l", "-l"}, 1, "", Usage("multiple -l or -t options specified")},
           {"-l and -t", {"kill", "-l", "-t"}, 1, "", Usage("multiple -l or -t options specified")},
           {"-t and -L", {"kill", "-tL"}, 1, "", Usage("multiple -l or -t options specified")},
           {"-t and -l", {"kill", "-t", "-l"}, 1, "", Usage("multiple -l or -t options specified")},
           {"-l after a SIGNAL operand of -l", {"kill", "-l", "9", "-l"}, 1, "",
            Usage("multiple -l or -t options specified")},
           {"--list takes no argument", {"kill", "--list=9"}, 1, "",
            Usage("option '--list' doesn't allow an argument")},
           {"--table takes no argument", {"kill", "--table=9"}, 1, "",
            Usage("option '--table' doesn't allow an argument")},
           {"-n needs an argument", {"kill", "-n"}, 1, "", Usage("option requires an argument -- 'n'")},
           {"-n but no PID", {"kill", "-n", "9"}, 1, "", Usage("no process ID specified")},
           {"the message names the program, the Try line argv[0] (GNU 9.10)", {"/bin/kill"}, 1, "",
            "kill: no process ID specified\nTry '/bin/kill --help' for more information.\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(KillTest, Listing) {
  for (const Case& c : std::vector<Case>{
           {"-l lists every name", {"kill", "-l"}, 0, kList, ""},
           {"--list", {"kill", "--list"}, 0, kList, ""},
           {"abbreviated --li", {"kill", "--li"}, 0, kList, ""},
           {"-t prints the table", {"kill", "-t"}, 0, kTable, ""},
           {"-L is -t", {"kill", "-L"}, 0, kTable, ""},
           {"--table", {"kill", "--table"}, 0, kTable, ""},
           {"number to name", {"kill", "-l", "9"}, 0, "KILL\n", ""},
           {"name to number", {"kill", "-l", "KILL"}, 0, "9\n", ""},
           {"prefixed lower-case name to number", {"kill", "-l", "sigkill"}, 0, "9\n", ""},
           {"exit status to name", {"kill", "-l", "143"}, 0, "TERM\n", ""},
           {"ksh exit status to name", {"kill", "-l", "271"}, 0, "TERM\n", ""},
           {"0 is EXIT", {"kill", "-l", "0"}, 0, "EXIT\n", ""},
           {"EXIT is 0", {"kill", "-l", "EXIT"}, 0, "0\n", ""},
           {"real-time name to number", {"kill", "-l", "RTMIN+1"}, 0, "35\n", ""},
           {"real-time number to name", {"kill", "-l", "50"}, 0, "RTMAX-14\n", ""},
           {"alias to number", {"kill", "-l", "CLD"}, 0, "17\n", ""},
           {"several operands in order", {"kill", "-l", "9", "HUP", "15"}, 0, "KILL\n1\nTERM\n", ""},
           {"bad operand reported, others listed", {"kill", "-l", "FOO", "9"}, 1, "KILL\n",
            "kill: 'FOO': invalid signal\n"},
           {"32 has no name: its number", {"kill", "-l", "32"}, 0, "32\n", ""},
           {"33 has no name: its number", {"kill", "-l", "33"}, 0, "33\n", ""},
           {"exit status of 32", {"kill", "-l", "160"}, 0, "32\n", ""},
           {"ksh exit status of 33", {"kill", "-l", "289"}, 0, "33\n", ""},
           {"SIG32 is a name: to number", {"kill", "-l", "SIG32"}, 0, "32\n", ""},
           {"above SIGRTMAX", {"kill", "-l", "65"}, 1, "", "kill: '65': invalid signal\n"},
           {"exit status above SIGRTMAX", {"kill", "-l", "193"}, 1, "", "kill: '193': invalid signal\n"},
           {"SIGNAL operand before -l", {"kill", "9", "-l"}, 0, "KILL\n", ""},
           {"SIGNAL operands around --list", {"kill", "HUP", "--list", "32"}, 0, "1\n32\n", ""},
           {"negative operand is no signal", {"kill", "-l", "-9"}, 1, "", "kill: '-9': invalid signal\n"},
           {"-l operand after --", {"kill", "-l", "--", "9"}, 0, "KILL\n", ""},
           {"table row for one signal", {"kill", "-t", "9"}, 0, " 9 KILL     Killed\n", ""},
           {"table row for a name", {"kill", "-t", "rtmax-1"}, 0, "63 RTMAX-1  Real-time signal 29\n", ""},
           {"table row for 0", {"kill", "-t", "0"}, 0, " 0 EXIT     Unknown signal 0\n", ""},
           {"table row for 32", {"kill", "-t", "32"}, 0, "32 SIG32    Unknown signal 32\n", ""},
           {"table row for 33 by exit status", {"kill", "-t", "161"}, 0, "33 SIG33    Unknown signal 33\n", ""},
           {"table rows for 32 and 33 by name", {"kill", "-L", "sig32", "SIG33"}, 0,
            "32 SIG32    Unknown signal 32\n33 SIG33    Unknown signal 33\n", ""},
           {"table with a bad operand", {"kill", "-t", "143", "FOO"}, 1, "15 TERM     Terminated\n",
            "kill: 'FOO': invalid signal\n"},
       }) {
    ExpectCase(c);
  }
}

// kill -l N for every N from 0 to SIGRTMAX, and for the exit statuses N + 128 (sh) and N + 256 (ksh); kill -t N too.
TEST(KillTest, EveryNumberUpToSigRtMaxAndItsExitStatuses) {
  ASSERT_EQ(SIGRTMIN, 34);
  ASSERT_EQ(SIGRTMAX, 64);
  const std::vector<std::string> names = {
      "EXIT",     "HUP",      "INT",      "QUIT",     "ILL",      "TRAP",     "ABRT",     "BUS",
      "FPE",      "KILL",     "USR1",     "SEGV",     "USR2",     "PIPE",     "ALRM",     "TERM",
      "STKFLT",   "CHLD",     "CONT",     "STOP",     "TSTP",     "TTIN",     "TTOU",     "URG",
      "XCPU",     "XFSZ",     "VTALRM",   "PROF",     "WINCH",    "POLL",     "PWR",      "SYS",
      "32",       "33",       "RTMIN",    "RTMIN+1",  "RTMIN+2",  "RTMIN+3",  "RTMIN+4",  "RTMIN+5",
      "RTMIN+6",  "RTMIN+7",  "RTMIN+8",  "RTMIN+9",  "RTMIN+10", "RTMIN+11", "RTMIN+12", "RTMIN+13",
      "RTMIN+14", "RTMIN+15", "RTMAX-14", "RTMAX-13", "RTMAX-12", "RTMAX-11", "RTMAX-10", "RTMAX-9",
      "RTMAX-8",  "RTMAX-7",  "RTMAX-6",  "RTMAX-5",  "RTMAX-4",  "RTMAX-3",  "RTMAX-2",  "RTMAX-1",
      "RTMAX"};
  std::vector<std::string> rows(SIGRTMAX + 1);  // The whole table's rows by number; 32 and 33 as GNU prints them.
  rows[32] = "32 SIG32    Unknown signal 32\n";
  rows[33] = "33 SIG33    Unknown signal 33\n";
  for (absl::string_view rest = kTable; !rest.empty();) {
    const absl::string_view row = rest.substr(0, rest.find('\n') + 1);
    rows[std::stoi(std::string(row.substr(0, 2)))] = std::string(row);
    rest.remove_prefix(row.size());
  }
  // One run per list of operands: each is answered on its own line, in order.
  for (int base : {0, 128, 256}) {
    std::vector<std::string> argv = {"kill", "-l"};
    std::string expected;
    for (int n = 0; n <= SIGRTMAX; ++n) {
      argv.push_back(std::to_string(base + n));
      expected += names[n] + "\n";
    }
    ExpectCase({"kill -l " + argv[2] + "..." + argv.back(), argv, 0, expected, ""});
  }
  std::vector<std::string> argv = {"kill", "-t"};
  std::string expected;
  for (int n = 0; n <= SIGRTMAX; ++n) {
    argv.push_back(std::to_string(n));
    expected += rows[n];
  }
  ExpectCase({"kill -t 0...64", argv, 0, expected, ""});
}

TEST(KillTest, WriteErrors) {
  Options full;
  full.stdout_path = "/dev/full";
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"kill", "-l"}, {"kill", "-t", "9"}, {"kill", "--help"}, {"kill", "--version"}}) {
    Result r = Invoke(argv, full);
    EXPECT_EQ(r.status, 1) << argv[1];
    EXPECT_EQ(r.err, "kill: write error: No space left on device\n") << argv[1];
  }
  // As GNU's error(), a diagnostic first sends what was listed: stdout's failure is found then, and the final
  // check has no reason left to give.
  Result r = Invoke({"kill", "-l", "9", "FOO"}, full);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "kill: 'FOO': invalid signal\nkill: write error\n");
}

TEST(KillTest, BadPids) {
  for (const Case& c : std::vector<Case>{
           {"not a number", {"kill", "x"}, 1, "", "kill: 'x': invalid process id\n"},
           {"empty", {"kill", "-s", "0", ""}, 1, "", "kill: '': invalid process id\n"},
           {"trailing space", {"kill", "-s", "0", "1 "}, 1, "", "kill: '1 ': invalid process id\n"},
           {"trailing garbage", {"kill", "-s", "0", "1x"}, 1, "", "kill: '1x': invalid process id\n"},
           {"two signs", {"kill", "-s", "0", "--", "--1"}, 1, "", "kill: '--1': invalid process id\n"},
           {"beyond pid_t", {"kill", "-s", "0", "2147483648"}, 1, "", "kill: '2147483648': invalid process id\n"},
           {"a lone dash", {"kill", "-"}, 1, "", "kill: '-': invalid process id\n"},
           {"each bad PID is reported", {"kill", "a", "b"}, 1, "",
            "kill: 'a': invalid process id\nkill: 'b': invalid process id\n"},
           {"quoted as GNU quotes", {"kill", "a'b"}, 1, "", "kill: 'a\\'b': invalid process id\n"},
       }) {
    ExpectCase(c);
  }
}

// A child of this test that waits in pause() with default dispositions, optionally in process group `group`
// (0: a new group of its own). Returns once the child is ready, so no signal can arrive before its reset.
pid_t SpawnPauser(pid_t group = -1) {
  int ready[2];
  if (pipe(ready) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    for (int sig = 1; sig < NSIG; ++sig) signal(sig, SIG_DFL);
    // glibc refuses to touch 32 and 33, its own, which the test may have inherited ignored (SIG_IGN survives exec):
    // the kernel's rt_sigaction resets them.
    struct KernelSigaction {
      void (*handler)(int);
      unsigned long flags;  // NOLINT(runtime/int): the kernel's layout.
      void (*restorer)();
      uint64_t mask;
    } default_action = {SIG_DFL, 0, nullptr, 0};
    for (int sig : {32, 33}) syscall(SYS_rt_sigaction, sig, &default_action, nullptr, sizeof(uint64_t));
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (group >= 0) setpgid(0, group);
    close(ready[0]);
    close(ready[1]);  // EOF tells the parent we are set up.
    for (;;) pause();
  }
  if (group >= 0 && pid > 0) setpgid(pid, group == 0 ? pid : group);  // Also here: no race with kill.
  close(ready[1]);
  char byte;
  while (read(ready[0], &byte, 1) > 0) {
  }
  close(ready[0]);
  return pid;
}

// How `pid` ended: the signal that killed it, or -1 (exited, or still running after WNOHANG). Reaps it.
// A child that was never signalled is KILLed after 10 s (AwaitEnd()'s safety net, not a time bound): the case then
// fails.
int DeathSignal(pid_t pid, bool wait = true) {
  int status = 0;
  if (!wait && waitpid(pid, &status, WNOHANG) != pid) return -1;
  if (wait && !AwaitEnd(pid, &status)) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return -1;
  }
  return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}

void KillAndReap(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

TEST(KillTest, SendsTheChosenSignalToARealProcess) {
  struct SignalCase {
    std::string name;
    std::vector<std::string> options;
    int signal;
  };
  for (const SignalCase& c : std::vector<SignalCase>{
           {"TERM by default", {}, SIGTERM},
           {"-9", {"-9"}, SIGKILL},
           {"-15", {"-15"}, SIGTERM},
           {"-KILL", {"-KILL"}, SIGKILL},
           {"-SIGHUP", {"-SIGHUP"}, SIGHUP},
           {"-RTMIN+1", {"-RTMIN+1"}, SIGRTMIN + 1},
           {"-s HUP", {"-s", "HUP"}, SIGHUP},
           {"-s attached", {"-sINT"}, SIGINT},
           {"-s lower case", {"-s", "usr1"}, SIGUSR1},
           {"-s exit status", {"-s", "137"}, SIGKILL},
           {"--signal=", {"--signal=USR2"}, SIGUSR2},
           {"--signal NAME", {"--signal", "ALRM"}, SIGALRM},
           {"-n as bash has it", {"-n", "QUIT"}, SIGQUIT},
           {"-- before the PID", {"-s", "PIPE", "--"}, SIGPIPE},
           // glibc's 32 and 33 have no name, but are signals all the same.
           {"-32, no name", {"-32"}, 32},
           {"-s 32", {"-s", "32"}, 32},
           {"-SIG33", {"-SIG33"}, 33},
           {"-n 33", {"-n", "33"}, 33},
           {"-s exit status of 32", {"-s", "160"}, 32},
           {"--signal= ksh exit status of 33", {"--signal=289"}, 33},
       }) {
    const pid_t child = SpawnPauser();
    ASSERT_GT(child, 0);
    std::vector<std::string> argv = {"kill"};
    argv.insert(argv.end(), c.options.begin(), c.options.end());
    argv.push_back(std::to_string(child));
    Result r = Invoke(argv);
    EXPECT_EQ(r.status, 0) << c.name;
    EXPECT_EQ(r.out, "") << c.name;
    EXPECT_EQ(r.err, "") << c.name;
    EXPECT_EQ(DeathSignal(child), c.signal) << c.name;
  }
}

TEST(KillTest, SignalZeroOnlyChecks) {
  const pid_t child = SpawnPauser();
  ASSERT_GT(child, 0);
  for (const std::vector<std::string>& options :
       std::vector<std::vector<std::string>>{{"-0"}, {"-s", "0"}, {"-EXIT"}, {"--signal=exit"}}) {
    std::vector<std::string> argv = {"kill"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back(std::to_string(child));
    Result r = Invoke(argv);
    EXPECT_EQ(r.status, 0) << options[0];
    EXPECT_EQ(r.err, "") << options[0];
    EXPECT_EQ(DeathSignal(child, /*wait=*/false), -1) << options[0];  // Still running.
  }
  KillAndReap(child);
}

TEST(KillTest, PidMayHaveSpaceAndSignAsStrtoimaxReadsIt) {
  const pid_t child = SpawnPauser();
  ASSERT_GT(child, 0);
  Result r = Invoke({"kill", "-s", "HUP", " +" + std::to_string(child)});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(DeathSignal(child), SIGHUP);
}

TEST(KillTest, NoSuchProcessIsReportedAndTheRestAreStillSignalled) {
  const pid_t gone = FreePid();
  ASSERT_GT(gone, 0);
  const pid_t child = SpawnPauser();
  ASSERT_GT(child, 0);
  Result r = Invoke({"kill", "-s", "KILL", std::to_string(gone), "x", std::to_string(child)});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "kill: '" + std::to_string(gone) + "': No such process\nkill: 'x': invalid process id\n");
  EXPECT_EQ(DeathSignal(child), SIGKILL);
}

TEST(KillTest, SignalZeroToAMissingProcessFails) {
  const pid_t gone = FreePid();
  ASSERT_GT(gone, 0);
  Result r = Invoke({"kill", "-0", std::to_string(gone)});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "kill: '" + std::to_string(gone) + "': No such process\n");
}

TEST(KillTest, SeveralProcessesAllGetTheSignal) {
  const pid_t a = SpawnPauser(), b = SpawnPauser();
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  Result r = Invoke({"kill", "-USR1", std::to_string(a), std::to_string(b)});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(DeathSignal(a), SIGUSR1);
  EXPECT_EQ(DeathSignal(b), SIGUSR1);
}

// A negative PID signals a process group: two children share one group; this test is in another.
struct Group {
  pid_t leader, member;
};

Group SpawnGroup() {
  Group g;
  g.leader = SpawnPauser(/*group=*/0);
  g.member = SpawnPauser(g.leader);
  return g;
}

TEST(KillTest, NegativePidSignalsAProcessGroup) {
  struct GroupCase {
    std::string name;
    std::vector<std::string> options;  // The negated group id follows.
    int signal;
  };
  for (const GroupCase& c : std::vector<GroupCase>{
           {"after --", {"--"}, SIGTERM},
           {"after -SIGNAL without --", {"-9"}, SIGKILL},
           {"after -s SIGNAL without --", {"-s", "HUP"}, SIGHUP},
           {"after -s SIGNAL and --", {"-s", "INT", "--"}, SIGINT},
       }) {
    const Group g = SpawnGroup();
    ASSERT_GT(g.leader, 0);
    ASSERT_GT(g.member, 0);
    ASSERT_EQ(getpgid(g.member), g.leader);
    std::vector<std::string> argv = {"kill"};
    argv.insert(argv.end(), c.options.begin(), c.options.end());
    argv.push_back("-" + std::to_string(g.leader));
    Result r = Invoke(argv);
    EXPECT_EQ(r.status, 0) << c.name;
    EXPECT_EQ(r.err, "") << c.name;
    EXPECT_EQ(DeathSignal(g.leader), c.signal) << c.name;
    EXPECT_EQ(DeathSignal(g.member), c.signal) << c.name;
  }
}

// Options may follow PIDs, as GNU's getopt permutes them; `--` still ends the options.
TEST(KillTest, OptionsMayFollowPids) {
  struct AfterCase {
    std::string name;
    std::vector<std::string> options;  // After the PID.
    int signal;
  };
  for (const AfterCase& c : std::vector<AfterCase>{
           {"-s after the PID", {"-s", "KILL"}, SIGKILL},
           {"-NAME after the PID", {"-HUP"}, SIGHUP},
           {"--signal= after the PID", {"--signal=USR1"}, SIGUSR1},
           {"-n after the PID", {"-n", "QUIT"}, SIGQUIT},
           {"unnamed number after the PID", {"-s", "33"}, 33},
       }) {
    const pid_t child = SpawnPauser();
    ASSERT_GT(child, 0);
    std::vector<std::string> argv = {"kill", std::to_string(child)};
    argv.insert(argv.end(), c.options.begin(), c.options.end());
    Result r = Invoke(argv);
    EXPECT_EQ(r.status, 0) << c.name;
    EXPECT_EQ(r.err, "") << c.name;
    EXPECT_EQ(DeathSignal(child), c.signal) << c.name;
  }
}

TEST(KillTest, DoubleDashAfterAPidEndsTheOptions) {
  const pid_t child = SpawnPauser();
  ASSERT_GT(child, 0);
  Result r = Invoke({"kill", std::to_string(child), "--", "-s", "KILL"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "kill: '-s': invalid process id\nkill: 'KILL': invalid process id\n");
  EXPECT_EQ(DeathSignal(child), SIGTERM);
}

// -N is a signal only as the first argument. After a PID it is a process group and the options end there; as in
// GNU, whose getopt has not yet moved the PIDs it skipped, the PIDs before it are left out.
TEST(KillTest, MinusNumberAfterAPidIsAProcessGroupAndThePidsBeforeItAreLeftOut) {
  const pid_t gone = FreePid();  // No process group has this number.
  ASSERT_GT(gone, 0);
  const pid_t child = SpawnPauser();
  ASSERT_GT(child, 0);
  Result r = Invoke({"kill", std::to_string(child), "-" + std::to_string(gone)});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "kill: '-" + std::to_string(gone) + "': No such process\n");
  EXPECT_EQ(DeathSignal(child, /*wait=*/false), -1);  // Not signalled: still running.
  KillAndReap(child);
}

// The first line of a text.
std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n') + 1); }

bool Exists(const char* path) {
  struct stat st;
  return stat(path, &st) == 0;
}

// GNU's msgids, so GNU's German catalog translates them. The operands' quotes are uucore::Quote's business, and
// the Try line cli's: the cases check the translated text around them.
TEST(KillTest, MessagesInTheUsersLanguage) {
  const GeneratedLocale de = MakeLocale("de_DE", "UTF-8");
  if (!de.skip_reason.empty()) GTEST_SKIP() << de.skip_reason;
  if (!HasGermanCatalog()) GTEST_SKIP() << "GNU coreutils' German catalog is not installed";
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  Options german;
  german.env = de.env;
  Result r = Invoke({"kill"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(FirstLine(r.err), "kill: keine Prozess‐ID angegeben\n");
  r = Invoke({"kill", "-l", "-l"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(FirstLine(r.err), "kill: mehrfach die Optionen -l oder -t angegeben\n");
  r = Invoke({"kill", "-l", "-s", "1"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(FirstLine(r.err), "kill: es ist nicht möglich, Signale mit -l oder -t zu kombinieren\n");
  r = Invoke({"kill", "-lKILL"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(FirstLine(r.err), "kill: ungültige Option -- K\n");
  r = Invoke({"kill", "-s", "0", "-KILL", pid}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(FirstLine(r.err).find("KILL"), std::string::npos) << r.err;
  EXPECT_NE(FirstLine(r.err).find(": mehrere Signale angegeben\n"), std::string::npos) << r.err;
  r = Invoke({"kill", "-l", "FOO"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("FOO"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": ungültiges Signal\n"), std::string::npos) << r.err;
  r = Invoke({"kill", "x"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(": ungültige Prozess‐ID\n"), std::string::npos) << r.err;
}

// glibc's own texts (getopt's complaints, strerror, strsignal for -t) come from glibc's catalog, as for GNU's kill.
TEST(KillTest, GlibcTextsInTheUsersLanguage) {
  const GeneratedLocale de = MakeLocale("de_DE", "UTF-8");
  if (!de.skip_reason.empty()) GTEST_SKIP() << de.skip_reason;
  if (!Exists("/usr/share/locale/de/LC_MESSAGES/libc.mo")) GTEST_SKIP() << "glibc's German catalog is not installed";
  Options german;
  german.env = de.env;
  ExpectCase({"table", {"kill", "-t", "9", "32", "34"}, 0,
              " 9 KILL     Getötet\n32 SIG32    Unbekanntes Signal 32\n34 RTMIN    Real-Time Signal 0\n", ""},
             german);
  Result r = Invoke({"kill", "-x"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(FirstLine(r.err), "kill: Ungültige Option -- x\n");
  r = Invoke({"kill", "--list=9"}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(FirstLine(r.err), "kill: Die Option »--list« erlaubt kein Argument\n");
  const pid_t gone = FreePid();
  ASSERT_GT(gone, 0);
  r = Invoke({"kill", "-s", "0", std::to_string(gone)}, german);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(std::to_string(gone)), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": Kein passender Prozess gefunden\n"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace coreutils_testing
