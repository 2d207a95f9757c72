#include "uucore/pidfd.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"

namespace uucore {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::IsOkAndHolds;
using ::coreutils_testing::StatusIs;
using ::testing::ElementsAre;

// A child that waits in pause() until killed; the caller reaps it. -1 if fork failed: every caller asserts > 0 before
// it signals the result, since kill(-1, SIGKILL) would reach every process it may signal.
pid_t Pauser() {
  const pid_t pid = fork();
  if (pid == 0) {
    for (;;) pause();
  }
  return pid;
}

void KillAndReap(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

// A pidfd of `pid`, or -1 when this kernel or a seccomp profile gives none (the caller skips).
int OpenOrSkip(pid_t pid) {
  const int pidfd = PidfdOpen(pid);
  if (pidfd < 0 && (errno == ENOSYS || errno == EPERM)) return -1;
  return pidfd;
}

// A Pauser() and a pidfd of it. Where this kernel gives no pidfd, the child is KILLed and reaped at once and pidfd
// is -1: the caller skips.
struct PausedChild {
  pid_t pid;
  int pidfd;
};
PausedChild PauserWithPidfd() {
  const pid_t pid = Pauser();
  if (pid <= 0) return {pid, -1};
  const int pidfd = OpenOrSkip(pid);
  if (pidfd < 0) KillAndReap(pid);
  return {pid, pidfd};
}

TEST(PidfdInodeTest, NamesOneProcessWhicheverPidfdAsksAndAnotherForAnotherProcess) {
  const int own = OpenOrSkip(getpid());
  if (own < 0) GTEST_SKIP() << "no pidfd_open here";
  absl::StatusOr<uint64_t> inode = PidfdInode(own);
  if (inode.status().code() == absl::StatusCode::kUnimplemented) GTEST_SKIP() << inode.status();
  ASSERT_THAT(inode, IsOk());
  const int again = PidfdOpen(getpid());
  ASSERT_GE(again, 0);
  EXPECT_THAT(PidfdInode(again), IsOkAndHolds(*inode));
  const pid_t child = Pauser();
  ASSERT_GT(child, 0);
  const int other = PidfdOpen(child);
  ASSERT_GE(other, 0);
  absl::StatusOr<uint64_t> other_inode = PidfdInode(other);
  ASSERT_THAT(other_inode, IsOk());
  EXPECT_NE(*other_inode, *inode);
  KillAndReap(child);
  for (int fd : {own, again, other}) close(fd);
}

TEST(PidfdInodeTest, ADescriptorOutsidePidfsHasNoProcessInode) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  EXPECT_THAT(PidfdInode(pipe_fds[0]),
              StatusIs(absl::StatusCode::kUnimplemented, "pidfd inodes need Linux 6.9 or later"));
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  EXPECT_THAT(PidfdInode(-1), StatusIs(absl::StatusCode::kFailedPrecondition));  // EBADF.
}

// QueueVia() to this very process, with the signal blocked: sigtimedwait then shows what a handler would see.
siginfo_t QueueToSelf(int pidfd, int value) {
  siginfo_t info;
  memset(&info, 0, sizeof(info));
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigset_t old;
  sigprocmask(SIG_BLOCK, &usr1, &old);
  EXPECT_EQ(QueueVia(getpid(), pidfd, SIGUSR1, value), 0) << strerror(errno);
  const timespec now = {0, 0};
  EXPECT_EQ(sigtimedwait(&usr1, &info, &now), SIGUSR1);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return info;
}

TEST(QueueViaTest, TheTargetSeesSiQueueTheValueAndTheSender) {
  for (int value : {42, -7, 0}) {
    const siginfo_t info = QueueToSelf(-1, value);
    EXPECT_EQ(info.si_code, SI_QUEUE) << value;
    EXPECT_EQ(info.si_value.sival_int, value);
    EXPECT_EQ(info.si_pid, getpid());
    EXPECT_EQ(info.si_uid, getuid());
  }
}

TEST(QueueViaTest, ThroughAPidfdToo) {
  const int own = OpenOrSkip(getpid());
  if (own < 0) GTEST_SKIP() << "no pidfd_open here";
  const siginfo_t info = QueueToSelf(own, 1234);
  EXPECT_EQ(info.si_code, SI_QUEUE);
  EXPECT_EQ(info.si_value.sival_int, 1234);
  close(own);
}

TEST(QueueViaTest, AGoneProcessIsEsrchAndSignalZeroOnlyChecks) {
  const pid_t child = Pauser();
  ASSERT_GT(child, 0);
  const int pidfd = OpenOrSkip(child);
  EXPECT_EQ(QueueVia(child, pidfd, 0, 1), 0);
  KillAndReap(child);
  errno = 0;
  EXPECT_EQ(QueueVia(child, pidfd, SIGUSR1, 1), -1);
  EXPECT_EQ(errno, ESRCH);
  if (pidfd >= 0) close(pidfd);
}

TEST(WaitForExitsTest, SaysWhichHaveExitedWhenTheDeadlinePasses) {
  const pid_t a = Pauser();
  ASSERT_GT(a, 0);
  const pid_t b = Pauser();
  if (b <= 0) KillAndReap(a);
  ASSERT_GT(b, 0);
  const int fd_a = OpenOrSkip(a), fd_b = OpenOrSkip(b);
  if (fd_a < 0 || fd_b < 0) {
    for (pid_t pid : {a, b}) KillAndReap(pid);
    GTEST_SKIP() << "no pidfd_open here";
  }
  const std::vector<int> fds = {fd_a, -1, fd_b};
  // A deadline already passed: polled once, nothing has exited; the skipped entry counts as exited.
  EXPECT_THAT(WaitForExits(fds, Deadline::In(absl::ZeroDuration())), IsOkAndHolds(ElementsAre(false, true, false)));
  kill(a, SIGKILL);
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, a, &info, WEXITED | WNOWAIT), 0);  // A zombie now, not reaped: it has exited.
  const Deadline soon = Deadline::In(absl::Milliseconds(100));
  EXPECT_THAT(WaitForExits(fds, soon), IsOkAndHolds(ElementsAre(true, true, false)));
  EXPECT_TRUE(soon.HasPassed());  // b is still running: it returned at the deadline, not before.
  kill(b, SIGKILL);
  EXPECT_THAT(WaitForExits(fds, Deadline::Never()), IsOkAndHolds(ElementsAre(true, true, true)));
  waitpid(a, nullptr, 0);
  waitpid(b, nullptr, 0);
  // Reaped ones stay exited.
  EXPECT_THAT(WaitForExits(fds, Deadline::Never()), IsOkAndHolds(ElementsAre(true, true, true)));
  close(fd_a);
  close(fd_b);
}

void Nothing(int) {}

TEST(WaitForExitsTest, AHandledSignalDoesNotEndTheWaitEarly) {
  const auto [child, pidfd] = PauserWithPidfd();
  ASSERT_GT(child, 0);
  if (pidfd < 0) GTEST_SKIP() << "no pidfd_open here";
  struct sigaction action = {}, old = {};
  action.sa_handler = Nothing;  // No SA_RESTART: ppoll returns EINTR.
  sigaction(SIGALRM, &action, &old);
  const itimerval every_10ms = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_REAL, &every_10ms, nullptr);
  const Deadline deadline = Deadline::In(absl::Milliseconds(200));
  EXPECT_THAT(WaitForExits({pidfd}, deadline), IsOkAndHolds(ElementsAre(false)));
  EXPECT_TRUE(deadline.HasPassed());
  const itimerval off = {};
  setitimer(ITIMER_REAL, &off, nullptr);
  sigaction(SIGALRM, &old, nullptr);
  KillAndReap(child);
  close(pidfd);
}

// A caller's timer (made before the caller opened its descriptors) serves one wait after another; one without a
// descriptor is an error for a wait with a deadline ahead, and not needed for one already passed.
TEST(WaitForExitsTest, WithTheCallersTimer) {
  const auto [child, pidfd] = PauserWithPidfd();
  ASSERT_GT(child, 0);
  if (pidfd < 0) GTEST_SKIP() << "no pidfd_open here";
  absl::StatusOr<DeadlineTimer> timer = DeadlineTimer::Create();
  ASSERT_THAT(timer, IsOk());
  for (absl::Duration wait : {absl::Milliseconds(50), absl::Milliseconds(20), absl::Milliseconds(80)}) {
    const Deadline deadline = Deadline::In(wait);
    EXPECT_THAT(WaitForExits({pidfd}, deadline, &*timer), IsOkAndHolds(ElementsAre(false))) << wait;
    EXPECT_TRUE(deadline.HasPassed()) << wait;
  }
  DeadlineTimer none;
  EXPECT_THAT(WaitForExits({pidfd}, Deadline::In(absl::Seconds(10)), &none),
              StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(WaitForExits({pidfd}, Deadline::In(absl::ZeroDuration()), &none), IsOkAndHolds(ElementsAre(false)));
  kill(child, SIGKILL);
  EXPECT_THAT(WaitForExits({pidfd}, Deadline::In(absl::Seconds(10)), &*timer), IsOkAndHolds(ElementsAre(true)));
  waitpid(child, nullptr, 0);
  close(pidfd);
}

TEST(WaitForExitsTest, AClosedDescriptorIsAnError) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  EXPECT_THAT(WaitForExits({pipe_fds[0]}, Deadline::Never()),
              StatusIs(absl::StatusCode::kInvalidArgument, "ppoll: a descriptor is not open"));
  EXPECT_THAT(WaitForExits({}, Deadline::Never()), IsOkAndHolds(ElementsAre()));
}

}  // namespace
}  // namespace uucore
