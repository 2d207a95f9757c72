// timeout: what GNU changed after 9.1, up to 9.11, with the expected output stated here (GNU 9.1 at /usr/bin is no
// reference for these; each was compared by hand with GNU 9.10 from Debian unstable): durations too small to
// represent, -v -s 0, the parent-death signal. Signals passed on are in timeout_test.cc
// (PassesOnEveryTerminatingSignal), the program name in messages in its UsageErrors.
#include <signal.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

constexpr char kTry[] = "Try 'timeout --help' for more information.\n";

struct Expect {
  std::string name;
  std::vector<std::string> argv;
  int status;
  std::string out, err;
  double max_seconds = 5;  // Far below the 10 s the command would run.
};

void Check(const Expect& c, const Result& r) {
  EXPECT_FALSE(r.hung) << c.name;
  EXPECT_EQ(r.status, c.status) << c.name;
  EXPECT_EQ(r.out, c.out) << c.name;
  EXPECT_EQ(r.err, c.err) << c.name;
  EXPECT_LT(r.seconds, c.max_seconds) << c.name;
}

void Check(const Expect& c) { Check(c, Invoke(c.argv)); }

TEST(TimeoutGnu911Test, ADurationTooSmallToRepresentStillTimesOut) {
  for (const char* tiny : {"1e-400", "1e-10000", "1e-18172487393827593258", "0x1p-1080", " +1e-10000", "1e-10000d"}) {
    Check({std::string("timeout ") + tiny, {"timeout", tiny, "sleep", "10"}, 124, "", ""});
    Check({std::string("-k ") + tiny, {"timeout", "-k", tiny, "1", "sh", "-c", "trap '' TERM; sleep 10"}, 137, "",
           ""});
  }
}

TEST(TimeoutGnu911Test, ZeroWrittenAnyWayStillMeansNoTimeout) {
  for (const char* zero : {"0e-10000", "-0", "0x0p0"}) {
    Check({std::string("timeout ") + zero, {"timeout", "--", zero, "sh", "-c", "sleep 0.3; exit 3"}, 3, "", ""});
  }
}

TEST(TimeoutGnu911Test, ANegativeDurationIsInvalidHoweverSmall) {
  for (const char* negative : {"-1e-10000", " -1e-10000", "-1e-400"}) {
    Check({std::string("timeout ") + negative, {"timeout", "--", negative, "sleep", "10"}, 125, "",
           std::string("timeout: invalid time interval '") + negative + "'\n" + kTry});
  }
}

TEST(TimeoutGnu911Test, VerboseNamesSignalZeroAndUnnamedNumbersByNumber) {
  Check({"-s 0 is '0', not EXIT", {"timeout", "-v", "-s", "0", "0.1", "sleep", "0.5"}, 124, "",
         "timeout: sending signal 0 to command 'sleep'\n"});
  Check({"-s EXIT is 0 too", {"timeout", "-v", "-s", "EXIT", "0.1", "sleep", "0.5"}, 124, "",
         "timeout: sending signal 0 to command 'sleep'\n"});
}

// If timeout dies, even of SIGKILL, the command gets the -s signal (PR_SET_PDEATHSIG). The command notes what it got
// in its trap; its own `sleep` is killed by the trap so that nothing holds the runner's stdout.
class ParentDeathTest : public testing::Test {
 protected:
  // Starts `timeout ARGS sh -c TRAP-AND-WAIT` in the background from sh, SIGKILLs timeout once the command has set
  // its trap (it creates a file then; a fixed 0.3 s was too short for a loaded ASan run), and waits for the command's
  // trap to report (on stderr: stdout has timeout's status). The trap creates $r.got once it has written its line;
  // sh waits for that, up to 10 s (a fixed 0.5 s was too short under load: as PID 1, sh's exit killed the command
  // before its trap had run, and stderr was empty), then exits.
  std::string Script(const std::string& timeout_args, const std::string& trapped) {
    return "r=$(mktemp -u); \"$0\" timeout " + timeout_args + " sh -c \"trap 'echo got " + trapped +
           " >&2; : > $r.got; kill \\$! 2>/dev/null; exit 0' " + trapped + "; : > $r; sleep 10 & wait\" & " +
           "i=0; until [ -e $r ] || [ $i -ge 200 ]; do sleep 0.05; i=$((i+1)); done; rm -f $r; " +
           "kill -KILL $!; { wait $!; } 2>/dev/null; echo timeout=$?; " +
           "i=0; until [ -e $r.got ] || [ $i -ge 200 ]; do sleep 0.05; i=$((i+1)); done; rm -f $r.got";
  }
};

TEST_F(ParentDeathTest, TheCommandGetsTheSignalWhenTimeoutIsKilled) {
  Check({"TERM by default", {"sh", "-c", Script("10", "TERM"), BinaryPath()}, 0, "timeout=137\n", "got TERM\n"},
        RunProgram("/bin/sh", {"sh", "-c", Script("10", "TERM"), BinaryPath()}));
  Check({"the -s signal", {"sh"}, 0, "timeout=137\n", "got USR1\n"},
        RunProgram("/bin/sh", {"sh", "-c", Script("-s USR1 10", "USR1"), BinaryPath()}));
}

TEST_F(ParentDeathTest, WorksWhenTimeoutsParentIsPid1AndUnderASubreaper) {
  if (RunProgram("/usr/bin/unshare", {"unshare", "--pid", "--fork", "--mount-proc", "true"}).status != 0) {
    GTEST_SKIP() << "unshare --pid needs privileges here";
  }
  // sh is PID 1 of a new namespace and timeout's parent: the orphaned command is reparented to it, not to "1" of
  // the outer world, and still gets TERM.
  Check({"timeout's parent is PID 1", {"unshare"}, 0, "timeout=137\n", "got TERM\n"},
        RunProgram("/usr/bin/unshare",
                   {"unshare", "--pid", "--fork", "--mount-proc", "/bin/sh", "-c", Script("10", "TERM"), BinaryPath()}));
  // An outer `timeout --tree` is a subreaper: the orphaned command goes to it.
  Check({"under a subreaper", {"timeout"}, 0, "timeout=137\n", "got TERM\n"},
        RunProgram(BinaryPath(), {"timeout", "--tree", "20", "/bin/sh", "-c", Script("10", "TERM"), BinaryPath()}));
}

TEST_F(ParentDeathTest, ACommandThatOutlivesNothingIsUntouched) {
  // timeout exiting normally (the command is done) signals nobody: the command's own child, which timeout never
  // started, keeps running and finishes its work.
  Check({"no signal after a normal exit", {"sh"}, 0, "done\n", ""},
        RunProgram("/bin/sh", {"sh", "-c", "\"$0\" timeout 10 sh -c '(sleep 0.3; echo done) &'; sleep 0.6", BinaryPath()}));
}

}  // namespace
}  // namespace coreutils_testing
