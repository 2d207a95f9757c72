// sleep: GNU sleep(1) 9.1's operands, messages and statuses; timing on the monotonic clock; signals.
#include <signal.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

const char kTry[] = "Try 'sleep --help' for more information.\n";

const char kHelp[] = R"(Usage: sleep NUMBER[SUFFIX]...
  or:  sleep OPTION
Wait for the total of all the durations given, then exit.  A NUMBER may have
a fractional part and counts seconds unless a SUFFIX follows it: 's' for
seconds, 'm' for minutes, 'h' for hours, 'd' for days.

      --help        show this help text, then exit
      --version     show version information, then exit
)";

std::string Invalid(const std::string& arg) { return "sleep: invalid time interval '" + arg + "'\n"; }

// Cases whose stdout, stderr and status match GNU's sleep exactly (checked against /usr/bin/sleep below).
const std::vector<Case>& GnuCases() {
  static const std::vector<Case> cases = {
      {"missing operand", {"sleep"}, 1, "", std::string("sleep: missing operand\n") + kTry},
      {"-- alone sleeps no time", {"sleep", "--"}, 0, "", ""},
      {"invalid operand", {"sleep", "x"}, 1, "", Invalid("x") + kTry},
      {"every invalid operand before one Try line", {"sleep", "x", "y"}, 1, "", Invalid("x") + Invalid("y") + kTry},
      {"valid operands between invalid ones", {"sleep", "x", "1", "y"}, 1, "", Invalid("x") + Invalid("y") + kTry},
      {"invalid after valid: no sleep", {"sleep", "100", "x"}, 1, "", Invalid("x") + kTry},
      {"empty operand", {"sleep", ""}, 1, "", Invalid("") + kTry},
      {"trailing space", {"sleep", "1 "}, 1, "", Invalid("1 ") + kTry},
      {"unknown suffix", {"sleep", "42D"}, 1, "", Invalid("42D") + kTry},
      {"two suffixes", {"sleep", "1ss"}, 1, "", Invalid("1ss") + kTry},
      {"bare exponent", {"sleep", "1e"}, 1, "", Invalid("1e") + kTry},
      {"nan", {"sleep", "nan"}, 1, "", Invalid("nan") + kTry},
      {"negative after --", {"sleep", "--", "-1"}, 1, "", Invalid("-1") + kTry},
      {"negative infinity after --", {"sleep", "--", "-inf"}, 1, "", Invalid("-inf") + kTry},
      {"operands around --", {"sleep", "x", "--", "-0.1"}, 1, "", Invalid("x") + Invalid("-0.1") + kTry},
      {"quoted as GNU quotes", {"sleep", "a'b"}, 1, "", Invalid("a\\'b") + kTry},
      {"-- -- is an operand", {"sleep", "--", "--"}, 1, "", Invalid("--") + kTry},
      {"negative number is an option", {"sleep", "-1"}, 1, "", std::string("sleep: invalid option -- '1'\n") + kTry},
      {"negative zero is an option", {"sleep", "-0"}, 1, "", std::string("sleep: invalid option -- '0'\n") + kTry},
      {"unknown option", {"sleep", "-x"}, 1, "", std::string("sleep: invalid option -- 'x'\n") + kTry},
      {"unknown option after an operand", {"sleep", "0", "-x"}, 1, "",
       std::string("sleep: invalid option -- 'x'\n") + kTry},
      {"unknown long option", {"sleep", "--bogus"}, 1, "", std::string("sleep: unrecognized option '--bogus'\n") + kTry},
      {"help", {"sleep", "--help"}, 0, kHelp, ""},
      {"help after an operand", {"sleep", "100", "--help"}, 0, kHelp, ""},
      {"help wins over a bad operand", {"sleep", "x", "--help"}, 0, kHelp, ""},
      {"abbreviated help", {"sleep", "--hel"}, 0, kHelp, ""},
      {"zero", {"sleep", "0"}, 0, "", ""},
      {"negative zero after --", {"sleep", "--", "-0"}, 0, "", ""},
      {"hex zero", {"sleep", "0x0", "0s", "0m", "0h", "0d"}, 0, "", ""},
      {"underflow is zero", {"sleep", "1e-400"}, 0, "", ""},
      {"leading space", {"sleep", " 0"}, 0, "", ""},
      {"plus sign", {"sleep", "+0"}, 0, "", ""},
  };
  return cases;
}

TEST(SleepTest, CommandLine) {
  for (const Case& c : GnuCases()) ExpectCase(c);
  ExpectCase({"version", {"sleep", "--version"}, 0,
              "sleep (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n",
              ""});
  ExpectCase({"the message names the program, the Try line argv[0] (GNU 9.10)", {"/bin/sleep", "x"}, 1, "",
              "sleep: invalid time interval 'x'\nTry '/bin/sleep --help' for more information.\n"});
}

// The same cases through GNU's own sleep, when the one installed is GNU's: our expectations are GNU's.
TEST(SleepTest, GnuAgrees) {
  Result probe = RunProgram("/usr/bin/sleep", {"sleep", "--version"});
  if (probe.out.find("(GNU coreutils)") == std::string::npos) GTEST_SKIP() << "/usr/bin/sleep is not GNU's";
  for (const Case& c : GnuCases()) {
    if (c.name == "help" || c.name.find("help") != std::string::npos) continue;  // Our help text is our own.
    Result r = RunProgram("/usr/bin/sleep", c.argv);
    EXPECT_EQ(r.status, c.status) << c.name;
    EXPECT_EQ(r.out, c.out) << c.name;
    EXPECT_EQ(r.err, c.err) << c.name;
  }
}

TEST(SleepTest, WriteErrors) {
  Options full;
  full.stdout_path = "/dev/full";
  for (const char* option : {"--help", "--version"}) {
    Result r = Invoke({"sleep", option}, full);
    EXPECT_EQ(r.status, 1) << option;
    EXPECT_EQ(r.err, "sleep: write error: No space left on device\n") << option;
  }
}

TEST(SleepTest, SleepsAtLeastTheSumOfItsOperands) {
  struct Timed {
    std::vector<std::string> argv;
    double seconds;
  };
  for (const Timed& t : std::vector<Timed>{
           {{"sleep", "0.1"}, 0.1},
           {{"sleep", ".1s"}, 0.1},
           {{"sleep", "100e-3"}, 0.1},
           {{"sleep", "0x1p-3"}, 0.125},
           {{"sleep", "0.002m"}, 0.12},
           {{"sleep", "0.00004h"}, 0.144},
           {{"sleep", "0.000002d"}, 0.1728},
           {{"sleep", ".05", ".05", "0.05"}, 0.15},
           {{"sleep", "0.1", "--", "-0"}, 0.1},
       }) {
    Result r = Invoke(t.argv);
    const std::string name = t.argv[1];
    EXPECT_EQ(r.status, 0) << name;
    EXPECT_EQ(r.out, "") << name;
    EXPECT_EQ(r.err, "") << name;
    EXPECT_GE(r.seconds, t.seconds) << name;
    EXPECT_LT(r.seconds, 5) << name;
  }
}

TEST(SleepTest, ZeroReturnsPromptly) {
  Result r = Invoke({"sleep", "0"});
  EXPECT_EQ(r.status, 0);
  EXPECT_LT(r.seconds, 5);
}

// For Options::before_exec: forks a helper that sends each signal at its time (seconds from now) to the process
// about to exec (exec keeps the PID), then exits. The helper lets go of the runner's pipes at once. Each time is
// absolute on CLOCK_MONOTONIC from a start read before the fork: a late wake does not delay the later signals.
std::function<void()> SignalLater(std::vector<std::pair<double, int>> plan, int ignore = 0) {
  return [plan, ignore] {
    if (ignore != 0) signal(ignore, SIG_IGN);
    const pid_t target = getpid();
    timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (fork() != 0) return;
    close(0);
    close(1);
    close(2);
    for (const auto& [at, sig] : plan) {
      const long long ns = start.tv_nsec + static_cast<long long>(at * 1e9);
      const timespec when = {start.tv_sec + static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, nullptr) != 0) {  // EINTR: the same time again.
      }
      kill(target, sig);
    }
    _exit(0);
  };
}

TEST(SleepTest, DiesAtOnceBySignalDefaultAction) {
  struct Killed {
    std::vector<std::string> argv;
    int signal;
  };
  for (const Killed& k : std::vector<Killed>{
           {{"sleep", "100"}, SIGTERM},
           {{"sleep", "inf"}, SIGTERM},
           {{"sleep", "infinity", "1"}, SIGINT},
           {{"sleep", "9223372036854775807", "9223372036854775807"}, SIGTERM},  // Saturated sum: no overflow.
           {{"sleep", "1e308d", "1e308d"}, SIGTERM},
           {{"sleep", "1e400"}, SIGALRM},
           {{"sleep", "99999999999999999999h"}, SIGHUP},
       }) {
    Options options;
    options.before_exec = SignalLater({{0.3, k.signal}});
    Result r = Invoke(k.argv, options);
    const std::string name = k.argv[1] + " " + std::to_string(k.signal);
    EXPECT_FALSE(r.hung) << name;
    EXPECT_EQ(r.signal, k.signal) << name;
    EXPECT_EQ(r.status, 128 + k.signal) << name;
    EXPECT_EQ(r.out, "") << name;
    EXPECT_EQ(r.err, "") << name;
    EXPECT_GE(r.seconds, 0.3) << name;  // It really was sleeping, not failing at once.
    EXPECT_LT(r.seconds, 5) << name;
  }
}

TEST(SleepTest, IgnoredSignalsDoNotCutItShort) {
  Options options;
  options.before_exec = SignalLater({{0.1, SIGUSR1}, {0.2, SIGUSR1}}, /*ignore=*/SIGUSR1);
  Result r = Invoke({"sleep", "0.5"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_GE(r.seconds, 0.5);
  EXPECT_LT(r.seconds, 5);
}

TEST(SleepTest, ResumesAfterStopAndContinue) {
  Options options;
  options.before_exec = SignalLater({{0.1, SIGSTOP}, {0.3, SIGCONT}, {0.4, SIGSTOP}, {0.5, SIGCONT}});
  Result r = Invoke({"sleep", "0.8"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_GE(r.seconds, 0.8);
  EXPECT_LT(r.seconds, 5);
}

// The deadline is on the monotonic clock, fixed at the start: a stop that outlasts it ends the sleep as soon as
// the process continues (about 4 s here), where a sleep that restarted would take 7 s and one that only counted
// time awake at least 6 s (the 2 s not yet slept at the STOP, after the CONT at 4 s). The bound, 5.5 s, leaves 1.5 s
// for a loaded machine on the one side and 0.5 s on the other. The STOP comes 1 s after the start, so that even a
// slow start (the emulated run of the qemu pass, under load) has fixed its deadline by then.
TEST(SleepTest, StoppedPastTheDeadlineFinishesOnContinue) {
  Options options;
  options.before_exec = SignalLater({{1.0, SIGSTOP}, {4.0, SIGCONT}});
  Result r = Invoke({"sleep", "3"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_GE(r.seconds, 4.0);
  EXPECT_LT(r.seconds, 5.5);
}

}  // namespace
}  // namespace coreutils_testing
