// uucore/deadline/deadline.h -- in-process deadlines: one timer thread and a queue of deadlines per process.
//
// The C++ counterpart of Ruby's Timeout.timeout after its rewrite to "a single thread and a Queue". Any thread arms
// a deadline around a block of work and disarms it when the block ends; one lazily started timer thread serves
// every deadline of the process. On expiry the work learns of it through a stop flag it polls (StopToken, like
// std::stop_token), an optional callback on the timer thread, and optionally a signal that makes the armed
// thread's blocking system call fail with EINTR (the nearest C++ gets to Ruby's Thread#raise).
//
//   absl::StatusOr<int> n = uucore::RunWithTimeout(absl::Seconds(2), [&](uucore::StopToken stop) {
//     int done = 0;
//     while (!stop.stop_requested() && done < total) Step(done++);
//     return done;
//   });                                    // DeadlineExceeded "deadline exceeded" if 2 s passed first
//
//   uucore::DeadlineOptions options;
//   options.interrupt = true;
//   {
//     uucore::ScopedDeadline deadline(absl::Milliseconds(50), options);
//     ssize_t r = read(fd, buf, size);     // -1/EINTR once 50 ms have passed (see DeadlineOptions::interrupt)
//     if (deadline.expired()) ...
//   }                                      // disarmed here
//
// Costs (tools/bench/deadline/README.md has the measured table): arming and disarming take no lock, make no
// system call and allocate nothing once a thread has armed its first deadline (and, once, its ninth nested one),
// except that disarming waits for an on_expiry of the same deadline in progress; the timer thread is woken only when
// the earliest deadline of the process moves earlier, and otherwise sleeps until that deadline. Disarmed deadlines
// are never queued anywhere, so nothing accumulates however many are armed (lazy cancellation: the timer may wake
// for a deadline that was disarmed, finds nothing due, and sleeps again).
//
// Linux only (futex, membarrier, pthread_kill, CLOCK_MONOTONIC_COARSE).
#ifndef UUCORE_DEADLINE_DEADLINE_H_
#define UUCORE_DEADLINE_DEADLINE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace uucore {

namespace deadline_internal {
struct Slot;
struct ThreadState;
struct Timer;
}  // namespace deadline_internal

// StopToken
//
// A cheap, copyable view of one armed ScopedDeadline: stop_requested() becomes true when that deadline (or an enclosing
// one, see ScopedDeadline) expires, and stays true while the ScopedDeadline is armed. Polling it is one atomic load. A
// default-constructed StopToken never requests a stop. Once its ScopedDeadline is disarmed the answer is unspecified
// (it never crashes: the memory it reads is never freed).
class StopToken {
 public:
  StopToken() = default;

  bool stop_requested() const {
    return fired_ != nullptr && fired_->load(std::memory_order_acquire) == generation_;
  }

 private:
  friend class ScopedDeadline;
  StopToken(const std::atomic<uint64_t>* fired, uint64_t generation) : fired_(fired), generation_(generation) {}

  const std::atomic<uint64_t>* fired_ = nullptr;
  uint64_t generation_ = 0;
};

// DeadlineOptions
//
// What happens when a ScopedDeadline expires, beyond setting its stop flag (which always happens first).
struct DeadlineOptions {
  // Runs once on the timer thread when the deadline expires, with no library lock held, before the armed thread's
  // Disarm() (or destructor) can return: it may use anything the armed block keeps alive. It delays every other
  // deadline while it runs, so keep it short; it must not arm a ScopedDeadline itself, and must not throw.
  std::function<void()> on_expiry;

  // If true, the timer thread sends DeadlineInterruptSignal() to the armed thread (pthread_kill) on expiry, after
  // on_expiry. The signal's handler, installed the first time an interrupting ScopedDeadline is armed, does nothing and
  // has no SA_RESTART, so a blocking system call in that thread (read, poll, nanosleep, ...) fails with EINTR. The
  // thread must not block the signal, and the program must not use the signal for anything else.
  bool interrupt = false;

  // With interrupt, if positive: re-send the signal every this long until the ScopedDeadline is disarmed. This closes
  // the race of a signal landing just before the blocking call starts (the call then blocks until the next one).
  // Zero (the default) sends it once.
  absl::Duration interrupt_repeat = absl::ZeroDuration();

  // If true, always measure the timeout from CLOCK_MONOTONIC (see ScopedDeadline on the coarse clock).
  bool precise_clock = false;
};

// ScopedDeadline
//
// An RAII guard: the constructor arms a deadline `timeout` from now for the calling thread, Disarm() or the
// destructor disarms it. Neither copyable nor movable; it must be disarmed on the thread that armed it, in reverse
// order of arming (as scopes nest), or the process aborts with a message.
//
// Timeout:
//   - positive and finite: the deadline is now + timeout;
//   - zero or absl::InfiniteDuration(): no deadline of its own ("no limit", as in GNU timeout and Ruby's
//     Timeout.timeout(0)); it still expires with an enclosing deadline;
//   - negative: the deadline has already passed, it expires at once (asynchronously, like any other).
//
// Nesting: a ScopedDeadline armed while the same thread has another armed one never outlives it; its effective
// deadline is the earlier of its own and the enclosing one's. When the enclosing deadline expires, every deadline
// nested in it on that thread expires at the same moment (each sets its stop flag and runs its options).
//
// Accuracy: a deadline never fires early, and fires as soon as the timer thread is scheduled after it (the timer
// thread sleeps with 1 ns timer slack; tools/bench/deadline/README.md has the measured lateness). For a timeout
// of at least 40 coarse margins (480 ms with Linux's usual 4 ms tick) that is not precise_clock, "now" is read from
// CLOCK_MONOTONIC_COARSE (6.5 ns instead of 28 ns here) plus a margin of three coarse ticks, raised to
// twice the largest lag of the coarse clock the timer thread has observed: such deadlines fire up to one margin
// (2.5% of the timeout at most) late. They can fire early only if the kernel's coarse clock lagged the precise
// one by more than that margin when arming (observed lag here: 2-7 ms for a 12 ms margin).
//
// Threads: one timer thread per process, started by the first arming of a finite deadline; it blocks all
// signals. As it starts, it starts a short-lived thread (signals blocked too) that registers the process for
// membarrier and exits: in a multi-threaded process that takes an RCU grace period (10-30 ms), which no arm waits
// for; until then arming costs one locked instruction more. Disarming waits only when the timer thread is acting on
// this very deadline at that moment (running its on_expiry, for example), so that on_expiry never outlives the guard.
//
// fork(): the child keeps the forking thread's armed deadlines and forgets the others' (those threads do not exist
// in the child). The child has no timer thread until it next arms a finite deadline, which starts one that then
// serves every armed deadline. At exit, a static destructor stops and joins the timer thread (after any on_expiry
// in progress); deadlines armed after that never expire.
class ScopedDeadline {
 public:
  explicit ScopedDeadline(absl::Duration timeout) { Arm(timeout, /*precise=*/false); }
  ScopedDeadline(absl::Duration timeout, DeadlineOptions options);
  ~ScopedDeadline() {
    if (state_ != nullptr) Disarm();
  }

  ScopedDeadline(const ScopedDeadline&) = delete;
  ScopedDeadline& operator=(const ScopedDeadline&) = delete;

  // Disarm()
  //
  // Disarms the deadline and returns expired(): whether it expired before it was disarmed. Calling it again
  // returns the same answer and does nothing else.
  bool Disarm();

  // expired()
  //
  // True once the deadline (or an enclosing one) has expired. Same as token().stop_requested() while armed.
  bool expired() const { return state_ == nullptr ? expired_ : token().stop_requested(); }

  // token()
  //
  // The stop flag of this deadline, to hand to the work.
  StopToken token() const { return StopToken(fired_, generation_); }

 private:
  friend struct deadline_internal::Timer;

  void Arm(absl::Duration timeout, bool precise);

  deadline_internal::ThreadState* state_ = nullptr;  // null once disarmed
  deadline_internal::Slot* slot_ = nullptr;
  const std::atomic<uint64_t>* fired_ = nullptr;
  uint64_t generation_ = 0;
  uint32_t depth_ = 0;
  bool expired_ = false;
  bool interrupt_ = false;
  int64_t interrupt_repeat_ns_ = 0;
  std::function<void()> on_expiry_;
};

// DeadlineInterruptSignal()
//
// The real-time signal DeadlineOptions::interrupt sends: SIGRTMIN + 5.
int DeadlineInterruptSignal();

namespace deadline_internal {

absl::Status DeadlineExceededError();

// For tests: ThreadStates ever allocated (one per concurrently arming thread, recycled), and how many times an arm
// moved the earliest deadline earlier and so woke (or started) the timer thread.
size_t ThreadStatesForTesting();
uint64_t TimerWakeupsForTesting();

// For tests: `hook` runs on the thread that registers the process for membarrier, just before it does. Set it before
// the process first arms a deadline.
void SetMembarrierRegistrationHookForTesting(void (*hook)());

template <typename F>
struct ResultOf {
  using type = typename std::conditional_t<std::is_invocable_v<F&, StopToken>, std::invoke_result<F&, StopToken>,
                                           std::invoke_result<F&>>::type;
};

template <typename T>
struct Wrapped {
  using type = absl::StatusOr<T>;
};
template <>
struct Wrapped<void> {
  using type = absl::Status;
};
template <>
struct Wrapped<absl::Status> {
  using type = absl::Status;
};
template <typename T>
struct Wrapped<absl::StatusOr<T>> {
  using type = absl::StatusOr<T>;
};

template <typename F>
decltype(auto) Invoke(F& fn, const ScopedDeadline& deadline) {
  if constexpr (std::is_invocable_v<F&, StopToken>) {
    return fn(deadline.token());
  } else {
    return fn();
  }
}

}  // namespace deadline_internal

// RunWithTimeout()
//
// Runs fn() -- or fn(StopToken) if it takes one -- under a ScopedDeadline of `timeout` (with `options`), on the calling
// thread, and returns its result, or DeadlineExceeded "deadline exceeded" if the deadline expired before fn
// returned (whatever fn returned then: work that was asked to stop may have returned a partial result).
//
// fn returning void or absl::Status gives absl::Status; returning absl::StatusOr<T> gives absl::StatusOr<T>;
// returning any other T gives absl::StatusOr<std::decay_t<T>>. Zero and infinite timeouts mean no limit of its
// own, as for ScopedDeadline. A negative timeout is InvalidArgument "negative timeout" and fn does not run.
template <typename F>
auto RunWithTimeout(absl::Duration timeout, DeadlineOptions options, F&& fn) ->
    typename deadline_internal::Wrapped<std::decay_t<typename deadline_internal::ResultOf<F>::type>>::type {
  using R = std::decay_t<typename deadline_internal::ResultOf<F>::type>;
  using Out = typename deadline_internal::Wrapped<R>::type;
  if (timeout < absl::ZeroDuration()) return Out(absl::InvalidArgumentError("negative timeout"));
  ScopedDeadline deadline(timeout, std::move(options));
  if constexpr (std::is_void_v<R>) {
    deadline_internal::Invoke(fn, deadline);
    if (deadline.Disarm()) return deadline_internal::DeadlineExceededError();
    return absl::OkStatus();
  } else {
    R result = deadline_internal::Invoke(fn, deadline);
    if (deadline.Disarm()) return Out(deadline_internal::DeadlineExceededError());
    return Out(std::move(result));
  }
}

template <typename F>
auto RunWithTimeout(absl::Duration timeout, F&& fn) {
  return RunWithTimeout(timeout, DeadlineOptions(), std::forward<F>(fn));
}

}  // namespace uucore

#endif  // UUCORE_DEADLINE_DEADLINE_H_
