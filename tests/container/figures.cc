// figures -- README's container figures, ours beside tini and dumb-init in one run (tools/bench/container runs it).
//
// Usage: figures table                     every scenario of scenarios.h for each init: a markdown table
//        figures window A B C D            issue 21's start-up window, TERMs lost by each init (and floor): comm
//                                          trigger in A bare-namespace and B runc trials, first-syscall trigger in
//                                          C and D
//        figures startup RUNS              `INIT true` as PID 1 under runc and in a bare PID namespace: median wall
//                                          time over RUNS (inits interleaved), and PID 1's peak RSS (VmHWM)
// Figures, not assertions: container_test and startup_window_test assert ours.
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "tests/container/runtime.h"
#include "tests/container/scenarios.h"
#include "tests/testing/run.h"

extern char** environ;

namespace container_testing {
namespace {

std::vector<Init> Inits() {
  std::vector<Init> inits;
  for (const Init& init : {Ours(), Tini(), DumbInit()}) {
    if (Installed(init)) inits.push_back(init);
  }
  return inits;
}

int Table() {
  const std::vector<Init> inits = Inits();
  const std::vector<std::pair<std::string, std::function<Outcome(const Init&)>>> rows = {
      {"`runc kill TERM`: exit status; the app's TERM count (app exits 42)", StopSignal},
      {"orphan storm of 1,000: status; zombies left", [](const Init& i) { return OrphanStorm(i, 1000); }},
      {"exit codes: true, false, not executable, not found, killed by USR1", ExitCodes},
      {"setsid daemon, `runc kill TERM` (ours: `--tree`)", SetsidDaemon},
      {"app ignores TERM, `runc kill TERM`, 5 s (ours: `-k 0.5`)", ImmuneToTerm},
      {"Ctrl-C on the terminal: status; INTs the app got", CtrlC},
      {"Ctrl-Z, then SIGCONT to the app: status; stopped?", CtrlZ},
      {"app runs `kill(0, TERM)`: status; TERMs the app got (app exits 0)", KillOwnGroup},
      {"`runc kill TSTP`, then `runc kill CONT`: status; stopped?", StopAndContinue},
  };
  std::vector<std::string> names, columns;
  for (const auto& row : rows) names.push_back(row.first);
  for (const Init& init : inits) columns.push_back(init.name);
  PrintTable(names, columns, [&](size_t r, size_t c) { return rows[r].second(inits[c]); });
  return 0;
}

// Lost TERMs per init, trigger and runtime; a trial counts as lost when PID 1 has not exited 0.5 s after the TERM.
int WindowFigures(const std::vector<int>& trials) {
  printf("| init | comm trigger, bare PID namespace | comm trigger, runc | first-syscall trigger, bare | "
         "first-syscall trigger, runc |\n|---|---:|---:|---:|---:|\n");
  std::vector<Init> inits = Inits();
  inits.push_back(Floor());
  for (const Init& init : inits) {
    printf("| %s |", init.name.c_str());
    int column = 0;
    for (const Trigger trigger : {Trigger::kComm, Trigger::kFirstSyscall}) {
      for (const Runtime runtime : {Runtime::kUnshare, Runtime::kRunc}) {
        WindowOptions options;
        options.runtime = runtime;
        options.trigger = trigger;
        options.trials = trials[column++];
        options.give_up_seconds = 0.5;
        const Window window = StartupWindow(init, options);
        if (!window.error.empty()) {
          printf(" %s |", MarkdownCell(window.error).c_str());
          continue;
        }
        std::string other;
        for (const auto& [status, count] : window.statuses) {
          if (status != 143) other += ", " + std::to_string(count) + " exited " + std::to_string(status);
        }
        printf(" %d lost in %d%s (%.1f ms/trial) |", window.lost, window.trials, other.c_str(),
               window.seconds * 1000 / std::max(window.trials, 1));
        fflush(stdout);
      }
    }
    printf("\n");
  }
  return 0;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

// `INIT true` as PID 1 of a fresh PID namespace, from clone to reaping: the init without runc's 100 ms.
double BareRun(const Init& init) {
  std::vector<std::string> args = init.host_prefix;
  args.insert(args.end(), {Ours().host_prefix[0], "true"});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const double start = Now();
  const pid_t pid = static_cast<pid_t>(syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, nullptr, nullptr, nullptr, nullptr));
  if (pid == 0) {
    execve(argv[0], argv.data(), environ);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? Now() - start : -1;
}

// PID 1's peak RSS in KiB once its command runs (`INIT sleep 1000`; /proc/PID/status VmHWM is the init's own
// image: wait4's ru_maxrss of an exec'd PID 1 would count runc's own init before the exec).
long PeakRss(const Init& init) {
  std::vector<std::string> args = init.prefix;
  args.insert(args.end(), {"/bin/sleep", "1000"});
  Container container({args});
  if (!container.Run().empty()) return -1;
  for (const double deadline = Now() + 5; Now() < deadline; usleep(2000)) {
    const pid_t child = container.Child();
    if (child > 0 && coreutils_testing::ReadFile("/proc/" + std::to_string(child) + "/comm") == "sleep\n") break;
  }
  const std::string status = coreutils_testing::ReadFile("/proc/" + std::to_string(container.pid()) + "/status");
  const size_t at = status.find("VmHWM:");
  return at == std::string::npos ? -1 : atol(status.c_str() + at + 6);
}

int Startup(int runs) {
  std::vector<Init> inits = {Ours(), Tini()};
  if (!Installed(inits[1])) {
    fprintf(stderr, "figures: tini-static is not installed\n");
    return 1;
  }
  std::vector<std::vector<double>> runc(2), bare(2);
  std::vector<std::vector<double>> rss(2);
  for (int round = 0; round < runs; ++round) {
    for (int i = 0; i < 2; ++i) {
      std::vector<std::string> args = inits[i].prefix;
      args.push_back("/bin/true");
      Container container({args});
      const double start = Now();
      if (!container.Run().empty() || container.Wait(10) != 0) return 1;
      runc[i].push_back(Now() - start);
      for (int repeat = 0; repeat < 10; ++repeat) bare[i].push_back(BareRun(inits[i]));
      if (round % 5 == 0) rss[i].push_back(PeakRss(inits[i]));
    }
  }
  printf("| `INIT true` as PID 1 | ours | tini-static | ours / tini |\n|---|---:|---:|---:|\n");
  const auto row = [](const char* name, const std::vector<std::vector<double>>& v, double scale, const char* unit) {
    const double a = Median(v[0]) * scale, b = Median(v[1]) * scale;
    printf("| %s | %.2f %s (p10-p90 %.2f-%.2f) | %.2f %s (p10-p90 %.2f-%.2f) | %.2f |\n", name, a, unit,
           Percentile(v[0], 0.1) * scale, Percentile(v[0], 0.9) * scale, b, unit, Percentile(v[1], 0.1) * scale,
           Percentile(v[1], 0.9) * scale, a / b);
  };
  row("runc run, until PID 1 is reaped (median)", runc, 1000, "ms");
  row("bare PID namespace, clone to reaping (median)", bare, 1000, "ms");
  row("PID 1's peak RSS (VmHWM, median)", rss, 1, "KiB");
  printf("\n%d runc runs and %d bare runs per init, interleaved; RSS from %zu runs.\n", runs, runs * 10,
         rss[0].size());
  return 0;
}

}  // namespace
}  // namespace container_testing

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  const std::string why = container_testing::RuncUnavailable();
  if (!why.empty()) {
    fprintf(stderr, "figures: %s\n", why.c_str());
    return 1;
  }
  if (mode == "table" && argc == 2) return container_testing::Table();
  if (mode == "window" && argc == 6) {
    return container_testing::WindowFigures({atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5])});
  }
  if (mode == "startup" && argc == 3) return container_testing::Startup(atoi(argv[2]));
  fprintf(stderr, "usage: figures table | figures window A B C D | figures startup RUNS\n");
  return 2;
}
