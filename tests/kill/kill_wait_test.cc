// kill --wait[=DURATION], ours alone (neither GNU's nor util-linux's kill has it): kill returns once every PID target
// has exited, or with 124 once DURATION has passed; with --timeout, the wait follows the last follow-up signal. Each
// case checks what the targets, children of this test, did by the time kill returned: a target kill has waited for
// has exited, so waitpid(WNOHANG) reaps it at once. Time limits are generous (0.3 s against processes that would
// run for ever), and no case asserts how long anything took.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/kill/target_process.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

const char kTry[] = "Try 'kill --help' for more information.\n";

std::string Usage(const std::string& message) { return "kill: " + message + "\n" + kTry; }
std::string Str(int n) { return std::to_string(n); }

// A child that exits by itself (status 3) after `ms` milliseconds, untouched by any signal.
TargetProcess ExitingChild(int ms) {
  TargetProcess child;
  child.pid = fork();
  if (child.pid == 0) {
    usleep(ms * 1000);
    _exit(3);
  }
  return child;
}

// Stop()s a process when the case ends, however it ends.
struct StopsWhenDone {
  TargetProcess* process;
  ~StopsWhenDone() { Stop(process); }
};

TEST(KillWaitTest, ReturnsOnceTheTargetHasExited) {
  TargetProcess target = StartTarget();
  ASSERT_GT(target.pid, 0);
  ExpectCase({"TERM, then the wait", {"kill", "--wait", Str(target.pid)}, 0, "", ""});
  int signal = -1;
  EXPECT_TRUE(HasEnded(&target, &signal));  // Already a zombie when kill returned.
  EXPECT_EQ(signal, SIGTERM);
  Stop(&target);
}

TEST(KillWaitTest, SignalZeroOnlyWaits) {
  TargetProcess child = ExitingChild(300);
  ASSERT_GT(child.pid, 0);
  ExpectCase({"-s 0 --wait", {"kill", "-s", "0", "--wait", Str(child.pid)}, 0, "", ""});
  int signal = -1;
  EXPECT_TRUE(HasEnded(&child, &signal));
  EXPECT_EQ(signal, 0);  // It exited by itself: not signalled.
  Stop(&child);
}

TEST(KillWaitTest, DurationRunsOutWith124) {
  TargetProcess target = StartTarget({"--ignore", Str(SIGTERM)});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"--wait=0.3 on a target that ignores TERM", {"kill", "--wait=0.3", Str(target.pid)}, 124, "", ""});
  EXPECT_FALSE(HasEnded(&target));
  ExpectCase({"-s 0 --wait=DURATION", {"kill", "-0", "--wait=300ms", Str(target.pid)}, 1, "",
              Usage("invalid time interval '300ms'")});
  ExpectCase({"-s 0 --wait=0", {"kill", "-0", "--wait=0", Str(target.pid)}, 124, "", ""});
  ExpectCase({"a suffix", {"kill", "-0", "--wait=0.005m", Str(target.pid)}, 124, "", ""});
  EXPECT_FALSE(HasEnded(&target));
  Stop(&target);
}

// The deadline is a point in time, not the time that was left when kill was stopped: kill stopped in its wait and
// continued 2 s after its deadline has passed returns with 124 at once (within 1 s, a generous bound). Were the time
// left restarted at the continue, kill would wait 2 s more.
TEST(KillWaitTest, TheDeadlineHoldsAcrossAStopAndContinue) {
  TargetProcess target = StartTarget();
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid), binary = BinaryPath();
  int out[2];
  ASSERT_EQ(pipe2(out, O_CLOEXEC), 0);
  std::vector<const char*> argv = {"kill", "--verbose", "-s", "0", "--wait=2", pid.c_str(), nullptr};
  const pid_t kill_pid = fork();
  if (kill_pid == 0) {
    dup2(out[1], 1);
    execv(binary.c_str(), const_cast<char**>(argv.data()));
    _exit(127);
  }
  close(out[1]);
  ASSERT_GT(kill_pid, 0);
  TargetProcess killer = {kill_pid, out[0]};
  const StopsWhenDone stops_killer{&killer}, stops_target{&target};  // Nothing left behind, whatever fails.
  // kill writes its line once its deadline is set, just before the wait.
  ASSERT_EQ(NextLine(killer), "sending signal 0 to pid " + pid);
  ASSERT_EQ(kill(kill_pid, SIGSTOP), 0);
  int status = 0;
  ASSERT_EQ(waitpid(kill_pid, &status, WUNTRACED), kill_pid);
  ASSERT_TRUE(WIFSTOPPED(status));
  timespec stopped_for = {4, 0};  // The deadline passes 2 s into the stop.
  while (nanosleep(&stopped_for, &stopped_for) != 0) {  // EINTR: sleep what is left.
  }
  const double continued = Now();
  ASSERT_EQ(kill(kill_pid, SIGCONT), 0);
  ASSERT_TRUE(AwaitEnd(kill_pid, &status));
  killer.pid = -1;
  const double late = Now() - continued;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 124) << status;
  EXPECT_LT(late, 1.0) << "returned " << late << " s after SIGCONT";
  EXPECT_FALSE(HasEnded(&target));
}

TEST(KillWaitTest, TimeoutThenWaitIsACleanStopInOneCommand) {
  TargetProcess target = StartTarget({"--ignore", Str(SIGTERM)});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"--timeout MS KILL --wait", {"kill", "--timeout", "100", "KILL", "--wait", Str(target.pid)}, 0, "", ""});
  int signal = -1;
  EXPECT_TRUE(HasEnded(&target, &signal));
  EXPECT_EQ(signal, SIGKILL);
  Stop(&target);
}

TEST(KillWaitTest, TheWaitFollowsTheLastFollowUpSignal) {
  TargetProcess target = StartTarget({"--ignore", Str(SIGTERM), "--ignore", Str(SIGHUP)});
  ASSERT_GT(target.pid, 0);
  const std::string pid = Str(target.pid);
  ExpectCase({"HUP ignored too: 124", {"kill", "--verbose", "--timeout", "50", "HUP", "--wait=0.3", pid}, 124,
              "sending signal 15 to pid " + pid + "\ntimeout, sending signal 1 to pid " + pid + "\n", ""});
  EXPECT_FALSE(HasEnded(&target));
  Stop(&target);
}

TEST(KillWaitTest, EveryTargetInOneWait) {
  TargetProcess a = StartTarget(), b = StartTarget({"--ignore", Str(SIGTERM)}), c = ExitingChild(10000);
  ASSERT_GT(a.pid, 0);
  ASSERT_GT(b.pid, 0);
  ASSERT_GT(c.pid, 0);
  ExpectCase({"one still running: 124", {"kill", "--wait=0.3", Str(a.pid), Str(b.pid)}, 124, "", ""});
  EXPECT_TRUE(HasEnded(&a));
  EXPECT_FALSE(HasEnded(&b));
  ExpectCase({"all gone: 0", {"kill", "-KILL", "--wait", Str(b.pid), "--", Str(c.pid)}, 0, "", ""});
  int signal = -1;
  EXPECT_TRUE(HasEnded(&b, &signal));
  EXPECT_EQ(signal, SIGKILL);
  EXPECT_TRUE(HasEnded(&c, &signal));
  EXPECT_EQ(signal, SIGKILL);
  for (TargetProcess* target : {&a, &b, &c}) Stop(target);
}

TEST(KillWaitTest, AZombieHasExited) {
  TargetProcess child = ExitingChild(0);
  ASSERT_GT(child.pid, 0);
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, child.pid, &info, WEXITED | WNOWAIT), 0);  // A zombie now, not reaped.
  ExpectCase({"a zombie", {"kill", "-s", "0", "--wait", Str(child.pid)}, 0, "", ""});
  Stop(&child);
}

// A target that could not be signalled is reported (status 1) and not waited for; the others still are. 124 wins
// over 1: a target still running is what a script needs to know first.
TEST(KillWaitTest, ExitStatusWhenASignalCouldNotBeSent) {
  TargetProcess gone = StartTarget();
  ASSERT_GT(gone.pid, 0);
  const std::string gone_pid = Str(gone.pid);
  Stop(&gone);
  TargetProcess target = StartTarget();
  ASSERT_GT(target.pid, 0);
  ExpectCase({"1: one gone, the other waited for", {"kill", "--wait", gone_pid, Str(target.pid), "x"}, 1, "",
              "kill: '" + gone_pid + "': No such process\nkill: 'x': invalid process id\n"});
  EXPECT_TRUE(HasEnded(&target));
  target = StartTarget({"--ignore", Str(SIGTERM)});
  ASSERT_GT(target.pid, 0);
  ExpectCase({"124: one gone, the other still running", {"kill", "--wait=0.3", gone_pid, Str(target.pid)}, 124, "",
              "kill: '" + gone_pid + "': No such process\n"});
  EXPECT_FALSE(HasEnded(&target));
  Stop(&target);
}

// --wait holds a pidfd per target from before the signal, within the hard limit of open files (kill raises its soft
// limit to it); beyond it nothing is sent.
TEST(KillWaitTest, AsManyTargetsAsTheHardLimitOfOpenFilesHolds) {
  std::vector<TargetProcess> targets = StartTargets(40);
  ASSERT_EQ(targets.size(), 40u);
  const std::vector<std::string> argv = WithPids({"kill", "--wait"}, targets);
  ExpectCase({"hard limit 32: nothing sent", argv, 1, "",
              "kill: --wait: cannot open a pidfd for each of 40 targets within the limit of 32 open files: "
              "nothing sent\n"},
             OpenFilesLimited(16, 32));
  for (TargetProcess& target : targets) EXPECT_FALSE(HasEnded(&target));
  ExpectCase({"soft limit 16, hard 64: all waited for", argv, 0, "", ""}, OpenFilesLimited(16, 64));
  for (TargetProcess& target : targets) {
    int signal = -1;
    EXPECT_TRUE(HasEnded(&target, &signal)) << target.pid;  // Already a zombie when kill returned.
    EXPECT_EQ(signal, SIGTERM);
    Stop(&target);
  }
}

TEST(KillWaitTest, WithPidAndPidfdInodeAndQueue) {
  TargetProcess target = StartTarget({"--catch", Str(SIGUSR1), "--exit-on", Str(SIGUSR1)});
  ASSERT_GT(target.pid, 0);
  const unsigned long long inode = PidfdInodeOf(target.pid);  // NOLINT(runtime/int)
  const std::string operand = inode == 0 ? Str(target.pid) : Str(target.pid) + ":" + std::to_string(inode);
  ExpectCase({"-q, PID:PIDFD_INODE", {"kill", "-q", "5", "-USR1", "--wait", operand}, 0, "", ""});
  EXPECT_EQ(NextLine(target), Str(SIGUSR1) + " SI_QUEUE 5");
  int signal = -1;
  EXPECT_TRUE(HasEnded(&target, &signal));
  EXPECT_EQ(signal, 0);
  Stop(&target);
}

// A group has no pidfd; waiting for one would mean polling /proc. So --wait with 0, -1 or -N is a usage error, and
// nothing is sent to any target.
TEST(KillWaitTest, AGroupCannotBeWaitedFor) {
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  const std::string why = ": a group of processes has no pidfd, and waiting for one would mean polling";
  for (const Case& c : std::vector<Case>{
           {"every process", {"kill", "-s", "0", "--wait", "-1"}, 1, "", Usage("--wait: cannot wait for '-1'" + why)},
           {"a group after --", {"kill", "--wait", "--", "-" + pid}, 1, "",
            Usage("--wait: cannot wait for '-" + pid + "'" + why)},
           {"--wait names it before --timeout", {"kill", "--timeout", "1", "KILL", "--wait", "--", "-" + pid}, 1, "",
            Usage("--wait: cannot wait for '-" + pid + "'" + why)},
       }) {
    ExpectCase(c);
  }
  // Should the check ever go, the TERM to `0` reaches the case's own new group alone, and the case fails.
  ExpectCase({"our group", {"kill", "--wait", "0"}, 1, "", Usage("--wait: cannot wait for '0'" + why)},
             InAGroupOfItsOwn());
  TargetProcess target = StartTarget();
  ASSERT_GT(target.pid, 0);
  ExpectCase({"nothing sent to the others", {"kill", "--wait", Str(target.pid), "0"}, 1, "",
              Usage("--wait: cannot wait for '0'" + why)},
             InAGroupOfItsOwn());
  EXPECT_FALSE(HasEnded(&target));
  Stop(&target);
}

TEST(KillWaitTest, BadDurations) {
  const std::string pid = FreePidOperand();  // Not PID 1: a case that went wrong would signal it.
  for (const Case& c : std::vector<Case>{
           {"not a number", {"kill", "--wait=x", pid}, 1, "", Usage("invalid time interval 'x'")},
           {"empty", {"kill", "--wait=", pid}, 1, "", Usage("invalid time interval ''")},
           {"negative", {"kill", "--wait=-1", pid}, 1, "", Usage("invalid time interval '-1'")},
           {"trailing blank", {"kill", "--wait=1 ", pid}, 1, "", Usage("invalid time interval '1 '")},
           {"abbreviated", {"kill", "--wa=x", pid}, 1, "", Usage("invalid time interval 'x'")},
           {"no PID", {"kill", "--wait=1"}, 1, "", Usage("no process ID specified")},
       }) {
    ExpectCase(c);
  }
}

TEST(KillWaitTest, InfiniteDurationsAreAccepted) {
  for (const char* wait : {"--wait=inf", "--wait=1e999999d", "--wait= 0x10"}) {
    TargetProcess target = StartTarget();
    ASSERT_GT(target.pid, 0);
    ExpectCase({wait, {"kill", wait, Str(target.pid)}, 0, "", ""});
    EXPECT_TRUE(HasEnded(&target));
    Stop(&target);
  }
}

}  // namespace
}  // namespace coreutils_testing
