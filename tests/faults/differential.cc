#include "tests/faults/differential.h"

#include <fcntl.h>
#include <unistd.h>

#include <map>
#include <string>

#include "gtest/gtest.h"

namespace coreutils_faults {

using coreutils_testing::Options;
using coreutils_testing::Result;

Options WithFault(Fault fault, Options base) {
  Options options = std::move(base);
  switch (fault) {
    case Fault::kNone: break;
    case Fault::kStdoutFull: options.stdout_path = "/dev/full"; break;
    case Fault::kStdoutClosed: options.close_stdout = true; break;
    case Fault::kStderrClosed: options.close_stderr = true; break;
    case Fault::kBothClosed: options.close_stdout = options.close_stderr = true; break;
    case Fault::kStderrFull: {
      std::function<void()> then = options.before_exec;
      options.before_exec = [then] {
        const int fd = open("/dev/full", O_WRONLY);
        if (fd < 0 || dup2(fd, 2) != 2) _exit(202);
        if (fd != 2) close(fd);
        if (then) then();
      };
      break;
    }
  }
  return options;
}

std::string GnuPath(const std::string& name) {
  static std::map<std::string, std::string> known;
  auto [it, inserted] = known.emplace(name, "");
  if (inserted) {
    const std::string path = "/usr/bin/" + name;
    if (access(path.c_str(), X_OK) == 0 &&
        coreutils_testing::RunProgram(path, {name, "--version"}).out.find("(GNU coreutils)") != std::string::npos) {
      it->second = path;
    }
  }
  return it->second;
}

void ExpectFaultCase(const FaultCase& c, const Options& base) {
  const Options options = WithFault(c.fault, base);
  const Result ours = coreutils_testing::Invoke(c.argv, options);
  EXPECT_FALSE(ours.hung) << c.name;
  EXPECT_EQ(ours.status, c.status) << c.name;
  EXPECT_EQ(ours.out, c.out) << c.name;
  EXPECT_EQ(ours.err, c.err) << c.name;
  const std::string gnu_path = GnuPath(c.argv[0]);
  if (gnu_path.empty()) return;
  const Result gnu = coreutils_testing::RunProgram(gnu_path, c.argv, options);
  EXPECT_FALSE(gnu.hung) << "GNU: " << c.name;
  EXPECT_EQ(gnu.status, c.status) << "GNU: " << c.name;
  EXPECT_EQ(gnu.out, c.out) << "GNU: " << c.name;
  EXPECT_EQ(gnu.err, c.err) << "GNU: " << c.name;
}

}  // namespace coreutils_faults
