#include "uucore/process_tree.h"

#include <errno.h>
#include <linux/kcmp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"
#include "tests/testing/status_matchers.h"
#include "uucore/process_tree_testing.h"

namespace uucore {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::Now;
using ::coreutils_testing::StatusIs;

// Waits (up to `seconds`) until ListDescendants sees `count` live descendants.
std::vector<pid_t> AwaitDescendants(size_t count, Enumeration how, double seconds = 20) {
  const double end = Now() + seconds;
  std::vector<pid_t> found;
  while (Now() < end) {
    absl::StatusOr<std::vector<pid_t>> listed = ListDescendants(getpid(), how);
    if (listed.ok()) found = *listed;
    if (found.size() >= count) break;
    usleep(10000);
  }
  return found;
}

// Reaps everything until ECHILD; false if children were still there after `seconds`.
bool ReapAllWithin(double seconds) {
  const double end = Now() + seconds;
  while (Now() < end) {
    absl::StatusOr<Reaped> r = ReapChildren(-1);
    if (!r.ok()) return false;
    if (!r->children_left) return true;
    usleep(10000);
  }
  return false;
}

TEST_F(ProcessTreeTest, OrphansComeBackToTheSubreaper) {
  const pid_t sh = RunShell("sleep 100 & echo $! > /dev/null; exit 0");
  int status;
  ASSERT_EQ(waitpid(sh, &status, 0), sh);
  std::vector<pid_t> found = AwaitDescendants(1, Enumeration::kProcScan);
  ASSERT_EQ(found.size(), 1u);
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", found[0]);
  FILE* stat = fopen(path, "r");
  ASSERT_NE(stat, nullptr);
  int pid = 0, ppid = 0;
  char state = 0;
  EXPECT_EQ(fscanf(stat, "%d (%*[^)]) %c %d", &pid, &state, &ppid), 3);
  fclose(stat);
  EXPECT_EQ(ppid, getpid());  // Reparented to us, not to init.
}

TEST_F(ProcessTreeTest, ListsDaemonsThatLeftTheSessionByEveryMethod) {
  // A double fork with setsid: the classic daemon, in neither our group nor our session.
  const std::string ready = Marker();
  RunShell("setsid sh -c 'sleep 100 & exit 0'; sleep 100 & : > " + ready + "; wait");
  ASSERT_TRUE(AwaitFile(ready));
  for (Enumeration how : {Enumeration::kAuto, Enumeration::kProcScan, Enumeration::kChildrenFiles}) {
    if (how == Enumeration::kChildrenFiles && !HasChildrenFiles()) {
      EXPECT_THAT(ListDescendants(getpid(), how), StatusIs(absl::StatusCode::kNotFound));
      continue;
    }
    // sh, the daemon's sleep (reparented to us once its setsid sh exits), and sh's own sleep.
    std::vector<pid_t> found = AwaitDescendants(3, how);
    EXPECT_EQ(found.size(), 3u) << static_cast<int>(how);
  }
}

TEST_F(ProcessTreeTest, SignalZeroSignalsNobody) {
  RunShell("exec sleep 100");  // exec: dash would fork sleep, and the count below would race with that fork
  ASSERT_EQ(AwaitDescendants(1, Enumeration::kAuto).size(), 1u);
  EXPECT_EQ(*SignalDescendants(getpid(), 0), 0);
  absl::StatusOr<Reaped> r = ReapChildren(-1);
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_TRUE(r->children_left);
}

INSTANTIATE_TEST_SUITE_P(Enumerations, SignalTreeTest,
                         testing::Values(Enumeration::kAuto, Enumeration::kChildrenFiles, Enumeration::kProcScan));

TEST_P(SignalTreeTest, TermReachesEveryDescendantIncludingDaemons) {
  const std::string ready = Marker();
  RunShell("setsid sh -c 'sleep 100 & sleep 100 & exit 0'; (sleep 100 &); sleep 100 & : > " + ready + "; wait");
  ASSERT_TRUE(AwaitFile(ready));
  ASSERT_EQ(AwaitDescendants(5, GetParam()).size(), 5u);
  absl::StatusOr<int> n = SignalDescendants(getpid(), SIGTERM, GetParam());
  ASSERT_THAT(n.status(), IsOk());
  EXPECT_EQ(*n, 5);
  EXPECT_TRUE(ReapAllWithin(20));
}

TEST_P(SignalTreeTest, KillReachesATreeThatKeepsForking) {
  // Forks as fast as it can: only repeated passes (or a freeze) catch every new child.
  RunShell("i=0; while [ $i -lt 2000 ]; do sleep 100 & i=$((i+1)); done; wait");
  ASSERT_GE(AwaitDescendants(20, GetParam()).size(), 20u);
  absl::StatusOr<int> n = SignalDescendants(getpid(), SIGKILL, GetParam());
  ASSERT_THAT(n.status(), IsOk());
  EXPECT_GE(*n, 20);
  EXPECT_TRUE(ReapAllWithin(20));
}

TEST_P(SignalTreeTest, FreezingCatchesATermImmuneForker) {
  // The forker ignores TERM, its children do not: after the freeze it is the only survivor.
  RunShell("trap '' TERM; i=0; while [ $i -lt 2000 ]; do sh -c 'sleep 100' & i=$((i+1)); done; wait");
  ASSERT_GE(AwaitDescendants(10, GetParam()).size(), 10u);
  ASSERT_THAT(SignalDescendants(getpid(), SIGTERM, GetParam()).status(), IsOk());
  // The survivor was continued (not left stopped): it goes on forking, and KILL ends it all.
  usleep(100000);
  absl::StatusOr<std::vector<pid_t>> left = ListDescendants(getpid(), GetParam());
  ASSERT_THAT(left.status(), IsOk());
  EXPECT_GE(left->size(), 1u);
  ASSERT_THAT(SignalDescendants(getpid(), SIGKILL, GetParam()).status(), IsOk());
  EXPECT_TRUE(ReapAllWithin(20));
}

// kChildrenFiles reads one children file for a single-threaded process; a process with threads has one per thread,
// and what a second thread forks is listed only in that thread's file.
TEST_P(SignalTreeTest, ChildrenForkedByAnotherThreadAreFound) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(ready[0]);
    static int ready_fd;
    ready_fd = ready[1];
    pthread_t thread;
    pthread_create(
        &thread, nullptr,
        [](void*) -> void* {
          const pid_t child = fork();
          if (child == 0) {
            for (;;) pause();
          }
          (void)!write(ready_fd, "x", 1);
          for (;;) pause();
        },
        nullptr);
    for (;;) pause();
  }
  close(ready[1]);
  char byte;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  close(ready[0]);
  absl::StatusOr<std::vector<pid_t>> listed = ListDescendants(getpid(), GetParam());
  ASSERT_THAT(listed.status(), IsOk());
  EXPECT_EQ(listed->size(), 2u);
  absl::StatusOr<int> n = SignalDescendants(getpid(), SIGTERM, GetParam());
  ASSERT_THAT(n.status(), IsOk());
  EXPECT_EQ(*n, 2);
  EXPECT_TRUE(ReapAllWithin(20));
}

// A flat tree of 300 and a chain of daemons under TERM and KILL: every one signalled once, none left.
TEST_P(SignalTreeTest, EveryProcessOfAWideTreeIsSignalledOnce) {
  for (int sig : {SIGTERM, SIGKILL}) {
    const std::string ready = Marker();
    RunShell("i=0; while [ $i -lt 300 ]; do sleep 100 & i=$((i+1)); done; "
             "i=0; while [ $i -lt 20 ]; do setsid sh -c 'sleep 100 &'; i=$((i+1)); done; : > " + ready + "; wait");
    ASSERT_TRUE(AwaitFile(ready));
    ASSERT_EQ(AwaitDescendants(321, GetParam()).size(), 321u);
    absl::StatusOr<int> n = SignalDescendants(getpid(), sig, GetParam());
    ASSERT_THAT(n.status(), IsOk());
    EXPECT_EQ(*n, 321) << sig;
    EXPECT_TRUE(ReapAllWithin(20)) << sig;
  }
}

// A small file's text ("" if it cannot be read).
std::string ReadFile(const std::string& path) {
  FILE* f = fopen(path.c_str(), "r");
  if (f == nullptr) return "";
  char buf[512] = {};
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  return std::string(buf, n);
}

// /proc/PID/stat's state letter, or '?' once the process is gone.
char StateOf(pid_t pid) {
  const std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
  const size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() ? stat[paren + 2] : '?';
}

// kLeave: a descendant stopped before the walk is stopped after it (the walk's own SIGSTOP is undone for the
// others); kContinue (the default) continues it. WINCH is ignored by default.
TEST_P(SignalTreeTest, LeaveKeepsAStoppedDescendantStopped) {
  const std::string ready = Marker();
  RunShell("sleep 100 & kill -STOP $!; : > " + ready + "; exec sleep 100");
  ASSERT_TRUE(AwaitFile(ready));
  std::vector<pid_t> tree = AwaitDescendants(2, GetParam());
  ASSERT_EQ(tree.size(), 2u);
  const double end = Now() + 20;
  while (StateOf(tree[0]) != 'T' && StateOf(tree[1]) != 'T' && Now() < end) usleep(10000);  // Until STOP lands.
  const pid_t stopped = StateOf(tree[0]) == 'T' ? tree[0] : tree[1];
  const pid_t running = stopped == tree[0] ? tree[1] : tree[0];
  ASSERT_EQ(StateOf(stopped), 'T');
  ASSERT_THAT(SignalDescendants(getpid(), SIGWINCH, GetParam(), StoppedProcesses::kLeave).status(), IsOk());
  EXPECT_EQ(StateOf(stopped), 'T');
  // Continued from the walk's own STOP: runnable for an instant, then asleep.
  while (StateOf(running) != 'S' && Now() < end) usleep(10000);
  EXPECT_EQ(StateOf(running), 'S');
  ASSERT_THAT(SignalDescendants(getpid(), SIGWINCH, GetParam()).status(), IsOk());
  while (StateOf(stopped) != 'S' && Now() < end) usleep(10000);
  EXPECT_EQ(StateOf(stopped), 'S');
}

// A stop signal (TSTP, TTIN, TTOU) stops the tree: the CONT that undoes the walk's own STOP used to come after it,
// and SIGCONT discards pending stop signals, so the descendants ran on.
TEST_P(SignalTreeTest, AStopSignalStopsTheTree) {
  RunShell("exec sleep 100");
  std::vector<pid_t> tree = AwaitDescendants(1, GetParam());
  ASSERT_EQ(tree.size(), 1u);
  for (int sig : {SIGTSTP, SIGTTIN, SIGTTOU}) {
    absl::StatusOr<int> n = SignalDescendants(getpid(), sig, GetParam(), StoppedProcesses::kLeave);
    ASSERT_THAT(n.status(), IsOk());
    EXPECT_EQ(*n, 1);
    const double end = Now() + 20;
    while (StateOf(tree[0]) != 'T' && Now() < end) usleep(10000);
    EXPECT_EQ(StateOf(tree[0]), 'T') << sig;
    ASSERT_EQ(kill(tree[0], SIGCONT), 0);
    while (StateOf(tree[0]) != 'S' && Now() < end) usleep(10000);
    ASSERT_EQ(StateOf(tree[0]), 'S') << sig;
  }
}

// Forks for ever, each child KILLed and reaped at once.
[[noreturn]] void ForkForEver() {
  for (;;) {
    const pid_t child = fork();
    if (child == 0) {
      for (;;) pause();
    }
    if (child > 0) {
      kill(child, SIGKILL);
      waitpid(child, nullptr, 0);
    }
  }
}

// A child of ours that leads a process group of its own in our session (see AStopSignalLeavesNoForkedChildRunning)
// and runs `body`, which returns only if its set-up failed (the child then exits 1).
pid_t StartForker(void (*body)()) {
  const pid_t forker = fork();
  if (forker == 0) {
    setpgid(0, 0);
    body();
    _exit(1);
  }
  return forker;
}

// Stops the tree under `forker` 300 times, by TSTP and STOP in turn, and checks each time that every process in it
// is stopped (or gone), then continues it.
void ExpectEveryStopToStopTheForker(pid_t forker, Enumeration how) {
  ASSERT_GT(forker, 0);
  ASSERT_GE(AwaitDescendants(1, how).size(), 1u);  // The forker, and maybe a child of it already.
  for (int round = 0; round < 300; ++round) {
    const int sig = round % 2 == 0 ? SIGTSTP : SIGSTOP;
    ASSERT_THAT(SignalDescendants(getpid(), sig, how, StoppedProcesses::kLeave).status(), IsOk());
    absl::StatusOr<std::vector<pid_t>> tree = ListDescendants(getpid(), how);
    ASSERT_THAT(tree.status(), IsOk());
    for (pid_t pid : *tree) {
      const double end = Now() + 2;  // For a stop on its way to land; a process left running never stops.
      while (StateOf(pid) != 'T' && StateOf(pid) != '?' && StateOf(pid) != 'Z' && Now() < end) usleep(1000);
      const char state = StateOf(pid);
      EXPECT_TRUE(state == 'T' || state == '?' || state == 'Z') << "round " << round << ": " << pid << " " << state
                                                                 << " after " << (sig == SIGSTOP ? "STOP" : "TSTP");
    }
    if (testing::Test::HasFailure()) break;
    ASSERT_THAT(SignalDescendants(getpid(), SIGCONT, how, StoppedProcesses::kLeave).status(), IsOk());
    usleep(1000);
  }
}

// A tree that keeps forking is stopped whole, by TSTP (a process that takes it at its default action stays stopped
// from the walk's own STOP) and by STOP. Two ways a child ran on: a process continued, then sent TSTP, forked between
// the two (25 of 150 rounds); and a fork under way when the walk's STOP came ended after the walk's last look at the
// parent's children (a STOP sent to one process does not restart a fork, only a fatal or group-wide signal does): the
// walk now reads children only of a process it has seen stopped. The forker leads a process group of its own in our
// session, so that the group is not orphaned (the kernel discards TSTP for an orphaned group, as under a test runner
// that starts us in a session of our own). It is not a shell: dash blocks every signal now and then, and a process
// that blocks TSTP runs on, and forks, until it unblocks it, with either backend and without --tree, as the kernel
// has it.
TEST_P(SignalTreeTest, AStopSignalLeavesNoForkedChildRunning) {
  ExpectEveryStopToStopTheForker(StartForker(ForkForEver), GetParam());
}

// The same with a forker whose forks come from a second thread while the main thread sleeps: a process is stopped
// only once every thread is (the main thread's 'T', which /proc/PID/stat shows, can come while another thread is
// still inside a fork).
TEST_P(SignalTreeTest, AStopSignalLeavesNoChildOfAForkingThreadRunning) {
  const pid_t forker = StartForker([] {
    pthread_t thread;
    if (pthread_create(&thread, nullptr, [](void*) -> void* { ForkForEver(); }, nullptr) != 0) return;
    for (;;) pause();
  });
  ExpectEveryStopToStopTheForker(forker, GetParam());
}

// The same with a third thread asleep in vfork for good (its child stops itself before exec) beside the forking
// one, while a thread of ours reads the forker's smaps_rollup, as monitoring tools do: that holds its memory map's
// lock, so the forking thread often sleeps ('D') inside its fork, its child not yet linked. The vfork thread counts
// as frozen by its wchan; the forking thread used to count too, by the vfork child that shares the process's memory,
// though it was inside a fork of its own.
TEST_P(SignalTreeTest, AStopSignalLeavesNoChildRunningBesideAVforkWait) {
  const pid_t forker = StartForker([] {
    pthread_t thread;
    if (pthread_create(&thread, nullptr, [](void*) -> void* {
          if (vfork() == 0) {
            for (;;) raise(SIGSTOP);  // Each round's CONT walk continues it: it stops again at once.
          }
          return nullptr;
        }, nullptr) != 0) {
      return;
    }
    // A large populated mapping: each fork copies its page tables, so forks take long enough to be caught in.
    const size_t size = 256 << 20;
    if (mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) == MAP_FAILED) {
      return;
    }
    if (pthread_create(&thread, nullptr, [](void*) -> void* { ForkForEver(); }, nullptr) != 0) return;
    for (;;) pause();
  });
  std::atomic<bool> done{false};
  std::thread reader([forker, &done] {
    const std::string path = "/proc/" + std::to_string(forker) + "/smaps_rollup";
    char buf[8192];
    while (!done) {
      FILE* f = fopen(path.c_str(), "r");
      if (f == nullptr) break;
      while (fread(buf, 1, sizeof buf, f) > 0) {
      }
      fclose(f);
    }
  });
  ExpectEveryStopToStopTheForker(forker, GetParam());
  done = true;
  reader.join();
}

// The main thread exits and another thread runs on: /proc shows the process as a zombie ('Z'), yet it is alive,
// and a tree walk that skipped zombies left it running (timeout --tree would then wait for it for ever).
TEST_F(ProcessTreeTest, AProcessWhoseMainThreadExitedIsStillADescendant) {
  const pid_t pid = fork();
  if (pid == 0) {
    pthread_t thread;
    if (pthread_create(&thread, nullptr, [](void*) -> void* { for (;;) pause(); }, nullptr) != 0) _exit(1);
    syscall(SYS_exit, 0);  // this thread only; pthread_exit would unwind into gtest's handlers in this fork child
  }
  const double end = Now() + 20;
  while (StateOf(pid) != 'Z' && Now() < end) usleep(10000);
  ASSERT_EQ(StateOf(pid), 'Z');
  for (Enumeration how : {Enumeration::kAuto, Enumeration::kProcScan}) {
    absl::StatusOr<std::vector<pid_t>> listed = ListDescendants(getpid(), how);
    ASSERT_THAT(listed.status(), IsOk());
    EXPECT_EQ(*listed, std::vector<pid_t>{pid});
  }
  absl::StatusOr<int> n = SignalDescendants(getpid(), SIGKILL);
  ASSERT_THAT(n.status(), IsOk());
  EXPECT_EQ(*n, 1);
  EXPECT_TRUE(ReapAllWithin(20));
}

// SIGTERM to our descendants: `count` signalled, well within the walk's 5 s bound (2.5 s: `why` it would not be),
// and all reaped afterwards.
void ExpectTermWithoutWaiting(Enumeration how, int count, const char* why) {
  const double start = Now();
  absl::StatusOr<int> n = SignalDescendants(getpid(), SIGTERM, how);
  const double seconds = Now() - start;
  ASSERT_THAT(n.status(), IsOk());
  EXPECT_EQ(*n, count);
  EXPECT_LT(seconds, 2.5) << why;
  EXPECT_TRUE(ReapAllWithin(20));
}

// Zombies the caller has not reaped yet (it is busy signalling) have nothing left to signal or wait for: the call
// returns at once, signalling the live ones only. It used to wait for them to go until its 5 s bound.
TEST_P(SignalTreeTest, UnreapedZombiesAreNotWaitedFor) {
  const std::string ready = Marker();
  for (int i = 0; i < 3; ++i) {
    const pid_t zombie = fork();
    if (zombie == 0) _exit(0);
    siginfo_t info;
    // Until it has exited (a zombie), without reaping it: under ASan a child takes a while to get to _exit.
    while (waitid(P_PID, zombie, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
  }
  RunShell("sleep 100 & : > " + ready + "; wait");
  ASSERT_TRUE(AwaitFile(ready));
  ASSERT_EQ(AwaitDescendants(2, GetParam()).size(), 2u);  // sh and sleep: ListDescendants skips zombies.
  ExpectTermWithoutWaiting(GetParam(), 2, "waited for zombies nobody could reap meanwhile");
}

// A process that vforks a child that stops itself before exec: the parent sleeps ('D') in vfork until the child
// execs or exits. Waits until both are in place; returns the parent, `child` set.
pid_t StartVforkParent(pid_t* child) {
  const pid_t parent = fork();
  if (parent == 0) {
    if (vfork() == 0) {
      raise(SIGSTOP);  // Stopped before exec: the parent sleeps in vfork until it is continued or killed.
      _exit(0);
    }
    _exit(0);
  }
  const double end = Now() + 20;
  *child = 0;
  while (Now() < end) {
    absl::StatusOr<std::vector<pid_t>> tree = ListDescendants(getpid(), Enumeration::kProcScan);
    if (tree.ok() && tree->size() == 2) *child = (*tree)[0] == parent ? (*tree)[1] : (*tree)[0];
    // wchan names a function once the parent is off the run queue: "0" while it is still on it, having set its
    // state to D but not yet switched away (preempted there on a busy machine).
    if (*child != 0 && StateOf(parent) == 'D' && StateOf(*child) == 'T' &&
        ReadFile("/proc/" + std::to_string(parent) + "/wchan") != "0") {
      break;
    }
    usleep(10000);
  }
  return parent;
}

TEST_F(ProcessTreeTest, AVforkParentIsToldFromOtherSleepers) {
  pid_t child;
  const pid_t parent = StartVforkParent(&child);
  ASSERT_EQ(StateOf(parent), 'D');
  ASSERT_EQ(StateOf(child), 'T');
  EXPECT_TRUE(process_tree_internal::SleepsInVfork(parent, parent))
      << "wchan " << ReadFile("/proc/" + std::to_string(parent) + "/wchan");
  // kcmp may be refused here (EPERM under a container runtime's default seccomp profile): then it says nothing.
  if (syscall(SYS_kcmp, getpid(), getpid(), KCMP_VM, 0, 0) == 0) {
    EXPECT_TRUE(process_tree_internal::SharesMemoryWithAChild(parent, {child}));
  }
  // A shell waiting for its forked child: asleep elsewhere, memory of its own.
  const std::string ready = Marker();
  const pid_t shell = RunShell("sleep 100 & : > " + ready + "; wait");
  ASSERT_TRUE(AwaitFile(ready));
  std::vector<pid_t> tree = AwaitDescendants(4, Enumeration::kProcScan);
  ASSERT_EQ(tree.size(), 4u);
  const pid_t sleeper = *std::find_if(tree.begin(), tree.end(),
                                      [&](pid_t pid) { return pid != parent && pid != child && pid != shell; });
  EXPECT_FALSE(process_tree_internal::SleepsInVfork(shell, shell));
  EXPECT_FALSE(process_tree_internal::SharesMemoryWithAChild(shell, {sleeper}));
}

// The vfork parent's fork is over (the child is listed) and it can fork no more before the STOP lands: the walk goes
// on at once, as for a stopped process. It used to wait for the parent to be seen stopped until its 5 s bound
// (timeout --tree's WINCH took 5.5 s when a shell was in vfork to run a command).
TEST_P(SignalTreeTest, AParentWaitingForItsVforkChildIsNotWaitedFor) {
  pid_t child;
  const pid_t parent = StartVforkParent(&child);
  ASSERT_EQ(StateOf(parent), 'D');
  ASSERT_EQ(StateOf(child), 'T');
  ExpectTermWithoutWaiting(GetParam(), 2, "waited for a vfork parent to be seen stopped");
}

// A child whose exit signal is not SIGCHLD (clone(2) with exit signal 0; a caller can leave one to us through exec)
// is reaped too, not left a zombie for good.
TEST_F(ProcessTreeTest, ReapChildrenReapsACloneChild) {
  const long pid = syscall(SYS_clone, 0L, nullptr, nullptr, nullptr, nullptr);  // No flags: exit signal 0.
  if (pid == 0) _exit(0);
  ASSERT_GT(pid, 0);
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | __WALL), 0);  // A zombie now.
  absl::StatusOr<Reaped> r = ReapChildren(-1);
  ASSERT_THAT(r.status(), IsOk());
  EXPECT_EQ(r->others, 1);
  EXPECT_FALSE(r->children_left);
  EXPECT_NE(access(("/proc/" + std::to_string(pid)).c_str(), F_OK), 0) << "still there";
}

TEST_F(ProcessTreeTest, ReapChildrenReportsTheWatchedChildAndOthers) {
  const pid_t watched = RunShell("exit 7");
  RunShell("exit 0");
  RunShell("exit 0");
  const double end = Now() + 20;
  std::optional<int> status;
  int others = 0;
  bool left = true;
  while (Now() < end && left) {
    absl::StatusOr<Reaped> r = ReapChildren(watched);
    ASSERT_THAT(r.status(), IsOk());
    if (r->watched.has_value()) status = r->watched;
    others += r->others;
    left = r->children_left;
    usleep(10000);
  }
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(WEXITSTATUS(*status), 7);
  EXPECT_EQ(others, 2);
  EXPECT_FALSE(left);
}

}  // namespace
}  // namespace uucore
