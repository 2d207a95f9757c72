// tools/bench/deadline/deadline_soak.cc -- the two long-running figures of issue 9:
//   flatness: 20 rounds of 10M "arm 1 s, empty block, disarm" on one thread: ops/s and RSS per round, last/first;
//   lateness: 20,000 deadlines of 1-10 ms (uniform), armed by 32 threads one after another, for uucore/deadline,
//             Asio and mutex+multimap: p50/p99/max lateness, early and missing counts; and, as the floor no timer
//             thread can go below, the same sleeps done by the arming threads themselves with clock_nanosleep
//             (absolute deadline, 1 ns timer slack): what this kernel and machine give a thread that asks to
//             wake at a time, with no library in between.
// Usage: deadline_soak [--rounds=N] [--ops=N] [--deadlines=N] [--threads=N] [--skip-flatness] [--skip-lateness]
// Exit status 1 if any deadline fired early or went missing, or last/first round left +-10%.
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "tools/bench/deadline/anchors.h"
#include "uucore/deadline/deadline.h"

namespace deadline_bench {
namespace {

long RssKb() {
  long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr || std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
  if (f != nullptr) std::fclose(f);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

bool Flatness(int rounds, long ops) {
  std::printf("flatness: %d rounds of %ld x (arm 1 s, empty block, disarm), 1 thread\n", rounds, ops);
  std::printf("%5s %12s %10s\n", "round", "Mops/s", "RSS kB");
  std::vector<double> rates;
  for (int r = 0; r < rounds; ++r) {
    int64_t start = NowNs();
    for (long i = 0; i < ops; ++i) {
      uucore::ScopedDeadline deadline(absl::Seconds(1));
      asm volatile("" : : "r"(&deadline) : "memory");
    }
    double rate = ops / ((NowNs() - start) / 1e9);
    rates.push_back(rate);
    std::printf("%5d %12.1f %10ld\n", r + 1, rate / 1e6, RssKb());
  }
  double ratio = rates.back() / rates.front();
  std::printf("last/first: %.3f\n\n", ratio);
  return ratio >= 0.9 && ratio <= 1.1;
}

struct Lateness {
  std::vector<int64_t> late_ns;
  int early = 0, missing = 0;
};

template <typename ArmWaitDisarm>
Lateness MeasureLateness(int deadlines, int threads, ArmWaitDisarm arm_wait_disarm) {
  std::vector<Lateness> per(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::uniform_int_distribution<int64_t> us(1000, 10000);
      for (int i = t; i < deadlines; i += threads) {
        int64_t timeout = us(rng) * 1000;
        Fired fired;
        int64_t start = NowNs();
        arm_wait_disarm(std::chrono::nanoseconds(timeout), &fired);
        if (fired.at == 0) {
          per[t].missing++;
        } else if (fired.at < start + timeout) {
          per[t].early++;
        } else {
          per[t].late_ns.push_back(fired.at - (start + timeout));
        }
      }
    });
  }
  for (std::thread& w : workers) w.join();
  Lateness all;
  for (Lateness& l : per) {
    all.late_ns.insert(all.late_ns.end(), l.late_ns.begin(), l.late_ns.end());
    all.early += l.early;
    all.missing += l.missing;
  }
  std::sort(all.late_ns.begin(), all.late_ns.end());
  return all;
}

void WaitFired(Fired* fired) {
  std::unique_lock<std::mutex> lock(fired->mu);
  fired->cv.wait_for(lock, std::chrono::seconds(10), [fired] { return fired->at != 0; });
}

bool Report(const char* name, const Lateness& l) {
  auto pct = [&](double p) {
    if (l.late_ns.empty()) return 0.0;
    return l.late_ns[std::min(l.late_ns.size() - 1, static_cast<size_t>(p * l.late_ns.size()))] / 1e3;
  };
  std::printf("%-22s %9.1f %9.1f %9.1f %9.1f %6d %8d\n", name, pct(0.5), pct(0.99), pct(0.999),
              l.late_ns.empty() ? 0.0 : l.late_ns.back() / 1e3, l.early, l.missing);
  return l.early == 0 && l.missing == 0;
}

void Append(Lateness& all, const Lateness& part) {
  all.late_ns.insert(all.late_ns.end(), part.late_ns.begin(), part.late_ns.end());
  all.early += part.early;
  all.missing += part.missing;
}

// The timers take turns in 10 slices, so a burst of load on this shared machine hits all of them alike.
bool LatenessAll(int deadlines, int threads) {
  constexpr int kSlices = 10;
  std::printf("lateness: %d deadlines of 1-10 ms, %d arming threads, %d interleaved slices; microseconds\n",
              deadlines, threads, kSlices);
  std::printf("%-22s %9s %9s %9s %9s %6s %8s\n", "timer", "p50", "p99", "p99.9", "max", "early", "missing");
  AsioTimers asio;
  MultimapTimers mm(false);
  Lateness ours_all, asio_all, mm_all, floor_all;
  int per_slice = deadlines / kSlices;
  for (int slice = 0; slice < kSlices; ++slice) {
    Append(ours_all, MeasureLateness(per_slice, threads, [](std::chrono::nanoseconds d, Fired* f) {
      uucore::DeadlineOptions options;
      options.on_expiry = [f] { f->Fire(); };
      uucore::ScopedDeadline deadline(absl::FromChrono(d), std::move(options));
      WaitFired(f);
    }));
    Append(asio_all, MeasureLateness(per_slice, threads, [&](std::chrono::nanoseconds d, Fired* f) {
      AsioTimers::Handle h = asio.Arm(d, f);
      WaitFired(f);
      asio.Disarm(h);
    }));
    Append(mm_all, MeasureLateness(per_slice, threads, [&](std::chrono::nanoseconds d, Fired* f) {
      MultimapTimers::Handle h;
      mm.Arm(d, f, &h);
      WaitFired(f);
      mm.Disarm(&h);
    }));
    Append(floor_all, MeasureLateness(per_slice, threads, [](std::chrono::nanoseconds d, Fired* f) {
      prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // as ours does for its timer thread: no 50 us default slack
      int64_t at = NowNs() + d.count();
      timespec ts{static_cast<time_t>(at / 1000000000), static_cast<long>(at % 1000000000)};
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
      }
      f->Fire();
    }));
  }
  for (Lateness* l : {&ours_all, &asio_all, &mm_all, &floor_all}) std::sort(l->late_ns.begin(), l->late_ns.end());
  bool ok = Report("uucore/deadline", ours_all);
  ok &= Report("asio steady_timer", asio_all);
  ok &= Report("mutex+multimap", mm_all);
  ok &= Report("floor: clock_nanosleep", floor_all);
  return ok;
}

}  // namespace
}  // namespace deadline_bench

int main(int argc, char** argv) {
  int rounds = 20, deadlines = 20000, threads = 32;
  long ops = 10000000;
  bool flatness = true, lateness = true;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--rounds=", 0) == 0) rounds = std::atoi(arg.c_str() + 9);
    else if (arg.rfind("--ops=", 0) == 0) ops = std::atol(arg.c_str() + 6);
    else if (arg.rfind("--deadlines=", 0) == 0) deadlines = std::atoi(arg.c_str() + 12);
    else if (arg.rfind("--threads=", 0) == 0) threads = std::atoi(arg.c_str() + 10);
    else if (arg == "--skip-flatness") flatness = false;
    else if (arg == "--skip-lateness") lateness = false;
    else {
      std::fprintf(stderr, "usage: deadline_soak [--rounds=N] [--ops=N] [--deadlines=N] [--threads=N] [--skip-flatness] "
                           "[--skip-lateness]\n");
      return 2;
    }
  }
  bool ok = true;
  if (flatness) ok &= deadline_bench::Flatness(rounds, ops);
  if (lateness) ok &= deadline_bench::LatenessAll(deadlines, threads);
  return ok ? 0 : 1;
}
