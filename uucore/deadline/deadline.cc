// uucore/deadline/deadline.cc -- one timer thread, per-thread stacks of deadlines, an atomic "earliest deadline".
//
// Data: each thread that arms a deadline owns a ThreadState (registered once, recycled when the thread exits, never
// freed) holding a stack of Slots, one per armed ScopedDeadline. Nesting clamps an inner deadline to the outer one, so
// each stack is sorted, latest at the bottom. A process-wide atomic `earliest` is the time the timer thread will
// next wake; an arm compares its deadline with it and wakes the timer thread (mutex + condvar) only if earlier.
// Disarm pops the slot and tells nobody: the timer finds nothing due when it wakes, and sleeps again.
//
// Two store-then-load races are resolved Dekker-style:
//   arm:     publish slot (store depth), then load earliest  |  timer: earliest = never, then scan every stack
//   disarm:  store state = cancelled, then load busy          |  timer: busy = gen, then load state
// The first is on the hot path of every arm, so its heavy side is on the timer thread: membarrier(MEMBARRIER_CMD_
// PRIVATE_EXPEDITED) runs a full memory barrier on every CPU running one of our threads, and the arming side needs
// only a compiler barrier (the folly/Userspace-RCU "asymmetric fence"). The timer issues it once per wake-up,
// after firing what is due, so its cost (2 us typically, but 100+ us at p99 in a loaded VM, where the IPI waits
// for a preempted vCPU) stays off the firing path. The second race is on the firing path, so both sides use
// sequentially consistent operations (one locked instruction per disarm, ~5 ns). Where membarrier is unavailable
// (old kernels, seccomp, or UUCORE_DEADLINE_NO_MEMBARRIER=1), arm uses seq_cst too. Every shared field is a
// std::atomic, and data reach the timer through release/acquire pairs, so ThreadSanitizer checks the rest.
#include "uucore/deadline/deadline.h"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace uucore {
namespace deadline_internal {

constexpr int64_t kNever = INT64_MAX;  // CLOCK_MONOTONIC nanoseconds; kNever means "no deadline"
constexpr int kSlotsPerChunk = 8;      // nesting deeper than this walks a linked chunk (allocated once)

struct Slot {
  std::atomic<uint64_t> state{0};  // generation << 1 | armed; written by the owner only
  std::atomic<int64_t> deadline{kNever};
  std::atomic<ScopedDeadline*> guard{nullptr};
  std::atomic<uint64_t> busy{0};   // generation the timer thread is acting on, 0 if none; timer writes only
  std::atomic<uint64_t> fired{0};  // generation that expired (the stop flag); timer writes only
};

struct Chunk {
  Slot slots[kSlotsPerChunk];
  std::atomic<Chunk*> next{nullptr};
};

struct alignas(64) ThreadState {
  Chunk first;
  std::atomic<uint32_t> depth{0};     // armed slots, published by the owner
  std::atomic<uint32_t> wake_seq{0};  // futex word: bumped by the timer each time it releases a slot
  std::atomic<uint32_t> waiting{0};   // the owner is (about to be) waiting on wake_seq
  std::atomic<bool> in_use{false};
  std::atomic<pthread_t> thread{};
  ThreadState* next_state = nullptr;  // registry list; immutable once published
  uint64_t generation = 0;            // owner only: last generation handed out (never reset, so never reused)

  Slot* SlotAt(uint32_t i) {
    Chunk* c = &first;
    for (; i >= kSlotsPerChunk; i -= kSlotsPerChunk) c = c->next.load(std::memory_order_acquire);
    return &c->slots[i];
  }
  Slot* SlotForPush(uint32_t i) {  // owner only: grows the chunk list as needed
    Chunk* c = &first;
    for (; i >= kSlotsPerChunk; i -= kSlotsPerChunk) {
      Chunk* next = c->next.load(std::memory_order_acquire);
      if (next == nullptr) {
        next = new Chunk;
        c->next.store(next, std::memory_order_release);
      }
      c = next;
    }
    return &c->slots[i];
  }
};

namespace {

// Everything the fast path reads, constant-initialized (no static-init guard on the fast path).
struct Hot {
  std::atomic<int64_t> earliest{kNever};  // the timer thread's next wake-up time
  std::atomic<int64_t> coarse_margin{0};  // ns added to CLOCK_MONOTONIC_COARSE readings; 0 until initialized
  bool symmetric = false;                 // no membarrier: use seq_cst on both sides
};
Hot g_hot;
std::atomic<ThreadState*> g_states{nullptr};
std::atomic<size_t> g_thread_states{0};
std::atomic<uint64_t> g_wakeups{0};
thread_local ThreadState* t_state = nullptr;

struct Action {
  ThreadState* ts;
  Slot* slot;
  uint64_t generation;
  bool kick_only;  // re-sending the interrupt signal of a deadline that already expired
};
struct Kick {
  ThreadState* ts;
  Slot* slot;
  uint64_t generation;
  int64_t at;
};

struct Sync {  // replaced, not reused, in a fork child; the old one stays reachable through `previous`
  std::mutex mu;
  std::condition_variable cv;
  bool started = false;  // guarded by mu
  bool stop = false;     // guarded by mu
  pthread_t thread{};    // the timer thread, once started
  std::vector<Action> actions;  // the timer thread's scratch space
  std::vector<Kick> kicks;      // the timer thread's pending interrupt repeats
  Sync* previous = nullptr;
};
Sync* g_sync = nullptr;

int64_t ReadClock(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}
int64_t PreciseNow() { return ReadClock(CLOCK_MONOTONIC); }
int64_t CoarseNow() { return ReadClock(CLOCK_MONOTONIC_COARSE); }

constexpr int64_t kCoarseTicksMargin = 3;    // margin = 3 coarse ticks (at least)
constexpr int64_t kCoarseMinTimeouts = 40;   // coarse clock only for timeouts >= 40 margins: <= 2.5% late
constexpr int64_t kMaxCoarseMargin = 1000000000;

void CompilerBarrier() { std::atomic_signal_fence(std::memory_order_seq_cst); }

void HeavyBarrier() {
  if (!g_hot.symmetric) syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

void FutexWait(std::atomic<uint32_t>* word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}
void FutexWakeAll(std::atomic<uint32_t>* word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

void Die(const char* message) {
  std::fprintf(stderr, "uucore/deadline: %s\n", message);
  std::abort();
}

void NoOpHandler(int) {}

void InstallInterruptHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa = {};
    sa.sa_handler = NoOpHandler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: the interrupted call returns EINTR
    sigaction(DeadlineInterruptSignal(), &sa, nullptr);
  });
}

void RegisterMembarrier() {
  const char* off = getenv("UUCORE_DEADLINE_NO_MEMBARRIER");  // forces the fallback, for tests and measurements
  g_hot.symmetric = (off != nullptr && off[0] == '1') ||
                    syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0;
}

void ForkPrepare() { g_sync->mu.lock(); }
void ForkParent() { g_sync->mu.unlock(); }
void ForkChild() {
  // Only the forking thread exists here: forget the other threads' deadlines and any action the timer thread
  // was taking when it vanished, so that no Disarm() waits for it.
  Sync* old = g_sync;  // it may list a waiter that no longer exists: replace it, keep it reachable
  g_sync = new Sync;
  g_sync->previous = old;
  for (ThreadState* ts = g_states.load(std::memory_order_acquire); ts != nullptr; ts = ts->next_state) {
    if (ts == t_state) {
      for (uint32_t i = 0; i < ts->depth.load(std::memory_order_relaxed); ++i) {
        ts->SlotAt(i)->busy.store(0, std::memory_order_relaxed);
      }
      ts->thread.store(pthread_self(), std::memory_order_relaxed);
    } else if (ts->in_use.load(std::memory_order_relaxed)) {
      ts->depth.store(0, std::memory_order_relaxed);
      ts->in_use.store(false, std::memory_order_relaxed);
    }
  }
  g_hot.earliest.store(kNever, std::memory_order_seq_cst);  // the next finite arm starts a timer thread
  RegisterMembarrier();  // registration is per process; fall back to seq_cst if it fails in the child
}

void InitOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    timespec res;
    int64_t tick = clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 ? res.tv_sec * 1000000000 + res.tv_nsec : 0;
    if (tick <= 0 || tick > kMaxCoarseMargin / kCoarseTicksMargin) tick = kMaxCoarseMargin / kCoarseTicksMargin;
    g_sync = new Sync;
    RegisterMembarrier();
    pthread_atfork(ForkPrepare, ForkParent, ForkChild);
    g_hot.coarse_margin.store(kCoarseTicksMargin * tick, std::memory_order_release);
  });
}

struct ThreadExit {
  ~ThreadExit() {
    // A thread leaving through exit() or pthread_exit() inside a guard keeps its state: its slots stay armed.
    if (t_state == nullptr || t_state->depth.load(std::memory_order_relaxed) != 0) return;
    t_state->in_use.store(false, std::memory_order_release);
    t_state = nullptr;
  }
};
thread_local ThreadExit t_exit;

ThreadState* RegisterThread() {
  InitOnce();
  ThreadState* ts = g_states.load(std::memory_order_acquire);
  for (; ts != nullptr; ts = ts->next_state) {
    bool free = false;
    if (!ts->in_use.load(std::memory_order_relaxed) &&
        ts->in_use.compare_exchange_strong(free, true, std::memory_order_acquire)) {
      break;
    }
  }
  if (ts == nullptr) {
    ts = new ThreadState;
    g_thread_states.fetch_add(1, std::memory_order_relaxed);
    ts->in_use.store(true, std::memory_order_relaxed);
    ThreadState* head = g_states.load(std::memory_order_relaxed);
    do {
      ts->next_state = head;
    } while (!g_states.compare_exchange_weak(head, ts, std::memory_order_release, std::memory_order_relaxed));
  }
  ts->thread.store(pthread_self(), std::memory_order_relaxed);
  (void)&t_exit;  // odr-use: constructs it, so its destructor runs at thread exit
  t_state = ts;
  return ts;
}

}  // namespace

// The timer thread and its entry points from ScopedDeadline.
struct Timer {
  static void LowerEarliest(int64_t deadline) {
    int64_t e = g_hot.earliest.load(std::memory_order_relaxed);
    while (deadline < e) {
      if (g_hot.earliest.compare_exchange_weak(e, deadline, std::memory_order_seq_cst)) {
        Wake();
        return;
      }
    }
  }

  static void Wake() {
    g_wakeups.fetch_add(1, std::memory_order_relaxed);
    Sync* sync = g_sync;
    {
      std::lock_guard<std::mutex> lock(sync->mu);
      if (sync->stop) return;
      if (!sync->started) {
        Start(sync);
        return;
      }
    }
    sync->cv.notify_one();
  }

  static void Start(Sync* sync) {  // sync->mu held
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);  // the timer thread inherits a full mask: no signal lands there
    if (pthread_create(&sync->thread, nullptr, &Main, sync) != 0) Die("cannot start the timer thread");
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    sync->started = true;
  }

  static void* Main(void* arg) {
    Sync* sync = static_cast<Sync*>(arg);
    pthread_setname_np(pthread_self(), "uucore-deadline");
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // the default 50 us slack would be most of our lateness
    std::vector<Action>& actions = sync->actions;
    std::vector<Kick>& kicks = sync->kicks;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(sync->mu);
        for (;;) {
          if (sync->stop) return nullptr;
          int64_t e = g_hot.earliest.load(std::memory_order_seq_cst);
          if (e <= PreciseNow()) break;
          if (e == kNever) {
            sync->cv.wait(lock);
          } else {
            sync->cv.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(e)));
          }
        }
      }
      Round(actions, kicks);
    }
  }

  // One wake-up: fire what is due, then publish the next wake-up time.
  static void Round(std::vector<Action>& actions, std::vector<Kick>& kicks) {
    int64_t now = PreciseNow();
    Scan(now, actions, kicks, nullptr);  // fire first: the barrier below is slow in the tail
    if (!actions.empty()) Act(actions, kicks, now);
    g_hot.earliest.store(kNever, std::memory_order_seq_cst);
    HeavyBarrier();  // every arm either sees kNever (and lowers it) or is seen by the scan below
    now = PreciseNow();
    ObserveCoarseLag(now);
    int64_t next = kNever;
    Scan(now, actions, kicks, &next);
    if (!actions.empty()) Act(actions, kicks, now);
    for (const Kick& k : kicks) next = std::min(next, k.at);
    LowerEarliestFromTimer(next);
  }

  // Collects into `actions` the armed, unexpired slots due at `now` and the due interrupt repeats; with `next`,
  // also the earliest deadline not yet due.
  static void Scan(int64_t now, std::vector<Action>& actions, const std::vector<Kick>& kicks, int64_t* next) {
    actions.clear();
    for (ThreadState* ts = g_states.load(std::memory_order_acquire); ts != nullptr; ts = ts->next_state) {
      uint32_t depth = ts->depth.load(std::memory_order_seq_cst);
      for (uint32_t i = 0; i < depth; ++i) {
        Slot* slot = ts->SlotAt(i);
        uint64_t state = slot->state.load(std::memory_order_acquire);
        if ((state & 1) == 0) continue;
        int64_t deadline = slot->deadline.load(std::memory_order_acquire);
        if (slot->state.load(std::memory_order_acquire) != state) continue;  // re-armed meanwhile
        uint64_t generation = state >> 1;
        if (slot->fired.load(std::memory_order_relaxed) == generation) continue;
        if (deadline <= now) {
          actions.push_back({ts, slot, generation, false});
        } else if (next != nullptr) {
          *next = std::min(*next, deadline);
        }
      }
    }
    for (const Kick& k : kicks) {
      if (k.at <= now) actions.push_back({k.ts, k.slot, k.generation, true});
    }
  }

  static void LowerEarliestFromTimer(int64_t next) {
    int64_t e = g_hot.earliest.load(std::memory_order_relaxed);
    while (next < e && !g_hot.earliest.compare_exchange_weak(e, next, std::memory_order_seq_cst)) {
    }
  }

  // Claims each due slot, and acts on it if it is still armed by the same generation.
  static void Act(const std::vector<Action>& actions, std::vector<Kick>& kicks, int64_t now) {
    for (const Action& a : actions) {
      // Every disarm either sees busy (and waits for it) or is seen as cancelled here: both sides are seq_cst.
      a.slot->busy.store(a.generation, std::memory_order_seq_cst);
      Slot* slot = a.slot;
      bool armed = slot->state.load(std::memory_order_seq_cst) == (a.generation << 1 | 1);
      if (armed) {
        ScopedDeadline* guard = slot->guard.load(std::memory_order_acquire);
        if (!a.kick_only) {
          slot->fired.store(a.generation, std::memory_order_release);
          if (guard->on_expiry_) guard->on_expiry_();
        }
        if (guard->interrupt_) {
          pthread_kill(a.ts->thread.load(std::memory_order_relaxed), DeadlineInterruptSignal());
          if (guard->interrupt_repeat_ns_ > 0) {
            int64_t repeat = guard->interrupt_repeat_ns_;
            UpdateKick(kicks, a, repeat < kNever - now ? now + repeat : kNever);
          }
        }
      }
      if (!armed) RemoveKick(kicks, a);
      slot->busy.store(0, std::memory_order_seq_cst);
      a.ts->wake_seq.fetch_add(1, std::memory_order_seq_cst);
      if (a.ts->waiting.load(std::memory_order_seq_cst) != 0) FutexWakeAll(&a.ts->wake_seq);
    }
  }

  static void UpdateKick(std::vector<Kick>& kicks, const Action& a, int64_t at) {
    for (Kick& k : kicks) {
      if (k.slot == a.slot && k.generation == a.generation) {
        k.at = at;
        return;
      }
    }
    kicks.push_back({a.ts, a.slot, a.generation, at});
  }
  static void RemoveKick(std::vector<Kick>& kicks, const Action& a) {
    kicks.erase(std::remove_if(kicks.begin(), kicks.end(),
                               [&](const Kick& k) { return k.slot == a.slot && k.generation == a.generation; }),
                kicks.end());
  }

  // Keeps the coarse margin above twice the largest lag of the coarse clock seen, so coarse deadlines stay late.
  static void ObserveCoarseLag(int64_t precise_before) {
    int64_t lag = precise_before - CoarseNow();
    int64_t margin = g_hot.coarse_margin.load(std::memory_order_relaxed);
    if (lag > 0 && 2 * lag > margin && 2 * lag <= kMaxCoarseMargin) {
      g_hot.coarse_margin.store(2 * lag, std::memory_order_relaxed);
    }
  }

  static void Shutdown() {
    Sync* sync = g_sync;
    if (sync == nullptr) return;
    bool join;
    {
      std::lock_guard<std::mutex> lock(sync->mu);
      if (sync->stop) return;
      sync->stop = true;
      join = sync->started && !pthread_equal(sync->thread, pthread_self());
    }
    sync->cv.notify_one();
    if (join) pthread_join(sync->thread, nullptr);
  }
};

namespace {
struct ShutdownAtExit {
  ~ShutdownAtExit() { Timer::Shutdown(); }
} g_shutdown_at_exit;
}  // namespace

size_t ThreadStatesForTesting() { return g_thread_states.load(std::memory_order_relaxed); }
uint64_t TimerWakeupsForTesting() { return g_wakeups.load(std::memory_order_relaxed); }

absl::Status DeadlineExceededError() { return absl::DeadlineExceededError("deadline exceeded"); }

}  // namespace deadline_internal

using deadline_internal::g_hot;
using deadline_internal::kNever;
using deadline_internal::Slot;
using deadline_internal::ThreadState;

int DeadlineInterruptSignal() { return SIGRTMIN + 5; }

ScopedDeadline::ScopedDeadline(absl::Duration timeout, DeadlineOptions options)
    : interrupt_(options.interrupt), on_expiry_(std::move(options.on_expiry)) {
  if (interrupt_) {
    deadline_internal::InstallInterruptHandler();
    if (options.interrupt_repeat > absl::ZeroDuration()) {
      interrupt_repeat_ns_ = std::max<int64_t>(1, absl::ToInt64Nanoseconds(options.interrupt_repeat));
    }
  }
  Arm(timeout, options.precise_clock);
}

void ScopedDeadline::Arm(absl::Duration timeout, bool precise) {
  ThreadState* ts = deadline_internal::t_state;
  if (ts == nullptr) ts = deadline_internal::RegisterThread();
  int64_t deadline = kNever;
  if (timeout < absl::ZeroDuration()) {
    deadline = 0;  // already passed
  } else if (timeout != absl::ZeroDuration() && timeout != absl::InfiniteDuration()) {
    int64_t ns = absl::ToInt64Nanoseconds(timeout);  // saturates
    if (ns <= 0) ns = 1;
    int64_t margin = g_hot.coarse_margin.load(std::memory_order_relaxed);
    int64_t base = !precise && ns / deadline_internal::kCoarseMinTimeouts >= margin
                       ? deadline_internal::CoarseNow() + margin
                       : deadline_internal::PreciseNow();
    deadline = ns < kNever - 1 - base ? base + ns : kNever - 1;
  }
  uint32_t depth = ts->depth.load(std::memory_order_relaxed);
  if (depth > 0) {
    deadline = std::min(deadline, ts->SlotAt(depth - 1)->deadline.load(std::memory_order_relaxed));
  }
  Slot* slot = depth < deadline_internal::kSlotsPerChunk ? &ts->first.slots[depth] : ts->SlotForPush(depth);
  uint64_t generation = ++ts->generation;
  slot->deadline.store(deadline, std::memory_order_release);
  slot->guard.store(this, std::memory_order_release);
  slot->state.store(generation << 1 | 1, std::memory_order_release);
  if (g_hot.symmetric) {
    ts->depth.store(depth + 1, std::memory_order_seq_cst);
  } else {
    ts->depth.store(depth + 1, std::memory_order_release);
    deadline_internal::CompilerBarrier();  // membarrier in the timer thread orders this store before the load
  }
  state_ = ts;
  slot_ = slot;
  fired_ = &slot->fired;
  generation_ = generation;
  depth_ = depth;
  if (deadline < g_hot.earliest.load(std::memory_order_seq_cst)) deadline_internal::Timer::LowerEarliest(deadline);
}

bool ScopedDeadline::Disarm() {
  ThreadState* ts = state_;
  if (ts == nullptr) return expired_;
  if (ts != deadline_internal::t_state || ts->depth.load(std::memory_order_relaxed) != depth_ + 1) {
    deadline_internal::Die("ScopedDeadline disarmed out of order or on another thread");
  }
  Slot* slot = slot_;
  slot->state.store(generation_ << 1, std::memory_order_seq_cst);
  if (slot->busy.load(std::memory_order_seq_cst) == generation_) {
    // The timer thread is acting on this deadline (maybe running on_expiry): wait until it lets go.
    ts->waiting.store(1, std::memory_order_seq_cst);
    for (;;) {
      uint32_t seq = ts->wake_seq.load(std::memory_order_seq_cst);
      if (slot->busy.load(std::memory_order_seq_cst) != generation_) break;
      deadline_internal::FutexWait(&ts->wake_seq, seq);
    }
    ts->waiting.store(0, std::memory_order_relaxed);
  }
  expired_ = slot->fired.load(std::memory_order_acquire) == generation_;
  ts->depth.store(depth_, std::memory_order_release);
  state_ = nullptr;
  return expired_;
}

}  // namespace uucore
