#include "uucore/signal_wait.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <initializer_list>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "uucore/duration.h"

namespace uucore {
namespace {

void NoOp(int) {}  // CatchSignal's handler: its only job is to exist, so the disposition is not SIG_IGN.

bool IsEmpty(const sigset_t& set) { return sigisemptyset(&set) != 0; }

// The kernel's sigset is 64 bits on Linux (_NSIG 64); glibc's sigset_t starts with the same bits.
constexpr size_t kKernelSigsetSize = 8;
static_assert(sizeof(sigset_t) >= kKernelSigsetSize, "glibc's sigset_t holds the kernel's");

// rt_sigprocmask without glibc's filtering of its own signals 32 and 33.
int RawSetMask(const sigset_t& mask, sigset_t* old) {
  return static_cast<int>(syscall(SYS_rt_sigprocmask, SIG_SETMASK, &mask, old, kKernelSigsetSize));
}

}  // namespace

// Written by utils/coreutils/entry.S before the C library starts: the mask the process was started with (the first
// 64 bits, the kernel's whole sigset) and whether it was recorded. Zero-initialised, so a program without that
// entry point reads "not recorded".
extern "C" {
uint64_t coreutils_startup_mask = 0;
int coreutils_startup_mask_saved = 0;
}

const sigset_t& StartupSignalMask() {
  static const sigset_t mask = [] {
    sigset_t m;
    sigemptyset(&m);
    if (coreutils_startup_mask_saved != 0) {
      memcpy(&m, &coreutils_startup_mask, kKernelSigsetSize);
    } else {
      syscall(SYS_rt_sigprocmask, SIG_BLOCK, nullptr, &m, kKernelSigsetSize);  // The current mask, 32/33 included.
    }
    return m;
  }();
  return mask;
}

void RestoreStartupSignalMask() { RawSetMask(StartupSignalMask(), nullptr); }

void AddSignal(sigset_t* set, int sig) {
  if (sig < 1 || sig > SIGRTMAX) return;
  uint64_t bits;
  memcpy(&bits, set, kKernelSigsetSize);
  bits |= uint64_t{1} << (sig - 1);
  memcpy(set, &bits, kKernelSigsetSize);
}

ScopedSignalBlock::ScopedSignalBlock(std::initializer_list<int> signals) {
  sigemptyset(&set_);
  for (int sig : signals) sigaddset(&set_, sig);  // Invalid numbers fail here and are left out, as documented.
  pthread_sigmask(SIG_BLOCK, &set_, &old_mask_);
}

ScopedSignalBlock::ScopedSignalBlock(const sigset_t& signals) : set_(signals) {
  pthread_sigmask(SIG_BLOCK, &set_, &old_mask_);
}

ScopedSignalBlock::ScopedSignalBlock(const sigset_t& signals, const sigset_t& base) : set_(signals), old_mask_(base) {
  sigset_t mask = base;
  uint64_t add, bits;
  memcpy(&add, &signals, kKernelSigsetSize);
  memcpy(&bits, &mask, kKernelSigsetSize);
  bits |= add;
  memcpy(&mask, &bits, kKernelSigsetSize);
  RawSetMask(mask, nullptr);
  raw_restore_ = true;
}

// Restore the whole old mask, not SIG_UNBLOCK of set_: signals the caller had blocked before must stay blocked.
ScopedSignalBlock::~ScopedSignalBlock() {
  if (!restore_) return;
  if (raw_restore_) {
    RawSetMask(old_mask_, nullptr);
  } else {
    pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  }
}

absl::Duration MonotonicNow() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return absl::DurationFromTimespec(now);
}

Deadline Deadline::In(absl::Duration d) {
  if (d == absl::InfiniteDuration()) return Never();
  return Deadline(MonotonicNow() + d);  // absl::Duration addition saturates to infinity: an overflow is Never().
}

Deadline Deadline::Earliest(absl::Span<const Deadline> deadlines) {
  Deadline earliest = Never();
  for (Deadline d : deadlines) {
    if (d < earliest) earliest = d;
  }
  return earliest;
}

absl::Duration Deadline::Remaining() const {
  if (is_never()) return absl::InfiniteDuration();
  const absl::Duration left = at_ - MonotonicNow();
  return left > absl::ZeroDuration() ? left : absl::ZeroDuration();
}

absl::StatusOr<DeadlineTimer> DeadlineTimer::Create() {
  DeadlineTimer timer;
  timer.fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);  // Non-blocking: Consume() never waits.
  if (timer.fd_ < 0) return absl::ErrnoToStatus(errno, "timerfd_create");
  return timer;
}

DeadlineTimer::DeadlineTimer(DeadlineTimer&& other) noexcept
    : fd_(other.fd_), armed_(other.armed_), armed_at_(other.armed_at_) {
  other.fd_ = -1;
  other.armed_ = false;
}

DeadlineTimer& DeadlineTimer::operator=(DeadlineTimer&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    armed_ = other.armed_;
    armed_at_ = other.armed_at_;
    other.fd_ = -1;
    other.armed_ = false;
  }
  return *this;
}

DeadlineTimer::~DeadlineTimer() {
  if (fd_ >= 0) close(fd_);
}

absl::Status DeadlineTimer::Arm(Deadline deadline) {
  if (fd_ < 0) return absl::FailedPreconditionError("no timer");
  if (deadline.is_never()) return absl::OkStatus();
  // Already set to fire at or before it: that wake comes first, and Consume() then lets us aim again.
  if (armed_ && armed_at_ <= deadline.at_) return absl::OkStatus();
  // At most kMaxKernelWait ahead (the caller's loop re-arms until the deadline has really passed), and never the
  // absolute time 0, which would disarm: a passed deadline fires at once.
  absl::Duration at = std::min(deadline.at_, MonotonicNow() + kMaxKernelWait);
  if (at < absl::Nanoseconds(1)) at = absl::Nanoseconds(1);
  itimerspec spec = {};
  spec.it_value = absl::ToTimespec(absl::Ceil(at, absl::Nanoseconds(1)));  // Up: never before the deadline.
  // Absolute: a stop/continue or a late Arm() cannot shift the instant it fires at.
  if (timerfd_settime(fd_, TFD_TIMER_ABSTIME, &spec, nullptr) != 0) {
    return absl::ErrnoToStatus(errno, "timerfd_settime");
  }
  armed_ = true;
  armed_at_ = at;
  return absl::OkStatus();
}

void DeadlineTimer::Consume() {
  uint64_t expirations;
  // EAGAIN: not expired after all (it was re-armed meanwhile); the kernel's timer then still aims where it did.
  if (read(fd_, &expirations, sizeof expirations) == static_cast<ssize_t>(sizeof expirations)) armed_ = false;
}

absl::StatusOr<int> WaitForSignal(const sigset_t& set, Deadline deadline, siginfo_t* info) {
  if (IsEmpty(set)) return absl::InvalidArgumentError("no signal to wait for");
  siginfo_t local;
  if (info == nullptr) info = &local;
  for (;;) {
    // Recompute from the monotonic clock on every pass: after EINTR, a stop/continue, or a kMaxKernelWait step.
    const absl::Duration left = deadline.Remaining();
    timespec ts = ToKernelTimespec(left);
    const int sig = sigtimedwait(&set, info, deadline.is_never() ? nullptr : &ts);
    if (sig > 0) return sig;
    if (errno == EINTR) continue;  // A handled signal outside the set, or SIGCONT: wait again for what is left.
    if (errno != EAGAIN) return absl::ErrnoToStatus(errno, "sigtimedwait");
    // EAGAIN: the kernel wait ran out. Only report the deadline if it has really passed (the wait may have been
    // one kMaxKernelWait step of a longer one).
    if (deadline.HasPassed()) return 0;
  }
}

absl::StatusOr<int> WaitForSignal(const sigset_t& set, absl::Span<const Deadline> deadlines, siginfo_t* info) {
  return WaitForSignal(set, Deadline::Earliest(deadlines), info);
}

absl::Status SleepUntil(Deadline deadline) {
  for (;;) {
    if (deadline.is_never()) {
      // No absolute time to aim at: sleep in the longest steps the kernel takes, until a signal ends us.
      timespec step = ToKernelTimespec(kMaxKernelWait);
      const int err = clock_nanosleep(CLOCK_MONOTONIC, 0, &step, nullptr);
      if (err != 0 && err != EINTR) return absl::ErrnoToStatus(err, "clock_nanosleep");
      continue;
    }
    // An absolute wake-up time makes EINTR and stop/continue harmless: re-issuing the call aims at the same instant.
    // The step is capped so no timespec overflows; the loop re-arms until the deadline has really passed.
    const absl::Duration left = deadline.Remaining();
    if (left == absl::ZeroDuration()) return absl::OkStatus();
    timespec at = ToKernelTimespec(left);
    const absl::Duration step = absl::DurationFromTimespec(at);
    at = absl::ToTimespec(MonotonicNow() + step);
    const int err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr);
    if (err != 0 && err != EINTR) return absl::ErrnoToStatus(err, "clock_nanosleep");
  }
}

absl::Status CatchSignal(int sig, struct sigaction* old) {
  struct sigaction action = {};
  action.sa_handler = NoOp;
  action.sa_flags = SA_RESTART;  // Interrupt nothing that a restartable call would redo anyway.
  sigemptyset(&action.sa_mask);
  if (sigaction(sig, &action, old) != 0) return absl::ErrnoToStatus(errno, "sigaction");
  return absl::OkStatus();
}

bool IsIgnored(int sig) {
  struct sigaction current;
  return sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
}

}  // namespace uucore
