// tools/bench/deadline/deadline_bench.cc -- "arm a 1 s deadline, run an empty block, disarm", in ops/s, for
// uucore/deadline and its anchors (Asio, libuv, mutex+multimap+condvar, a thread per call), on 1, 2, 4, 8 and 16
// threads, in one run. items_per_second is the aggregate over the benchmark's threads.
#include <chrono>

#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "tools/bench/deadline/anchors.h"
#include "uucore/deadline/deadline.h"

namespace deadline_bench {
namespace {

constexpr std::chrono::seconds kTimeout(1);

// The thread counts of every case (issue 20: throughput at 1, 2, 4, 8 and 16 threads).
void Threads(benchmark::internal::Benchmark* b) {
  for (int threads : {1, 2, 4, 8, 16}) b->Threads(threads);
  b->UseRealTime();
}

void BM_Ours(benchmark::State& state) {
  for (auto _ : state) {
    uucore::ScopedDeadline deadline(absl::Seconds(1));
    benchmark::DoNotOptimize(&deadline);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Ours)->Apply(Threads);

void BM_OursRunWithTimeout(benchmark::State& state) {
  for (auto _ : state) {
    absl::StatusOr<int> r = uucore::RunWithTimeout(absl::Seconds(1), [] { return 1; });
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OursRunWithTimeout)->Apply(Threads);

void BM_Asio(benchmark::State& state) {
  static AsioTimers* timers = new AsioTimers;
  for (auto _ : state) {
    AsioTimers::Handle h = timers->Arm(kTimeout, nullptr);
    benchmark::ClobberMemory();
    timers->Disarm(h);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Asio)->Apply(Threads);

void BM_Libuv(benchmark::State& state) {
  static UvTimers* timers = new UvTimers;
  for (auto _ : state) {
    UvTimers::Handle h = timers->Arm(kTimeout, nullptr);
    benchmark::ClobberMemory();
    timers->Disarm(h);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Libuv)->Apply(Threads);

template <bool kNotifyAlways>
void BM_MutexMultimap(benchmark::State& state) {
  static MultimapTimers* timers = new MultimapTimers(kNotifyAlways);
  for (auto _ : state) {
    MultimapTimers::Handle h;
    timers->Arm(kTimeout, nullptr, &h);
    benchmark::ClobberMemory();
    timers->Disarm(&h);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_MutexMultimap, true)->Name("BM_MutexMultimap/notify_always")->Apply(Threads);
BENCHMARK_TEMPLATE(BM_MutexMultimap, false)->Name("BM_MutexMultimap/notify_if_earliest")->Apply(Threads);

void BM_ThreadPerCall(benchmark::State& state) {
  ThreadPerCall timers;
  for (auto _ : state) {
    ThreadPerCall::Handle h;
    timers.Arm(kTimeout, nullptr, &h);
    timers.Disarm(&h);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ThreadPerCall)->Apply(Threads);

}  // namespace
}  // namespace deadline_bench

BENCHMARK_MAIN();
