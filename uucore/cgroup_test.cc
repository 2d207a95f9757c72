#include "uucore/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "tests/testing/run.h"
#include "tests/testing/status_matchers.h"
#include "uucore/process_tree.h"
#include "uucore/process_tree_testing.h"

namespace uucore {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::Now;
using ::coreutils_testing::StatusIs;

struct FindCase {
  const char* name;
  const char* mountinfo;
  const char* cgroup;
  const char* mount_point;  // nullptr: an error is expected, with this message
  const char* own_dir_or_error;
};

TEST(FindCgroup2Test, ParsesMountinfoAndProcSelfCgroup) {
  const FindCase cases[] = {
      {"hybrid layout (this machine)",
       "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
       "31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
       "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
       "1:cpu:/\n0::/\n", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/unified"},
      {"pure v2, optional fields, a session scope",
       "36 35 98:0 / /sys/fs/cgroup rw,nosuid shared:9 master:1 - cgroup2 cgroup2 rw,nsdelegate\n",
       "0::/user.slice/user-1000.slice/session-2.scope\n", "/sys/fs/cgroup",
       "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope"},
      {"a subtree mounted (container): the path is taken relative to the mount's root",
       "50 40 0:37 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n", "0::/docker/abc/sub\n", "/sys/fs/cgroup",
       "/sys/fs/cgroup/sub"},
      {"the mount's root is exactly our group", "50 40 0:37 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n",
       "0::/docker/abc\n", "/sys/fs/cgroup", "/sys/fs/cgroup"},
      {"a root that is only a string prefix does not count; the next mount does",
       "50 40 0:37 /doc /a - cgroup2 cgroup2 rw\n51 40 0:37 / /b - cgroup2 cgroup2 rw\n", "0::/docker\n", "/b",
       "/b/docker"},
      {"escaped mount point", "40 30 0:37 / /mnt/my\\040cg\\134x rw - cgroup2 none rw\n", "0::/a\n",
       "/mnt/my cg\\x", "/mnt/my cg\\x/a"},
      {"mounted on /", "40 30 0:37 / / rw - cgroup2 none rw\n", "0::/a/b\n", "/", "/a/b"},
      {"no cgroup2 mount", "31 30 0:28 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n", "0::/\n", nullptr,
       "no cgroup2 file system is mounted"},
      {"pure v1 (no 0:: line)", "40 30 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n", "1:cpu:/\n",
       nullptr, "not in a cgroup v2 group (no 0:: line in /proc/self/cgroup)"},
      {"our group was removed", "40 30 0:37 / /u rw - cgroup2 cgroup2 rw\n", "0::/gone (deleted)\n", nullptr,
       "our cgroup v2 group /gone (deleted) was removed"},
      {"group outside the mounted subtree", "50 40 0:37 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n",
       "0::/other\n", nullptr, "our cgroup v2 group /other is not visible under any cgroup2 mount"},
      {"group outside our cgroup namespace's root, even with a mount whose root is /",
       "40 30 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/../x\n", nullptr,
       "our cgroup v2 group /../x is outside our cgroup namespace"},
      {"/.. alone", "40 30 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "0::/..\n", nullptr,
       "our cgroup v2 group /.. is outside our cgroup namespace"},
  };
  for (const FindCase& c : cases) {
    absl::StatusOr<Cgroup2Location> got = FindCgroup2In(c.mountinfo, c.cgroup);
    if (c.mount_point == nullptr) {
      EXPECT_THAT(got, StatusIs(absl::StatusCode::kNotFound, c.own_dir_or_error)) << c.name;
      continue;
    }
    ASSERT_THAT(got, IsOk()) << c.name;
    EXPECT_EQ(got->mount_point, c.mount_point) << c.name;
    EXPECT_EQ(got->own_dir, c.own_dir_or_error) << c.name;
  }
}

TEST(FindCgroup2Test, FindsOurOwnGroupOnThisMachine) {
  absl::StatusOr<Cgroup2Location> where = FindCgroup2();
  if (!where.ok()) GTEST_SKIP() << "no cgroup v2 here: " << where.status();
  struct stat st;
  EXPECT_EQ(stat(absl::StrCat(where->own_dir, "/cgroup.procs").c_str(), &st), 0) << where->own_dir;
  // We are listed in it.
  std::ifstream procs(absl::StrCat(where->own_dir, "/cgroup.procs"));
  std::string line;
  bool found = false;
  while (std::getline(procs, line)) found |= line == std::to_string(getpid());
  EXPECT_TRUE(found) << where->own_dir;
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// /proc/PID/stat's state letter ("S", "T", ...), or "gone".
std::string StateOf(pid_t pid) {
  const std::string stat = ReadAll(absl::StrCat("/proc/", pid, "/stat"));
  return stat.empty() ? std::string("gone") : stat.substr(stat.rfind(')') + 2, 1);
}

// Real groups, as root or in a delegated subtree. Skipped where cgroup2 is absent or not ours to write.
class CgroupLeafTest : public testing::Test {
 public:
  void SetUp() override {
    absl::StatusOr<Cgroup2Location> where = FindCgroup2();
    if (!where.ok()) GTEST_SKIP() << "no cgroup v2 here: " << where.status();
    where_ = *where;
    // What an earlier run of these tests left when it was killed (a test timeout): empty, its creator gone.
    (void)RemoveStaleLeaves(where_, "uucore-cgroup-test");
    absl::StatusOr<CgroupLeaf> probe = CgroupLeaf::Create(where_, "uucore-cgroup-test");
    if (!probe.ok()) GTEST_SKIP() << "may not create a cgroup here: " << probe.status();
    // Orphans come back to us, so that every process started here is reaped by the test.
    ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
  }
  void TearDown() override {
    for (pid_t pid : started_) kill(pid, SIGKILL);
    while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
  }

  absl::StatusOr<CgroupLeaf> NewLeaf() { return CgroupLeaf::Create(where_, "uucore-cgroup-test"); }

  // Runs `script` in a shell moved into the group at `dir` before exec.
  pid_t StartIn(const std::string& dir, const std::string& script) {
    const pid_t pid = fork();
    if (pid == 0) {
      const int fd = open((dir + "/cgroup.procs").c_str(), O_WRONLY);
      if (fd < 0 || write(fd, "0", 1) != 1) _exit(99);
      close(fd);
      execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    started_.push_back(pid);
    return pid;
  }

  // Waits until the group holds at least `count` processes.
  static size_t AwaitProcs(const CgroupLeaf& leaf, size_t count, double seconds = 20) {
    const double end = Now() + seconds;
    size_t n = 0;
    while (Now() < end) {
      absl::StatusOr<std::vector<pid_t>> procs = leaf.Procs();
      n = procs.ok() ? procs->size() : 0;
      if (n >= count) break;
      usleep(10000);
    }
    return n;
  }

  // Waits on events_fd() only (no sleeping loop) until `populated 0`; false after `seconds`.
  static bool AwaitEmpty(const CgroupLeaf& leaf, double seconds = 20) {
    const double end = Now() + seconds;
    for (;;) {
      absl::StatusOr<CgroupEvents> events = leaf.ReadEvents();
      if (!events.ok()) return false;
      if (!events->populated) return true;
      const double left = end - Now();
      if (left <= 0) return false;
      pollfd p = {leaf.events_fd(), POLLPRI, 0};
      poll(&p, 1, static_cast<int>(left * 1000) + 1);
    }
  }

 protected:
  Cgroup2Location where_;
  std::vector<pid_t> started_;
};

TEST_F(CgroupLeafTest, CreatesUniqueLeavesAndRemovesThem) {
  std::string first_path;
  {
    absl::StatusOr<CgroupLeaf> a = NewLeaf();
    absl::StatusOr<CgroupLeaf> b = NewLeaf();
    ASSERT_THAT(a, IsOk());
    ASSERT_THAT(b, IsOk());
    EXPECT_NE(a->path(), b->path());
    EXPECT_TRUE(absl::StartsWith(a->path(), where_.own_dir + "/uucore-cgroup-test.")) << a->path();
    EXPECT_TRUE(Exists(a->path() + "/cgroup.procs"));
    EXPECT_GE(a->dir_fd(), 0);
    EXPECT_GE(a->events_fd(), 0);
    EXPECT_EQ(a->features().kill, Exists(a->path() + "/cgroup.kill"));
    EXPECT_EQ(a->features().freeze, Exists(a->path() + "/cgroup.freeze"));
    EXPECT_EQ(a->features().memory_peak, Exists(a->path() + "/memory.peak"));
    EXPECT_THAT(a->ReadEvents(), IsOk());
    EXPECT_FALSE(a->ReadEvents()->populated);
    ASSERT_THAT(a->Remove(), IsOk());
    EXPECT_FALSE(Exists(a->path().empty() ? first_path : a->path()));
    EXPECT_THAT(a->Remove(), IsOk());  // Idempotent.
    EXPECT_EQ(a->dir_fd(), -1);
    EXPECT_THAT(a->Signal(SIGTERM), StatusIs(absl::StatusCode::kFailedPrecondition));
    first_path = b->path();
    CgroupLeaf moved = std::move(*b);  // The moved-from object removes nothing.
    EXPECT_TRUE(Exists(first_path));
  }
  EXPECT_FALSE(Exists(first_path));  // The destructor removed it.
}

// proc_path() is what /proc/PID/cgroup says of a process in the group.
TEST_F(CgroupLeafTest, ProcPathIsHowAMemberSeesItsGroup) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  const pid_t pid = StartIn(leaf->path(), "exec sleep 1000");
  ASSERT_EQ(AwaitProcs(*leaf, 1), 1u);
  std::string line;
  for (absl::string_view l : absl::StrSplit(ReadAll(absl::StrCat("/proc/", pid, "/cgroup")), '\n')) {
    if (absl::ConsumePrefix(&l, "0::")) line = std::string(l);
  }
  EXPECT_EQ(line, leaf->proc_path());
  const std::string name = leaf->path().substr(leaf->path().rfind('/'));
  EXPECT_TRUE(absl::EndsWith(leaf->proc_path(), name)) << leaf->proc_path();
}

// A zombie whose group was removed meanwhile (its count was 0 already: rmdir succeeds) still names it, with
// " (deleted)" after it, until it is reaped; AChildIsInCgroup() counts it as in the group.
TEST_F(CgroupLeafTest, AZombieOfARemovedGroupIsStillOfIt) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  const pid_t pid = StartIn(leaf->path(), "exit 0");
  siginfo_t info;
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT), 0);  // A zombie in the group.
  ASSERT_EQ(rmdir(leaf->path().c_str()), 0) << strerror(errno);
  EXPECT_THAT(AChildIsInCgroup(leaf->proc_path()), testing::Truly([](const absl::StatusOr<bool>& in) {
                return in.ok() && *in;
              }));
  ASSERT_EQ(waitpid(pid, nullptr, 0), pid);
  EXPECT_THAT(AChildIsInCgroup(leaf->proc_path()), testing::Truly([](const absl::StatusOr<bool>& in) {
                return in.ok() && !*in;
              }));
}

TEST_F(CgroupLeafTest, RefusalsAreStatuses) {
  EXPECT_THAT(CgroupLeaf::Create(where_, "a.b"), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(CgroupLeaf::Create(where_, ""), StatusIs(absl::StatusCode::kInvalidArgument));
  Cgroup2Location elsewhere = where_;
  elsewhere.own_dir = "/nonexistent-cgroup-dir";
  EXPECT_THAT(CgroupLeaf::Create(elsewhere), StatusIs(absl::StatusCode::kPermissionDenied));
}

TEST_F(CgroupLeafTest, KillClearsEveryProcessHoweverItForked) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  // 50 flat children, a double-forked daemon, a setsid daemon that keeps forking, a process in its own group.
  StartIn(leaf->path(),
          "i=0; while [ $i -lt 50 ]; do sleep 1000 & i=$((i+1)); done; "
          "sh -c 'sleep 1000 &' & "
          "setsid sh -c 'while :; do sleep 1000 & sleep 0.01; done' & "
          "setsid sleep 1000 & "
          "exec sleep 1000");
  ASSERT_GE(AwaitProcs(*leaf, 56), 56u);
  absl::StatusOr<int> signalled = leaf->Signal(SIGKILL);
  ASSERT_THAT(signalled, IsOk());
  EXPECT_GE(*signalled, 56);
  const double start = Now();
  EXPECT_TRUE(AwaitEmpty(*leaf));
  EXPECT_LT(Now() - start, 10);
  EXPECT_TRUE(leaf->Procs()->empty());
  EXPECT_THAT(leaf->Remove(), IsOk());
}

// TERM to a group: a forking setsid daemon and 20 children die of it; one process ignores it and must run on, thawed.
void TermSparesOnlyTheOneThatIgnoresIt(CgroupLeafTest* test) {
  absl::StatusOr<CgroupLeaf> leaf = test->NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  const std::string survivor_pid_file = absl::StrCat(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp",
                                                     "/survivor.", getpid());
  test->StartIn(leaf->path(),
                "i=0; while [ $i -lt 20 ]; do sleep 1000 & i=$((i+1)); done; "
                "setsid sh -c 'while :; do sleep 1000 & sleep 0.01; done' & "
                "(trap '' TERM; echo $(exec sh -c 'echo $PPID') > " + survivor_pid_file + ".tmp; mv " +
                    survivor_pid_file + ".tmp " + survivor_pid_file + "; while :; do sleep 0.05; done) & "
                "exec sleep 1000");
  ASSERT_GE(CgroupLeafTest::AwaitProcs(*leaf, 24), 24u);
  const double give_up = Now() + 20;
  while (!Exists(survivor_pid_file) && Now() < give_up) usleep(10000);
  const int survivor = atoi(ReadAll(survivor_pid_file).c_str());
  ASSERT_GT(survivor, 0);
  absl::StatusOr<int> signalled = leaf->Signal(SIGTERM);
  ASSERT_THAT(signalled, IsOk());
  // At least the 23 that stay: the 20 sleeps, the command's own, the daemon's shell and the survivor's. The rest
  // come and go (the daemon's sleep 0.01 and, at first, its sleep 1000s; the survivor's sleep 0.05 and command
  // substitution), so the 24 seen above may be 23 now (CI, 5 December: 23 without a subreaper).
  EXPECT_GE(*signalled, 23);
  EXPECT_FALSE(leaf->ReadEvents()->frozen);
  EXPECT_EQ(ReadAll(leaf->path() + "/cgroup.freeze"), "0\n");
  // Everyone but the survivor (and the sleep it may be running) goes; the survivor still runs its loop.
  const double end = Now() + 20;
  std::vector<pid_t> left;
  while (Now() < end) {
    left = *leaf->Procs();
    if (left.size() <= 2) break;
    usleep(10000);
  }
  EXPECT_LE(left.size(), 2u);
  EXPECT_NE(std::find(left.begin(), left.end(), survivor), left.end());
  EXPECT_EQ(kill(survivor, 0), 0);
  EXPECT_THAT(leaf->Signal(SIGKILL), IsOk());
  EXPECT_TRUE(CgroupLeafTest::AwaitEmpty(*leaf));
  unlink(survivor_pid_file.c_str());
}

// As timeout --tree calls it (a subreaper): one listing of the frozen group and kill() each.
TEST_F(CgroupLeafTest, OtherSignalsFreezeSignalEveryoneAndThaw) { TermSparesOnlyTheOneThatIgnoresIt(this); }

// A caller that is not a subreaper: the pidfd passes, each pid checked to be still in the group.
TEST_F(CgroupLeafTest, OtherSignalsFreezeSignalEveryoneAndThawWithoutASubreaper) {
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0), 0);
  TermSparesOnlyTheOneThatIgnoresIt(this);
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
}

TEST_F(CgroupLeafTest, AHandlerRunsOnceAfterTheThaw) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  const std::string file = absl::StrCat(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp", "/trap.", getpid());
  unlink(file.c_str());
  StartIn(leaf->path(), "trap 'echo got >> " + file + "; exit 0' TERM; while :; do sleep 0.05; done");
  ASSERT_GE(AwaitProcs(*leaf, 2), 2u);
  ASSERT_THAT(leaf->Signal(SIGTERM), IsOk());
  EXPECT_TRUE(AwaitEmpty(*leaf));
  EXPECT_EQ(ReadAll(file), "got\n");
  unlink(file.c_str());
}

// Exactness: the signal reaches the processes there were when it was sent, not a child that a handler forks once it
// has got the signal (the group is frozen before the first signal and thawed only after the last).
TEST_F(CgroupLeafTest, AChildThatTheHandlerForksIsNotSignalled) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  const std::string file = absl::StrCat(getenv("TEST_TMPDIR") ? getenv("TEST_TMPDIR") : "/tmp", "/born.", getpid());
  unlink(file.c_str());
  StartIn(leaf->path(), "trap 'sleep 1000 & echo $! > " + file + ".tmp; mv " + file + ".tmp " + file +
                            "; wait' TERM; while :; do sleep 0.05; done");
  ASSERT_GE(AwaitProcs(*leaf, 2), 2u);
  ASSERT_THAT(leaf->Signal(SIGTERM), IsOk());
  const double give_up = Now() + 20;
  while (!Exists(file) && Now() < give_up) usleep(10000);
  const pid_t born = atoi(ReadAll(file).c_str());
  ASSERT_GT(born, 0);
  usleep(300000);  // A TERM sent to it would have ended it by now.
  const std::string state = StateOf(born);
  ASSERT_NE(state, "gone") << "the handler's child is gone";
  EXPECT_EQ(state, "S");
  EXPECT_THAT(leaf->Signal(SIGKILL), IsOk());
  EXPECT_TRUE(AwaitEmpty(*leaf));
  unlink(file.c_str());
}

// Signal() with a process group the caller vouches for, run in a child that stands for timeout --tree: it leads a
// new group, which the shell in the leaf and its background sleep inherit (a third process leaves it with setsid),
// and so does an outsider, a sleep of the caller's that is not in the cgroup (the mark of one kill(-group): only
// that reaches it). The caller is a subreaper and blocks TERM or not (`block`); with `external`, a child of its
// own has sent it a TERM before the call.
struct GroupOutcome {
  int failed_step = 0;         // 0: Signal() counted 3 and all three died of TERM, the caller survived
  bool outsider_got_it = false;
  bool pending_after = false;  // a TERM left pending in the caller after the call
  bool pending_is_external = false;  // ... and its sender is the child that sent it, not the caller
};

GroupOutcome SignalAsAGroupLeader(CgroupLeafTest* test, bool block, bool external) {
  const pid_t caller = fork();
  if (caller == 0) {
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    if (setpgid(0, 0) != 0 || prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) _exit(2);
    if (block) sigprocmask(SIG_BLOCK, &term, nullptr);
    absl::StatusOr<CgroupLeaf> leaf = test->NewLeaf();
    if (!leaf.ok()) _exit(3);
    // Each with the default TERM, not our mask; the shell moved into the leaf before exec, the outsider not.
    const auto start = [&](bool inside, const char* script) {
      const pid_t pid = fork();
      if (pid == 0) {
        sigprocmask(SIG_UNBLOCK, &term, nullptr);
        if (inside) {
          const int fd = open((leaf->path() + "/cgroup.procs").c_str(), O_WRONLY);
          if (fd < 0 || write(fd, "0", 1) != 1) _exit(99);
          close(fd);
        }
        execl("/bin/sh", "sh", "-c", script, static_cast<char*>(nullptr));
        _exit(127);
      }
      return pid;
    };
    const pid_t outsider = start(false, "exec sleep 1000");
    start(true, "sleep 1000 & setsid sleep 1000 & exec sleep 1000");
    if (CgroupLeafTest::AwaitProcs(*leaf, 3) < 3) _exit(4);
    const auto left_the_group = [&leaf] {
      absl::StatusOr<std::vector<pid_t>> procs = leaf->Procs();
      return procs.ok() && std::any_of(procs->begin(), procs->end(), [](pid_t p) { return getpgid(p) != getpgrp(); });
    };
    const double give_up = Now() + 20;
    while (!left_the_group() && Now() < give_up) usleep(10000);  // Until setsid has run.
    if (!left_the_group()) _exit(5);
    pid_t sender = 0;
    if (external) {
      sender = fork();
      if (sender == 0) _exit(kill(getppid(), SIGTERM) == 0 ? 0 : 1);
      int wstatus;
      if (waitpid(sender, &wstatus, 0) != sender || wstatus != 0) _exit(6);
    }
    absl::StatusOr<int> signalled = leaf->Signal(SIGTERM, StoppedProcesses::kContinue, getpgrp());
    if (!signalled.ok() || *signalled != 3) _exit(7);
    if (!CgroupLeafTest::AwaitEmpty(*leaf)) _exit(8);
    int flags = 0;
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGTERM) == 1) {
      flags |= 32;
      siginfo_t info;
      const timespec now = {0, 0};
      if (sigtimedwait(&term, &info, &now) == SIGTERM && info.si_pid == sender && sender != 0) flags |= 64;
    }
    // KILLed now: a TERM already sent has settled its death (the kernel marks a default fatal signal's group exit
    // when it is sent, and drops a later KILL), so it died of TERM if the group kill reached it, else of KILL.
    kill(outsider, SIGKILL);
    int wstatus;
    if (waitpid(outsider, &wstatus, 0) != outsider || !WIFSIGNALED(wstatus)) _exit(9);
    if (WTERMSIG(wstatus) == SIGTERM) flags |= 16;
    int died_of_term = 0;
    while (waitpid(-1, &wstatus, 0) > 0 || errno == EINTR) {
      if (WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGTERM) ++died_of_term;
    }
    if (died_of_term != 3) _exit(10);
    (void)leaf->Remove();
    _exit(flags);
  }
  int wstatus = 0;
  while (waitpid(caller, &wstatus, 0) < 0 && errno == EINTR) {
  }
  GroupOutcome outcome;
  if (!WIFEXITED(wstatus)) {
    outcome.failed_step = 100 + (WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
    return outcome;
  }
  outcome.failed_step = WEXITSTATUS(wstatus) & 15;
  outcome.outsider_got_it = (WEXITSTATUS(wstatus) & 16) != 0;
  outcome.pending_after = (WEXITSTATUS(wstatus) & 32) != 0;
  outcome.pending_is_external = (WEXITSTATUS(wstatus) & 64) != 0;
  return outcome;
}

// The members of the caller's group get TERM through one kill(-group) (which reaches the outsider too), the setsid
// one its own. The caller, which blocks TERM, has its own copy taken back: nothing is left pending.
TEST_F(CgroupLeafTest, TheMembersOfAVouchedForGroupGetOneKill) {
  const GroupOutcome outcome = SignalAsAGroupLeader(this, /*block=*/true, /*external=*/false);
  EXPECT_EQ(outcome.failed_step, 0);
  EXPECT_TRUE(outcome.outsider_got_it);
  EXPECT_FALSE(outcome.pending_after);
}

// A TERM someone else sent the caller before the call stays pending, its sender kept: the caller's own copy merged
// into it, and taking ours back must not take theirs.
TEST_F(CgroupLeafTest, ASignalPendingBeforeTheGroupKillIsKept) {
  const GroupOutcome outcome = SignalAsAGroupLeader(this, /*block=*/true, /*external=*/true);
  EXPECT_EQ(outcome.failed_step, 0);
  EXPECT_TRUE(outcome.outsider_got_it);
  EXPECT_TRUE(outcome.pending_after);
  EXPECT_TRUE(outcome.pending_is_external);
}

// A caller in the group that does not block the signal is not sent it: each member gets a kill() of its own, and
// the outsider nothing.
TEST_F(CgroupLeafTest, ACallerInTheGroupThatDoesNotBlockTheSignalIsSpared) {
  const GroupOutcome outcome = SignalAsAGroupLeader(this, /*block=*/false, /*external=*/false);
  EXPECT_EQ(outcome.failed_step, 0) << "100 + 15: the caller died of TERM";
  EXPECT_FALSE(outcome.outsider_got_it);
  EXPECT_FALSE(outcome.pending_after);
}

// kLeave: a member stopped before the freeze is stopped after the thaw; the others run on (the signal, WINCH, is
// ignored by default). kContinue (the default) continues it.
TEST_F(CgroupLeafTest, LeaveKeepsAStoppedMemberStopped) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  StartIn(leaf->path(), "sleep 1000 & kill -STOP $!; exec sleep 1000");
  ASSERT_GE(AwaitProcs(*leaf, 2), 2u);
  std::vector<pid_t> procs;
  std::string states;
  const double give_up = Now() + 20;  // Until the STOP has landed.
  while (states != "ST" && states != "TS" && Now() < give_up) {
    procs = *leaf->Procs();
    states = procs.size() == 2 ? StateOf(procs[0]) + StateOf(procs[1]) : "";
    usleep(10000);
  }
  ASSERT_TRUE(states == "ST" || states == "TS") << states;
  const pid_t stopped = states == "TS" ? procs[0] : procs[1];
  ASSERT_THAT(leaf->Signal(SIGWINCH, StoppedProcesses::kLeave), IsOk());
  EXPECT_FALSE(leaf->ReadEvents()->frozen);
  EXPECT_EQ(StateOf(stopped), "T");  // (The other, thawed, may be runnable for an instant.)
  ASSERT_THAT(leaf->Signal(SIGWINCH), IsOk());
  const double end = Now() + 20;  // Continued: runnable for an instant, then asleep again.
  while (StateOf(procs[0]) + StateOf(procs[1]) != "SS" && Now() < end) usleep(10000);
  EXPECT_EQ(StateOf(procs[0]) + StateOf(procs[1]), "SS");
  EXPECT_THAT(leaf->Signal(SIGKILL), IsOk());
  EXPECT_TRUE(AwaitEmpty(*leaf));
}

TEST_F(CgroupLeafTest, EventsFdWakesWhenTheLastProcessExits) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  StartIn(leaf->path(), "sleep 0.3 & exec sleep 0.2");
  ASSERT_GE(AwaitProcs(*leaf, 2), 2u);
  ASSERT_TRUE(leaf->ReadEvents()->populated);
  // One poll per change, never a timed-out one: the kernel wakes us (POLLPRI) when cgroup.events changes.
  const double start = Now();
  int wakes = 0;
  for (;;) {
    pollfd p = {leaf->events_fd(), POLLPRI, 0};
    ASSERT_EQ(poll(&p, 1, 10000), 1) << "no event within 10 s";
    EXPECT_TRUE(p.revents & POLLPRI);
    ++wakes;
    if (!leaf->ReadEvents()->populated) break;
  }
  EXPECT_LT(Now() - start, 5);
  EXPECT_LE(wakes, 2);
}

TEST_F(CgroupLeafTest, FreezeWaitsUntilFrozen) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  if (!leaf->features().freeze) GTEST_SKIP() << "no cgroup.freeze";
  const pid_t pid = StartIn(leaf->path(), "while :; do :; done");
  ASSERT_GE(AwaitProcs(*leaf, 1), 1u);
  ASSERT_THAT(leaf->Freeze(true, absl::Seconds(10)), IsOk());
  EXPECT_TRUE(leaf->ReadEvents()->frozen);
  ASSERT_THAT(leaf->Freeze(false), IsOk());
  EXPECT_FALSE(leaf->ReadEvents()->frozen);
  kill(pid, SIGKILL);
}

// Fills the descriptor table (RLIMIT_NOFILE lowered to what is open plus a few, the rest taken by dups) while it
// lives: any open() fails with EMFILE.
class NoDescriptorLeft {
 public:
  NoDescriptorLeft() {
    getrlimit(RLIMIT_NOFILE, &saved_);
    rlimit low = saved_;
    low.rlim_cur = 64;
    setrlimit(RLIMIT_NOFILE, &low);
    for (int fd; (fd = dup(STDERR_FILENO)) >= 0;) dups_.push_back(fd);
  }
  ~NoDescriptorLeft() {
    for (int fd : dups_) close(fd);
    setrlimit(RLIMIT_NOFILE, &saved_);
  }

 private:
  rlimit saved_;
  std::vector<int> dups_;
};

TEST_F(CgroupLeafTest, ThawAndKillNeedNoNewDescriptor) {
  // A caller whose descriptors have run out (its own, or a limit inherited with most of them open) can still thaw
  // what it froze and kill the group: a tree left frozen, or a -k that cannot kill, would wait for ever.
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  if (!leaf->features().freeze || !leaf->features().kill) GTEST_SKIP() << "no cgroup.freeze or cgroup.kill";
  const pid_t pid = StartIn(leaf->path(), "sleep 1000");
  ASSERT_GE(AwaitProcs(*leaf, 1), 1u);
  ASSERT_THAT(leaf->Freeze(true, absl::Seconds(10)), IsOk());
  {
    NoDescriptorLeft full;
    ASSERT_EQ(open("/dev/null", O_RDONLY), -1);
    ASSERT_EQ(errno, EMFILE);
    EXPECT_THAT(leaf->Freeze(false), IsOk());
    EXPECT_THAT(leaf->Kill(), IsOk());
  }
  EXPECT_FALSE(leaf->ReadEvents()->frozen);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
}

TEST_F(CgroupLeafTest, CpuStatCountsExitedProcesses) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  if (!leaf->features().cpu_stat) {
    EXPECT_THAT(leaf->ReadCpu(), StatusIs(absl::StatusCode::kUnimplemented));
    GTEST_SKIP() << "no cpu.stat";
  }
  // A child that spins until it has used 0.3 s of CPU time (utime + stime, fields 14 and 15, in clock ticks of
  // 1/100 s), then exits. (0.3 s of wall time was as little as 90 ms of CPU on a loaded machine.)
  const pid_t pid = StartIn(leaf->path(),
                            "while set -- $(cut -d' ' -f14,15 /proc/$$/stat); [ $(($1 + $2)) -lt 30 ]; do"
                            " i=0; while [ $i -lt 10000 ]; do i=$((i + 1)); done; done");
  ASSERT_EQ(waitpid(pid, nullptr, 0), pid);
  ASSERT_TRUE(AwaitEmpty(*leaf));
  absl::StatusOr<CgroupCpu> cpu = leaf->ReadCpu();
  ASSERT_THAT(cpu, IsOk());
  EXPECT_GE(cpu->user + cpu->system, absl::Milliseconds(100));
  EXPECT_GE(cpu->usage, cpu->user);
}

TEST_F(CgroupLeafTest, MemoryPeakWhereTheControllerIsEnabled) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  if (!leaf->features().memory_peak) {
    EXPECT_THAT(leaf->ReadMemoryPeak(), StatusIs(absl::StatusCode::kUnimplemented));
    return;
  }
  EXPECT_THAT(leaf->ReadMemoryPeak(), IsOk());
}

TEST_F(CgroupLeafTest, RemoveMovesLeftoversToOurGroup) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  const std::string path = leaf->path();
  StartIn(path, "setsid sleep 1000 & exec sleep 1000");
  ASSERT_GE(AwaitProcs(*leaf, 2), 2u);
  const std::vector<pid_t> procs = *leaf->Procs();
  ASSERT_THAT(leaf->Remove(), IsOk());
  EXPECT_FALSE(Exists(path));
  for (pid_t pid : procs) {
    EXPECT_EQ(kill(pid, 0), 0) << pid;
    EXPECT_TRUE(absl::StrContains(ReadAll(absl::StrCat("/proc/", pid, "/cgroup")), "0::" + where_.own_path + "\n"))
        << ReadAll(absl::StrCat("/proc/", pid, "/cgroup"));
    EXPECT_EQ(ReadAll(absl::StrCat("/proc/", pid, "/stat")).find(") T "), std::string::npos) << "left frozen";
    kill(pid, SIGKILL);
  }
}

TEST_F(CgroupLeafTest, NestedGroupsAreSignalledAndRemoved) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  // As a nested timeout --tree would: a group of its own inside ours, left behind (its creator was killed).
  const std::string inner = leaf->path() + "/inner";
  ASSERT_EQ(mkdir(inner.c_str(), 0755), 0);
  ASSERT_EQ(mkdir((inner + "/deeper").c_str(), 0755), 0);
  StartIn(inner, "sleep 1000 & exec sleep 1000");
  StartIn(leaf->path(), "exec sleep 1000");
  ASSERT_GE(AwaitProcs(*leaf, 3), 3u);
  absl::StatusOr<int> signalled = leaf->Signal(SIGTERM);
  ASSERT_THAT(signalled, IsOk());
  EXPECT_EQ(*signalled, 3);
  EXPECT_TRUE(AwaitEmpty(*leaf));
  const std::string path = leaf->path();
  ASSERT_THAT(leaf->Remove(), IsOk());
  EXPECT_FALSE(Exists(path));
}

TEST_F(CgroupLeafTest, RemoveStaleLeavesTakesOnlyDeadCreatorsEmptyGroups) {
  const char* prefix = "uucore-cgroup-stale-test";
  // It counts what it removes: first what a killed earlier run of this test left.
  (void)RemoveStaleLeaves(where_, prefix);
  // A pid that no longer exists: a child we reaped.
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  ASSERT_EQ(waitpid(dead, nullptr, 0), dead);
  struct stat ns;
  ASSERT_EQ(stat("/proc/self/ns/pid", &ns), 0);
  const std::string stem = absl::StrCat(where_.own_dir, "/", prefix, ".", ns.st_ino, ".");
  const std::string stale = absl::StrCat(stem, dead, ".0");
  // One of ours: made by Create() in this process (the number is whatever Create() gets).
  absl::StatusOr<CgroupLeaf> mine = CgroupLeaf::Create(where_, prefix);
  ASSERT_THAT(mine, IsOk());
  const std::string live = mine->path();
  // Our own pid but a number this process never made: left by an earlier process that had our pid in a namespace
  // with our namespace's inode (a container's PID 1 after another one's; its creator check is ourselves).
  const std::string own_pid_stale = absl::StrCat(stem, getpid(), ".999999");
  // Another PID namespace's (inode 1: none has it), its creator gone: no pid can say so, its lock does.
  const std::string other_ns = absl::StrCat(where_.own_dir, "/", prefix, ".1.", dead, ".0.l");
  // Another namespace's whose creator lives: it holds the shared lock, as Create() does (here: this test).
  const std::string other_ns_live = absl::StrCat(where_.own_dir, "/", prefix, ".1.", dead, ".1.l");
  // Another namespace's made by a version that took no lock (no ".l"): its creator may live; left alone.
  const std::string other_ns_unlocked = absl::StrCat(where_.own_dir, "/", prefix, ".1.", dead, ".2");
  const std::string busy = absl::StrCat(stem, dead, ".1");
  for (const std::string& dir : {stale, own_pid_stale, other_ns, other_ns_live, other_ns_unlocked, busy}) {
    ASSERT_EQ(mkdir(dir.c_str(), 0755), 0) << dir;
  }
  ASSERT_EQ(mkdir((busy + "/child").c_str(), 0755), 0);
  const int creators_lock = open(other_ns_live.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(creators_lock, 0);
  ASSERT_EQ(flock(creators_lock, LOCK_SH | LOCK_NB), 0);
  absl::StatusOr<int> removed = RemoveStaleLeaves(where_, prefix);
  ASSERT_THAT(removed, IsOk());
  EXPECT_EQ(*removed, 3);
  EXPECT_FALSE(Exists(stale));
  EXPECT_FALSE(Exists(own_pid_stale));
  EXPECT_FALSE(Exists(other_ns));
  EXPECT_TRUE(Exists(live));
  EXPECT_TRUE(Exists(other_ns_live));
  EXPECT_TRUE(Exists(other_ns_unlocked));
  EXPECT_TRUE(Exists(busy));
  // Its creator gone (the lock dropped), the next run takes it.
  close(creators_lock);
  removed = RemoveStaleLeaves(where_, prefix);
  ASSERT_THAT(removed, IsOk());
  EXPECT_EQ(*removed, 1);
  EXPECT_FALSE(Exists(other_ns_live));
  EXPECT_TRUE(Exists(live));
  for (const std::string& dir : {busy + "/child", busy, other_ns_unlocked}) EXPECT_EQ(rmdir(dir.c_str()), 0) << dir;
  EXPECT_THAT(mine->Remove(), IsOk());
}

TEST_F(CgroupLeafTest, ALeafIsLockedWhileItsCreatorHoldsIt) {
  absl::StatusOr<CgroupLeaf> leaf = NewLeaf();
  ASSERT_THAT(leaf, IsOk());
  const int fd = open(leaf->path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_NE(flock(fd, LOCK_EX | LOCK_NB), 0);
  EXPECT_EQ(errno, EWOULDBLOCK);
  const std::string path = leaf->path();
  ASSERT_THAT(leaf->Remove(), IsOk());
  EXPECT_FALSE(Exists(path));
  close(fd);
}

// AChildIsInCgroup() by each way of listing our children (uucore/process_tree_testing.h).
INSTANTIATE_TEST_SUITE_P(Enumerations, SignalTreeTest,
                         testing::Values(Enumeration::kAuto, Enumeration::kChildrenFiles, Enumeration::kProcScan));

// The caller's own cgroup v2 group, as the "0::PATH" line of /proc/self/cgroup names it ("" without one).
std::string OwnCgroup() {
  FILE* f = fopen("/proc/self/cgroup", "r");
  std::string group;
  char line[4096];
  while (f != nullptr && fgets(line, sizeof line, f) != nullptr) {
    if (strncmp(line, "0::", 3) == 0) group = std::string(line + 3, strcspn(line + 3, "\n"));
  }
  if (f != nullptr) fclose(f);
  return group;
}

// A child is in its group while it lives and as a zombie (the kernel's count of the group has dropped it by then),
// until it is reaped; a child in another group is not, a grandchild is not a child, and a group whose name merely
// begins like the child's is another group.
TEST_P(SignalTreeTest, AChildIsInCgroupUntilItIsReaped) {
  const std::string own = OwnCgroup();
  if (own.empty()) GTEST_SKIP() << "not in a cgroup v2 group";
  const Enumeration how = GetParam();
  // AChildIsInCgroup()'s answer, nullopt for an error.
  const auto in = [how](const std::string& group) -> std::optional<bool> {
    absl::StatusOr<bool> found = AChildIsInCgroup(group, how);
    return found.ok() ? std::optional<bool>(*found) : std::nullopt;
  };
  EXPECT_EQ(in(own), std::optional<bool>(false)) << "no child at all";
  const std::string marker = Marker();
  // The marker by the shell's own redirection, not touch(1): a touch still exiting when the shell is KILLed would
  // be orphaned to us (a subreaper) and counted as a child of the group after `live` is reaped.
  const pid_t live = RunShell(": > " + marker + "; exec sleep 1000");
  ASSERT_TRUE(AwaitFile(marker));
  EXPECT_EQ(in(own), std::optional<bool>(true)) << "a live child";
  EXPECT_EQ(in(own == "/" ? "/elsewhere" : own + "/elsewhere"), std::optional<bool>(false)) << "another group";
  if (own.size() > 2) {
    EXPECT_EQ(in(own.substr(0, own.size() - 1)), std::optional<bool>(false)) << "a name's prefix";
  }
  kill(live, SIGKILL);
  siginfo_t info;
  // Until it has exited, without reaping it (WNOWAIT): a zombie.
  ASSERT_EQ(waitid(P_PID, static_cast<id_t>(live), &info, WEXITED | WNOWAIT), 0);
  EXPECT_EQ(in(own), std::optional<bool>(true)) << "a zombie child";
  ASSERT_EQ(waitpid(live, nullptr, 0), live);
  EXPECT_EQ(in(own), std::optional<bool>(false)) << "the zombie reaped";
}

}  // namespace
}  // namespace uucore
