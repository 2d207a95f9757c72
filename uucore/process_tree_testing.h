// uucore/process_tree_testing.h -- what process_tree_test and cgroup_test share (testonly): the subreaper fixture
// that leaves no process behind, its form by each way of listing children, and children that run a shell script.
#ifndef UUCORE_PROCESS_TREE_TESTING_H_
#define UUCORE_PROCESS_TREE_TESTING_H_

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"
#include "tests/testing/run.h"
#include "tests/testing/status_matchers.h"
#include "uucore/process_tree.h"

namespace uucore {

// The test process is the subreaper: every orphan of the scripts below comes back to it.
class ProcessTreeTest : public testing::Test {
 protected:
  void SetUp() override { ASSERT_THAT(BecomeSubreaper(), coreutils_testing::IsOk()); }
  void TearDown() override {
    // Leave nothing behind for the next case, whatever it failed on.
    (void)SignalDescendants(getpid(), SIGKILL);
    while (waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
  }
};

// Signalling, by each way of listing (kAuto is kChildrenFiles where the kernel has the files). Each test binary
// instantiates it: INSTANTIATE_TEST_SUITE_P(Enumerations, SignalTreeTest, testing::Values(...)).
class SignalTreeTest : public ProcessTreeTest, public testing::WithParamInterface<Enumeration> {
 protected:
  void SetUp() override {
    ProcessTreeTest::SetUp();
    if (GetParam() == Enumeration::kChildrenFiles && !HasChildrenFiles()) GTEST_SKIP() << "no children files";
  }
};

inline pid_t RunShell(const std::string& script) {
  const pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// A fresh path for a script to create once its tree is in place.
inline std::string Marker() {
  static int n = 0;
  const char* dir = getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/ready." + std::to_string(getpid()) + "." + std::to_string(++n);
}

inline bool AwaitFile(const std::string& path, double seconds = 20) {
  const double end = coreutils_testing::Now() + seconds;
  while (coreutils_testing::Now() < end) {
    if (access(path.c_str(), F_OK) == 0) return true;
    usleep(10000);
  }
  return false;
}

}  // namespace uucore

#endif  // UUCORE_PROCESS_TREE_TESTING_H_
