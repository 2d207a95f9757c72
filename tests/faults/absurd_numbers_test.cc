// Faults: absurd numbers. Durations past any clock saturate to "forever" (GNU: strtod's ERANGE is accepted), an
// underflow to 0 disables the timer, the smallest positive double still expires; signal numbers past the table and
// pids past pid_t are errors. Never a crash, never a hang, never an early wake-up.
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/faults/differential.h"

namespace coreutils_faults {
namespace {

using coreutils_testing::Options;
using coreutils_testing::Result;

std::string InvalidSignal(const std::string& name, const std::string& sig) {
  return name + ": '" + sig + "': invalid signal\nTry '" + name + " --help' for more information.\n";
}

TEST(AbsurdNumbersTest, TimeoutDurations) {
  for (const FaultCase& c : std::vector<FaultCase>{
           {"1e999999 is forever", Fault::kNone, {"timeout", "1e999999", "true"}, 0, "", ""},
           {"2^63 days", Fault::kNone, {"timeout", "9223372036854775808d", "true"}, 0, "", ""},
           {"1e999999 days", Fault::kNone, {"timeout", "1e999999d", "true"}, 0, "", ""},
           {"inf days", Fault::kNone, {"timeout", "infd", "true"}, 0, "", ""},
           {"0x1p99999", Fault::kNone, {"timeout", "0x1p99999", "true"}, 0, "", ""},
           {"1.8e308 (DBL_MAX) hours", Fault::kNone, {"timeout", "1.7976931348623157e308h", "true"}, 0, "", ""},
           {"2^64 seconds", Fault::kNone, {"timeout", "18446744073709551616", "true"}, 0, "", ""},
           {"a 400-digit number", Fault::kNone, {"timeout", std::string(400, '9'), "true"}, 0, "", ""},
           {"-k 1e999999", Fault::kNone, {"timeout", "-k", "1e999999", "0.1", "sleep", "10"}, 124, "", ""},
           {"-k 2^63 days", Fault::kNone, {"timeout", "-k", "9223372036854775808d", "0.1", "sleep", "10"}, 124, "",
            ""},
           {"the smallest denormal still expires", Fault::kNone, {"timeout", "4.9e-324", "sleep", "10"}, 124, "", ""},
           {"one nanosecond and less", Fault::kNone, {"timeout", "1e-10", "sleep", "10"}, 124, "", ""},
           {"-1e999999", Fault::kNone, {"timeout", "--", "-1e999999", "true"}, 125, "",
            "timeout: invalid time interval '-1e999999'\nTry 'timeout --help' for more information.\n"},
           {"nan", Fault::kNone, {"timeout", "nan", "true"}, 125, "",
            "timeout: invalid time interval 'nan'\nTry 'timeout --help' for more information.\n"},
           {"1e999999x", Fault::kNone, {"timeout", "1e999999x", "true"}, 125, "",
            "timeout: invalid time interval '1e999999x'\nTry 'timeout --help' for more information.\n"},
           {"-k nan", Fault::kNone, {"timeout", "-k", "nan", "1", "true"}, 125, "",
            "timeout: invalid time interval 'nan'\nTry 'timeout --help' for more information.\n"},
       }) {
    Options options;
    options.limit_seconds = 9;  // "forever" must not mean "hangs"; 10 s commands must be cut short.
    ExpectFaultCase(c, options);
  }
}

// GNU 9.10 changed these (9.1 read a value that strtod underflows to 0 as 0, "no timer"): a positive value too
// small to represent is the shortest wait there is. Stated here, not compared with /usr/bin's 9.1.
TEST(AbsurdNumbersTest, TimeoutDurationsTooSmallToRepresentAsGnu910) {
  Options options;
  options.limit_seconds = 9;
  for (const coreutils_testing::Case& c : std::vector<coreutils_testing::Case>{
           // The command ignores TERM, so only the KILL 1 ns later can end it: a `sleep` could die of the TERM first
           // on a slow machine (seen under qemu-user), and then 124 is right.
           {"-k 1e-999999 KILLs at once, timeout too (its group)",
            {"timeout", "-k", "1e-999999", "0.1", "sh", "-c", "trap '' TERM; sleep 10"}, 137, "", ""},
           {"1e-999999 expires at once", {"timeout", "1e-999999", "sleep", "10"}, 124, "", ""},
           {"0x1p-99999 expires at once", {"timeout", "0x1p-99999", "sleep", "10"}, 124, "", ""},
       }) {
    coreutils_testing::ExpectCase(c, options);
  }
}

TEST(AbsurdNumbersTest, TimeoutSignals) {
  for (const std::string sig : {"RTMIN+999", "RTMAX+1", "RTMIN-1", "65", "9999999999999999999", "-1", "SIGRTMIN+99999999999999999999"}) {
    ExpectFaultCase({"-s " + sig, Fault::kNone, {"timeout", "-s", sig, "1", "true"}, 125, "",
                     InvalidSignal("timeout", sig)});
  }
}

// Durations of (practically) forever: the sleeper must still be sleeping when killed, with nothing printed.
TEST(AbsurdNumbersTest, SleepForeverNeitherErrsNorWakes) {
  const std::vector<std::vector<std::string>> kForever = {
      {"sleep", "0x1p99999"},
      {"sleep", "1e999999"},
      {"sleep", "9223372036854775808d"},
      {"sleep", "inf"},
      {"sleep", "1.7976931348623157e308d"},
      {"sleep", "1e308", "1e308"},  // The sum overflows the double: still forever.
      {"sleep", "9223372036854775807", "9223372036854775807"},
  };
  std::vector<std::string> programs = {coreutils_testing::BinaryPath()};
  if (!GnuPath("sleep").empty()) programs.push_back(GnuPath("sleep"));
  for (const std::string& program : programs) {
    for (const std::vector<std::string>& argv : kForever) {
      Options options;
      options.limit_seconds = 0.5;
      const Result r = coreutils_testing::RunProgram(program, argv, options);
      const std::string name = program + " " + argv[1];
      EXPECT_TRUE(r.hung) << name << " ended by itself, status " << r.status;
      EXPECT_EQ(r.signal, 9) << name;  // The runner's KILL, nothing else.
      EXPECT_EQ(r.out, "") << name;
      EXPECT_EQ(r.err, "") << name;
    }
  }
}

TEST(AbsurdNumbersTest, SleepUnderflowIsZero) {
  for (const FaultCase& c : std::vector<FaultCase>{
           {"1e-999999", Fault::kNone, {"sleep", "1e-999999"}, 0, "", ""},
           {"0x1p-99999", Fault::kNone, {"sleep", "0x1p-99999"}, 0, "", ""},
           {"4.9e-324", Fault::kNone, {"sleep", "4.9e-324"}, 0, "", ""},
           {"0x1p99999x", Fault::kNone, {"sleep", "0x1p99999x"}, 1, "",
            "sleep: invalid time interval '0x1p99999x'\nTry 'sleep --help' for more information.\n"},
       }) {
    Options options;
    options.limit_seconds = 9;
    ExpectFaultCase(c, options);
  }
}

// GNU kill 9.1's answers (by its source: /usr/bin/kill here is procps): operand2sig rejects the signal, and -s/-n
// then add usage's Try line; -l/-t just fail; pids outside pid_t are invalid.
TEST(AbsurdNumbersTest, KillSignalsAndPids) {
  const std::string pid = std::to_string(getpid());  // Never signalled: every case fails before kill(2).
  for (const FaultCase& c : std::vector<FaultCase>{
           {"-s RTMIN+999", Fault::kNone, {"kill", "-s", "RTMIN+999", pid}, 1, "", InvalidSignal("kill", "RTMIN+999")},
           {"-RTMIN+999", Fault::kNone, {"kill", "-RTMIN+999", pid}, 1, "", InvalidSignal("kill", "RTMIN+999")},
           {"-s SIGRTMAX+1", Fault::kNone, {"kill", "-s", "SIGRTMAX+1", pid}, 1, "",
            InvalidSignal("kill", "SIGRTMAX+1")},
           {"-n 999", Fault::kNone, {"kill", "-n", "999", pid}, 1, "", InvalidSignal("kill", "999")},
           {"-s 2^64", Fault::kNone, {"kill", "-s", "18446744073709551616", pid}, 1, "",
            InvalidSignal("kill", "18446744073709551616")},
           {"-l 999", Fault::kNone, {"kill", "-l", "999"}, 1, "", "kill: '999': invalid signal\n"},
           {"-l 2^64", Fault::kNone, {"kill", "-l", "18446744073709551616"}, 1, "",
            "kill: '18446744073709551616': invalid signal\n"},
           {"-l RTMIN+999", Fault::kNone, {"kill", "-l", "RTMIN+999"}, 1, "", "kill: 'RTMIN+999': invalid signal\n"},
           {"-t 999", Fault::kNone, {"kill", "-t", "999"}, 1, "", "kill: '999': invalid signal\n"},
           {"pid 2^31", Fault::kNone, {"kill", "-0", "2147483648"}, 1, "", "kill: '2147483648': invalid process id\n"},
           {"pid 2^64", Fault::kNone, {"kill", "-0", "18446744073709551616"}, 1, "",
            "kill: '18446744073709551616': invalid process id\n"},
           {"pid -2^64", Fault::kNone, {"kill", "-0", "--", "-18446744073709551616"}, 1, "",
            "kill: '-18446744073709551616': invalid process id\n"},
           {"pid INT_MIN is no process", Fault::kNone, {"kill", "-0", "--", "-2147483648"}, 1, "",
            "kill: '-2147483648': No such process\n"},
       }) {
    ExpectFaultCase(c);
  }
}

}  // namespace
}  // namespace coreutils_faults
