// Stress: the command's own exit racing timeout's expiry. The probe sleeps about as long as the DURATION, so runs
// split between "the command finished" and "timed out"; each run must give one of exactly those two statuses (per
// option set), leave nothing behind, and hand the command no descriptor but 0, 1 and 2.
#include <signal.h>

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/stress/harness.h"

namespace coreutils_stress {
namespace {

struct Variant {
  std::vector<std::string> options;
  int timed_out_status;     // What a timed-out run gives (the other correct answer is the command's own status).
  bool kill_after = false;  // -k: if the command is not reaped within it (a loaded machine), KILL goes to the
                            // group, timeout included, and 137 is right too.
};

// GNU 9.1's answers for a command killed on expiry.
const std::vector<Variant> kVariants = {
    {{}, 124},
    {{"--preserve-status"}, 128 + SIGTERM},
    {{"-s", "KILL"}, 128 + SIGKILL},
    {{"--preserve-status", "-s", "INT"}, 128 + SIGINT},
    {{"--foreground"}, 124},
    {{"-k", "0.01"}, 124, true},
};

std::vector<std::string> Argv(const std::string& name, const Variant& v, long nanos, int status) {
  std::vector<std::string> argv = {name};
  argv.insert(argv.end(), v.options.begin(), v.options.end());
  for (const std::string& a : {std::string("0.01"), ProbePath(), std::string("run"), std::to_string(nanos),
                               std::to_string(status)}) {
    argv.push_back(a);
  }
  return argv;
}

std::string Problems(const Outcome& run, const Variant& v, int status) {
  std::string common = CommonProblems(run);
  if (!common.empty()) return common;
  const int got = run.result.status;
  if (got == status) {
    if (run.result.signal != 0) return "the command's status, but by a signal";
    if (run.fds.empty()) return "the command finished without reporting";
    return "";
  }
  if (v.kill_after && got == 128 + SIGKILL && run.result.signal == SIGKILL) return "";
  if (got != v.timed_out_status) return "neither the command's status nor the timed-out one";
  // Timed out: timeout exits with the status, except that KILL sent to its own group may kill timeout too.
  if (run.result.signal != 0 && run.result.signal != SIGKILL) return "timed out, but timeout died of a signal";
  return "";
}

void Race(const std::string& program, const std::string& name, int runs) {
  std::mt19937 random(12345);
  Tally tally(name);
  for (int i = 0; i < runs; ++i) {
    const Variant& v = kVariants[i % kVariants.size()];
    const int status = (i / kVariants.size()) % 2 == 0 ? 0 : 3;
    // The command sleeps 2 to 14 ms against a 10 ms DURATION that starts after its fork: both outcomes happen.
    const long nanos = std::uniform_int_distribution<long>(2'000'000, 14'000'000)(random);
    const Outcome run = RunAndCollect(program, Argv("timeout", v, nanos, status), nullptr);
    tally.Add(run, Problems(run, v, status));
  }
  tally.Finish();
}

TEST(ExitRacesExpiryTest, EveryRunGivesOneOfTheTwoCorrectStatuses) {
  Race(coreutils_testing::BinaryPath(), "exit racing expiry", Iterations(600));
}

// The same expectations hold for GNU's timeout: they are GNU's answers, not ours.
TEST(ExitRacesExpiryTest, GnuGivesTheSameAnswers) {
  const std::string gnu = "/usr/bin/timeout";
  const coreutils_testing::Result probe = coreutils_testing::RunProgram(gnu, {"timeout", "--version"});
  if (probe.out.find("(GNU coreutils)") == std::string::npos) GTEST_SKIP() << gnu << " is not GNU's";
  Race(gnu, "GNU timeout, exit racing expiry", Iterations(600, 10));
}

}  // namespace
}  // namespace coreutils_stress
