// uucore/deadline/deadline_test.cc -- one behaviour per case. Time bounds are generous (a loaded 2-core machine):
// "expires" waits up to kPatience, "does not expire" uses deadlines of an hour.
#include "uucore/deadline/deadline.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::StatusIs;

constexpr absl::Duration kPatience = absl::Seconds(30);
constexpr absl::Duration kLong = absl::Hours(1);

#if defined(__SANITIZE_THREAD__)
constexpr bool kTsan = true;
#else
constexpr bool kTsan = false;
#endif

int64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

// Polls until the token stops or kPatience passes; returns whether it stopped.
DeadlineOptions OnExpiry(std::function<void()> fn) {
  DeadlineOptions options;
  options.on_expiry = std::move(fn);
  return options;
}

DeadlineOptions Interrupt(absl::Duration repeat = absl::ZeroDuration()) {
  DeadlineOptions options;
  options.interrupt = true;
  options.interrupt_repeat = repeat;
  return options;
}

bool WaitForStop(const StopToken& token) {
  absl::Time give_up = absl::Now() + kPatience;
  while (!token.stop_requested()) {
    if (absl::Now() > give_up) return false;
    absl::SleepFor(absl::Microseconds(200));
  }
  return true;
}

int CountThreads() {
  int n = 0;
  DIR* dir = opendir("/proc/self/task");
  while (dirent* e = readdir(dir)) n += e->d_name[0] != '.';
  closedir(dir);
  return n;
}

TEST(RunWithTimeoutTest, ReturnsTheResultWhenFnFinishesInTime) {
  absl::StatusOr<int> r = RunWithTimeout(kLong, [] { return 42; });
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(*r, 42);
}

TEST(RunWithTimeoutTest, ReturnsDeadlineExceededWhenTheDeadlinePasses) {
  absl::StatusOr<int> r = RunWithTimeout(absl::Milliseconds(20), [](StopToken stop) { return WaitForStop(stop); });
  EXPECT_THAT(r, StatusIs(absl::StatusCode::kDeadlineExceeded, "deadline exceeded"));
}

TEST(RunWithTimeoutTest, VoidFnGivesOkStatus) {
  bool ran = false;
  EXPECT_THAT(RunWithTimeout(kLong, [&] { ran = true; }), IsOk());
  EXPECT_TRUE(ran);
}

TEST(RunWithTimeoutTest, StatusOrFnPassesItsErrorThrough) {
  absl::StatusOr<int> r = RunWithTimeout(kLong, []() -> absl::StatusOr<int> { return absl::NotFoundError("x"); });
  EXPECT_THAT(r, StatusIs(absl::StatusCode::kNotFound, "x"));
}

TEST(RunWithTimeoutTest, NegativeTimeoutIsInvalidArgumentAndFnDoesNotRun) {
  bool ran = false;
  EXPECT_THAT(RunWithTimeout(absl::Nanoseconds(-1), [&] { ran = true; }),
              StatusIs(absl::StatusCode::kInvalidArgument, "negative timeout"));
  EXPECT_FALSE(ran);
}

TEST(DeadlineTest, DoesNotExpireBeforeItsTime) {
  ScopedDeadline deadline(kLong);
  absl::SleepFor(absl::Milliseconds(20));
  EXPECT_FALSE(deadline.expired());
  EXPECT_FALSE(deadline.Disarm());
}

TEST(DeadlineTest, ExpiresAndStaysExpiredAfterDisarm) {
  ScopedDeadline deadline(absl::Milliseconds(5));
  EXPECT_TRUE(WaitForStop(deadline.token()));
  EXPECT_TRUE(deadline.Disarm());
  EXPECT_TRUE(deadline.expired());
  EXPECT_TRUE(deadline.Disarm());  // idempotent
}

TEST(DeadlineTest, ZeroAndInfiniteMeanNoLimit) {
  ScopedDeadline zero(absl::ZeroDuration());
  ScopedDeadline infinite(absl::InfiniteDuration());
  absl::SleepFor(absl::Milliseconds(20));
  EXPECT_FALSE(zero.expired());
  EXPECT_FALSE(infinite.expired());
}

TEST(DeadlineTest, NegativeTimeoutExpiresAtOnce) {
  ScopedDeadline deadline(absl::Nanoseconds(-1));
  EXPECT_TRUE(WaitForStop(deadline.token()));
}

TEST(DeadlineTest, DefaultStopTokenNeverStops) { EXPECT_FALSE(StopToken().stop_requested()); }

TEST(DeadlineTest, OnExpiryRunsOnceOnAnotherThread) {
  std::atomic<int> calls{0};
  std::thread::id where;
  ScopedDeadline deadline(absl::Milliseconds(5), OnExpiry([&] {
                                              where = std::this_thread::get_id();
                                              calls++;
                                            }));
  ASSERT_TRUE(WaitForStop(deadline.token()));
  deadline.Disarm();  // waits for on_expiry: `where` is safe to read after it
  EXPECT_EQ(calls.load(), 1);
  EXPECT_NE(where, std::this_thread::get_id());
}

TEST(DeadlineTest, OnExpiryDoesNotRunWhenDisarmedInTime) {
  std::atomic<int> calls{0};
  { ScopedDeadline deadline(absl::Milliseconds(200), OnExpiry([&] { calls++; })); }
  absl::SleepFor(absl::Milliseconds(400));
  EXPECT_EQ(calls.load(), 0);
}

TEST(DeadlineTest, DisarmWaitsForARunningOnExpiry) {
  std::atomic<bool> finished{false};
  ScopedDeadline deadline(absl::Milliseconds(5), OnExpiry([&] {
                                              absl::SleepFor(absl::Milliseconds(200));
                                              finished = true;
                                            }));
  ASSERT_TRUE(WaitForStop(deadline.token()));  // the stop flag is set before on_expiry starts
  deadline.Disarm();
  EXPECT_TRUE(finished.load());
}

TEST(DeadlineTest, InterruptMakesABlockingCallFailWithEintr) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  // One signal, no repeat. It is blocked here until ppoll unblocks it, so it interrupts the call whenever it is sent:
  // before the call starts too (with poll and 0.5 s, a thread descheduled that long missed it and blocked 30 s).
  sigset_t interrupt, old, during;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, DeadlineInterruptSignal());
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &interrupt, &old), 0);
  during = old;
  sigdelset(&during, DeadlineInterruptSignal());
  int r, error;
  bool expired;
  {
    ScopedDeadline deadline(absl::Milliseconds(100), Interrupt());
    pollfd p = {fds[0], POLLIN, 0};
    const timespec patience = {30, 0};
    r = ppoll(&p, 1, &patience, &during);  // nothing is ever written
    error = errno;
    expired = deadline.expired();
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  EXPECT_EQ(r, -1);
  EXPECT_EQ(error, EINTR);
  EXPECT_TRUE(expired);
  close(fds[0]);
  close(fds[1]);
}

TEST(DeadlineTest, InterruptRepeatCatchesACallStartedAfterTheFirstSignal) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ScopedDeadline deadline(absl::Milliseconds(5), Interrupt(absl::Milliseconds(20)));
  ASSERT_TRUE(WaitForStop(deadline.token()));  // the first signal has been sent (and was ignored)
  absl::SleepFor(absl::Milliseconds(5));
  pollfd p = {fds[0], POLLIN, 0};
  int r = poll(&p, 1, 30000);
  int error = errno;
  EXPECT_EQ(r, -1);
  EXPECT_EQ(error, EINTR);
  close(fds[0]);
  close(fds[1]);
}

TEST(DeadlineTest, InnerDeadlineNeverOutlivesTheOuterOne) {
  ScopedDeadline outer(absl::Milliseconds(20));
  ScopedDeadline inner(kLong);
  EXPECT_TRUE(WaitForStop(inner.token()));
  EXPECT_TRUE(outer.expired());
}

TEST(DeadlineTest, InnerExpiryLeavesTheOuterArmed) {
  ScopedDeadline outer(kLong);
  {
    ScopedDeadline inner(absl::Milliseconds(5));
    EXPECT_TRUE(WaitForStop(inner.token()));
  }
  EXPECT_FALSE(outer.expired());
}

TEST(DeadlineTest, InnerArmedAfterTheOuterExpiredExpiresAtOnce) {
  ScopedDeadline outer(absl::Milliseconds(5));
  ASSERT_TRUE(WaitForStop(outer.token()));
  ScopedDeadline inner(kLong);
  EXPECT_TRUE(WaitForStop(inner.token()));
}

TEST(DeadlineTest, DeepNestingWorks) {  // deeper than one chunk of slots
  std::vector<std::optional<ScopedDeadline>> guards(40);
  for (auto& g : guards) g.emplace(kLong);
  { ScopedDeadline innermost(absl::Milliseconds(5)); EXPECT_TRUE(WaitForStop(innermost.token())); }
  for (auto it = guards.rbegin(); it != guards.rend(); ++it) EXPECT_FALSE(it->value().Disarm());
}

TEST(DeadlineDeathTest, DisarmingOutOfOrderAborts) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_DEATH(
      {
        std::optional<ScopedDeadline> outer(std::in_place, kLong);
        ScopedDeadline inner(kLong);
        outer->Disarm();
      },
      "disarmed out of order");
}

// Registering the process for membarrier (MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) waits for an RCU grace period
// once the process has a second thread: 8-16 ms on this machine with the kernel's default rcu_expedited=0, 10-33 ms
// on a 16-core one (issue 20). A hook stalls it here, for as long as the case needs: deadlines armed meanwhile -- by
// the arm that started the registration and by another thread -- must fire while it is still stalled. Registration
// happens once per process, so the case runs in a fresh one (a "threadsafe" death test re-executes this binary).
struct Stall {
  std::mutex mu;
  std::condition_variable cv;
  bool entered = false;   // the registration has reached the hook
  bool released = false;  // the hook has let it go on
  int fired = 0, fired_while_stalled = 0;
};
Stall* g_stall = nullptr;

void StallTheRegistration() {
  std::unique_lock<std::mutex> lock(g_stall->mu);
  g_stall->entered = true;
  g_stall->cv.notify_all();
  g_stall->cv.wait_for(lock, std::chrono::seconds(120), [] { return g_stall->released; });
}

void ArmFiftyMillisecondsAndWait(Stall& s) {
  ScopedDeadline deadline(absl::Milliseconds(50), OnExpiry([&s] {
                                                std::lock_guard<std::mutex> lock(s.mu);
                                                s.fired++;
                                                if (!s.released) s.fired_while_stalled++;
                                                s.cv.notify_all();
                                              }));
  WaitForStop(deadline.token());
}

// Exit status 0 if both deadlines fired while the registration was stalled; 1 if not; 2-3 if the case could not run.
int DeadlinesArmedDuringAStalledRegistration() {
  if (deadline_internal::ThreadStatesForTesting() != 0) return 2;  // something armed before: not a fresh process
  Stall s;
  g_stall = &s;
  deadline_internal::SetMembarrierRegistrationHookForTesting(&StallTheRegistration);
  std::thread first([&s] { ArmFiftyMillisecondsAndWait(s); });  // the process's first arm starts the registration
  {
    std::unique_lock<std::mutex> lock(s.mu);
    if (!s.cv.wait_for(lock, std::chrono::seconds(30), [&s] { return s.entered; })) return 3;
  }
  // Lets the registration go on once both deadlines fired, or after 10 s (a 200-fold margin) if they did not.
  std::thread release([&s] {
    std::unique_lock<std::mutex> lock(s.mu);
    s.cv.wait_for(lock, std::chrono::seconds(10), [&s] { return s.fired == 2; });
    s.released = true;
    s.cv.notify_all();
  });
  ArmFiftyMillisecondsAndWait(s);  // another thread arms while the registration is stalled
  first.join();
  release.join();
  std::fprintf(stderr, "fired: %d, while the registration was stalled: %d\n", s.fired, s.fired_while_stalled);
  return s.fired_while_stalled == 2 ? 0 : 1;
}

TEST(DeadlineDeathTest, DeadlinesArmedWhileTheMembarrierRegistrationStallsStillFire) {
  const char* off = getenv("UUCORE_DEADLINE_NO_MEMBARRIER");
  if (off != nullptr && off[0] == '1') GTEST_SKIP() << "the fallback never registers";
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  EXPECT_EXIT(_exit(DeadlinesArmedDuringAStalledRegistration()), ::testing::ExitedWithCode(0),
              "fired: 2, while the registration was stalled: 2");
}

TEST(DeadlineTest, ArmingNeverStartsAnotherThread) {
  ScopedDeadline first(kLong);  // starts the timer thread if nothing did yet
  int threads = CountThreads();
  for (int i = 0; i < 1000; ++i) ScopedDeadline d(absl::Milliseconds(1 + i % 10));
  EXPECT_LE(CountThreads(), threads);  // fewer if the short-lived membarrier registrar was still there at first
}

TEST(DeadlineTest, TimerIsWokenOnlyWhenTheEarliestDeadlineMovesEarlier) {
  ScopedDeadline first(absl::Hours(1));
  absl::SleepFor(absl::Milliseconds(50));  // let the timer pass any stale earlier wake-up of previous cases
  uint64_t wakeups = deadline_internal::TimerWakeupsForTesting();
  for (int i = 0; i < 100000; ++i) ScopedDeadline later(absl::Hours(2));
  EXPECT_EQ(deadline_internal::TimerWakeupsForTesting(), wakeups);
  ScopedDeadline earlier(absl::Minutes(30));
  EXPECT_EQ(deadline_internal::TimerWakeupsForTesting(), wakeups + 1);
}

TEST(DeadlineTest, ManyArmsAndThreadsLeaveMemoryAndStateCountFlat) {
  // The class of bug in Ruby's first single-thread rewrite: disarmed entries that are never reclaimed.
  auto rss_kb = [] {
    long pages = 0, resident = 0;
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    std::fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
  };
  for (int i = 0; i < 100000; ++i) ScopedDeadline d(absl::Seconds(1));
  long before = rss_kb();
  for (int i = 0; i < 2000000; ++i) ScopedDeadline d(absl::Seconds(1 + i % 7));
  EXPECT_LT(rss_kb() - before, 1024);
  for (int i = 0; i < 100; ++i) std::thread([] { ScopedDeadline d(absl::Seconds(1)); }).join();
  EXPECT_LE(deadline_internal::ThreadStatesForTesting(), 4u);  // recycled, not one per thread ever started
}

// 20,000 deadlines of 1-10 ms, 50 threads arming them one after another: none early, none missing.
TEST(DeadlineTest, ManyShortDeadlinesFireNeitherEarlyNorMissing) {
  constexpr int kThreads = 50, kEach = 400;
  std::atomic<int> early{0}, missing{0}, fired{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::uniform_int_distribution<int64_t> us(1000, 10000);
      std::mutex mu;
      std::condition_variable cv;
      for (int i = 0; i < kEach; ++i) {
        int64_t timeout_ns = us(rng) * 1000;
        int64_t fired_at = 0;
        int64_t start = NowNs();
        ScopedDeadline deadline(absl::Nanoseconds(timeout_ns), OnExpiry([&] {
                                                            std::lock_guard<std::mutex> lock(mu);
                                                            fired_at = NowNs();
                                                            cv.notify_one();
                                                          }));
        {
          std::unique_lock<std::mutex> lock(mu);
          cv.wait_for(lock, std::chrono::seconds(30), [&] { return fired_at != 0; });
        }
        deadline.Disarm();
        if (fired_at == 0) {
          missing++;
        } else {
          fired++;
          if (fired_at < start + timeout_ns) early++;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(fired.load(), kThreads * kEach);
  EXPECT_EQ(early.load(), 0);
  EXPECT_EQ(missing.load(), 0);
}

TEST(DeadlineTest, CoarseClockDeadlineIsNotEarly) {
  int64_t start = NowNs();
  std::atomic<int64_t> fired_at{0};
  ScopedDeadline deadline(absl::Seconds(1), OnExpiry([&] { fired_at = NowNs(); }));
  ASSERT_TRUE(WaitForStop(deadline.token()));
  deadline.Disarm();
  EXPECT_GE(fired_at.load() - start, 1000000000);
}

TEST(DeadlineForkTest, ChildArmsAndExpiresWithItsOwnTimerThread) {
  if (kTsan) GTEST_SKIP() << "ThreadSanitizer does not support threads started after a multi-threaded fork";
  ScopedDeadline parent(kLong);  // the parent's timer thread exists
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    absl::Status s = RunWithTimeout(absl::Milliseconds(10), [](StopToken stop) { WaitForStop(stop); });
    _exit(s.code() == absl::StatusCode::kDeadlineExceeded ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(DeadlineForkTest, ChildKeepsTheForkingThreadsDeadline) {
  if (kTsan) GTEST_SKIP() << "ThreadSanitizer does not support threads started after a multi-threaded fork";
  ScopedDeadline inherited(absl::Milliseconds(100));
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ScopedDeadline restart(kLong);  // any finite arm restarts the timer thread in the child
    _exit(WaitForStop(restart.token()) && inherited.expired() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(DeadlineExitTest, ExitInsideAnArmedScopeNeitherHangsNorCrashes) {
  if (kTsan) GTEST_SKIP() << "ThreadSanitizer does not support threads started after a multi-threaded fork";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ScopedDeadline armed(absl::Milliseconds(50));  // starts the child's timer thread
    ScopedDeadline expired(absl::Nanoseconds(-1), OnExpiry([] {}));
    WaitForStop(expired.token());
    std::exit(7);  // static destructors stop and join the timer thread with both deadlines still armed
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 7) << status;
}

}  // namespace
}  // namespace uucore
