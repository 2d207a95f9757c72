// tests/podman/watchdog.h -- what a test process made with podman is removed even if the process dies before its
// TearDown: Bazel's timeout (TERM to the test's process group, KILL after the grace), a crash (SEGV, ABRT, BUS, FPE,
// ILL), an exit() from anywhere.
//
// StartWatchdog() forks a small process that leaves the test's process group, so that the signals Bazel sends the
// group miss it, and blocks reading a pipe whose one writer is the test process (O_CLOEXEC: no program the test
// runs holds it). A normal end, StopWatchdog(), writes to the pipe, and the watchdog exits. Any death of the test
// process without that closes the pipe, however it died, so no signal handler is needed to hand off: the watchdog
// runs `cleanup` (the engine's: every process left in the test's private mount namespace, containers, pods, images,
// cgroups, directories) and exits. The namespace, and every mount in it, ends with it. What the watchdog must know
// that the test process learns later (the IDs of the pods and containers it made, for their cgroups) goes down the
// same pipe, a line each (Tell).
#ifndef TESTS_PODMAN_WATCHDOG_H_
#define TESTS_PODMAN_WATCHDOG_H_

#include <sys/types.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace podman_testing {

struct Watchdog {
  pid_t pid = -1;  // -1: nothing watches.
  int fd = -1;     // The pipe's write end, the test process's.
};

// Forks the watchdog; `cleanup` runs in it, on the memory the test process had when it forked, with the lines the
// test process told it.
Watchdog StartWatchdog(const std::function<void(const std::vector<std::string>& told)>& cleanup);

// Sends the watchdog one line (no newline in it).
void Tell(const Watchdog& watchdog, const std::string& line);

// The test process ends normally: the watchdog exits without cleaning up, and is reaped. *watchdog is reset.
void StopWatchdog(Watchdog* watchdog);

// KILLs every other process in this process's mount namespace whose name (comm) is not in `spare`, until none is
// left or `seconds` passed. Returns what it killed, "PID COMM" each. Kills nothing where that namespace is PID 1's.
std::vector<std::string> KillMountNamespace(const std::set<std::string>& spare, double seconds);

}  // namespace podman_testing

#endif  // TESTS_PODMAN_WATCHDOG_H_
