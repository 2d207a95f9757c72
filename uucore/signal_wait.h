// uucore/signal_wait.h -- waiting without polling: a blocked signal set, monotonic deadlines, one synchronous wait.
//
// The pattern every waiting utility follows (timeout, sleep):
//
//   uucore::ScopedSignalBlock block({SIGCHLD, SIGTERM, SIGINT});   // Block first: nothing can slip in between.
//   ... spawn the child with block.old_mask() ...
//   const uucore::Deadline expiry = uucore::Deadline::In(duration);
//   absl::StatusOr<int> sig = uucore::WaitForSignal(block.set(), expiry);  // 0: the deadline passed.
//
// Signals are only ever dequeued synchronously (sigtimedwait); nothing here installs a handler except
// CatchSignal(), whose handler does nothing at all. Masks are per thread: these functions affect the calling thread
// only, and a signal can still be delivered to another thread that does not block it. Every utility here is
// single-threaded.
#ifndef UUCORE_SIGNAL_WAIT_H_
#define UUCORE_SIGNAL_WAIT_H_

#include <signal.h>

#include <initializer_list>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace uucore {

// ScopedSignalBlock
//
// Blocks a set of signals in the calling thread for its lifetime and restores the mask it found (old_mask()) on
// destruction, whatever path leaves the scope. Signals already blocked stay blocked afterwards. Pass old_mask() to
// Spawn() so a child starts with the caller's mask, not the one used for waiting. Cannot fail for valid signal
// numbers; invalid numbers (and SIGKILL/SIGSTOP, which cannot be blocked) are silently left out of the mask.
class ScopedSignalBlock {
 public:
  explicit ScopedSignalBlock(std::initializer_list<int> signals);
  explicit ScopedSignalBlock(const sigset_t& signals);
  // Sets the mask to base plus signals (whatever the current mask is) and restores base afterwards; old_mask() is
  // base. For a utility that starts with every signal blocked (StartupSignalMask()) and must give its children the
  // mask it was started with. Uses the raw system call, so glibc's own signals (32, 33) in base are kept exactly.
  ScopedSignalBlock(const sigset_t& signals, const sigset_t& base);
  ~ScopedSignalBlock();

  ScopedSignalBlock(const ScopedSignalBlock&) = delete;
  ScopedSignalBlock& operator=(const ScopedSignalBlock&) = delete;

  // The signals this object blocks (the set to wait for).
  const sigset_t& set() const { return set_; }
  // The calling thread's mask before the block.
  const sigset_t& old_mask() const { return old_mask_; }

  // KeepBlocked()
  //
  // The destructor will leave the mask as it is. For a utility on its way to exit: a signal still pending (a copy
  // of one it sent to its own group, a real-time signal's queued copies, one that arrived after the last wait)
  // would otherwise act the moment the mask is restored, typically by killing the process.
  void KeepBlocked() { restore_ = false; }

 private:
  sigset_t set_;
  sigset_t old_mask_;
  bool restore_ = true;
  bool raw_restore_ = false;  // Restore with the raw system call (the base constructor).
};

// StartupSignalMask()
//
// The signal mask the process was started with. The multicall binary's entry point (utils/coreutils/entry.S)
// blocks every signal before the C library starts, so that nothing sent to a container's init in its first
// microseconds is lost (a blocked signal stays pending), and records the mask it replaced; this returns that mask.
// Without that entry point (unit tests, other programs) it is the calling thread's mask at the first call.
const sigset_t& StartupSignalMask();

// RestoreStartupSignalMask()
//
// Sets the calling thread's mask to StartupSignalMask() exactly (glibc's own signals 32 and 33 included), so that
// signals that arrived meanwhile act now. Every utility but timeout does this before it starts its work.
void RestoreStartupSignalMask();

// AddSignal()
//
// sigaddset() that also takes glibc's own signals 32 and 33 (which glibc's sigaddset refuses), for a mask given to
// the kernel as it is (ScopedSignalBlock with a base, sigtimedwait). Ignores numbers outside 1..SIGRTMAX.
void AddSignal(sigset_t* set, int sig);

// Deadline
//
// A point in time on CLOCK_MONOTONIC, which neither jumps with the wall clock nor runs backwards; or Never().
// Copyable value type, ordered by time (Never() is later than every other deadline).
class Deadline {
 public:
  // A deadline that never passes.
  static Deadline Never() { return Deadline(absl::InfiniteDuration()); }
  // Now plus d. An infinite d, or one whose sum overflows, gives Never(); zero or negative d has already passed.
  static Deadline In(absl::Duration d);
  // The earliest of the deadlines; Never() for none.
  static Deadline Earliest(absl::Span<const Deadline> deadlines);

  bool is_never() const { return at_ == absl::InfiniteDuration(); }
  // Time left: zero once passed, absl::InfiniteDuration() for Never(). Reads the clock on every call.
  absl::Duration Remaining() const;
  bool HasPassed() const { return Remaining() == absl::ZeroDuration(); }

  friend bool operator<(Deadline a, Deadline b) { return a.at_ < b.at_; }
  friend bool operator==(Deadline a, Deadline b) { return a.at_ == b.at_; }
  friend bool operator!=(Deadline a, Deadline b) { return a.at_ != b.at_; }

 private:
  friend class DeadlineTimer;
  explicit Deadline(absl::Duration at) : at_(at) {}
  absl::Duration at_;  // Since CLOCK_MONOTONIC's origin; absl::InfiniteDuration() for Never().
};

// DeadlineTimer
//
// A descriptor that becomes readable when a Deadline passes, for a wait that polls descriptors (ppoll/epoll) and
// must wake on time: the timeout of poll, ppoll, select and epoll_wait is stretched by the kernel by 0.1% of the
// time left (select_estimate_accuracy(): 1 ms late for 1 s, 10 ms for 10 s, up to 100 ms), where a timerfd armed
// at an absolute CLOCK_MONOTONIC time fires on time (no slack; sigtimedwait and clock_nanosleep have the thread's
// 50 us). Poll fd() for POLLIN with no timeout of its own:
//
//   absl::StatusOr<uucore::DeadlineTimer> timer = uucore::DeadlineTimer::Create();
//   for (;;) {
//     if (absl::Status armed = timer->Arm(deadline); !armed.ok()) ...;
//     ppoll({..., {timer->fd(), POLLIN}}, n, nullptr, nullptr);   // EINTR: loop; it still aims at the same instant
//     if (revents of fd()) timer->Consume();
//     if (deadline.HasPassed()) ...
//   }
//
// Arm() makes a system call only when the timer is not armed or armed for later than `deadline`: a deadline that
// keeps moving later (-i's inactivity, restarted by each write) leaves the timer at the earlier time; it fires
// there, Consume() says so, and the next Arm() aims at the deadline of then: one system call per firing, none per
// move. Never() leaves the timer as it is (at worst one early wake). Move-only; closes the descriptor.
class DeadlineTimer {
 public:
  // A timerfd (CLOCK_MONOTONIC, non-blocking, close-on-exec), not armed.
  // Error: timerfd_create's errno (EMFILE, ENFILE, ENOMEM).
  [[nodiscard]] static absl::StatusOr<DeadlineTimer> Create();

  DeadlineTimer() = default;  // No descriptor (fd() is -1): for a member set by Create() later.
  DeadlineTimer(DeadlineTimer&& other) noexcept;
  DeadlineTimer& operator=(DeadlineTimer&& other) noexcept;
  DeadlineTimer(const DeadlineTimer&) = delete;
  DeadlineTimer& operator=(const DeadlineTimer&) = delete;
  ~DeadlineTimer();

  int fd() const { return fd_; }
  // Makes fd() readable no later than `deadline` (at once if it has passed), as described above. Deadlines more
  // than kMaxKernelWait away are aimed at in steps of that (Consume(), Arm() again).
  // Error: timerfd_settime's errno; FailedPrecondition without a descriptor.
  [[nodiscard]] absl::Status Arm(Deadline deadline);
  // After fd() polled readable: takes the expiry, so that the next Arm() aims again. Harmless when nothing expired.
  void Consume();

 private:
  int fd_ = -1;
  bool armed_ = false;
  absl::Duration armed_at_;  // While armed_: the CLOCK_MONOTONIC time the timer fires at.
};

// MonotonicNow()
//
// CLOCK_MONOTONIC as a duration since its (arbitrary) origin.
absl::Duration MonotonicNow();

// WaitForSignal()
//
// Waits until a signal in `set` is pending or the deadline (the earliest of `deadlines`) passes, whichever is first,
// without polling: one sigtimedwait(2) per kernel wake. Returns the signal number, dequeued (and fills *info if not
// null), or 0 when the deadline has passed. A signal already pending wins over a deadline already passed.
// EINTR (a handled signal outside the set, or a stop/continue) is absorbed: the time left is recomputed from the
// monotonic clock after every wake, so the deadline holds across SIGSTOP/SIGCONT. Waits longer than
// kMaxKernelWait are made in steps; Never() waits indefinitely.
//
// The signals in `set` must be blocked in the calling thread (see ScopedSignalBlock); otherwise one may be
// delivered to its disposition instead (POSIX leaves this unspecified). A signal whose disposition is SIG_IGN is
// still queued while blocked, except that SIGCHLD ignored makes the kernel reap children itself: see CatchSignal().
//
// Error: InvalidArgument for an empty set (there would be nothing to wait for but the deadline: use SleepUntil()),
// or any other errno from sigtimedwait as its absl::ErrnoToStatus().
[[nodiscard]] absl::StatusOr<int> WaitForSignal(const sigset_t& set, Deadline deadline, siginfo_t* info = nullptr);
[[nodiscard]] absl::StatusOr<int> WaitForSignal(const sigset_t& set, absl::Span<const Deadline> deadlines,
                                                siginfo_t* info = nullptr);

// SleepUntil()
//
// Sleeps until the deadline passes (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)), for sleep(1). Interruptions
// by handled signals and stops (SIGSTOP/SIGTSTP then SIGCONT) are absorbed and the sleep resumes towards the same
// deadline, so the total is the duration asked for plus scheduling lateness. Never() sleeps in kMaxKernelWait steps
// until a signal's default action ends the process. Signals are not touched: the default actions of
// SIGTERM/SIGINT/... still end the process, as with GNU sleep.
//
// Error: any errno but EINTR from clock_nanosleep, as absl::ErrnoToStatus() (none is expected).
absl::Status SleepUntil(Deadline deadline);

// CatchSignal()
//
// Installs a handler that does nothing for `sig` (flags: SA_RESTART only, so no SA_NOCLDWAIT) and stores the
// previous action in *old if not null. Use it for SIGCHLD before spawning: an inherited SIG_IGN (or SA_NOCLDWAIT)
// would make the kernel reap the child itself and its exit status would be lost. A handled signal is reset to
// SIG_DFL by execve, so a child that should keep the caller's SIG_IGN needs SpawnOptions::ignore.
//
// Error: InvalidArgument for SIGKILL/SIGSTOP or an invalid number (from sigaction's EINVAL).
absl::Status CatchSignal(int sig, struct sigaction* old = nullptr);

// IsIgnored()
//
// Whether `sig`'s current disposition is SIG_IGN (false for invalid numbers).
bool IsIgnored(int sig);

}  // namespace uucore

#endif  // UUCORE_SIGNAL_WAIT_H_
