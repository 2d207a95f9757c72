// tests/container/scenarios.h -- what a container's init must do, each run for any init: issue 15's scenarios and
// issue 21's start-up window.
//
// Each scenario runs the image under runc (runtime.h) with the init under test as PID 1 and tests/container/app as
// the application, and returns what happened, not a verdict: container_test asserts ours exactly, and
// tools/bench/container prints the same runs for ours, tini and dumb-init side by side (README's table).
#ifndef TESTS_CONTAINER_SCENARIOS_H_
#define TESTS_CONTAINER_SCENARIOS_H_

#include <signal.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tests/container/runtime.h"

namespace container_testing {

struct Outcome {
  std::string error;          // The scenario could not run (runc failed): nothing else is meaningful.
  std::vector<int> statuses;  // PID 1's exit status per container (-1: still running when given up on).
  std::string output;         // The app's lines (and the terminal's echo), as the container wrote them.
  bool stopped = false;       // CtrlZ: the app was seen stopped ('T') after Ctrl-Z.
  double seconds = 0;         // From `runc kill` to PID 1's exit (ImmuneToTerm: -k's time).
  std::string note;           // For the table: "stopped" or "never stopped", "0.51 s".
};

// `runc kill ID TERM` while the app waits for TERM: the app reports how many TERMs it got, exits 42.
Outcome StopSignal(const Init& init);
// The app's child forks `orphans` processes and exits; they die as orphans of PID 1. "zombies K" is what is left.
Outcome OrphanStorm(const Init& init, int orphans);
// /bin/true, /bin/false, /noexec (not executable), /missing, /app raise 10 (USR1): one container each.
Outcome ExitCodes(const Init& init);
// The app starts a setsid() daemon; `runc kill TERM`. Ours runs with --tree (peers have no equivalent).
Outcome SetsidDaemon(const Init& init);
// The app ignores TERM; `runc kill TERM`; given up on after 5 s. Ours runs with -k 0.5 (peers have no -k).
Outcome ImmuneToTerm(const Init& init);
// On a terminal (runc's console socket): Ctrl-C; the app reports how many INTs it got and dies of INT.
Outcome CtrlC(const Init& init);
// On a terminal: Ctrl-Z, then SIGCONT to the app (as a shell's `fg`); the app says "CONT" and exits 0.
Outcome CtrlZ(const Init& init);
// The app sends TERM to its own process group (a shell's `kill 0`) and reports how many TERMs it got.
Outcome KillOwnGroup(const Init& init);
// `runc kill ID TSTP` (is the app seen stopped?), then `runc kill ID CONT`: the app, continued, says "CONT" and
// exits 0. No terminal.
Outcome StopAndContinue(const Init& init);

// One row of README's table for this outcome: "42; TERM 1" and the like.
std::string Summary(const Outcome& outcome);

// `text` made fit for a markdown table's cell ('|' escaped).
std::string MarkdownCell(std::string text);

// Prints README's side-by-side table in markdown to stdout, each cell as soon as it is known: a row per scenario, a
// column per init, the cell of row r and column c the Summary of run(r, c).
void PrintTable(const std::vector<std::string>& rows, const std::vector<std::string>& columns,
                const std::function<Outcome(size_t row, size_t column)>& run);

// Issue 21's start-up window: `trials` times, start the init as PID 1 with `sleep 1000` as its application, send PID 1
// one TERM from outside as early as the trigger allows, and wait (2 s by default). A trial whose init has not exited by then
// lost the signal (it is then KILLed); every other should exit 143. A PID 1 ignores a signal it neither blocks nor
// handles, and exec leaves PID 1 with default handling: until the new image blocks, a TERM is dropped on arrival.
enum class Runtime {
  kRunc,     // runc create, then runc start while watching; TERM sent from the host, as `runc kill` sends it
  kUnshare,  // clone(CLONE_NEWPID): what `unshare --pid --fork` does, without runc's cost
};
enum class Trigger {
  // /proc/PID/comm changed, at full speed (one pread per look). comm changes in the middle of the exec, before the
  // new image exists, so even an init that blocks at its first instruction (tests/container/floor) loses a share:
  // the kernel's part of the window.
  kComm,
  // ptrace: the init stopped as its first system call returns, then TERM, then detached. While traced the TERM is
  // queued, not dropped, and is dropped on delivery unless that first system call blocked it: deterministic, and
  // exactly issue 21's "blocked from the first instruction" (the kernel's part cannot lose anything here).
  kFirstSyscall,
  // ptrace: the init stopped at the entry of the system call that makes its application (vfork, clone, clone3), then
  // the signal, then detached as that call returns (tests/testing/ptrace.h): issue 21's "while the command is being
  // spawned" (signals blocked, the application not yet made), hit every time.
  kSpawn,
};
struct Window {
  std::string error;
  int trials = 0, lost = 0;
  std::map<int, int> statuses;  // Exit status -> trials, lost ones excluded.
  double seconds = 0;           // All trials.
};
struct WindowOptions {
  Runtime runtime = Runtime::kUnshare;
  Trigger trigger = Trigger::kFirstSyscall;
  int trials = 1000;
  double give_up_seconds = 2;  // How long PID 1 may take to exit after the TERM before the trial counts as lost.
  int stop_after_lost = 1 << 30;  // A test that has failed need not wait out 1,000 lost trials.
  int signal = SIGTERM;  // kSpawn: what is sent instead of TERM (an init that passes it on exits 128 + signal).
};
Window StartupWindow(const Init& init, const WindowOptions& options);

// The reference for the start-up window: tests/container/floor, which blocks at its first instruction.
Init Floor();

}  // namespace container_testing

#endif  // TESTS_CONTAINER_SCENARIOS_H_
