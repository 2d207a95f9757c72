// tools/bench/deadline/anchors.h -- the timers uucore/deadline is measured against, each behind the same shape:
//   Anchor::Arm(timeout, Fired* fired) -> Handle; Anchor::Disarm(Handle). fired->Fire() runs on the timer thread.
// All serve every thread of the process from one background thread, except ThreadPerCall (one thread per arm).
#ifndef TOOLS_BENCH_DEADLINE_ANCHORS_H_
#define TOOLS_BENCH_DEADLINE_ANCHORS_H_

#include <time.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#define ASIO_STANDALONE
#include <asio.hpp>
#include <uv.h>

namespace deadline_bench {

inline int64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

// What an expiry does in the lateness run: record the time and wake the arming thread. Null in throughput runs.
struct Fired {
  std::mutex mu;
  std::condition_variable cv;
  int64_t at = 0;
  void Fire() {
    std::lock_guard<std::mutex> lock(mu);
    at = NowNs();
    cv.notify_one();
  }
};

// Asio: a steady_timer per arm on one io_context run by a background thread; disarm cancels it.
class AsioTimers {
 public:
  AsioTimers() : work_(asio::make_work_guard(io_)), thread_([this] { io_.run(); }) {}
  ~AsioTimers() {
    work_.reset();
    io_.stop();
    thread_.join();
  }
  using Handle = std::unique_ptr<asio::steady_timer>;
  Handle Arm(std::chrono::nanoseconds timeout, Fired* fired) {
    auto timer = std::make_unique<asio::steady_timer>(io_, timeout);
    timer->async_wait([fired](const asio::error_code& ec) {
      if (!ec && fired != nullptr) fired->Fire();
    });
    return timer;
  }
  void Disarm(Handle& timer) { timer->cancel(); }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::thread thread_;
};

// The straightforward design: mutex + multimap + condvar timer thread. notify_always wakes the timer thread on
// every arm; otherwise only when the new deadline is earlier than the time the timer thread sleeps until (disarm
// never wakes it: it finds the entry gone when it wakes, as uucore/deadline does).
class MultimapTimers {
 public:
  struct Entry {
    Fired* fired = nullptr;
    bool done = false;  // guarded by mu_: fired or cancelled
  };
  using Map = std::multimap<int64_t, Entry*>;
  struct Handle {
    Entry entry;
    Map::iterator it;
  };

  explicit MultimapTimers(bool notify_always) : notify_always_(notify_always), thread_([this] { Run(); }) {}
  ~MultimapTimers() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }
  void Arm(std::chrono::nanoseconds timeout, Fired* fired, Handle* h) {
    h->entry.fired = fired;
    int64_t at = NowNs() + timeout.count();
    bool earlier;
    {
      std::lock_guard<std::mutex> lock(mu_);
      h->it = map_.emplace(at, &h->entry);
      earlier = at < sleeping_until_;
      if (earlier) sleeping_until_ = at;  // the timer thread re-reads the map when woken
    }
    if (notify_always_ || earlier) cv_.notify_one();
  }
  void Disarm(Handle* h) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!h->entry.done) map_.erase(h->it);
    h->entry.done = true;
  }

 private:
  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      if (map_.empty()) {
        if (sleeping_until_ > NowNs()) {  // keep sleeping until the (stale) wake-up time: arms before it stay quiet
          cv_.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(sleeping_until_)));
          continue;
        }
        sleeping_until_ = INT64_MAX;
        cv_.wait(lock);
        continue;
      }
      int64_t at = map_.begin()->first;
      if (at > NowNs()) {
        sleeping_until_ = at;
        cv_.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(at)));
        continue;
      }
      Entry* e = map_.begin()->second;
      map_.erase(map_.begin());
      e->done = true;
      if (e->fired != nullptr) e->fired->Fire();  // the arming thread waits for this before disarming
    }
  }

  const bool notify_always_;
  std::mutex mu_;
  std::condition_variable cv_;
  Map map_;
  int64_t sleeping_until_ = INT64_MAX;  // when the timer thread next wakes by itself
  bool stop_ = false;
  std::thread thread_;
};

// libuv: one loop thread; arms and disarms reach it as commands through a mutex-protected queue and uv_async_send
// (uv_* calls are not thread-safe, so this is how a multi-threaded program must use it).
class UvTimers {
 public:
  struct Request {
    uv_timer_t timer;
    uint64_t timeout_ms;
    Fired* fired;
  };
  using Handle = Request*;

  UvTimers() {
    uv_loop_init(&loop_);
    uv_async_init(&loop_, &async_, &OnAsync);
    async_.data = this;
    thread_ = std::thread([this] { uv_run(&loop_, UV_RUN_DEFAULT); });
  }
  ~UvTimers() {
    Push({nullptr, Command::kStop});
    thread_.join();
  }
  Handle Arm(std::chrono::nanoseconds timeout, Fired* fired) {
    auto* r = new Request;
    r->timeout_ms = static_cast<uint64_t>((timeout.count() + 999999) / 1000000);  // libuv counts whole ms
    r->fired = fired;
    Push({r, Command::kStart});
    return r;
  }
  void Disarm(Handle r) { Push({r, Command::kCancel}); }

 private:
  enum class Command { kStart, kCancel, kStop };
  struct Item {
    Request* r;
    Command c;
  };
  void Push(Item item) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(item);
    }
    uv_async_send(&async_);
  }
  static void OnAsync(uv_async_t* async) {
    auto* self = static_cast<UvTimers*>(async->data);
    std::vector<Item> items;
    {
      std::lock_guard<std::mutex> lock(self->mu_);
      items.swap(self->queue_);
    }
    for (Item& item : items) {
      if (item.c == Command::kStop) {
        uv_close(reinterpret_cast<uv_handle_t*>(&self->async_), nullptr);
        uv_walk(&self->loop_, [](uv_handle_t* h, void*) { if (!uv_is_closing(h)) uv_close(h, nullptr); }, nullptr);
        continue;
      }
      Request* r = item.r;
      if (item.c == Command::kStart) {
        uv_timer_init(&self->loop_, &r->timer);
        r->timer.data = r;
        uv_timer_start(&r->timer, [](uv_timer_t* t) {
          auto* req = static_cast<Request*>(t->data);
          if (req->fired != nullptr) req->fired->Fire();
        }, r->timeout_ms, 0);
      } else {
        uv_timer_stop(&r->timer);
        uv_close(reinterpret_cast<uv_handle_t*>(&r->timer),
                 [](uv_handle_t* h) { delete static_cast<Request*>(h->data); });
      }
    }
  }

  uv_loop_t loop_;
  uv_async_t async_;
  std::mutex mu_;
  std::vector<Item> queue_;
  std::thread thread_;
};

// A thread per arm, waiting on a condvar until the deadline or the disarm.
class ThreadPerCall {
 public:
  struct Handle {
    std::mutex mu;
    std::condition_variable cv;
    bool cancelled = false;
    std::thread thread;
  };
  void Arm(std::chrono::nanoseconds timeout, Fired* fired, Handle* h) {
    h->thread = std::thread([h, timeout, fired] {
      std::unique_lock<std::mutex> lock(h->mu);
      if (!h->cv.wait_for(lock, timeout, [h] { return h->cancelled; }) && fired != nullptr) fired->Fire();
    });
  }
  void Disarm(Handle* h) {
    {
      std::lock_guard<std::mutex> lock(h->mu);
      h->cancelled = true;
    }
    h->cv.notify_one();
    h->thread.join();
  }
};

}  // namespace deadline_bench

#endif  // TOOLS_BENCH_DEADLINE_ANCHORS_H_
