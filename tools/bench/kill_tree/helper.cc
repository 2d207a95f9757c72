// tools/bench/kill_tree/helper -- the trees and the floor for tools/bench/kill_tree/run (not a test).
//
//   helper tree flat|daemons N READY   the command: N children that wait in pause() (flat), or N double-forked
//                                      setsid daemons (daemons; each reparented to the nearest subreaper); creates
//                                      READY once all exist, then waits itself. Fork only, no exec: 1,000 daemons
//                                      are in place in well under a second.
//   helper floor DURATION COMMAND...   the floor: what a timeout with nothing to do but the cgroup would do.
//                                      Subreaper; a new cgroup v2 leaf; COMMAND forked into it (cgroup.procs);
//                                      at DURATION after start "1" into cgroup.kill by hand; reaps until ECHILD;
//                                      exits 137. Any -s option is ignored: cgroup.kill is KILL.
//   helper leaf [-s SIG] DURATION COMMAND...
//                                      a stand-in for timeout's cgroup backend until timeout has it, built from the
//                                      same library calls: subreaper, uucore::CgroupLeaf::Create(), Spawn() with
//                                      cgroup_fd (clone3 into the group), at DURATION CgroupLeaf::Signal(SIG)
//                                      (cgroup.kill for KILL; freeze, pidfds, thaw otherwise), reaps until ECHILD,
//                                      Remove(); exits 124, or 137 for KILL.
//   helper phases flat|daemons N SIG [ROUNDS]
//                                      where the cgroup backend's time goes: subreaper, a leaf, `helper tree`
//                                      started in it; per round, for KILL "kill_ms reaped_ms" (cgroup.kill, then
//                                      until the last one is reaped), for other signals "freeze_ms list_ms signal_ms
//                                      thaw_ms reaped_ms" (Signal()'s steps one by one: Freeze(true), Procs(),
//                                      kill() SIG and CONT each, Freeze(false), then until the last one is reaped),
//                                      each from the step before.
//   helper phases-unfrozen flat|daemons N SIG [ROUNDS]
//                                      the same without the freeze, for comparison only (not exact: a process
//                                      forked during the loop is missed): "0 list_ms signal_ms 0 reaped_ms", one
//                                      kill() SIG each (KILL too) and no CONT. What one system call per process costs by
//                                      itself, which is all a signal other than KILL can use for processes in
//                                      separate process groups.
//   helper proc flat|daemons N SIG files|scan|auto [ROUNDS]
//                                      uucore::SignalDescendants() alone: becomes subreaper, builds the tree, and
//                                      prints per round "signal_ms reaped_ms signalled" (SignalDescendants, then
//                                      until the last one is reaped).
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "uucore/cgroup.h"
#include "uucore/process.h"
#include "uucore/process_tree.h"
#include "uucore/signals.h"

namespace {

// A copy of tests/testing's Now(): that library is testonly and not visible to tools/, and this is no test.
double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

[[noreturn]] void Die(const char* what) {
  fprintf(stderr, "helper: %s: %s\n", what, strerror(errno));
  exit(2);
}

int Tree(const std::string& shape, int n, const char* ready) {
  for (int i = 0; i < n; ++i) {
    const pid_t pid = fork();
    if (pid < 0) Die("fork");
    if (pid > 0) continue;
    if (shape == "daemons") {
      setsid();
      if (fork() != 0) _exit(0);  // The daemon is the grandchild, orphaned at once.
    }
    for (;;) pause();
  }
  // Daemons: each intermediate child has forked its daemon before exiting; once all are reaped, all daemons exist.
  // (Reaped after the loop, not one by one: waiting for each exit costs a scheduling round trip per daemon.)
  if (shape == "daemons") {
    for (int i = 0; i < n; ++i) {
      while (waitpid(-1, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
  const int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) Die("open READY");
  close(fd);
  for (;;) pause();
}

void Sleep(double seconds) {
  timespec ts = {static_cast<time_t>(seconds), static_cast<long>((seconds - static_cast<time_t>(seconds)) * 1e9)};
  while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR) {
  }
}

int Floor(double duration, char** command) {
  const double start = Now();
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) Die("prctl");
  absl::StatusOr<uucore::Cgroup2Location> where = uucore::FindCgroup2();
  if (!where.ok()) {
    fprintf(stderr, "helper: %s\n", std::string(where.status().message()).c_str());
    return 125;
  }
  const std::string dir = where->own_dir + "/kill-tree-floor." + std::to_string(getpid());
  if (mkdir(dir.c_str(), 0755) != 0) Die("mkdir cgroup");
  const pid_t child = fork();
  if (child == 0) {
    const int fd = open((dir + "/cgroup.procs").c_str(), O_WRONLY);
    if (fd < 0 || write(fd, "0", 1) != 1) _exit(125);
    close(fd);
    execvp(command[0], command);
    _exit(127);
  }
  const int kill_fd = open((dir + "/cgroup.kill").c_str(), O_WRONLY | O_CLOEXEC);
  if (kill_fd < 0) Die("open cgroup.kill");
  Sleep(start + duration - Now());
  if (write(kill_fd, "1", 1) != 1) Die("write cgroup.kill");
  while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
  }
  close(kill_fd);
  rmdir(dir.c_str());
  return 137;
}

int Leaf(int sig, double duration, char** command) {
  const double start = Now();
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) Die("prctl");
  absl::StatusOr<uucore::Cgroup2Location> where = uucore::FindCgroup2();
  absl::StatusOr<uucore::CgroupLeaf> leaf =
      where.ok() ? uucore::CgroupLeaf::Create(*where, "kill-tree-leaf") : absl::StatusOr<uucore::CgroupLeaf>(where.status());
  if (!leaf.ok()) {
    fprintf(stderr, "helper: %s\n", std::string(leaf.status().message()).c_str());
    return 125;
  }
  uucore::SpawnOptions spawn;
  spawn.cgroup_fd = leaf->dir_fd();
  absl::StatusOr<pid_t> child = uucore::Spawn(command, spawn);
  if (!child.ok()) {
    fprintf(stderr, "helper: %s\n", std::string(child.status().message()).c_str());
    return 125;
  }
  Sleep(start + duration - Now());
  absl::StatusOr<int> signalled = leaf->Signal(sig);
  if (!signalled.ok()) fprintf(stderr, "helper: %s\n", std::string(signalled.status().message()).c_str());
  while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
  }
  (void)leaf->Remove();
  return sig == SIGKILL ? 137 : 124;
}

// Starts `helper tree SHAPE N READY` (SELF) with `spawn` and waits for READY, then lets the tree settle.
absl::StatusOr<pid_t> StartTree(const std::string& shape, int n, const char* self, const uucore::SpawnOptions& spawn) {
  const std::string ready = "/tmp/kill-tree-helper-ready." + std::to_string(getpid());
  unlink(ready.c_str());
  const std::string count = std::to_string(n);
  const char* argv[] = {self, "tree", shape.c_str(), count.c_str(), ready.c_str(), nullptr};
  absl::StatusOr<pid_t> child = uucore::Spawn(const_cast<char* const*>(argv), spawn);
  if (!child.ok()) return child;
  while (access(ready.c_str(), F_OK) != 0) usleep(10000);
  unlink(ready.c_str());
  usleep(200000);  // Let the tree settle (the last daemons' intermediate children exit).
  return child;
}

int Phases(const std::string& shape, int n, int sig, int rounds, const char* self, bool freeze) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) Die("prctl");
  absl::StatusOr<uucore::Cgroup2Location> where = uucore::FindCgroup2();
  if (!where.ok()) {
    fprintf(stderr, "helper: %s\n", std::string(where.status().message()).c_str());
    return 125;
  }
  for (int round = 0; round < rounds; ++round) {
    absl::StatusOr<uucore::CgroupLeaf> leaf = uucore::CgroupLeaf::Create(*where, "kill-tree-phases");
    if (!leaf.ok()) {
      fprintf(stderr, "helper: %s\n", std::string(leaf.status().message()).c_str());
      return 125;
    }
    uucore::SpawnOptions spawn;
    spawn.cgroup_fd = leaf->dir_fd();
    if (!StartTree(shape, n, self, spawn).ok()) Die("spawn");
    std::vector<double> at = {Now()};
    bool ok = true;
    if (!freeze) {
      at.push_back(Now());  // No freeze: the columns stay those of the frozen rounds.
      absl::StatusOr<std::vector<pid_t>> procs = leaf->Procs();
      at.push_back(Now());
      ok = procs.ok();
      for (pid_t pid : procs.ok() ? *procs : std::vector<pid_t>()) (void)kill(pid, sig);
      at.push_back(Now());
      at.push_back(Now());  // No thaw.
    } else if (sig == SIGKILL) {
      ok = leaf->Kill().ok();
      at.push_back(Now());
    } else {
      ok = leaf->Freeze(true).ok();
      at.push_back(Now());
      absl::StatusOr<std::vector<pid_t>> procs = leaf->Procs();
      at.push_back(Now());
      ok = ok && procs.ok();
      for (pid_t pid : procs.ok() ? *procs : std::vector<pid_t>()) {
        (void)kill(pid, sig);
        (void)kill(pid, SIGCONT);
      }
      at.push_back(Now());
      ok = leaf->Freeze(false).ok() && ok;
      at.push_back(Now());
    }
    while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
    at.push_back(Now());
    if (!ok) fprintf(stderr, "helper: a step failed in round %d\n", round);
    for (size_t i = 1; i < at.size(); ++i) printf("%s%.2f", i > 1 ? " " : "", (at[i] - at[i - 1]) * 1e3);
    printf("\n");
    fflush(stdout);
    (void)leaf->Remove();
  }
  return 0;
}

int Proc(const std::string& shape, int n, int sig, const std::string& how_name, int rounds, const char* self) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) Die("prctl");
  const uucore::Enumeration how = how_name == "files"  ? uucore::Enumeration::kChildrenFiles
                                  : how_name == "scan" ? uucore::Enumeration::kProcScan
                                                       : uucore::Enumeration::kAuto;
  for (int round = 0; round < rounds; ++round) {
    if (!StartTree(shape, n, self, uucore::SpawnOptions()).ok()) Die("spawn");
    const double t0 = Now();
    absl::StatusOr<int> signalled = uucore::SignalDescendants(getpid(), sig, how);
    const double t1 = Now();
    while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
    const double t2 = Now();
    printf("%.1f %.1f %d\n", (t1 - t0) * 1e3, (t2 - t0) * 1e3, signalled.ok() ? *signalled : -1);
    fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  const std::string mode = argc > 1 ? argv[1] : "";
  int n = 0;
  if (mode == "tree" && argc == 5 && absl::SimpleAtoi(argv[3], &n)) return Tree(argv[2], n, argv[4]);
  if (mode == "floor" && argc >= 4) {
    int at = 2;
    if (std::string(argv[at]) == "-s") at += 2;  // The signal is cgroup.kill's: KILL.
    double duration;
    if (at + 1 < argc && absl::SimpleAtod(argv[at], &duration)) return Floor(duration, argv + at + 1);
  }
  if (mode == "leaf" && argc >= 4) {
    int at = 2, sig = SIGTERM;
    if (std::string(argv[at]) == "-s" && at + 1 < argc) {
      absl::StatusOr<int> parsed = uucore::ParseSignal(argv[at + 1]);
      if (!parsed.ok()) return 2;
      sig = *parsed;
      at += 2;
    }
    double duration;
    if (at + 1 < argc && absl::SimpleAtod(argv[at], &duration)) return Leaf(sig, duration, argv + at + 1);
  }
  if ((mode == "phases" || mode == "phases-unfrozen") && (argc == 5 || argc == 6) && absl::SimpleAtoi(argv[3], &n)) {
    absl::StatusOr<int> sig = uucore::ParseSignal(argv[4]);
    int rounds = 1;
    if (argc == 6 && !absl::SimpleAtoi(argv[5], &rounds)) rounds = 1;
    if (sig.ok()) return Phases(argv[2], n, *sig, rounds, "/proc/self/exe", mode == "phases");
  }
  if (mode == "proc" && (argc == 6 || argc == 7) && absl::SimpleAtoi(argv[3], &n)) {
    absl::StatusOr<int> sig = uucore::ParseSignal(argv[4]);
    int rounds = 1;
    if (argc == 7 && !absl::SimpleAtoi(argv[6], &rounds)) rounds = 1;
    if (sig.ok()) return Proc(argv[2], n, *sig, argv[5], rounds, "/proc/self/exe");
  }
  fprintf(stderr, "usage: helper tree flat|daemons N READY | floor [-s SIG] DURATION COMMAND... | "
                  "leaf [-s SIG] DURATION COMMAND... | phases[-unfrozen] flat|daemons N SIG [ROUNDS] | "
                  "proc flat|daemons N SIG files|scan|auto [ROUNDS]\n");
  return 2;
}
