#include "uucore/signals.h"

#include <signal.h>
#include <string.h>

#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

using ::coreutils_testing::StatusIs;

struct Accepted {
  std::string name;
  std::string arg;
  int expected;
};

TEST(ParseSignalTest, AcceptsWhatGnuAccepts) {
  for (const Accepted& c : std::vector<Accepted>{
           {"number", "9", SIGKILL},
           {"leading zero", "015", SIGTERM},
           {"name", "TERM", SIGTERM},
           {"lower case", "term", SIGTERM},
           {"mixed case", "Term", SIGTERM},
           {"SIG prefix", "SIGTERM", SIGTERM},
           {"lower sig prefix", "sigterm", SIGTERM},
           {"odd case prefix", "sIGTERM", SIGTERM},
           {"odd case name after prefix", "SigTerm", SIGTERM},
           {"alias IOT", "IOT", SIGABRT},
           {"alias CLD", "CLD", SIGCHLD},
           {"alias IO", "IO", SIGIO},
           {"POLL", "POLL", SIGPOLL},
           {"prefixed alias", "SIGIOT", SIGABRT},
           {"STKFLT", "STKFLT", SIGSTKFLT},
           {"PWR", "PWR", SIGPWR},
           {"SYS", "SYS", SIGSYS},
           {"number after SIG", "SIG15", SIGTERM},
           {"number after lower sig", "sig9", SIGKILL},
           {"highest number", "64", 64},
           {"exit status of a TERM death", "143", SIGTERM},
           {"exit status of a HUP death", "129", SIGHUP},
           {"exit status 192 is 64", "192", 64},
           {"ksh exit status", "271", SIGTERM},
           {"ksh style above 256", "300", 44},
           {"large number masked to TERM", "2147483407", SIGTERM},
           {"RTMIN", "RTMIN", SIGRTMIN},
           {"rtmin", "rtmin", SIGRTMIN},
           {"SIGRTMIN", "SIGRTMIN", SIGRTMIN},
           {"RTMIN+1", "RTMIN+1", SIGRTMIN + 1},
           {"sigrtmin+2", "sigrtmin+2", SIGRTMIN + 2},
           {"RTMIN+0", "RTMIN+0", SIGRTMIN},
           {"RTMIN-0", "RTMIN-0", SIGRTMIN},
           {"RTMIN offset with zeros", "RTMIN+030", SIGRTMIN + 30},
           {"RTMIN top", "RTMIN+30", SIGRTMAX},
           {"RTMIN without sign", "RTMIN1", SIGRTMIN + 1},
           {"RTMIN offset after space", "RTMIN 1", SIGRTMIN + 1},
           {"RTMAX", "RTMAX", SIGRTMAX},
           {"RTMAX-1", "RTMAX-1", SIGRTMAX - 1},
           {"RTMAX-01", "RTMAX-01", SIGRTMAX - 1},
           {"RTMAX+0", "RTMAX+0", SIGRTMAX},
           {"RTMAX space minus", "RTMAX -1", SIGRTMAX - 1},
           {"RTMAX bottom", "RTMAX-30", SIGRTMIN},
           {"SIGRTMAX-1", "SIGRTMAX-1", SIGRTMAX - 1},
           {"first real-time number", "34", SIGRTMIN},
       }) {
    absl::StatusOr<int> got = ParseSignal(c.arg);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status();
    EXPECT_EQ(*got, c.expected) << c.name;
  }
}

TEST(ParseSignalTest, ZeroOnlyWhenAllowed) {
  for (const char* zero : {"0", "00", "EXIT", "exit", "SIGEXIT", "SIG0", "128", "256"}) {
    absl::StatusOr<int> got = ParseSignal(zero, /*allow_zero=*/true);
    ASSERT_TRUE(got.ok()) << zero;
    EXPECT_EQ(*got, 0) << zero;
    EXPECT_THAT(ParseSignal(zero), StatusIs(absl::StatusCode::kInvalidArgument, absl::StrCat("'", zero,
                                                                                               "': invalid signal")))
        << zero;
  }
}

TEST(ParseSignalTest, RejectsWhatGnuRejects) {
  for (absl::string_view bad :
       {"", "FOO", "+15", " 15", "15 ", "-1", "-0", "0x1", "1x", "65", "99", "SIG65", "193", "255", "383",
        "1000", "2147483647", "2147483648", "4294967311", "1000000000000000000000", "SIG", "sig", "SIG143",
        "SIGSIGTERM", "SIG TERM", "TERM ", " TERM", "UNUSED", "EMT", "LOST", "INFO", "RTMIN-1", "RTMIN+31",
        "RTMIN+", "RTMIN+ 1", "RTMIN++1", "RTMIN+-1", "RTMIN+x", "RTMIN+1x", "RTMIN+99999999999999999999",
        "RTMIN+4294967297", "RTMAX+1", "RTMAX1", "RTMAX-31", "RTMAX-", "RTMAX--1", "RTMAX-99999999999999999999",
        "SIG RTMIN", "RT", "RTMI"}) {
    EXPECT_THAT(ParseSignal(bad), StatusIs(absl::StatusCode::kInvalidArgument)) << "'" << bad << "'";
    EXPECT_THAT(ParseSignal(bad, /*allow_zero=*/true), StatusIs(absl::StatusCode::kInvalidArgument))
        << "'" << bad << "'";
    EXPECT_THAT(ParseSignal(bad, /*allow_zero=*/true, /*allow_unnamed=*/true),
                StatusIs(absl::StatusCode::kInvalidArgument))
        << "'" << bad << "'";
  }
}

// glibc's 32 and 33 have no name; GNU's kill and timeout accept them as numbers, so the caller may.
TEST(ParseSignalTest, UnnamedNumbersOnlyWhenAllowed) {
  for (const Accepted& c : std::vector<Accepted>{
           {"32", "32", 32},
           {"33", "33", 33},
           {"leading zero", "032", 32},
           {"after SIG", "SIG32", 32},
           {"after lower sig", "sig33", 33},
           {"exit status", "160", 32},
           {"exit status of 33", "161", 33},
           {"ksh exit status", "288", 32},
           {"ksh exit status of 33", "289", 33},
       }) {
    EXPECT_THAT(ParseSignal(c.arg), StatusIs(absl::StatusCode::kInvalidArgument, "'" + c.arg + "': invalid signal"))
        << c.name;
    EXPECT_THAT(ParseSignal(c.arg, /*allow_zero=*/true), StatusIs(absl::StatusCode::kInvalidArgument)) << c.name;
    for (bool allow_zero : {false, true}) {
      absl::StatusOr<int> got = ParseSignal(c.arg, allow_zero, /*allow_unnamed=*/true);
      ASSERT_TRUE(got.ok()) << c.name << ": " << got.status();
      EXPECT_EQ(*got, c.expected) << c.name;
    }
  }
}

TEST(ParseSignalTest, AllowUnnamedKeepsZeroSeparate) {
  EXPECT_THAT(ParseSignal("0", /*allow_zero=*/false, /*allow_unnamed=*/true),
              StatusIs(absl::StatusCode::kInvalidArgument, "'0': invalid signal"));
  EXPECT_THAT(ParseSignal("EXIT", /*allow_zero=*/false, /*allow_unnamed=*/true),
              StatusIs(absl::StatusCode::kInvalidArgument, "'EXIT': invalid signal"));
  absl::StatusOr<int> got = ParseSignal("0", /*allow_zero=*/true, /*allow_unnamed=*/true);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, 0);
}

// Every number from 1 to SIGRTMAX, named or not, parses back from SignalName() when unnamed ones are allowed.
TEST(SignalNameTest, EveryNumberRoundTripsWhenUnnamedAreAllowed) {
  for (int n = 1; n <= MaxSignal(); ++n) {
    absl::StatusOr<int> got = ParseSignal(SignalName(n), /*allow_zero=*/false, /*allow_unnamed=*/true);
    ASSERT_TRUE(got.ok()) << n << ": " << got.status();
    EXPECT_EQ(*got, n);
  }
}

TEST(ParseSignalTest, ErrorMessageQuotesTheArgument) {
  EXPECT_THAT(ParseSignal("FOO"), StatusIs(absl::StatusCode::kInvalidArgument, "'FOO': invalid signal"));
  EXPECT_THAT(ParseSignal(""), StatusIs(absl::StatusCode::kInvalidArgument, "'': invalid signal"));
  EXPECT_THAT(ParseSignal("a'b"), StatusIs(absl::StatusCode::kInvalidArgument, "'a\\'b': invalid signal"));
  // The message keeps the argument as given, not upper-cased.
  EXPECT_THAT(ParseSignal("foo"), StatusIs(absl::StatusCode::kInvalidArgument, "'foo': invalid signal"));
}

// The names GNU 9.1 prints for 1..64 here (env --list-signal-handling), with glibc's SIGRTMIN of 34.
TEST(SignalNameTest, MatchesGnuForEveryNumber) {
  ASSERT_EQ(SIGRTMIN, 34);
  ASSERT_EQ(SIGRTMAX, 64);
  const std::vector<std::string> expected = {
      "EXIT",     "HUP",      "INT",      "QUIT",     "ILL",      "TRAP",     "ABRT",     "BUS",
      "FPE",      "KILL",     "USR1",     "SEGV",     "USR2",     "PIPE",     "ALRM",     "TERM",
      "STKFLT",   "CHLD",     "CONT",     "STOP",     "TSTP",     "TTIN",     "TTOU",     "URG",
      "XCPU",     "XFSZ",     "VTALRM",   "PROF",     "WINCH",    "POLL",     "PWR",      "SYS",
      "32",       "33",       "RTMIN",    "RTMIN+1",  "RTMIN+2",  "RTMIN+3",  "RTMIN+4",  "RTMIN+5",
      "RTMIN+6",  "RTMIN+7",  "RTMIN+8",  "RTMIN+9",  "RTMIN+10", "RTMIN+11", "RTMIN+12", "RTMIN+13",
      "RTMIN+14", "RTMIN+15", "RTMAX-14", "RTMAX-13", "RTMAX-12", "RTMAX-11", "RTMAX-10", "RTMAX-9",
      "RTMAX-8",  "RTMAX-7",  "RTMAX-6",  "RTMAX-5",  "RTMAX-4",  "RTMAX-3",  "RTMAX-2",  "RTMAX-1",
      "RTMAX",    "65"};
  for (int n = 0; n < static_cast<int>(expected.size()); ++n) EXPECT_EQ(SignalName(n), expected[n]) << n;
  EXPECT_EQ(SignalName(-1), "-1");
}

TEST(SignalNameTest, EveryKnownSignalRoundTrips) {
  for (int n = 1; n <= MaxSignal(); ++n) {
    if (!IsKnownSignal(n)) continue;
    const std::string name = SignalName(n);
    for (const std::string& spelling : {name, "SIG" + name, absl::AsciiStrToLower(name), absl::StrCat(n)}) {
      absl::StatusOr<int> got = ParseSignal(spelling);
      ASSERT_TRUE(got.ok()) << spelling;
      EXPECT_EQ(*got, n) << spelling;
    }
  }
}

TEST(MaxSignalTest, IsSigRtMax) { EXPECT_EQ(MaxSignal(), SIGRTMAX); }

TEST(IsKnownSignalTest, Cases) {
  for (int n : {0, 1, 9, 15, 31, 34, 50, 64}) EXPECT_TRUE(IsKnownSignal(n)) << n;
  for (int n : {-1, 32, 33, 65, 128}) EXPECT_FALSE(IsKnownSignal(n)) << n;
  int known = 0;
  for (int n = 1; n <= MaxSignal(); ++n) known += IsKnownSignal(n);
  EXPECT_EQ(known, 31 + (SIGRTMAX - SIGRTMIN + 1));
}

TEST(SignalDescriptionTest, MatchesGlibcInTheCLocale) {
  struct Case {
    int signal;
    std::string text;
  };
  for (const Case& c : std::vector<Case>{
           {SIGHUP, "Hangup"},
           {SIGABRT, "Aborted"},
           {SIGKILL, "Killed"},
           {SIGTERM, "Terminated"},
           {SIGSTKFLT, "Stack fault"},
           {SIGCHLD, "Child exited"},
           {SIGSTOP, "Stopped (signal)"},
           {SIGTSTP, "Stopped"},
           {SIGPOLL, "I/O possible"},
           {SIGSYS, "Bad system call"},
           {SIGRTMIN, "Real-time signal 0"},
           {SIGRTMIN + 3, "Real-time signal 3"},
           {SIGRTMAX, "Real-time signal 30"},
           {0, "Unknown signal 0"},
           {32, "Unknown signal 32"},
           {33, "Unknown signal 33"},
           {65, "Unknown signal 65"},
       }) {
    EXPECT_EQ(SignalDescription(c.signal), c.text) << c.signal;
  }
}

TEST(SignalDescriptionTest, EveryNumberAgreesWithStrsignal) {
  // Unit tests run with the C locale, so strsignal() gives glibc's English text to compare against
  // (tests/kill/kill_test.cc checks the German ones through kill -t).
  for (int n = 0; n <= MaxSignal(); ++n) EXPECT_EQ(SignalDescription(n), strsignal(n)) << n;
}

}  // namespace
}  // namespace uucore
