// Faults: nohup with a terminal on stdout (so it must open nohup.out) where neither the current directory nor
// $HOME can take the file. The test runs as root, which ignores directory permissions, so each directory is made a
// read-only bind mount in a private mount namespace: open(2) then fails with EROFS for root too. Each case runs
// through our nohup and GNU's, each in fresh directories, and checks status, stderr, the terminal and the files.
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/faults/differential.h"
#include "tests/testing/pty.h"
#include "tests/testing/run.h"

namespace coreutils_faults {
namespace {

using coreutils_testing::Options;
using coreutils_testing::ReadFile;
using coreutils_testing::Result;

// For before_exec: a private mount namespace in which each of `dirs` is read-only, then chdir to `cwd` (after the
// mounts, or the old directory would still be the writable one underneath), then `then` (a terminal on stdout).
std::function<void()> ReadOnly(std::vector<std::string> dirs, std::string cwd, std::function<void()> then = {}) {
  return [dirs, cwd, then] {
    if (unshare(CLONE_NEWNS) != 0) _exit(203);
    if (mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) _exit(204);
    for (const std::string& d : dirs) {
      if (mount(d.c_str(), d.c_str(), nullptr, MS_BIND, nullptr) != 0) _exit(205);
      if (mount(nullptr, d.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) _exit(206);
    }
    if (chdir(cwd.c_str()) != 0) _exit(207);
    if (then) then();
  };
}

// Whether this machine lets us make a read-only bind mount (root with CAP_SYS_ADMIN, not in a locked-down sandbox).
bool CanMakeReadOnlyDirectories() {
  const std::string dir = coreutils_testing::MakeTempDir();
  const pid_t pid = fork();
  if (pid == 0) {
    ReadOnly({dir}, dir)();
    const int fd = open("file", O_WRONLY | O_CREAT, 0600);
    _exit(fd < 0 && errno == EROFS ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

struct Dirs {
  std::string cwd, home;
};

// Runs `nohup sh -c 'echo ran'` with stdout on a terminal in a fresh cwd and HOME (each read-only if asked).
// `env` may use $HOME, which is replaced by the fresh home directory.
Result RunNohup(const std::string& program, bool cwd_read_only, bool home_read_only, std::vector<std::string> env,
                Dirs& dirs) {
  dirs = {coreutils_testing::MakeTempDir(), coreutils_testing::MakeTempDir()};
  std::vector<std::string> read_only;
  if (cwd_read_only) read_only.push_back(dirs.cwd);
  if (home_read_only) read_only.push_back(dirs.home);
  coreutils_testing::Pty terminal;
  EXPECT_TRUE(terminal.ok()) << "no pseudo-terminal";
  Options options;
  options.clear_env = true;
  options.env = {"LC_ALL=C", "PATH=/usr/bin:/bin"};
  for (std::string& e : env) {
    if (size_t at = e.find("$HOME"); at != std::string::npos) e.replace(at, 5, dirs.home);
    options.env.push_back(e);
  }
  options.before_exec = ReadOnly(read_only, dirs.cwd, terminal.OnFds({1}));
  return coreutils_testing::RunProgram(program, {"nohup", "sh", "-c", "echo ran"}, options);
}

class NohupDirsTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!CanMakeReadOnlyDirectories()) GTEST_SKIP() << "cannot make read-only bind mounts here (needs root)";
    programs_.push_back(coreutils_testing::BinaryPath());
    if (!GnuPath("nohup").empty()) programs_.push_back(GnuPath("nohup"));
  }
  std::vector<std::string> programs_;  // Ours, then GNU's where /usr/bin/nohup is GNU's.
};

const char kRofs[] = "Read-only file system";

TEST_F(NohupDirsTest, ReadOnlyCurrentDirectoryFallsBackToHome) {
  for (const std::string& program : programs_) {
    Dirs dirs;
    const Result r = RunNohup(program, true, false, {"HOME=$HOME"}, dirs);
    EXPECT_EQ(r.status, 0) << program;
    EXPECT_EQ(r.err, "nohup: appending output to '" + dirs.home + "/nohup.out'\n") << program;
    EXPECT_EQ(ReadFile(dirs.home + "/nohup.out"), "ran\n") << program;
    EXPECT_FALSE(Exists(dirs.cwd + "/nohup.out")) << program;
  }
}

TEST_F(NohupDirsTest, ReadOnlyHomeIsNotNeededWhenTheCurrentDirectoryWorks) {
  for (const std::string& program : programs_) {
    Dirs dirs;
    const Result r = RunNohup(program, false, true, {"HOME=$HOME"}, dirs);
    EXPECT_EQ(r.status, 0) << program;
    EXPECT_EQ(r.err, "nohup: appending output to 'nohup.out'\n") << program;
    EXPECT_EQ(ReadFile(dirs.cwd + "/nohup.out"), "ran\n") << program;
  }
}

TEST_F(NohupDirsTest, NeitherWritableFailsWithoutRunningTheCommand) {
  for (const std::string& program : programs_) {
    Dirs dirs;
    const Result r = RunNohup(program, true, true, {"HOME=$HOME"}, dirs);
    EXPECT_EQ(r.status, 125) << program;
    EXPECT_EQ(r.err, std::string("nohup: failed to open 'nohup.out': ") + kRofs + "\nnohup: failed to open '" +
                         dirs.home + "/nohup.out': " + kRofs + "\n")
        << program;
    EXPECT_EQ(r.out, "") << program;
    EXPECT_FALSE(Exists(dirs.cwd + "/nohup.out") || Exists(dirs.home + "/nohup.out")) << program;
  }
}

TEST_F(NohupDirsTest, NeitherWritableUnderPosixlyCorrectIs127) {
  for (const std::string& program : programs_) {
    Dirs dirs;
    const Result r = RunNohup(program, true, true, {"HOME=$HOME", "POSIXLY_CORRECT=1"}, dirs);
    EXPECT_EQ(r.status, 127) << program;
    EXPECT_EQ(r.err, std::string("nohup: failed to open 'nohup.out': ") + kRofs + "\nnohup: failed to open '" +
                         dirs.home + "/nohup.out': " + kRofs + "\n")
        << program;
  }
}

TEST_F(NohupDirsTest, ReadOnlyCurrentDirectoryAndNoHome) {
  for (const std::string& program : programs_) {
    Dirs dirs;
    const Result r = RunNohup(program, true, false, {}, dirs);
    EXPECT_EQ(r.status, 125) << program;
    EXPECT_EQ(r.err, std::string("nohup: failed to open 'nohup.out': ") + kRofs + "\n") << program;
  }
}

TEST_F(NohupDirsTest, ReadOnlyCurrentDirectoryAndAMissingHome) {
  for (const std::string& program : programs_) {
    Dirs dirs;
    const Result r = RunNohup(program, true, false, {"HOME=$HOME/missing"}, dirs);
    EXPECT_EQ(r.status, 125) << program;
    EXPECT_EQ(r.err, std::string("nohup: failed to open 'nohup.out': ") + kRofs + "\nnohup: failed to open '" +
                         dirs.home + "/missing/nohup.out': No such file or directory\n")
        << program;
  }
}

// An existing nohup.out in a read-only directory cannot be opened for appending either.
TEST_F(NohupDirsTest, ExistingNohupOutOnAReadOnlyFilesystem) {
  for (const std::string& program : programs_) {
    Dirs dirs;
    // RunNohup makes fresh directories, so pre-create the file through a first, writable run.
    Result first = RunNohup(program, false, false, {"HOME=$HOME"}, dirs);
    ASSERT_EQ(first.status, 0) << program;
    const std::string cwd = dirs.cwd;
    coreutils_testing::Pty terminal;
    Options options;
    options.clear_env = true;
    options.env = {"LC_ALL=C", "PATH=/usr/bin:/bin"};
    options.before_exec = ReadOnly({cwd}, cwd, terminal.OnFds({1}));
    const Result r = coreutils_testing::RunProgram(program, {"nohup", "sh", "-c", "echo ran"}, options);
    EXPECT_EQ(r.status, 125) << program;
    EXPECT_EQ(r.err, std::string("nohup: failed to open 'nohup.out': ") + kRofs + "\n") << program;
    EXPECT_EQ(ReadFile(cwd + "/nohup.out"), "ran\n") << program;
  }
}

}  // namespace
}  // namespace coreutils_faults
