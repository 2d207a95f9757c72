// tools/bench/lateness.cc -- how late a timeout's expiry signal reaches the command, measured without the noise of
// process exit and reaping that a wall-clock measurement of `timeout 0.05 sleep 10` adds on top.
//
// Usage:
//   lateness [--load] RUNS TIMEOUT [ARG...]   run `TIMEOUT [ARG...] 0.05 lateness --probe` RUNS times
//   lateness [--load] --floor RUNS            RUNS bare clock_nanosleep(50 ms) calls (absolute deadline, 1 ns slack)
//   lateness --probe                          the command: note when it starts and when SIGTERM arrives, on fd 3
// --load: every core busy meanwhile, one spinning child process per CPU this process may run on (nice 0, killed
// at the end; they die with this process too).
//
// For each run of TIMEOUT, the probe's SIGTERM arrival time is compared with two starting points, both on
// CLOCK_MONOTONIC (one clock for all processes on the machine):
//   upper  from just before this program spawns TIMEOUT: lateness plus TIMEOUT's own start-up before it arms
//   lower  from the probe's first instruction, which comes after TIMEOUT has forked the command and, with the
//          command's exec in between, nearly always after it has armed its timer: leaves TIMEOUT's start-up out
// The expiry's lateness lies between the two. --floor measures the same 50 ms sleep with no timeout program
// at all: what this kernel and machine give any process that asks to wake at a time.
//
// Output: one line per mode, "upper|lower|floor p50 p99 max" in microseconds beyond 50 ms, then the count of runs
// measured (percentiles as tools/bench/bench.py takes them: element round(p * (n - 1)) of the sorted values).
// Exit status: 0; 1 if a run did not end with the probe signalled within 10 s (the timeout did not fire, or
// fired early); 2 on a usage or system error.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

namespace {

constexpr int64_t kTimeoutNs = 50 * 1000 * 1000;
constexpr int kReportFd = 3;

int64_t Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

void Print(const char* what, std::vector<int64_t> late_ns) {
  std::sort(late_ns.begin(), late_ns.end());
  auto at = [&](double p) { return late_ns[static_cast<size_t>(p * (late_ns.size() - 1) + 0.5)] / 1e3; };
  std::printf("%s %.1f %.1f %.1f %zu\n", what, at(0.5), at(0.99), late_ns.back() / 1e3, late_ns.size());
}

// The command under timeout. SIGTERM is blocked before anything else and taken with sigtimedwait, so its arrival
// time is read as soon as the kernel runs us, with no handler in between. Without it within 10 s, the probe exits
// without reporting, and the run counts as failed.
int Probe() {
  const int64_t start = Now();
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, nullptr);
  const timespec limit{10, 0};
  int sig;
  do {
    sig = sigtimedwait(&term, nullptr, &limit);
  } while (sig < 0 && errno == EINTR);  // a stop/continue can interrupt the wait
  if (sig < 0) return 5;
  const int64_t got = Now();
  int64_t times[2] = {start, got};
  if (write(kReportFd, times, sizeof times) != sizeof times) return 3;
  // Die of the signal, as a command that does not catch it would.
  signal(SIGTERM, SIG_DFL);
  sigprocmask(SIG_UNBLOCK, &term, nullptr);
  raise(SIGTERM);
  return 4;
}

// --load: one spinning child per CPU in the affinity mask, started before the runs and killed after them.
class Load {
 public:
  Load(const Load&) = delete;
  Load& operator=(const Load&) = delete;
  Load() {
    cpu_set_t cpus;
    int n = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
    for (int i = 0; i < n; ++i) {
      pid_t pid = fork();
      if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        for (volatile uint64_t spin = 0;; spin = spin + 1) {
        }
      }
      if (pid > 0) spinners_.push_back(pid);
    }
    timespec ramp{0, 100 * 1000 * 1000};  // let the scheduler spread them over the CPUs
    nanosleep(&ramp, nullptr);
  }
  ~Load() {
    for (pid_t pid : spinners_) kill(pid, SIGKILL);
    for (pid_t pid : spinners_) {
      while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }

 private:
  std::vector<pid_t> spinners_;
};

int Floor(int runs) {
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);  // a timer thread that cares asks for this; the default is 50 us
  std::vector<int64_t> late;
  for (int i = 0; i < runs; ++i) {
    const int64_t at = Now() + kTimeoutNs;
    timespec ts{static_cast<time_t>(at / 1000000000), static_cast<long>(at % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
    late.push_back(Now() - at);
  }
  Print("floor", late);
  return 0;
}

int Run(int runs, char** timeout_argv, int timeout_argc, const char* self) {
  std::vector<int64_t> upper, lower;
  int failures = 0;
  for (int i = 0; i < runs; ++i) {
    int fds[2];
    // Close-on-exec both ends: the read end must not reach the command. The dup2 below gives the command a copy of
    // the write end as fd 3 without the flag; if fds[1] were 3 already (possible only with fds 0-2 closed), dup2
    // would keep the flag, so that case is refused.
    if (pipe2(fds, O_CLOEXEC) != 0) return perror("pipe2"), 2;
    if (fds[1] == kReportFd) return std::fprintf(stderr, "lateness: run with fds 0-2 open\n"), 2;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], kReportFd);
    std::vector<char*> argv(timeout_argv, timeout_argv + timeout_argc);
    std::string seconds = "0.05", probe = "--probe";
    argv.push_back(seconds.data());
    argv.push_back(const_cast<char*>(self));
    argv.push_back(probe.data());
    argv.push_back(nullptr);
    const int64_t spawned = Now();
    pid_t pid;
    int err = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    if (err != 0) return std::fprintf(stderr, "lateness: %s: %s\n", argv[0], strerror(err)), 2;
    int64_t times[2];
    ssize_t got = read(fds[0], times, sizeof times);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    // The signal can come no sooner than 50 ms after the spawn without the timeout having fired early. The exit
    // status is not checked: busybox's timeout, for one, does not exit 124.
    if (got != sizeof times || times[1] - spawned < kTimeoutNs) {
      ++failures;
      continue;
    }
    upper.push_back(times[1] - spawned - kTimeoutNs);
    lower.push_back(times[1] - times[0] - kTimeoutNs);
  }
  if (upper.empty()) return std::fprintf(stderr, "lateness: no run timed out\n"), 1;
  Print("upper", upper);
  Print("lower", lower);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--probe") == 0) return Probe();
  std::optional<Load> load;
  if (argc >= 2 && strcmp(argv[1], "--load") == 0) {
    load.emplace();
    --argc;
    ++argv;
  }
  if (argc == 3 && strcmp(argv[1], "--floor") == 0 && atoi(argv[2]) > 0) return Floor(atoi(argv[2]));
  if (argc >= 3 && atoi(argv[1]) > 0) {
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return perror("readlink /proc/self/exe"), 2;
    self[n] = '\0';
    return Run(atoi(argv[1]), argv + 2, argc - 2, self);
  }
  std::fprintf(stderr, "usage: lateness [--load] RUNS TIMEOUT [ARG...] | lateness [--load] --floor RUNS | "
                       "lateness --probe\n");
  return 2;
}
