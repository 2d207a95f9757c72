// Stress: commands with children. On expiry the whole group goes (TERM, or KILL after -k for a tree that ignores
// TERM), whatever moment the children were forked at; children that exit on their own do not disturb timeout.
#include <signal.h>

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/stress/harness.h"

namespace coreutils_stress {
namespace {

// A tree that is still forking when the 1-10 ms expire, or long done: every member must die, and the status is 124
// (137 with -s KILL, which kills timeout through its group as well).
TEST(ProcessTreeTest, ExpiryKillsTheWholeGroup) {
  Tally tally("process tree killed on expiry");
  const int runs = Iterations(300, 2);
  for (int i = 0; i < runs; ++i) {
    const bool with_kill = i % 2 == 1;
    const char* duration = i % 3 == 0 ? "0.001" : i % 3 == 1 ? "0.003" : "0.01";
    std::vector<std::string> argv = {"timeout", duration, ProbePath(), "tree", std::to_string(1 + i % 4)};
    if (with_kill) argv.insert(argv.begin() + 1, {"-s", "KILL"});
    const Outcome run = RunAndCollect(argv);
    std::string problem = CommonProblems(run);
    if (problem.empty() && run.result.status != (with_kill ? 137 : 124)) problem = "wrong status";
    tally.Add(run, problem);
  }
  tally.Finish();
}

// The command forks children that exit at once, then exits itself about when the timer expires.
TEST(ProcessTreeTest, ChildrenThatExitDoNotConfuseTimeout) {
  std::mt19937 random(99);
  Tally tally("command whose children exit");
  const int runs = Iterations(300, 2);
  for (int i = 0; i < runs; ++i) {
    const int status = i % 2 == 0 ? 0 : 5;
    // A short DURATION against a command that forks 1-8 children and exits: both outcomes happen.
    const int children = std::uniform_int_distribution<int>(1, 8)(random);
    const Outcome run = RunAndCollect(
        {"timeout", i % 4 < 2 ? "0.004" : "0.008", ProbePath(), "spawn-exit", std::to_string(children), std::to_string(status)});
    std::string problem = CommonProblems(run);
    if (problem.empty() && run.result.status != status && run.result.status != 124) problem = "wrong status";
    tally.Add(run, problem);
  }
  tally.Finish();
}

// A command (and its children) ignoring TERM: -k must KILL them all. "Reported" means TERM was already ignored, so
// only 137 is right; before that, TERM may have killed the command (124).
TEST(IgnoresTermTest, KillAfterKillsTheWholeTree) {
  Tally tally("TERM-immune tree, -k");
  const int runs = Iterations(300, 4);
  for (int i = 0; i < runs; ++i) {
    const Outcome run = RunAndCollect({"timeout", "-k", "0.01", "0.01", ProbePath(), "ignore-term", std::to_string(i % 3)});
    std::string problem = CommonProblems(run);
    const int status = run.result.status;
    if (problem.empty() && status != 137 && !(status == 124 && run.fds.empty())) problem = "wrong status";
    tally.Add(run, problem);
  }
  tally.Finish();
}

}  // namespace
}  // namespace coreutils_stress
