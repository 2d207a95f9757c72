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
// sequentially consistent operations (one locked instruction per disarm, ~5 ns). Until the process is registered
// for membarrier, and for good where membarrier is unavailable (old kernels, seccomp, or
// UUCORE_DEADLINE_NO_MEMBARRIER=1), arm uses seq_cst too (`asymmetric` false). Every shared field is a std::atomic,
// and data reach the timer through release/acquire pairs, so ThreadSanitizer checks the rest.
//
// Registration off every arming path (issue 20). membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) is needed
// once per process before the barrier can be used, and in a process with more than one thread the kernel makes it
// wait for an RCU grace period (synchronize_rcu() in sync_runqueues_membarrier_state()): 5 us single-threaded, but
// with 32 threads 8-16 ms on the 2-core VM with the kernel's default rcu_expedited=0 (0.05-2 ms with the
// rcu_expedited=1 it runs with, which is why the tail hid there), and 10-33 ms on a quiet 16-core machine. It used
// to run inside the process's first arm, under std::call_once, so every thread arming concurrently waited for the
// grace period before it even read the clock: deadline_soak's threads all arm at once at its start, and their
// first deadlines (31 of 20,000 with 32 threads, 127 with 128, 3 with 4) fired that late -- the whole p99.9 tail of
// 10-33 ms and max of 26 ms with 4 threads, absent with UUCORE_DEADLINE_NO_MEMBARRIER=1, which never registers.
// Measured with tools/bench/deadline:deadline_soak_traced (the UUCORE_DEADLINE_TRACE build below), 2-core VM,
// rcu_expedited=0, 32 threads: the registration took 15.1 ms and the first arm of each of the 32 threads waited up to
// 17.5 ms (ours p99.9 14.6 ms, Asio 3.3 ms), while the timer rounds' barriers took 1.3 us at p50 and 0.11 ms at most.
// Now the timer thread starts a short-lived registrar thread; until it has registered, arms and the timer use the
// seq_cst protocol, and the timer switches to the asymmetric one between two rounds (so every arm that sees
// `asymmetric` meets a round that issues the barrier). No arm waits: with the same rcu_expedited=0 and 32 threads,
// the registrar took 15.9 ms, the first arms at most 0.93 ms, and ours was at Asio's p99.9 (3.2 vs 3.3 ms). A test
// hook stalls the registration to pin this (DeadlinesArmedWhileTheMembarrierRegistrationStallsStillFire).
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
  std::atomic<bool> asymmetric{false};    // the timer issues membarrier: arms need only a compiler barrier
};
Hot g_hot;
// The process's membarrier registration, done once by a short-lived thread (see the header).
enum Registration : int { kUnregistered, kRegistering, kRegistered, kNoMembarrier };
std::atomic<int> g_registration{kUnregistered};
std::atomic<ThreadState*> g_states{nullptr};
std::atomic<size_t> g_thread_states{0};
std::atomic<uint64_t> g_wakeups{0};
std::atomic<void (*)()> g_registration_hook{nullptr};
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

// Not uucore::MonotonicNow() (uucore/signal_wait.h), on purpose: this library is public and stands alone (Abseil
// only, no other uucore target), and its hot path wants integer nanoseconds and the coarse clock beside the precise
// one, not absl::Duration.
int64_t ReadClock(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}
int64_t PreciseNow() { return ReadClock(CLOCK_MONOTONIC); }
int64_t CoarseNow() { return ReadClock(CLOCK_MONOTONIC_COARSE); }

#ifdef UUCORE_DEADLINE_TRACE
// The traced build (//uucore/deadline:deadline_traced, for tools/bench/deadline:deadline_soak_traced): durations in
// log-scale buckets (4 per power of two), printed to stderr at exit. Never in the library's normal build.
enum TraceKind { kTraceRegistration, kTraceFirstArm, kTraceBarrier, kTraceWake, kTraceRound, kTraceFire, kTraceKinds };
constexpr const char* kTraceNames[kTraceKinds] = {
    "membarrier registration", "thread's first arm, before its clock read", "barrier of a timer round",
    "wake-up call of an arm", "timer round", "expiry as the timer sees it: now - deadline"};
struct TraceHistogram {
  std::atomic<uint64_t> bucket[256];
  std::atomic<int64_t> max;
};
TraceHistogram g_trace[kTraceKinds];
int TraceBucket(int64_t ns) {
  if (ns <= 0) return 0;
  int log2 = 63 - __builtin_clzll(static_cast<uint64_t>(ns));
  int quarter = log2 >= 2 ? static_cast<int>((static_cast<uint64_t>(ns) >> (log2 - 2)) & 3) : 0;
  return std::min(255, 1 + 4 * log2 + quarter);
}
int64_t TraceBucketTop(int b) {  // the largest value of bucket b
  if (b == 0) return 0;
  int log2 = (b - 1) / 4, quarter = (b - 1) % 4;
  return log2 >= 2 ? (int64_t{4 + quarter + 1} << (log2 - 2)) - 1 : (int64_t{2} << log2) - 1;
}
void TraceAdd(TraceKind kind, int64_t ns) {
  g_trace[kind].bucket[TraceBucket(ns)].fetch_add(1, std::memory_order_relaxed);
  int64_t m = g_trace[kind].max.load(std::memory_order_relaxed);
  while (ns > m && !g_trace[kind].max.compare_exchange_weak(m, ns, std::memory_order_relaxed)) {
  }
}
void TracePrint() {
  std::fprintf(stderr, "uucore/deadline trace (us; percentiles are bucket tops, up to 19%% high):\n");
  for (int k = 0; k < kTraceKinds; ++k) {
    uint64_t n = 0, over_1ms = 0;
    for (int b = 0; b < 256; ++b) {
      uint64_t c = g_trace[k].bucket[b].load(std::memory_order_relaxed);
      n += c;
      if (TraceBucketTop(b) >= 1000000) over_1ms += c;
    }
    int64_t max = g_trace[k].max.load(std::memory_order_relaxed);
    auto pct = [&](double q) {
      uint64_t want = static_cast<uint64_t>(q * static_cast<double>(n)), seen = 0;
      for (int b = 0; b < 256; ++b) {
        seen += g_trace[k].bucket[b].load(std::memory_order_relaxed);
        if (seen > want) return std::min(TraceBucketTop(b), max) / 1e3;
      }
      return 0.0;
    };
    std::fprintf(stderr, "  %-45s n %8llu  p50 %9.1f  p99 %9.1f  p99.9 %9.1f  max %9.1f  >=1ms %llu\n",
                 kTraceNames[k], static_cast<unsigned long long>(n), pct(0.5), pct(0.99), pct(0.999), max / 1e3,
                 static_cast<unsigned long long>(over_1ms));
  }
}
struct TraceSpan {
  TraceKind kind;
  int64_t start;
  ~TraceSpan() { TraceAdd(kind, PreciseNow() - start); }
};
#define UUCORE_DEADLINE_TRACE_SPAN(kind) TraceSpan trace_span{kind, PreciseNow()}
#define UUCORE_DEADLINE_TRACE_VALUE(kind, ns) TraceAdd(kind, ns)
#else
#define UUCORE_DEADLINE_TRACE_SPAN(kind) static_cast<void>(0)
#define UUCORE_DEADLINE_TRACE_VALUE(kind, ns) static_cast<void>(0)
#endif

constexpr int64_t kCoarseTicksMargin = 3;    // margin = 3 coarse ticks (at least)
constexpr int64_t kCoarseMinTimeouts = 40;   // coarse clock only for timeouts >= 40 margins: <= 2.5% late
constexpr int64_t kMaxCoarseMargin = 1000000000;

void CompilerBarrier() { std::atomic_signal_fence(std::memory_order_seq_cst); }

void HeavyBarrier() {  // the timer thread only
  if (!g_hot.asymmetric.load(std::memory_order_relaxed)) return;
  UUCORE_DEADLINE_TRACE_SPAN(kTraceBarrier);
  syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
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

// The registrar thread: registers the process for membarrier, which may take an RCU grace period, then exits.
void* Register(void*) {
  if (void (*hook)() = g_registration_hook.load(std::memory_order_acquire)) hook();
  int r;
  {
    UUCORE_DEADLINE_TRACE_SPAN(kTraceRegistration);
    r = static_cast<int>(syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0));
  }
  g_registration.store(r == 0 ? kRegistered : kNoMembarrier, std::memory_order_release);
  Sync* sync = g_sync;  // this process's: a fork child has no registrar of its parent's
  { std::lock_guard<std::mutex> lock(sync->mu); }  // the timer checks g_registration under it before it waits
  sync->cv.notify_one();  // so that it switches now, not at its next deadline
  return nullptr;
}

// Called by the timer thread as it starts: nobody waits for the registration.
void StartRegistration() {
  int expected = kUnregistered;
  if (!g_registration.compare_exchange_strong(expected, kRegistering, std::memory_order_relaxed)) return;
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 && pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                 pthread_create(&thread, &attr, &Register, nullptr) == 0;  // inherits the timer's full signal mask
  pthread_attr_destroy(&attr);
  if (!started) g_registration.store(kNoMembarrier, std::memory_order_relaxed);  // stay on seq_cst
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
  // No timer thread issues barriers here: seq_cst until the child's own timer thread has had it registered (a
  // registrar the parent may have had running does not exist here either).
  g_hot.asymmetric.store(false, std::memory_order_seq_cst);
  if (g_registration.load(std::memory_order_relaxed) != kNoMembarrier) {
    g_registration.store(kUnregistered, std::memory_order_relaxed);
  }
}

void InitOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    timespec res;
    int64_t tick = clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 ? res.tv_sec * 1000000000 + res.tv_nsec : 0;
    if (tick <= 0 || tick > kMaxCoarseMargin / kCoarseTicksMargin) tick = kMaxCoarseMargin / kCoarseTicksMargin;
    g_sync = new Sync;
    const char* off = getenv("UUCORE_DEADLINE_NO_MEMBARRIER");  // forces the fallback, for tests and measurements
    if (off != nullptr && off[0] == '1') g_registration.store(kNoMembarrier, std::memory_order_relaxed);
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
  UUCORE_DEADLINE_TRACE_SPAN(kTraceFirstArm);
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
    UUCORE_DEADLINE_TRACE_SPAN(kTraceWake);
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
    StartRegistration();
    std::vector<Action>& actions = sync->actions;
    std::vector<Kick>& kicks = sync->kicks;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(sync->mu);
        for (;;) {
          if (sync->stop) return nullptr;
          // Switch to the asymmetric protocol only between rounds: an arm that reads `asymmetric` true (acquire) is
          // ordered after this store, so the round that must see it is a later one, and every later one issues the
          // barrier.
          if (!g_hot.asymmetric.load(std::memory_order_relaxed) &&
              g_registration.load(std::memory_order_acquire) == kRegistered) {
            g_hot.asymmetric.store(true, std::memory_order_release);
          }
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
    UUCORE_DEADLINE_TRACE_SPAN(kTraceRound);
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
          UUCORE_DEADLINE_TRACE_VALUE(kTraceFire, PreciseNow() - slot->deadline.load(std::memory_order_relaxed));
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
  ~ShutdownAtExit() {
    Timer::Shutdown();
#ifdef UUCORE_DEADLINE_TRACE
    TracePrint();
#endif
  }
} g_shutdown_at_exit;
}  // namespace

size_t ThreadStatesForTesting() { return g_thread_states.load(std::memory_order_relaxed); }
uint64_t TimerWakeupsForTesting() { return g_wakeups.load(std::memory_order_relaxed); }
void SetMembarrierRegistrationHookForTesting(void (*hook)()) {
  g_registration_hook.store(hook, std::memory_order_release);
}

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
  if (g_hot.asymmetric.load(std::memory_order_acquire)) {
    ts->depth.store(depth + 1, std::memory_order_release);
    deadline_internal::CompilerBarrier();  // membarrier in the timer thread orders this store before the load
  } else {
    ts->depth.store(depth + 1, std::memory_order_seq_cst);
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
