// figures -- README's podman table: every scenario of tests/podman/scenarios.h for ours, catatonit (`podman run
// --init`) and tini in one run, under the engine of tests/podman/engine.h (tools/bench/container runs it).
//
// Usage: figures table
// Figures, not assertions: podman_test asserts ours. Prints what the engine left behind, if anything, and exits 1.
#include <stdio.h>
#include <string.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/container/scenarios.h"
#include "tests/podman/engine.h"
#include "tests/podman/scenarios.h"

namespace podman_testing {
namespace {

// The seven `podman kill --signal` runs as one cell: statuses, then what the app reported.
Outcome AllSignals(const Init& init) {
  Outcome all;
  for (const std::string& signal : KillSignals()) {
    const Outcome one = KillSignal(init, signal);
    if (!one.error.empty()) return one;
    all.statuses.insert(all.statuses.end(), one.statuses.begin(), one.statuses.end());
    all.output += one.output.substr(one.output.find('\n') + 1);  // Without "ready".
  }
  return all;
}

int Table() {
  const std::vector<Init> inits = {Ours(), Catatonit(), Tini()};
  const std::vector<std::pair<std::string, std::function<Outcome(const Init&)>>> rows = {
      {"exit codes: true; exit 3; timeout 0.5 sleep 60; timeout -s KILL 0.5 sleep 60; dies of TERM; dies of USR1; "
       "not executable; not found",
       ExitCodes},
      {"`podman stop`; app counts TERMs, then exits 42", StopTheApp},
      {"`podman stop` of `sleep 1000`", StopSleep},
      {"app ignores TERM, `podman stop --time 5` (ours: `-k 0.5`)", StopAnAppThatIgnoresTerm},
      {"`podman kill --signal` HUP INT QUIT USR1 USR2 WINCH ALRM; what the app got", AllSignals},
      {"orphan storm of 1,000; zombies left", [](const Init& i) { return OrphanStorm(i, 1000); }},
      {"setsid daemon, `podman stop` (ours: `--tree`)", SetsidDaemon},
  };
  std::vector<std::string> names, columns;
  for (const auto& row : rows) names.push_back(row.first);
  for (const Init& init : inits) columns.push_back(init.name);
  container_testing::PrintTable(names, columns, [&](size_t r, size_t c) { return rows[r].second(inits[c]); });
  return 0;
}

}  // namespace
}  // namespace podman_testing

int main(int argc, char** argv) {
  if (argc != 2 || strcmp(argv[1], "table") != 0) {
    fprintf(stderr, "usage: figures table\n");
    return 2;
  }
  std::string why = podman_testing::PodmanUnavailable();
  if (why.empty()) why = podman_testing::PodmanSetUpFailure();
  if (!why.empty()) {
    fprintf(stderr, "figures: %s\n", why.c_str());
    podman_testing::TearDown();
    return 1;
  }
  printf("podman's rlimit workaround (containers.conf default_ulimits = []): %s\n\n",
         podman_testing::RlimitWorkaround() ? "in use" : "not needed");
  int status = podman_testing::Table();
  for (const std::string& what : podman_testing::TearDown()) {
    fprintf(stderr, "figures: left behind: %s\n", what.c_str());
    status = 1;
  }
  return status;
}
