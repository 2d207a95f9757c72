#include "uucore/file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::StatusIs;

std::string TempDir() {
  const char* dir = getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

// Writes `text` to a new file NAME under the test's directory; returns its path.
std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = absl::StrCat(TempDir(), "/", name);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  EXPECT_GE(fd, 0) << path;
  EXPECT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  return path;
}

// The descriptor the next open() gets: the lowest free one.
int LowestFreeFd() {
  const int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  close(fd);
  return fd;
}

TEST(ReadFileTest, ReadsWholeFiles) {
  std::string big;
  for (int i = 0; big.size() < 10000; ++i) absl::StrAppend(&big, i, "\n");  // Several reads' worth.
  for (const std::string& text : {std::string(), std::string("one line\n"), std::string(4096, 'x'), big}) {
    absl::StatusOr<std::string> got = ReadFile(WriteTemp("whole", text));
    ASSERT_THAT(got, IsOk());
    EXPECT_EQ(*got, text) << text.size() << " bytes";
  }
}

TEST(ReadFileTest, ReadsProcFiles) {
  absl::StatusOr<std::string> stat = ReadFile("/proc/self/stat");
  ASSERT_THAT(stat, IsOk());
  EXPECT_TRUE(absl::StartsWith(*stat, absl::StrCat(getpid(), " ("))) << *stat;
  absl::StatusOr<std::string> status = ReadFile("/proc/self/status");
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(absl::StartsWith(*status, "Name:")) << *status;
  EXPECT_TRUE(absl::EndsWith(*status, "\n")) << *status;
}

TEST(ReadFileTest, ReadFileAtIsRelativeToTheDirectory) {
  WriteTemp("at", "relative\n");
  const int dir_fd = open(TempDir().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ASSERT_GE(dir_fd, 0);
  absl::StatusOr<std::string> got = ReadFileAt(dir_fd, "at");
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(*got, "relative\n");
  EXPECT_THAT(ReadFileAt(dir_fd, "none"), StatusIs(absl::StatusCode::kNotFound, "open none: No such file or directory"));
  close(dir_fd);
}

TEST(ReadFileTest, ErrorsNameTheStepAndThePath) {
  EXPECT_THAT(ReadFile("/nonexistent-dir/f"),
              StatusIs(absl::StatusCode::kNotFound, "open /nonexistent-dir/f: No such file or directory"));
  // A directory opens, and its read fails.
  EXPECT_THAT(ReadFile(TempDir()),
              StatusIs(absl::StatusCode::kFailedPrecondition, absl::StrCat("read ", TempDir(), ": Is a directory")));
}

TEST(ReadFileTest, ClosesWhatItOpens) {
  const int lowest = LowestFreeFd();
  EXPECT_THAT(ReadFile(WriteTemp("closed", "x")), IsOk());
  EXPECT_THAT(ReadFile(TempDir()), StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_EQ(LowestFreeFd(), lowest);
}

TEST(ReadFdTest, ReadsFromTheStartEachTimeAndLeavesTheOffset) {
  const std::string path = WriteTemp("fd", "first\n");
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(lseek(fd, 3, SEEK_SET), 3);
  absl::StatusOr<std::string> got = ReadFd(fd, "fd");
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(*got, "first\n");
  ASSERT_EQ(pwrite(fd, "second\n", 7, 6), 7);
  got = ReadFd(fd, "fd");
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(*got, "first\nsecond\n");
  EXPECT_EQ(lseek(fd, 0, SEEK_CUR), 3);
  close(fd);
}

TEST(ReadFdTest, APipeCannotBeReadAtAnOffset) {
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  EXPECT_THAT(ReadFd(fds[0], "pipe"), StatusIs(absl::StatusCode::kInvalidArgument, "read pipe: Illegal seek"));
  close(fds[0]);
  close(fds[1]);
}

}  // namespace
}  // namespace uucore
