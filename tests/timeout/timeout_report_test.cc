// timeout --report=FILE: where the report goes and what is left behind, whatever ends timeout.
//
// What the report says is tested in timeout_tree_test.cc (ReportTest); here: no temporary file left even when
// timeout is killed by KILL (the report waits in an unnamed O_TMPFILE), a FIFO without a reader refused at once
// (ENXIO, 125) instead of blocking timeout in open(), a dangling symbolic link that gets its target created as `>`
// would, and a writable FILE in a directory we cannot write to, written in place as `>` would. Reports are parsed
// with Python's json module, never by pattern.
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

// What python3's json makes of FILE's `expr` (d is the object), printed; "" with a message on stderr if it could not
// parse it. The file must be exactly one line.
std::string Field(const std::string& path, const std::string& expr) {
  return RunProgram("/usr/bin/python3",
                    {"python3", "-c",
                     "import json,sys; t=open(sys.argv[1]).read(); assert t.count('\\n') == 1 and t[-1] == '\\n'; "
                     "d=json.loads(t); print(" + expr + ")",
                     path})
      .out;
}

// `ls -A DIR`: every name in DIR, one per line.
std::string List(const std::string& dir) { return RunProgram("/bin/ls", {"ls", "-A", dir}).out; }

bool IsSymlink(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

class ReportFileTest : public testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  std::string dir_;
};

// timeout --report=REPORT killed by KILL while its command runs; the command, told by PR_SET_PDEATHSIG, ends too.
Result KilledWhileRunning(const std::string& report, const std::string& started) {
  return SignalOnceStarted({"timeout", "--report=" + report, "30", "sh", "-c", "touch \"$0\"; exec sleep 30", started},
                           started, SIGKILL);
}

TEST_F(ReportFileTest, KillingTimeoutLeavesNoTemporaryFile) {
  // Before: the temporary ".r.json.XXXXXX" (mode 0600) stayed in the directory for good.
  const std::string reports = dir_ + "/k";
  ASSERT_EQ(mkdir(reports.c_str(), 0755), 0);
  Result r = KilledWhileRunning(reports + "/r.json", dir_ + "/ready");
  EXPECT_EQ(r.status, 137);
  EXPECT_EQ(List(reports), "") << "left in " << reports;
  // Over an existing report: the old one stays, alone.
  ASSERT_EQ(system(("echo old >" + reports + "/r.json").c_str()), 0);
  ASSERT_EQ(unlink((dir_ + "/ready").c_str()), 0);
  r = KilledWhileRunning(reports + "/r.json", dir_ + "/ready");
  EXPECT_EQ(r.status, 137);
  EXPECT_EQ(List(reports), "r.json\n");
  EXPECT_EQ(ReadFile(reports + "/r.json"), "old\n");
}

TEST_F(ReportFileTest, WhileTheCommandRunsNoNameIsAddedBesideFile) {
  Result r = Invoke({"timeout", "--report=" + dir_ + "/r.json", "10", "ls", "-A", dir_});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(List(dir_), "r.json\n");
}

TEST_F(ReportFileTest, EveryOtherEndLeavesOnlyTheReport) {
  const std::string file = dir_ + "/r.json";
  const struct {
    std::vector<std::string> argv;
    int status;
  } cases[] = {
      {{"timeout", "--report=" + file, "10", "true"}, 0},
      {{"timeout", "--report=" + file, "10", dir_}, 126},
      {{"timeout", "--report=" + file, "10", "/nonexistent/cmd"}, 127},
      {{"timeout", "--report=" + file, "0.1", "sleep", "10"}, 124},
      {{"timeout", "-k", "0.1", "--report=" + file, "1", "sh", "-c", "trap '' TERM; sleep 10"}, 137},
      {{"timeout", "-s", "KILL", "--report=" + file, "0.1", "sleep", "10"}, 137},
  };
  for (const auto& c : cases) {
    unlink(file.c_str());
    Result r = Invoke(c.argv);
    EXPECT_EQ(r.status, c.status) << c.argv[c.argv.size() - 1];
    EXPECT_EQ(List(dir_), "r.json\n") << c.argv[c.argv.size() - 1];
    EXPECT_EQ(Field(file, "d['status']"), std::to_string(c.status) + "\n");
  }
  // A TERM to timeout is passed on; the command dies of it and so does timeout, report written first.
  unlink(file.c_str());
  const std::string started = MakeTempDir() + "/ran";  // Not in dir_, which must hold the report alone.
  Result r = SignalOnceStarted(
      {"timeout", "--report=" + file, "10", "sh", "-c", "touch \"$0\"; exec sleep 10", started}, started, SIGTERM);
  EXPECT_EQ(r.status, 143);
  EXPECT_EQ(List(dir_), "r.json\n");
  EXPECT_EQ(Field(file, "d['status'], d['command']['signal']"), "143 TERM\n");
}

// A report that cannot be written at the end is timeout's own write error: 125 in place of the command's 3, so the
// caller knows no report came.
TEST_F(ReportFileTest, AReportThatCannotBeWrittenIsAnError) {
  ExpectCase({"full", {"timeout", "--report=/dev/full", "10", "sh", "-c", "exit 3"}, 125, "",
              "timeout: error writing '/dev/full': No space left on device\n"});
}

TEST_F(ReportFileTest, AFifoWithoutAReaderIsRefusedAtOnce) {
  // Before: timeout blocked in open() for ever, its timer not even started, every signal but KILL blocked.
  const std::string fifo = dir_ + "/ff";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  Options options;
  options.limit_seconds = 10;
  ExpectCase({"no reader", {"timeout", "--report=" + fifo, "1", "touch", dir_ + "/ran"}, 125, "",
              "timeout: failed to open '" + fifo + "' for writing: No such device or address\n"},
             options);
  EXPECT_NE(access((dir_ + "/ran").c_str(), F_OK), 0) << "the command ran";
  // Under C.UTF-8 too the name is quoted as GNU's quoteaf quotes file names (uucore::QuoteFileName): 'ff', as GNU's
  // env says `cannot change directory to '/nonexistent'`; only names a shell would need escaped change.
  options.env = {"LC_ALL=C.UTF-8"};
  ExpectCase({"no reader, C.UTF-8", {"timeout", "--report=" + fifo, "1", "true"}, 125, "",
              "timeout: failed to open '" + fifo + "' for writing: No such device or address\n"},
             options);
}

TEST_F(ReportFileTest, AFifoWithAReaderGetsTheReport) {
  const std::string fifo = dir_ + "/ff";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0);
  Options options;
  options.limit_seconds = 10;
  ExpectCase({"a reader", {"timeout", "--report=" + fifo, "10", "sh", "-c", "exit 3"}, 3, "", ""}, options);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = read(reader, buf, sizeof buf)) > 0;) got.append(buf, static_cast<size_t>(n));
  close(reader);
  const std::string copy = dir_ + "/copy.json";
  FILE* f = fopen(copy.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs(got.c_str(), f);
  fclose(f);
  EXPECT_EQ(Field(copy, "d['status'], d['command']['exit']"), "3 3\n");
}

TEST_F(ReportFileTest, ADanglingLinkGetsItsTargetCreatedAsByARedirection) {
  // Before: the link itself was replaced by a regular file; `>` creates the target through the link.
  ASSERT_EQ(symlink("target.json", (dir_ + "/link").c_str()), 0);  // Relative: to the link's directory.
  ASSERT_EQ(symlink("link", (dir_ + "/link2").c_str()), 0);        // A chain.
  ExpectCase({"dangling", {"timeout", "--report=" + dir_ + "/link2", "10", "true"}, 0, "", ""});
  EXPECT_TRUE(IsSymlink(dir_ + "/link"));
  EXPECT_TRUE(IsSymlink(dir_ + "/link2"));
  EXPECT_EQ(Field(dir_ + "/target.json", "d['status']"), "0\n");
  EXPECT_EQ(List(dir_), "link\nlink2\ntarget.json\n");
  struct stat st;
  ASSERT_EQ(stat((dir_ + "/target.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);  // 0666 less the runner's umask, 022, as `>` would make it.

  // A link into a directory that does not exist: refused as `>` refuses it, before the command runs.
  ASSERT_EQ(symlink("no/such/dir/r.json", (dir_ + "/lost").c_str()), 0);
  ExpectCase({"no directory", {"timeout", "--report=" + dir_ + "/lost", "10", "touch", dir_ + "/ran"}, 125, "",
              "timeout: failed to open '" + dir_ + "/lost' for writing: No such file or directory\n"});
  EXPECT_TRUE(IsSymlink(dir_ + "/lost"));
  EXPECT_NE(access((dir_ + "/ran").c_str(), F_OK), 0) << "the command ran";

  // A loop: ELOOP, as open(2) says.
  ASSERT_EQ(symlink("loop", (dir_ + "/loop").c_str()), 0);
  ExpectCase({"loop", {"timeout", "--report=" + dir_ + "/loop", "10", "true"}, 125, "",
              "timeout: failed to open '" + dir_ + "/loop' for writing: Too many levels of symbolic links\n"});
}

// A directory only root can write to, holding FILE: as root, timeout runs as nobody (setpriv); otherwise the directory
// is made read-only. Everything a nobody must reach (the binary too) is outside root's 0700 home.
class UnwritableDirectoryTest : public testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() == 0 && access(kSetpriv, X_OK) != 0) GTEST_SKIP() << kSetpriv << " is not installed";
    std::string templ = "/tmp/coreutils-report-XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    base_ = templ;
    chmod(base_.c_str(), 0755);
    binary_ = base_ + "/coreutils";
    ASSERT_EQ(RunProgram("/bin/cp", {"cp", BinaryPath(), binary_}).status, 0);
    dir_ = base_ + "/d";
    ASSERT_EQ(mkdir(dir_.c_str(), 0755), 0);
  }
  void TearDown() override {
    if (base_.empty()) return;
    chmod(dir_.c_str(), 0755);
    RunProgram("/bin/rm", {"rm", "-rf", base_});
  }
  // FILE with these contents and mode; then the directory can no longer be written to by the one who runs timeout.
  void Prepare(const std::string& name, const std::string& contents, mode_t mode) {
    const std::string path = dir_ + "/" + name;
    FILE* f = fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    fputs(contents.c_str(), f);
    fclose(f);
    ASSERT_EQ(chmod(path.c_str(), mode), 0);
    if (geteuid() != 0) {
      ASSERT_EQ(chmod(dir_.c_str(), 0555), 0);
    }
  }
  Result Timeout(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"timeout"};
    argv.insert(argv.end(), args.begin(), args.end());
    if (geteuid() != 0) return RunProgram(binary_, argv);
    argv.insert(argv.begin(), {"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", binary_});
    return RunProgram(kSetpriv, argv);
  }
  static constexpr char kSetpriv[] = "/usr/bin/setpriv";
  std::string base_, binary_, dir_;
};

TEST_F(UnwritableDirectoryTest, AWritableFileIsWrittenInPlace) {
  // Before: 125 "Permission denied" (no temporary file beside it), where `>` succeeds.
  Prepare("r.json", std::string(1000, 'x') + "\n", 0666);
  struct stat before, after;
  ASSERT_EQ(stat((dir_ + "/r.json").c_str(), &before), 0);
  Result r = Timeout({"--report=" + dir_ + "/r.json", "10", "cat", dir_ + "/r.json"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, std::string(1000, 'x') + "\n") << "truncated before the command ended";
  EXPECT_EQ(Field(dir_ + "/r.json", "d['status']"), "0\n");  // One line: the old contents are gone.
  ASSERT_EQ(stat((dir_ + "/r.json").c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_mode & 07777, 0666u);
  EXPECT_EQ(List(dir_), "r.json\n");
}

TEST_F(UnwritableDirectoryTest, AFileThatIsNotWritableIsStillRefused) {
  Prepare("r.json", "old\n", 0644);
  Result r = Timeout({"--report=" + dir_ + "/r.json", "10", "true"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err, "timeout: failed to open '" + dir_ + "/r.json' for writing: Permission denied\n");
  // And a new FILE there cannot be made at all.
  r = Timeout({"--report=" + dir_ + "/new.json", "10", "true"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err, "timeout: failed to open '" + dir_ + "/new.json' for writing: Permission denied\n");
  EXPECT_EQ(ReadFile(dir_ + "/r.json"), "old\n");
}

}  // namespace
}  // namespace coreutils_testing
