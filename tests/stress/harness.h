// tests/stress/harness.h -- run a utility thousands of times and check, after every run, what it left behind.
//
// The test process makes itself a child subreaper, so every process a run leaves behind (the command, the
// command's children, anything that double-forked) is re-parented to it once timeout exits. After each run it
// reaps those that are dying and reports those still alive after a grace period (then kills them), and it reports
// the command itself if timeout exited without reaping it (the command then turns up here as a zombie).
//
// The command under test is tests/stress/probe, which prints "pid=PID fds=0,1,2": the descriptors it inherited.
#ifndef TESTS_STRESS_HARNESS_H_
#define TESTS_STRESS_HARNESS_H_

#include <map>
#include <string>
#include <vector>

#include "tests/testing/run.h"

namespace coreutils_stress {

// How many runs a stress test makes: $STRESS_ITERATIONS if set (tools/stress sets a large one), else ci_default.
// Tests whose runs each take tens of milliseconds pass divisor > 1 and do that fraction (at least 1).
int Iterations(int ci_default, int divisor = 1);

// The probe binary from the test's runfiles.
std::string ProbePath();

// A signal sent to the utility (not its group) this many microseconds after the runner's child starts; 0 is
// before exec, larger delays land during start-up, spawn and the wait.
struct Injection {
  int signal = 0;
  int delay_us = 0;
};

struct Outcome {
  coreutils_testing::Result result;
  int command_pid = 0;                 // From the probe's line; 0 if it never printed one.
  std::string fds;                     // The probe's descriptors, e.g. "0,1,2"; empty if it never printed.
  std::vector<std::string> survivors;  // One line per process still alive after the run (none is the only good answer).
  bool command_unreaped = false;       // The utility exited without reaping the command: a zombie for its caller.
};

// Runs argv (argv[0] picks the utility) with stdin/stdout/stderr only, then collects leftovers.
Outcome RunAndCollect(const std::vector<std::string>& argv, const Injection* injection = nullptr);
// The same with another program, e.g. GNU's /usr/bin/timeout, to check that an expectation is GNU's.
// limit_seconds bounds a run whose command survives and keeps stdout open (see GNU's race in signal_test.cc).
Outcome RunAndCollect(const std::string& program, const std::vector<std::string>& argv, const Injection* injection,
                      double limit_seconds = 20);

// Counts outcomes and keeps the first few failures for the report.
class Tally {
 public:
  explicit Tally(std::string name) : name_(std::move(name)) {}
  // Records the run; `problem` empty means it was fine.
  void Add(const Outcome& run, const std::string& problem);
  // Records a run that shows a known fault of a reference implementation: counted and printed, not failed.
  void AddKnown(const Outcome& run, const std::string& fault);
  // EXPECTs no failures and prints "STRESS name: N runs, statuses {...}, F failed, slowest S s" for tools/stress.
  void Finish();

 private:
  std::string name_;
  int runs_ = 0, failed_ = 0;
  std::map<std::string, int> known_;
  double slowest_ = 0;
  std::map<int, int> statuses_;
  std::vector<std::string> examples_;
};

// The checks every run must pass: not hung, no survivors, the command reaped (unless timeout itself was killed by
// the KILL it sent its own group, as GNU's is), nothing on stderr, and if the probe printed, exactly fds 0,1,2.
// Returns the first problem found, or "".
std::string CommonProblems(const Outcome& run);

}  // namespace coreutils_stress

#endif  // TESTS_STRESS_HARNESS_H_
