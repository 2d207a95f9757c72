// tests/container/startup_window_test.cc -- issue 21: as PID 1, not one TERM lost from the init's first instruction.
//
// Each trial starts the init (ours: `coreutils timeout 0 coreutils sleep 1000`, the image's ENTRYPOINT form, or
// through a link named timeout) as PID 1 of a new PID namespace, sends it one TERM from outside as soon as its first
// system call has returned (ptrace: scenarios.h, Trigger::kFirstSyscall), and requires that it ends the application
// and exits 143 within 2 s. A PID 1 ignores any signal it neither blocks nor handles, so a TERM that lands before
// the init blocks its signals is lost (and the trial would run until KILLed); issue 21 asks that the first
// instruction blocks them. The trigger the issue names, /proc/PID/comm changed, fires in the middle of the exec,
// before the new image exists: tests/container/floor, which blocks at its first instruction, loses a share of those
// TERMs too (the kernel's; README), so no init can pass 0 in 1,000 with it and the test does not use it.
//
// CI: 1,000 trials of each form in a bare PID namespace (clone(CLONE_NEWPID), what `unshare --pid --fork` does;
// a few ms each) and 1,000 under runc (~0.18 s each: runc create/start/delete; ~3 min).
// CONTAINER_WINDOW_TRIALS=N runs N of each.
// Skipped, with the reason, without root or namespaces or runc (failed with it under COREUTILS_REQUIRE_RUNC=1:
// tests/testing/environment_skip.h), without ptrace, and in sanitizer builds (the binary is dynamic
// there: ld.so runs before its first instruction, signals unblocked, and the guarantee is the static binary's).
//
// Issue 21's item 4, in a bare PID namespace: a TERM or an INT that arrives while PID 1 spawns the application
// (signals blocked, the application not yet made: ptrace stops it at the entry of that vfork, Trigger::kSpawn)
// reaches the application once it exists, which dies of it, and PID 1 exits 128 + N (143, 130) within 5 s: never
// lost, never dropped as PID 1's own. Deterministic, so 10 trials each (CONTAINER_WINDOW_TRIALS=N: N), ~20 ms a
// trial (~0.3 s under ASan: every system call of ld.so is stopped at); run in sanitizer builds too, since by the
// spawn the dynamic binary has every signal blocked as well. Outside PID 1: tests/timeout/timeout_spawn_signal_test.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <map>
#include <string>

#include "gtest/gtest.h"
#include "tests/container/runtime.h"
#include "tests/container/scenarios.h"
#include "tests/testing/environment_skip.h"
#include "tests/testing/pid_namespace.h"
#include "tests/testing/ptrace.h"

namespace container_testing {
namespace {

using coreutils_testing::kRequireRunc;  // Set: a skip for the machine fails instead.
using coreutils_testing::PidNamespaceUnavailable;

int Trials(int ci_default) {
  const char* n = getenv("CONTAINER_WINDOW_TRIALS");
  return n != nullptr && atoi(n) > 0 ? atoi(n) : ci_default;
}

// Ours as the image's ENTRYPOINT runs it, `coreutils timeout 0 ...`, or through a link named timeout.
Init ThroughLink() {
  Init init = Ours();
  init.name = "ours, through a link";
  init.prefix = {"/bin/timeout", "0"};
  const char* tmp = getenv("TEST_TMPDIR");
  const std::string link = std::string(tmp ? tmp : "/tmp") + "/timeout";
  unlink(link.c_str());
  if (symlink(init.host_prefix[0].c_str(), link.c_str()) != 0) ADD_FAILURE() << "symlink " << link;
  init.host_prefix = {link, "0"};
  return init;
}

// Runs the trials; PID 1 must end the application and exit 128 + the signal in every one.
void Check(const Init& init, const WindowOptions& options) {
  const Window window = StartupWindow(init, options);
  ASSERT_EQ(window.error, "");
  printf("%s, %s, %s %s: %d trials, %d lost, %.2f ms per trial\n", init.name.c_str(),
         options.runtime == Runtime::kRunc ? "runc" : "unshare", options.signal == SIGTERM ? "TERM" : "INT",
         options.trigger == Trigger::kSpawn ? "at the spawn" : "after the first system call", window.trials,
         window.lost, window.seconds * 1000 / std::max(window.trials, 1));
  EXPECT_EQ(window.lost, 0);
  EXPECT_EQ(window.statuses, (std::map<int, int>{{128 + options.signal, options.trials}}));
}

// TERM right after PID 1's first system call.
WindowOptions FirstSyscall(Runtime runtime, int trials) {
  WindowOptions options;
  options.runtime = runtime;
  options.trigger = Trigger::kFirstSyscall;
  options.trials = trials;
  options.stop_after_lost = 5;  // Failed already: the rest would each wait 2 s.
  return options;
}

// `sig` at the entry of the vfork that makes the application, in a bare PID namespace.
WindowOptions AtTheSpawn(int sig) {
  WindowOptions options;
  options.runtime = Runtime::kUnshare;
  options.trigger = Trigger::kSpawn;
  options.signal = sig;
  options.trials = Trials(10);
  options.give_up_seconds = 5;
  options.stop_after_lost = 1;  // Deterministic: one lost signal fails it, as would a thousand.
  return options;
}

#ifdef COREUTILS_SANITIZED
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

TEST(StartupWindowTest, NoTermIsLostInAFreshPidNamespace) {
  if (kSanitized) GTEST_SKIP() << "sanitizer builds link the binary dynamically: ld.so runs unblocked first";
  if (const std::string why = PidNamespaceUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequireRunc, why);
  if (const std::string why = coreutils_testing::PtraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  Check(Ours(), FirstSyscall(Runtime::kUnshare, Trials(1000)));
}

TEST(StartupWindowTest, NoTermIsLostInAFreshPidNamespaceThroughTheTimeoutLink) {
  if (kSanitized) GTEST_SKIP() << "sanitizer builds link the binary dynamically: ld.so runs unblocked first";
  if (const std::string why = PidNamespaceUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequireRunc, why);
  if (const std::string why = coreutils_testing::PtraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  Check(ThroughLink(), FirstSyscall(Runtime::kUnshare, Trials(1000)));
}

TEST(StartupWindowTest, NoTermIsLostUnderRunc) {
  if (kSanitized) GTEST_SKIP() << "sanitizer builds link the binary dynamically: ld.so runs unblocked first";
  if (const std::string why = RuncUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequireRunc, why);
  if (const std::string why = coreutils_testing::PtraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  Check(Ours(), FirstSyscall(Runtime::kRunc, Trials(1000)));
}

TEST(SpawnWindowTest, ATermDuringTheSpawnEndsTheApplication) {
  if (const std::string why = PidNamespaceUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequireRunc, why);
  if (const std::string why = coreutils_testing::PtraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  Check(Ours(), AtTheSpawn(SIGTERM));
}

TEST(SpawnWindowTest, AnIntDuringTheSpawnEndsTheApplication) {
  if (const std::string why = PidNamespaceUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequireRunc, why);
  if (const std::string why = coreutils_testing::PtraceUnavailable(); !why.empty()) GTEST_SKIP() << why;
  Check(Ours(), AtTheSpawn(SIGINT));
}

}  // namespace
}  // namespace container_testing
