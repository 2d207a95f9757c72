#include "utils/timeout/report.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace timeout_report {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::StatusIs;

// Debian's python3 (bazel-bootstrap depends on it, so CI has it): the real JSON parser the tests read reports with.
constexpr char kPython[] = "/usr/bin/python3";
// Parses FILE strictly (UTF-8, one line, no duplicate keys, no NaN/Infinity) and prints it back with ASCII escapes.
constexpr char kStrictParse[] = R"(
import json, sys
def pairs(kv):
    keys = [k for k, _ in kv]
    if len(keys) != len(set(keys)): raise ValueError('duplicate key')
    return dict(kv)
def constant(name): raise ValueError(name)
text = open(sys.argv[1], 'rb').read().decode('utf-8', 'strict')
if not text.endswith('\n') or text.count('\n') != 1: raise ValueError('not one line')
print(json.dumps(json.loads(text, object_pairs_hook=pairs, parse_constant=constant), separators=(',', ':')))
)";

std::string TempDir() {
  const char* dir = getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// What python3's json module makes of the report in `path`, printed back; "" if it refused it.
std::string ParsedByPython(const std::string& path) {
  const std::string out = TempDir() + "/parsed";
  const std::string command = absl::StrCat(kPython, " -c \"$SCRIPT\" '", path, "' > '", out, "'");
  setenv("SCRIPT", kStrictParse, 1);
  if (system(command.c_str()) != 0) return "";
  std::string text = ReadAll(out);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string ParsedByPython(const Outcome& outcome) {
  const std::string path = TempDir() + "/report.json";
  std::ofstream(path) << ToJson(outcome);
  return ParsedByPython(path);
}

Outcome TimedOut() {
  Outcome o;
  o.status = 124;
  o.timed_out = true;
  o.signal = SIGTERM;
  CommandEnded(4242, SIGTERM, &o);
  o.elapsed = absl::Microseconds(1000123);
  o.cpu_user = absl::Microseconds(812);
  o.cpu_sys = absl::Microseconds(1001);
  o.max_rss_kib = 1234;
  o.backend = "cgroup";
  o.signalled = 17;
  return o;
}

TEST(ToJsonTest, TheKeysInOrderOnOneLine) {
  EXPECT_EQ(ToJson(TimedOut()),
            "{\"status\":124,\"timed_out\":true,\"signal\":\"TERM\",\"killed\":false,\"forwarded\":[],"
            "\"command\":{\"pid\":4242,\"exit\":null,\"signal\":\"TERM\",\"core\":false},\"elapsed_s\":1.000123,"
            "\"cpu\":{\"user_s\":0.000812,\"sys_s\":0.001001},\"max_rss_kib\":1234,"
            "\"tree\":{\"backend\":\"cgroup\",\"signalled\":17},\"error\":null}\n");
  Outcome could_not_run;
  could_not_run.status = 127;
  could_not_run.error = "failed to run command 'no\"such': No such file or directory";
  EXPECT_EQ(ToJson(could_not_run),
            "{\"status\":127,\"timed_out\":false,\"signal\":null,\"killed\":false,\"forwarded\":[],"
            "\"command\":{\"pid\":null,\"exit\":null,\"signal\":null,\"core\":false},\"elapsed_s\":0.000000,"
            "\"cpu\":{\"user_s\":0.000000,\"sys_s\":0.000000},\"max_rss_kib\":null,"
            "\"tree\":{\"backend\":null,\"signalled\":0},"
            "\"error\":\"failed to run command 'no\\\"such': No such file or directory\"}\n");
}

TEST(ToJsonTest, APythonJsonParserReadsItBack) {
  if (access(kPython, X_OK) != 0) GTEST_SKIP() << kPython << " is not installed";
  EXPECT_EQ(ParsedByPython(TimedOut()),
            "{\"status\":124,\"timed_out\":true,\"signal\":\"TERM\",\"killed\":false,\"forwarded\":[],"
            "\"command\":{\"pid\":4242,\"exit\":null,\"signal\":\"TERM\",\"core\":false},\"elapsed_s\":1.000123,"
            "\"cpu\":{\"user_s\":0.000812,\"sys_s\":0.001001},\"max_rss_kib\":1234,"
            "\"tree\":{\"backend\":\"cgroup\",\"signalled\":17},\"error\":null}");
  Outcome killed;
  killed.status = 137;
  killed.timed_out = killed.killed = true;
  killed.signal = SIGRTMIN + 2;
  killed.forwarded = {SIGHUP, SIGRTMIN + 3};
  CommandEnded(7, SIGKILL | 0x80, &killed);
  killed.elapsed = absl::Seconds(12);
  killed.backend = "proc";
  killed.error = std::string("tab\t nl\n bell\x07 del\x7f \xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80 "
                             "\xff \xc0\xaf \xed\xa0\x80 \xe2\x80\xa8 q\" b\\ \x80");
  EXPECT_EQ(ParsedByPython(killed),
            "{\"status\":137,\"timed_out\":true,\"signal\":\"RTMIN+2\",\"killed\":true,\"forwarded\":[\"HUP\",\"RTMIN+3\"],"
            "\"command\":{\"pid\":7,\"exit\":null,\"signal\":\"KILL\",\"core\":true},\"elapsed_s\":12.0,"
            "\"cpu\":{\"user_s\":0.0,\"sys_s\":0.0},\"max_rss_kib\":null,"
            "\"tree\":{\"backend\":\"proc\",\"signalled\":0},"
            "\"error\":\"tab\\t nl\\n bell\\u0007 del\\u007f \\u00e9 \\u4e2d \\ud83d\\ude00 \\ufffd \\ufffd\\ufffd "
            "\\ufffd\\ufffd\\ufffd \\u2028 q\\\" b\\\\ \\ufffd\"}");
}

// As -v names them (GNU 9.10's "sending signal 0"): 0 and a number without a name as the number, not "EXIT".
TEST(ToJsonTest, SignalZeroAndUnnamedNumbersAreNumbers) {
  Outcome o;
  o.status = 124;
  o.timed_out = true;
  o.signal = 0;
  EXPECT_NE(ToJson(o).find("\"signal\":\"0\","), std::string::npos) << ToJson(o);
  o.signal = 32;
  EXPECT_NE(ToJson(o).find("\"signal\":\"32\","), std::string::npos) << ToJson(o);
  EXPECT_EQ(SignalWord(0), "0");
  EXPECT_EQ(SignalWord(32), "32");
  EXPECT_EQ(SignalWord(SIGTERM), "TERM");
  EXPECT_EQ(SignalWord(SIGRTMIN + 1), "RTMIN+1");
}

TEST(JsonStringTest, EscapesAndRepairs) {
  const struct {
    const char* in;
    const char* out;
  } cases[] = {
      {"", "\"\""},
      {"plain /path", "\"plain /path\""},
      {"q\"b\\", "\"q\\\"b\\\\\""},
      {"\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\""},
      {"\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\""},
      {"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80", "\"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\""},  // valid: kept
      {"\x80", "\"\xef\xbf\xbd\""},                                                        // stray continuation
      {"\xc3", "\"\xef\xbf\xbd\""},                                                        // truncated
      {"\xe4\xb8", "\"\xef\xbf\xbd\xef\xbf\xbd\""},                                        // truncated, per byte
      {"\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\""},                                        // overlong '/'
      {"\xe0\x80\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},                        // overlong
      {"\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},                        // surrogate
      {"\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},        // above U+10FFFF
      {"\xe2\x80\xa8\xe2\x80\xa9", "\"\\u2028\\u2029\""},
  };
  for (const auto& c : cases) EXPECT_EQ(JsonString(c.in), c.out) << c.in;
  EXPECT_EQ(JsonString(std::string("a\0b", 3)), "\"a\\u0000b\"");
}

TEST(CommandEndedTest, ExitOrSignal) {
  Outcome o;
  CommandEnded(10, 3 << 8, &o);
  EXPECT_EQ(o.command.pid, 10);
  EXPECT_EQ(o.command.exit, 3);
  EXPECT_FALSE(o.command.signal.has_value());
  CommandEnded(11, SIGSEGV | 0x80, &o);
  EXPECT_FALSE(o.command.exit.has_value());
  EXPECT_EQ(o.command.signal, SIGSEGV);
  EXPECT_TRUE(o.command.core);
}

// The names in a directory that start with `prefix`.
std::vector<std::string> Entries(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  while (const dirent* e = d ? readdir(d) : nullptr) {
    const std::string name = e->d_name;
    if (name != "." && name != ".." && absl::StartsWith(name, prefix)) names.push_back(name);
  }
  if (d) closedir(d);
  return names;
}

class ReportFileTest : public testing::Test {
 protected:
  void SetUp() override {
    umask(022);
    dir_ = TempDir() + "/reports." + std::to_string(counter_++);
    mkdir(dir_.c_str(), 0755);
  }
  static int counter_;
  std::string dir_;
};
int ReportFileTest::counter_ = 0;

TEST_F(ReportFileTest, ARegularFileAppearsWholeAtWrite) {
  const std::string path = dir_ + "/r.json";
  absl::StatusOr<ReportFile> report = ReportFile::Open(path);
  ASSERT_THAT(report, IsOk());
  EXPECT_NE(access(path.c_str(), F_OK), 0);  // Not there before the command has ended...
  EXPECT_TRUE(Entries(dir_, ".").empty()) << "a name was added";  // ...nor any name for its file, which is unnamed.
  ASSERT_THAT(report->Write(TimedOut()), IsOk());
  EXPECT_EQ(ReadAll(path), ToJson(TimedOut()));
  EXPECT_TRUE(Entries(dir_, ".r.json.").empty());
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  EXPECT_THAT(report->Write(TimedOut()), StatusIs(absl::StatusCode::kFailedPrecondition));
  if (access(kPython, X_OK) == 0) {
    EXPECT_NE(ParsedByPython(path), "");
  }
}

TEST_F(ReportFileTest, AnExistingFileIsReplacedAndKeepsItsMode) {
  const std::string path = dir_ + "/r.json";
  std::ofstream(path) << "old contents, longer than nothing\n";
  chmod(path.c_str(), 0600);
  absl::StatusOr<ReportFile> report = ReportFile::Open(path);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(ReadAll(path), "old contents, longer than nothing\n");
  ASSERT_THAT(report->Write(TimedOut()), IsOk());
  EXPECT_EQ(ReadAll(path), ToJson(TimedOut()));
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST_F(ReportFileTest, ASymbolicLinkStaysALink) {
  const std::string target = dir_ + "/target.json", link = dir_ + "/link.json";
  std::ofstream(target) << "old\n";
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  absl::StatusOr<ReportFile> report = ReportFile::Open(link);
  ASSERT_THAT(report, IsOk());
  ASSERT_THAT(report->Write(TimedOut()), IsOk());
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(ReadAll(target), ToJson(TimedOut()));
}

TEST_F(ReportFileTest, WithoutWriteNothingIsLeft) {
  const std::string path = dir_ + "/r.json";
  {
    absl::StatusOr<ReportFile> report = ReportFile::Open(path);
    ASSERT_THAT(report, IsOk());
    ReportFile moved = std::move(*report);
  }
  EXPECT_NE(access(path.c_str(), F_OK), 0);
  EXPECT_TRUE(Entries(dir_, ".r.json.").empty());
}

TEST_F(ReportFileTest, AKillBeforeWriteLeavesNothing) {
  const std::string path = dir_ + "/r.json";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    absl::StatusOr<ReportFile> report = ReportFile::Open(path);
    if (!report.ok()) _exit(1);
    raise(SIGKILL);  // No destructor runs.
    _exit(2);
  }
  int status;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_TRUE(Entries(dir_, ".").empty()) << "a temporary file was left";
  EXPECT_NE(access(path.c_str(), F_OK), 0);
}

TEST_F(ReportFileTest, WithoutOTmpfileANamedTemporaryFile) {
  const std::string path = dir_ + "/r.json";
  std::ofstream(path) << "old\n";
  chmod(path.c_str(), 0640);
  report_internal::Hooks().refuse_tmpfile = true;
  absl::StatusOr<ReportFile> report = ReportFile::Open(path);
  report_internal::Hooks().refuse_tmpfile = false;
  ASSERT_THAT(report, IsOk());
  const std::vector<std::string> temps = Entries(dir_, ".r.json.");
  ASSERT_EQ(temps.size(), 1u);
  struct stat st;
  ASSERT_EQ(stat((dir_ + "/" + temps[0]).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);  // Until it is complete.
  ASSERT_THAT(report->Write(TimedOut()), IsOk());
  EXPECT_EQ(ReadAll(path), ToJson(TimedOut()));
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_TRUE(Entries(dir_, ".").empty());
  {  // Without Write(), the destructor removes it.
    report_internal::Hooks().refuse_tmpfile = true;
    absl::StatusOr<ReportFile> unwritten = ReportFile::Open(path);
    report_internal::Hooks().refuse_tmpfile = false;
    ASSERT_THAT(unwritten, IsOk());
    EXPECT_EQ(Entries(dir_, ".r.json.").size(), 1u);
  }
  EXPECT_TRUE(Entries(dir_, ".").empty());
}

TEST_F(ReportFileTest, AnUnnamedFileThatCannotBeLinkedIsWrittenAgainNamed) {
  const std::string path = dir_ + "/r.json";
  absl::StatusOr<ReportFile> report = ReportFile::Open(path);
  ASSERT_THAT(report, IsOk());
  report_internal::Hooks().refuse_link = true;
  const absl::Status written = report->Write(TimedOut());
  report_internal::Hooks().refuse_link = false;
  ASSERT_THAT(written, IsOk());
  EXPECT_EQ(ReadAll(path), ToJson(TimedOut()));
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
  EXPECT_TRUE(Entries(dir_, ".").empty());
}

TEST_F(ReportFileTest, RefusalsInGnusWords) {
  EXPECT_THAT(ReportFile::Open("/nonexistent-dir/r.json"),
              StatusIs(absl::StatusCode::kNotFound,
                       "failed to open '/nonexistent-dir/r.json' for writing: No such file or directory"));
  EXPECT_THAT(ReportFile::Open("/proc"),
              StatusIs(absl::StatusCode::kFailedPrecondition, "failed to open '/proc' for writing: Is a directory"));
  EXPECT_THAT(ReportFile::Open("/dev/fd/1000"),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       "failed to open '/dev/fd/1000' for writing: Bad file descriptor"));
  const int read_only = open("/dev/null", O_RDONLY | O_CLOEXEC);
  const std::string named = absl::StrCat("/dev/fd/", read_only);
  EXPECT_THAT(ReportFile::Open(named),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       absl::StrCat("failed to open '", named, "' for writing: Bad file descriptor")));
  close(read_only);
  absl::StatusOr<ReportFile> full = ReportFile::Open("/dev/full");
  ASSERT_THAT(full, IsOk());
  EXPECT_THAT(full->Write(TimedOut()), StatusIs(absl::StatusCode::kResourceExhausted,
                                                "error writing '/dev/full': No space left on device"));
}

TEST_F(ReportFileTest, DescriptorsAreWrittenDirectlyNotReopened) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  absl::StatusOr<ReportFile> report = ReportFile::Open(absl::StrCat("/dev/fd/", pipe_fds[1]));
  ASSERT_THAT(report, IsOk());
  close(pipe_fds[1]);  // Ours is a copy.
  ASSERT_THAT(report->Write(TimedOut()), IsOk());
  char buf[4096];
  const ssize_t n = read(pipe_fds[0], buf, sizeof buf);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, n), ToJson(TimedOut()));
  EXPECT_EQ(read(pipe_fds[0], buf, sizeof buf), 0);  // Closed after the write.
  close(pipe_fds[0]);

  // `3>>log`: appended at the end, the earlier contents kept (reopening with O_TRUNC would lose them).
  const std::string log = dir_ + "/log";
  std::ofstream(log) << "before\n";
  const int append = open(log.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  absl::StatusOr<ReportFile> appended = ReportFile::Open(absl::StrCat("/proc/self/fd/", append));
  ASSERT_THAT(appended, IsOk());
  close(append);
  ASSERT_THAT(appended->Write(TimedOut()), IsOk());
  EXPECT_EQ(ReadAll(log), "before\n" + ToJson(TimedOut()));

  // /dev/stderr is descriptor 2, whatever it is.
  const std::string err = dir_ + "/stderr";
  const int saved = dup(2);
  const int file = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  dup2(file, 2);
  close(file);
  absl::StatusOr<ReportFile> to_stderr = ReportFile::Open("/dev/stderr");
  const absl::Status written = to_stderr.ok() ? to_stderr->Write(TimedOut()) : to_stderr.status();
  dup2(saved, 2);
  close(saved);
  ASSERT_THAT(written, IsOk());
  EXPECT_EQ(ReadAll(err), ToJson(TimedOut()));

  // Not a regular file: written where it is.
  absl::StatusOr<ReportFile> null = ReportFile::Open("/dev/null");
  ASSERT_THAT(null, IsOk());
  EXPECT_THAT(null->Write(TimedOut()), IsOk());
}

}  // namespace
}  // namespace timeout_report
