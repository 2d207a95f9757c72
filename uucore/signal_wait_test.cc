#include "uucore/signal_wait.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <limits>

#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "uucore/duration.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

using ::coreutils_testing::StatusIs;

sigset_t CurrentMask() {
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, nullptr, &mask);
  return mask;
}

bool IsBlocked(int sig) {
  const sigset_t mask = CurrentMask();
  return sigismember(&mask, sig) == 1;
}

// The exit status of a forked child that runs `body` and exits with its result; -1 if it did not exit normally.
template <typename F>
int InChild(F body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ScopedSignalBlockTest, BlocksForItsLifetimeAndRestoresTheOldMask) {
  ASSERT_FALSE(IsBlocked(SIGUSR1));
  {
    ScopedSignalBlock block({SIGUSR1, SIGUSR2});
    EXPECT_TRUE(IsBlocked(SIGUSR1));
    EXPECT_TRUE(IsBlocked(SIGUSR2));
    EXPECT_EQ(sigismember(&block.set(), SIGUSR1), 1);
    EXPECT_EQ(sigismember(&block.old_mask(), SIGUSR1), 0);
  }
  EXPECT_FALSE(IsBlocked(SIGUSR1));
  EXPECT_FALSE(IsBlocked(SIGUSR2));
}

TEST(ScopedSignalBlockTest, KeepsWhatWasBlockedBefore) {
  ScopedSignalBlock outer({SIGUSR1});
  {
    ScopedSignalBlock inner({SIGUSR1, SIGUSR2});
    EXPECT_EQ(sigismember(&inner.old_mask(), SIGUSR1), 1);
  }
  EXPECT_TRUE(IsBlocked(SIGUSR1));  // Not SIG_UNBLOCK of the inner set: the outer block still holds.
  EXPECT_FALSE(IsBlocked(SIGUSR2));
}

TEST(ScopedSignalBlockTest, KeepBlockedLeavesTheMaskAtDestruction) {
  const sigset_t before = CurrentMask();
  {
    ScopedSignalBlock block({SIGUSR2});
    block.KeepBlocked();
  }
  EXPECT_TRUE(IsBlocked(SIGUSR2));
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

TEST(ScopedSignalBlockTest, TakesASigset) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGHUP);
  {
    ScopedSignalBlock block(set);
    EXPECT_TRUE(IsBlocked(SIGHUP));
  }
  EXPECT_FALSE(IsBlocked(SIGHUP));
}

TEST(DeadlineTest, NeverIsLaterThanAnyTime) {
  EXPECT_LT(Deadline::In(absl::Hours(1e6)), Deadline::Never());
  EXPECT_TRUE(Deadline::Never().is_never());
  EXPECT_EQ(Deadline::Never().Remaining(), absl::InfiniteDuration());
  EXPECT_FALSE(Deadline::Never().HasPassed());
}

TEST(DeadlineTest, InfiniteOrOverflowingDurationsNeverPass) {
  EXPECT_TRUE(Deadline::In(absl::InfiniteDuration()).is_never());
  EXPECT_TRUE(Deadline::In(absl::Seconds(std::numeric_limits<int64_t>::max())).is_never());
}

TEST(DeadlineTest, ZeroAndNegativeHaveAlreadyPassed) {
  EXPECT_TRUE(Deadline::In(absl::ZeroDuration()).HasPassed());
  EXPECT_TRUE(Deadline::In(absl::Seconds(-5)).HasPassed());
  EXPECT_EQ(Deadline::In(absl::Seconds(-5)).Remaining(), absl::ZeroDuration());
}

TEST(DeadlineTest, RemainingCountsDown) {
  const Deadline d = Deadline::In(absl::Seconds(100));
  const absl::Duration first = d.Remaining();
  EXPECT_LE(first, absl::Seconds(100));
  EXPECT_GT(first, absl::Seconds(50));
  EXPECT_LE(d.Remaining(), first);
  EXPECT_FALSE(d.HasPassed());
}

TEST(DeadlineTest, EarliestPicksTheFirst) {
  const Deadline soon = Deadline::In(absl::Seconds(1)), later = Deadline::In(absl::Seconds(5));
  EXPECT_EQ(Deadline::Earliest({later, soon, Deadline::Never()}), soon);
  EXPECT_EQ(Deadline::Earliest({}), Deadline::Never());
}

TEST(WaitForSignalTest, ReturnsZeroWhenTheDeadlinePasses) {
  ScopedSignalBlock block({SIGUSR1});
  const absl::Duration start = MonotonicNow();
  absl::StatusOr<int> sig = WaitForSignal(block.set(), Deadline::In(absl::Milliseconds(100)));
  const absl::Duration waited = MonotonicNow() - start;
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(*sig, 0);
  EXPECT_GE(waited, absl::Milliseconds(100));
  EXPECT_LT(waited, absl::Seconds(5));
}

TEST(WaitForSignalTest, ReturnsAPendingSignalAtOnceWithItsInfo) {
  ScopedSignalBlock block({SIGUSR1, SIGUSR2});
  raise(SIGUSR2);
  siginfo_t info;
  const absl::Duration start = MonotonicNow();
  absl::StatusOr<int> sig = WaitForSignal(block.set(), Deadline::In(absl::Seconds(30)), &info);
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(*sig, SIGUSR2);
  EXPECT_EQ(info.si_signo, SIGUSR2);
  EXPECT_EQ(info.si_pid, getpid());
  EXPECT_LT(MonotonicNow() - start, absl::Seconds(5));
  // Dequeued: nothing is pending any more.
  EXPECT_EQ(*WaitForSignal(block.set(), Deadline::In(absl::ZeroDuration())), 0);
}

TEST(WaitForSignalTest, APendingSignalWinsOverAPassedDeadline) {
  ScopedSignalBlock block({SIGUSR1});
  raise(SIGUSR1);
  absl::StatusOr<int> sig = WaitForSignal(block.set(), Deadline::In(absl::Seconds(-1)));
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(*sig, SIGUSR1);
}

TEST(WaitForSignalTest, WaitsForTheEarliestOfSeveralDeadlines) {
  ScopedSignalBlock block({SIGUSR1});
  const absl::Duration start = MonotonicNow();
  const Deadline deadlines[] = {Deadline::Never(), Deadline::In(absl::Seconds(60)),
                                Deadline::In(absl::Milliseconds(50))};
  absl::StatusOr<int> sig = WaitForSignal(block.set(), deadlines);
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(*sig, 0);
  EXPECT_LT(MonotonicNow() - start, absl::Seconds(30));
}

TEST(WaitForSignalTest, AnEmptySetIsAnError) {
  sigset_t none;
  sigemptyset(&none);
  EXPECT_THAT(WaitForSignal(none, Deadline::In(absl::Seconds(1))),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

// A handled signal outside the set interrupts sigtimedwait (EINTR, even with SA_RESTART); the wait goes on until the
// same deadline, neither returning early nor starting the full time again.
TEST(WaitForSignalTest, AbsorbsInterruptionsByOtherHandledSignals) {
  const int status = InChild([] {
    if (!CatchSignal(SIGUSR2).ok()) return 10;
    ScopedSignalBlock block({SIGUSR1});
    const pid_t parent = getpid();
    if (fork() == 0) {  // Interrupt the wait three times.
      for (int i = 0; i < 3; ++i) {
        usleep(50000);
        kill(parent, SIGUSR2);
      }
      _exit(0);
    }
    const absl::Duration start = MonotonicNow();
    absl::StatusOr<int> sig = WaitForSignal(block.set(), Deadline::In(absl::Milliseconds(400)));
    const absl::Duration waited = MonotonicNow() - start;
    if (!sig.ok() || *sig != 0) return 11;
    if (waited < absl::Milliseconds(400)) return 12;
    if (waited > absl::Seconds(5)) return 13;
    return 0;
  });
  EXPECT_EQ(status, 0);
}

// Stopped and continued, a waiter still wakes at its original deadline: stopped time counts, nothing restarts.
template <typename Wait>
void ExpectDeadlineHoldsAcrossStop(Wait wait) {
  const absl::Duration start = MonotonicNow();
  const pid_t pid = fork();
  if (pid == 0) _exit(wait(Deadline::In(absl::Milliseconds(600))));
  usleep(100000);
  kill(pid, SIGSTOP);
  usleep(400000);
  kill(pid, SIGCONT);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  const absl::Duration took = MonotonicNow() - start;
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_GE(took, absl::Milliseconds(600));
  EXPECT_LT(took, absl::Milliseconds(1000)) << "the wait restarted after SIGCONT instead of keeping its deadline";
}

TEST(WaitForSignalTest, KeepsItsDeadlineAcrossStopAndContinue) {
  ExpectDeadlineHoldsAcrossStop([](Deadline deadline) {
    ScopedSignalBlock block({SIGUSR1});
    absl::StatusOr<int> sig = WaitForSignal(block.set(), deadline);
    return sig.ok() && *sig == 0 && deadline.HasPassed() ? 0 : 1;
  });
}

TEST(SleepUntilTest, SleepsUntilTheDeadline) {
  const absl::Duration start = MonotonicNow();
  EXPECT_TRUE(SleepUntil(Deadline::In(absl::Milliseconds(100))).ok());
  const absl::Duration slept = MonotonicNow() - start;
  EXPECT_GE(slept, absl::Milliseconds(100));
  EXPECT_LT(slept, absl::Seconds(5));
}

TEST(SleepUntilTest, APassedDeadlineReturnsAtOnce) {
  const absl::Duration start = MonotonicNow();
  EXPECT_TRUE(SleepUntil(Deadline::In(absl::Seconds(-3))).ok());
  EXPECT_LT(MonotonicNow() - start, absl::Seconds(2));
}

TEST(SleepUntilTest, KeepsItsDeadlineAcrossStopAndContinue) {
  ExpectDeadlineHoldsAcrossStop(
      [](Deadline deadline) { return SleepUntil(deadline).ok() && deadline.HasPassed() ? 0 : 1; });
}

TEST(SleepUntilTest, AbsorbsInterruptionsByHandledSignals) {
  const int status = InChild([] {
    if (!CatchSignal(SIGUSR2).ok()) return 10;
    const pid_t parent = getpid();
    if (fork() == 0) {
      usleep(50000);
      kill(parent, SIGUSR2);
      _exit(0);
    }
    const Deadline deadline = Deadline::In(absl::Milliseconds(300));
    if (!SleepUntil(deadline).ok()) return 11;
    return deadline.HasPassed() ? 0 : 12;
  });
  EXPECT_EQ(status, 0);
}

TEST(SleepUntilTest, NeverSleepsUntilASignalEndsTheProcess) {
  const pid_t pid = fork();
  if (pid == 0) {
    (void)SleepUntil(Deadline::Never());
    _exit(1);  // Never reached: SleepUntil(Never()) does not return.
  }
  usleep(100000);
  kill(pid, SIGTERM);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}

TEST(CatchSignalTest, ReplacesIgnoreAndReportsTheOldAction) {
  const int status = InChild([] {
    signal(SIGCHLD, SIG_IGN);
    if (!IsIgnored(SIGCHLD)) return 10;
    struct sigaction old;
    if (!CatchSignal(SIGCHLD, &old).ok()) return 11;
    if (old.sa_handler != SIG_IGN) return 12;
    return IsIgnored(SIGCHLD) ? 13 : 0;
  });
  EXPECT_EQ(status, 0);
}

TEST(CatchSignalTest, RejectsUncatchableSignals) {
  EXPECT_THAT(CatchSignal(SIGKILL), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(CatchSignal(SIGSTOP), StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(IsIgnoredTest, FollowsTheDisposition) {
  EXPECT_FALSE(IsIgnored(SIGUSR1));
  EXPECT_FALSE(IsIgnored(0));
  EXPECT_FALSE(IsIgnored(99999));
}

// --- DeadlineTimer -------------------------------------------------------------------------------------------------

// When the kernel's timer of `timer` fires, from now (zero: not armed).
absl::Duration KernelTimerLeft(const DeadlineTimer& timer) {
  itimerspec now;
  EXPECT_EQ(timerfd_gettime(timer.fd(), &now), 0);
  EXPECT_EQ(now.it_interval.tv_sec, 0);  // One shot.
  EXPECT_EQ(now.it_interval.tv_nsec, 0);
  return absl::DurationFromTimespec(now.it_value);
}

bool Readable(const DeadlineTimer& timer, int timeout_ms) {
  pollfd p = {timer.fd(), POLLIN, 0};
  return poll(&p, 1, timeout_ms) == 1;
}

TEST(DeadlineTimerTest, ArmsTheKernelsTimerAtTheDeadlineItself) {
  // The point of it: a timer at the deadline, where ppoll's own timeout of 100 s would be 100 ms late.
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  EXPECT_EQ(KernelTimerLeft(*timer), absl::ZeroDuration());
  const Deadline deadline = Deadline::In(absl::Seconds(100));
  ASSERT_TRUE(timer->Arm(deadline).ok());
  const absl::Duration remaining = deadline.Remaining();  // Read first: the kernel's figure, read after, is smaller.
  const absl::Duration left = KernelTimerLeft(*timer);
  EXPECT_LE(left, remaining);
  EXPECT_GT(left, remaining - absl::Seconds(10));  // Generous: this process may be descheduled between the reads.
  EXPECT_FALSE(Readable(*timer, 0));
}

TEST(DeadlineTimerTest, FiresNotBeforeTheDeadline) {
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  const Deadline deadline = Deadline::In(absl::Milliseconds(50));
  ASSERT_TRUE(timer->Arm(deadline).ok());
  ASSERT_TRUE(Readable(*timer, -1));
  EXPECT_TRUE(deadline.HasPassed());
  timer->Consume();
  EXPECT_FALSE(Readable(*timer, 0));
}

TEST(DeadlineTimerTest, APassedDeadlineFiresAtOnce) {
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::ZeroDuration())).ok());
  EXPECT_TRUE(Readable(*timer, 1000));  // At once; the bound only spares a slow virtual machine's timer interrupt.
}

TEST(DeadlineTimerTest, ALaterDeadlineKeepsTheEarlierTimeAndAnEarlierOneMovesIt) {
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::Seconds(100))).ok());
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::Seconds(200))).ok());
  EXPECT_LE(KernelTimerLeft(*timer), absl::Seconds(100));  // No system call: it fires at 100 s and is aimed again.
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::Seconds(50))).ok());
  EXPECT_LE(KernelTimerLeft(*timer), absl::Seconds(50));
  ASSERT_TRUE(timer->Arm(Deadline::Never()).ok());
  EXPECT_GT(KernelTimerLeft(*timer), absl::Seconds(40));  // Never() leaves it as it is.
}

TEST(DeadlineTimerTest, AfterFiringTheNextArmAimsAgain) {
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::Milliseconds(10))).ok());
  ASSERT_TRUE(Readable(*timer, -1));
  timer->Consume();
  // A later deadline than the one that fired: -i's, moved on by output meanwhile.
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::Seconds(100))).ok());
  EXPECT_GT(KernelTimerLeft(*timer), absl::Seconds(90));
  EXPECT_FALSE(Readable(*timer, 0));
}

TEST(DeadlineTimerTest, ConsumeWithoutAnExpiryKeepsTheTimer) {
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::Seconds(100))).ok());
  timer->Consume();  // Nothing expired: still armed, so a later deadline must not move it.
  ASSERT_TRUE(timer->Arm(Deadline::In(absl::Seconds(200))).ok());
  EXPECT_LE(KernelTimerLeft(*timer), absl::Seconds(100));
}

TEST(DeadlineTimerTest, ADeadlineBeyondTheLongestKernelWaitIsAimedAtInSteps) {
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  ASSERT_TRUE(timer->Arm(Deadline::In(kMaxKernelWait * 100)).ok());
  const absl::Duration left = KernelTimerLeft(*timer);
  EXPECT_LE(left, kMaxKernelWait);
  EXPECT_GT(left, kMaxKernelWait - absl::Seconds(60));
}

TEST(DeadlineTimerTest, IsClosedByItsDestructorAndMovesItsDescriptor) {
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_TRUE(timer.ok()) << timer.status();
  const int fd = timer->fd();
  EXPECT_NE(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
  {
    DeadlineTimer moved = *std::move(timer);
    EXPECT_EQ(moved.fd(), fd);
    EXPECT_EQ(timer->fd(), -1);
  }
  EXPECT_EQ(fcntl(fd, F_GETFD), -1);
  DeadlineTimer empty;
  EXPECT_THAT(empty.Arm(Deadline::In(absl::Seconds(1))), StatusIs(absl::StatusCode::kFailedPrecondition));
}

}  // namespace
}  // namespace uucore
