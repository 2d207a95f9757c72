#include "uucore/process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "absl/strings/str_cat.h"
#include "tests/testing/status_matchers.h"
#include "uucore/cgroup.h"
#include "uucore/signal_wait.h"

namespace uucore {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::StatusIs;

// argv for Spawn from string literals.
class Argv {
 public:
  Argv(std::initializer_list<std::string> args) : args_(args) {
    for (std::string& a : args_) ptrs_.push_back(a.data());
    ptrs_.push_back(nullptr);
  }
  char* const* get() { return ptrs_.data(); }

 private:
  std::vector<std::string> args_;
  std::vector<char*> ptrs_;
};

std::string TempPath(const char* name) {
  const char* dir = getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The SigBlk and SigIgn lines of /proc/self/status, as a child prints them with grep.
std::string OwnMaskLines() {
  std::istringstream in(ReadFile("/proc/self/status"));
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("SigBlk:", 0) == 0 || line.rfind("SigIgn:", 0) == 0) out += line + "\n";
  }
  return out;
}

int RunToStatus(Argv argv, const SpawnOptions& options = {}) {
  absl::StatusOr<pid_t> pid = Spawn(argv.get(), options);
  if (!pid.ok()) return -1000;
  absl::StatusOr<int> status = Reap(*pid);
  return status.ok() ? ExitStatusOf(*status) : -2000;
}

bool NoChildrenLeft() { return waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD; }

TEST(ExecFailureStatusTest, NotFoundIs127EverythingElse126) {
  EXPECT_EQ(ExecFailureStatus(ENOENT), 127);
  for (int err : {EACCES, ENOEXEC, ENOTDIR, ELOOP, E2BIG, ETXTBSY, ENOMEM}) {
    EXPECT_EQ(ExecFailureStatus(err), 126) << err;
  }
}

TEST(ExecFailureStatusTest, FromStatusCodes) {
  EXPECT_EQ(ExecFailureStatus(ExecError(ENOENT)), 127);
  EXPECT_EQ(ExecFailureStatus(ExecError(EACCES)), 126);
  EXPECT_EQ(ExecFailureStatus(absl::UnavailableError("fork system call failed: x")), 125);
}

TEST(ExecErrorTest, CodeAndPlainMessage) {
  EXPECT_THAT(ExecError(ENOENT), StatusIs(absl::StatusCode::kNotFound, "No such file or directory"));
  EXPECT_THAT(ExecError(ENOTDIR), StatusIs(absl::StatusCode::kFailedPrecondition, "Not a directory"));
  EXPECT_THAT(ExecError(EACCES), StatusIs(absl::StatusCode::kFailedPrecondition, "Permission denied"));
}

TEST(SpawnTest, RunsACommandFoundOnPath) {
  EXPECT_EQ(RunToStatus({"true"}), 0);
  EXPECT_EQ(RunToStatus({"sh", "-c", "exit 3"}), 3);
  EXPECT_EQ(RunToStatus({"/bin/sh", "-c", "exit 4"}), 4);
}

TEST(SpawnTest, ACommandKilledBySignalIs128PlusN) {
  EXPECT_EQ(RunToStatus({"sh", "-c", "kill -TERM $$"}), 143);
  EXPECT_EQ(RunToStatus({"sh", "-c", "kill -KILL $$"}), 137);
}

TEST(SpawnTest, ReportsExecFailuresExactlyAndLeavesNoZombie) {
  EXPECT_THAT(Spawn(Argv({"no-such-command-here"}).get()),
              StatusIs(absl::StatusCode::kNotFound, "No such file or directory"));
  EXPECT_THAT(Spawn(Argv({"/etc"}).get()), StatusIs(absl::StatusCode::kFailedPrecondition, "Permission denied"));
  EXPECT_THAT(Spawn(Argv({"/etc/passwd/x"}).get()),
              StatusIs(absl::StatusCode::kFailedPrecondition, "Not a directory"));
  EXPECT_THAT(Spawn(Argv({""}).get()), StatusIs(absl::StatusCode::kNotFound));
  EXPECT_TRUE(NoChildrenLeft());
}

TEST(SpawnTest, ANonExecutableFileOnPathIsPermissionDenied) {
  const std::string dir = TempPath("spawn-path");
  mkdir(dir.c_str(), 0755);
  const std::string file = dir + "/notexec";
  close(open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
  const char* old_path = getenv("PATH");
  const std::string saved = old_path ? old_path : "";
  setenv("PATH", dir.c_str(), 1);
  absl::StatusOr<pid_t> pid = Spawn(Argv({"notexec"}).get());
  setenv("PATH", saved.c_str(), 1);
  EXPECT_THAT(pid, StatusIs(absl::StatusCode::kFailedPrecondition, "Permission denied"));
}

TEST(SpawnTest, RejectsAnEmptyArgv) {
  char* none[] = {nullptr};
  EXPECT_THAT(Spawn(none), StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(SpawnTest, LeavesTheCallersMaskAsItWas) {
  ScopedSignalBlock block({SIGUSR1});
  ASSERT_EQ(RunToStatus({"true"}), 0);
  sigset_t now;
  pthread_sigmask(SIG_SETMASK, nullptr, &now);
  EXPECT_EQ(sigismember(&now, SIGUSR1), 1);
  EXPECT_EQ(sigismember(&now, SIGTERM), 0);
}

// Runs `grep -E 'SigBlk|SigIgn' /proc/self/status` through Spawn with its stdout in a file and returns the output.
// grep itself, not a shell: dash clears its signal mask at start-up and would hide what the child was given.
std::string ChildMaskLines(const SpawnOptions& options) {
  const std::string out = TempPath("mask-child");
  const int file = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int saved = dup(1);
  dup2(file, 1);
  close(file);
  const int status = RunToStatus({"grep", "-E", "SigBlk|SigIgn", "/proc/self/status"}, options);
  dup2(saved, 1);
  close(saved);
  if (status != 0) return "grep failed";
  return ReadFile(out);
}

// The bug class this library exists to prevent: signals blocked for waiting must not stay blocked in the child.
TEST(SpawnTest, TheChildGetsTheCallersOriginalMaskNotTheWaitingOne) {
  ScopedSignalBlock callers({SIGUSR1});  // A caller's mask that is not empty, so losing it shows.
  const std::string expected = OwnMaskLines();
  ASSERT_NE(expected.find("SigBlk:\t0000000000000200\n"), std::string::npos) << expected;
  ScopedSignalBlock block({SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGALRM});
  SpawnOptions options;
  options.mask = &block.old_mask();
  EXPECT_EQ(ChildMaskLines(options), expected);
}

TEST(SpawnTest, WithoutAMaskTheChildInheritsTheCurrentOne) {
  ScopedSignalBlock block({SIGUSR2});
  const std::string expected = OwnMaskLines();
  EXPECT_EQ(ChildMaskLines({}), expected);
}

uint64_t OwnIgnoredBits() {
  const std::string lines = OwnMaskLines();
  return strtoull(lines.substr(lines.find("SigIgn:") + 8).c_str(), nullptr, 16);
}

TEST(SpawnTest, SetsDispositionsInTheChildOnly) {
  signal(SIGUSR1, SIG_IGN);
  const uint64_t before = OwnIgnoredBits();
  sigset_t reset, ignore;
  sigemptyset(&reset);
  sigaddset(&reset, SIGUSR1);
  sigemptyset(&ignore);
  sigaddset(&ignore, SIGUSR2);
  SpawnOptions options;
  options.reset_default = &reset;
  options.ignore = &ignore;
  const std::string lines = ChildMaskLines(options);
  EXPECT_TRUE(IsIgnored(SIGUSR1));  // The caller keeps its own.
  EXPECT_FALSE(IsIgnored(SIGUSR2));
  signal(SIGUSR1, SIG_DFL);
  // USR2 (bit 11) ignored, USR1 (bit 9) back to default; the rest as the caller has it.
  const uint64_t expected = (before & ~(uint64_t{1} << (SIGUSR1 - 1))) | (uint64_t{1} << (SIGUSR2 - 1));
  char want[64];
  snprintf(want, sizeof want, "SigIgn:\t%016llx\n", static_cast<unsigned long long>(expected));
  EXPECT_NE(lines.find(want), std::string::npos) << lines << " wants " << want;
}

TEST(SpawnTest, NewProcessGroup) {
  SpawnOptions options;
  options.new_process_group = true;
  absl::StatusOr<pid_t> pid = Spawn(Argv({"sleep", "10"}).get(), options);
  ASSERT_THAT(pid, IsOk());
  EXPECT_EQ(getpgid(*pid), *pid);
  EXPECT_THAT(SendSignal(-*pid, SIGKILL), IsOk());  // The whole group at once.
  absl::StatusOr<int> status = Reap(*pid);
  ASSERT_THAT(status, IsOk());
  EXPECT_EQ(ExitStatusOf(*status), 137);
}

TEST(SpawnTest, SameProcessGroupByDefault) {
  absl::StatusOr<pid_t> pid = Spawn(Argv({"sleep", "10"}).get());
  ASSERT_THAT(pid, IsOk());
  EXPECT_EQ(getpgid(*pid), getpgrp());
  EXPECT_THAT(SendSignal(*pid, SIGTERM), IsOk());
  EXPECT_EQ(ExitStatusOf(*Reap(*pid)), 143);
}

TEST(SpawnTest, NewProcessGroupTakesTheTerminalIfAsked) {
  // No terminal here (a test's stdin is not one): tcsetpgrp fails in the child, which still runs.
  SpawnOptions options;
  options.new_process_group = true;
  options.terminal_foreground = STDIN_FILENO;
  absl::StatusOr<pid_t> pid = Spawn(Argv({"sh", "-c", "exit 3"}).get(), options);
  ASSERT_THAT(pid, IsOk());
  EXPECT_EQ(ExitStatusOf(*Reap(*pid)), 3);
}

TEST(SpawnTest, AChildWhoseParentIsAlreadyGoneExits125WithoutRunning) {
  SpawnOptions options;
  options.parent_death_signal = SIGTERM;
  options.parent_pid = getpid() + 100000;  // Not our pid: as if we had died before the child could look.
  absl::StatusOr<pid_t> pid = Spawn(Argv({"sh", "-c", "echo ran; exit 0"}).get(), options);
  ASSERT_THAT(pid, IsOk());
  EXPECT_EQ(ExitStatusOf(*Reap(*pid)), 125);
}

// With SIGCHLD ignored the kernel would reap the child itself; CatchSignal keeps its status for us.
TEST(SpawnTest, ExitStatusSurvivesAnInheritedSigchldIgnore) {
  const pid_t tester = fork();
  if (tester == 0) {
    signal(SIGCHLD, SIG_IGN);
    if (!CatchSignal(SIGCHLD).ok()) _exit(10);
    ScopedSignalBlock block({SIGCHLD});
    char* argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>("exit 5"), nullptr};
    absl::StatusOr<pid_t> pid = Spawn(argv, {&block.old_mask()});
    if (!pid.ok()) _exit(11);
    absl::StatusOr<int> sig = WaitForSignal(block.set(), Deadline::In(absl::Seconds(30)));
    if (!sig.ok() || *sig != SIGCHLD) _exit(12);
    absl::StatusOr<int> status = Reap(*pid);
    _exit(status.ok() ? ExitStatusOf(*status) : 13);
  }
  int status = 0;
  ASSERT_EQ(waitpid(tester, &status, 0), tester);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 5);
}

TEST(ReapTest, TryReapSeesARunningChildThenItsExit) {
  absl::StatusOr<pid_t> pid = Spawn(Argv({"sleep", "10"}).get());
  ASSERT_THAT(pid, IsOk());
  absl::StatusOr<std::optional<int>> running = TryReap(*pid);
  ASSERT_THAT(running, IsOk());
  EXPECT_FALSE(running->has_value());
  kill(*pid, SIGKILL);
  absl::StatusOr<int> status = Reap(*pid);
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(WIFSIGNALED(*status));
  EXPECT_THAT(TryReap(*pid), StatusIs(absl::StatusCode::kNotFound));
  EXPECT_THAT(Reap(*pid), StatusIs(absl::StatusCode::kNotFound));
}

TEST(ExitStatusOfTest, ExitedAndSignalled) {
  EXPECT_EQ(ExitStatusOf(0), 0);
  EXPECT_EQ(ExitStatusOf(3 << 8), 3);
  EXPECT_EQ(ExitStatusOf(SIGTERM), 143);
  EXPECT_EQ(ExitStatusOf(SIGSEGV | 0x80), 139);  // Core dumped is still 128 + N.
}

TEST(SendSignalTest, ErrorsFromKill) {
  EXPECT_THAT(SendSignal(getpid(), 0), IsOk());
  EXPECT_THAT(SendSignal(getpid(), 99999), StatusIs(absl::StatusCode::kInvalidArgument));
  // A reaped child's pid is free, and (barring reuse within the test) there is no such process.
  absl::StatusOr<pid_t> pid = Spawn(Argv({"true"}).get());
  ASSERT_THAT(pid, IsOk());
  ASSERT_THAT(Reap(*pid), IsOk());
  EXPECT_THAT(SendSignal(*pid, 0), StatusIs(absl::StatusCode::kNotFound));
}

TEST(PidfdOpenTest, NamesALiveProcessAndNotAReapedOne) {
  const int own = PidfdOpen(getpid());
  if (own < 0 && errno == ENOSYS) GTEST_SKIP() << "no pidfd_open (Linux < 5.3)";
  if (own < 0 && errno == EPERM) GTEST_SKIP() << "pidfd_open refused (a seccomp profile; callers fall back to kill)";
  ASSERT_GE(own, 0) << strerror(errno);
  EXPECT_EQ(fcntl(own, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
  close(own);
  absl::StatusOr<pid_t> pid = Spawn(Argv({"true"}).get());
  ASSERT_THAT(pid, IsOk());
  ASSERT_THAT(Reap(*pid), IsOk());
  errno = 0;
  EXPECT_EQ(PidfdOpen(*pid), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST(SignalViaTest, ReachesThePidfdsProcessAndSaysWhenItIsGone) {
  absl::StatusOr<pid_t> pid = Spawn(Argv({"sleep", "30"}).get());
  ASSERT_THAT(pid, IsOk());
  const int pidfd = PidfdOpen(*pid);
  if (pidfd < 0 && (errno == ENOSYS || errno == EPERM)) {
    (void)kill(*pid, SIGKILL);
    (void)Reap(*pid);
    GTEST_SKIP() << "no pidfd_open here: " << strerror(errno);
  }
  ASSERT_GE(pidfd, 0) << strerror(errno);
  EXPECT_EQ(SignalVia(*pid, pidfd, 0), 0);
  EXPECT_EQ(SignalVia(*pid, pidfd, SIGTERM), 0);
  absl::StatusOr<int> status = Reap(*pid);
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(WIFSIGNALED(*status) && WTERMSIG(*status) == SIGTERM) << *status;
  errno = 0;
  // Reaped: the pidfd reaches nobody, whoever has the pid now; with a pidfd the pid is not used (ours is alive).
  EXPECT_EQ(SignalVia(getpid(), pidfd, 0), -1);
  EXPECT_EQ(errno, ESRCH);
  close(pidfd);
}

TEST(SignalViaTest, WithoutAPidfdIsKillByPid) {
  EXPECT_EQ(SignalVia(getpid(), -1, 0), 0);
  absl::StatusOr<pid_t> pid = Spawn(Argv({"true"}).get());
  ASSERT_THAT(pid, IsOk());
  ASSERT_THAT(Reap(*pid), IsOk());
  errno = 0;
  EXPECT_EQ(SignalVia(*pid, -1, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST(BecomeGroupLeaderTest, LeadsANewGroupAndIsIdempotent) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (!BecomeGroupLeader().ok() || getpgrp() != getpid()) _exit(1);
    if (!BecomeGroupLeader().ok() || getpgrp() != getpid()) _exit(2);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_EQ(status, 0);
}

TEST(BecomeGroupLeaderTest, ASessionLeaderAlreadyIsOne) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (setsid() < 0) _exit(3);
    _exit(BecomeGroupLeader().ok() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_EQ(status, 0);
}

TEST(ExecReplacingTest, ReplacesTheProcessOrReturnsTheError) {
  const pid_t pid = fork();
  if (pid == 0) {
    char* argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"), const_cast<char*>("exit 6"), nullptr};
    _exit(ExecFailureStatus(ExecReplacing(argv)));
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_EQ(ExitStatusOf(status), 6);

  char* missing[] = {const_cast<char*>("no-such-command-here"), nullptr};
  EXPECT_THAT(ExecReplacing(missing), StatusIs(absl::StatusCode::kNotFound, "No such file or directory"));
  char* dir[] = {const_cast<char*>("/etc"), nullptr};
  EXPECT_THAT(ExecReplacing(dir), StatusIs(absl::StatusCode::kFailedPrecondition, "Permission denied"));
}

// Spawn() into a cgroup v2 group (clone3 with CLONE_INTO_CGROUP), where this machine has one we may write.
class SpawnIntoCgroupTest : public testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Cgroup2Location> where = FindCgroup2();
    if (!where.ok()) GTEST_SKIP() << "no cgroup v2 here: " << where.status();
    where_ = *where;
    absl::StatusOr<CgroupLeaf> leaf = CgroupLeaf::Create(where_, "uucore-process-test");
    if (!leaf.ok()) GTEST_SKIP() << "may not create a cgroup here: " << leaf.status();
    leaf_.emplace(std::move(*leaf));
    options_.cgroup_fd = leaf_->dir_fd();
  }

  // What /proc/PID/cgroup says of a process in the leaf.
  std::string InLeaf() const {
    const std::string name = leaf_->path().substr(leaf_->path().rfind('/') + 1);
    return absl::StrCat("0::", where_.own_path == "/" ? "" : where_.own_path, "/", name, "\n");
  }

  Cgroup2Location where_;
  std::optional<CgroupLeaf> leaf_;
  SpawnOptions options_;
};

TEST_F(SpawnIntoCgroupTest, TheChildIsInTheGroupFromTheStart) {
  absl::StatusOr<pid_t> pid = Spawn(Argv({"sleep", "10"}).get(), options_);
  ASSERT_THAT(pid, IsOk());
  const std::string cgroup = ReadFile(absl::StrCat("/proc/", *pid, "/cgroup"));
  EXPECT_TRUE(cgroup.rfind(InLeaf()) == 0 || cgroup.find("\n" + InLeaf()) != std::string::npos) << cgroup;
  EXPECT_EQ(*leaf_->Procs(), std::vector<pid_t>{*pid});
  EXPECT_THAT(SendSignal(*pid, SIGKILL), IsOk());
  EXPECT_EQ(ExitStatusOf(*Reap(*pid)), 137);
  // The plain path, for comparison: our own group.
  EXPECT_EQ(RunToStatus({"grep", "-qx", "0::" + where_.own_path, "/proc/self/cgroup"}), 0);
  EXPECT_EQ(RunToStatus({"grep", "-qx", InLeaf().substr(0, InLeaf().size() - 1), "/proc/self/cgroup"}, options_), 0);
}

TEST_F(SpawnIntoCgroupTest, ReportsExecFailuresExactlyAndLeavesNoZombie) {
  EXPECT_EQ(RunToStatus({"sh", "-c", "exit 3"}, options_), 3);
  EXPECT_THAT(Spawn(Argv({"no-such-command-here"}).get(), options_),
              StatusIs(absl::StatusCode::kNotFound, "No such file or directory"));
  EXPECT_THAT(Spawn(Argv({"/etc"}).get(), options_),
              StatusIs(absl::StatusCode::kFailedPrecondition, "Permission denied"));
  EXPECT_THAT(Spawn(Argv({"/etc/passwd/x"}).get(), options_),
              StatusIs(absl::StatusCode::kFailedPrecondition, "Not a directory"));
  EXPECT_TRUE(NoChildrenLeft());
}

TEST_F(SpawnIntoCgroupTest, TheChildGetsTheRequestedMaskAndDispositions) {
  ScopedSignalBlock callers({SIGUSR1});
  const std::string expected = OwnMaskLines();
  ScopedSignalBlock block({SIGCHLD, SIGTERM, SIGINT, SIGHUP, SIGALRM});
  options_.mask = &block.old_mask();
  EXPECT_EQ(ChildMaskLines(options_), expected);
  sigset_t ignore;
  sigemptyset(&ignore);
  sigaddset(&ignore, SIGUSR2);
  options_.ignore = &ignore;
  EXPECT_NE(ChildMaskLines(options_), expected);  // USR2 ignored in the child.
  EXPECT_FALSE(IsIgnored(SIGUSR2));               // Not in the caller.
  sigset_t now;
  pthread_sigmask(SIG_SETMASK, nullptr, &now);
  EXPECT_EQ(sigismember(&now, SIGTERM), 1);  // The caller's mask as it was.
  EXPECT_EQ(sigismember(&now, SIGUSR2), 0);
}

TEST_F(SpawnIntoCgroupTest, ARefusalIsUnavailableAndStartsNothing) {
  const int not_a_group = open("/dev/null", O_RDONLY | O_CLOEXEC);
  options_.cgroup_fd = not_a_group;
  EXPECT_THAT(Spawn(Argv({"true"}).get(), options_),
              StatusIs(absl::StatusCode::kUnavailable, "cannot start the command in the cgroup: clone3: Bad file descriptor"));
  close(not_a_group);
  // A group removed under us.
  const int removed = open(leaf_->path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(removed, 0);
  ASSERT_THAT(leaf_->Remove(), IsOk());
  options_.cgroup_fd = removed;
  EXPECT_THAT(Spawn(Argv({"true"}).get(), options_), StatusIs(absl::StatusCode::kUnavailable));
  close(removed);
  EXPECT_TRUE(NoChildrenLeft());
}

// execvp runs a script without #! through sh, with a copy of argv on the stack: the child has a whole stack.
TEST_F(SpawnIntoCgroupTest, AScriptWithoutShebangAndAHugeArgvRuns) {
  const std::string script = TempPath("no-shebang");
  {
    std::ofstream out(script);
    out << "[ $# -eq 100000 ]\n";
  }
  chmod(script.c_str(), 0755);
  std::vector<std::string> args(100001, "x");
  args[0] = script;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  absl::StatusOr<pid_t> pid = Spawn(argv.data(), options_);
  ASSERT_THAT(pid, IsOk());
  EXPECT_EQ(ExitStatusOf(*Reap(*pid)), 0);
}

// In a child, whose descriptors we may close: the return value, then the placeholders, as the child's exit status
// bits (1: the mask was wrong, 2: a placeholder is missing or not close-on-exec, 4: it could be written, 8: a new
// descriptor landed on 0-2).
int HeldStandardDescriptors(bool close0, bool close2) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (close0) close(0);
    close(1);
    if (close2) close(2);
    const unsigned expected = (close0 ? 1u : 0u) | 2u | (close2 ? 4u : 0u);
    int bad = HoldClosedStandardDescriptors() == expected ? 0 : 1;
    for (int fd = 0; fd <= 2; ++fd) {
      if ((expected & (1u << fd)) == 0) continue;
      if (fcntl(fd, F_GETFD) != FD_CLOEXEC) bad |= 2;
      if (write(fd, "x", 1) != -1 || errno != EBADF) bad |= 4;
    }
    const int later = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (later >= 0 && later <= 2) bad |= 8;
    _exit(bad);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

TEST(HoldClosedStandardDescriptorsTest, FillsClosedOnesWithPlaceholdersThatActClosed) {
  EXPECT_EQ(HeldStandardDescriptors(false, false), 0);
  EXPECT_EQ(HeldStandardDescriptors(true, true), 0);
  EXPECT_EQ(HeldStandardDescriptors(false, true), 0);
}

TEST(HoldClosedStandardDescriptorsTest, LeavesOpenOnesAlone) {
  EXPECT_EQ(HoldClosedStandardDescriptors(), 0u);  // gtest's own 0, 1 and 2 are open.
}

}  // namespace
}  // namespace uucore
