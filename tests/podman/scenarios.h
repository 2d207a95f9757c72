// tests/podman/scenarios.h -- what an engine user sees of a container's init under podman, for any init: the runc
// suite's scenarios (tests/container/scenarios.h) through podman's command line, which is Docker's.
//
// Each scenario runs the test image with the init under test as PID 1 and tests/container/app as the application,
// and returns what happened (tests/container's Outcome), not a verdict: podman_test asserts ours exactly, and
// tests/podman/figures prints the same runs for ours, catatonit (`podman run --init`) and tini side by side
// (README's podman table).
#ifndef TESTS_PODMAN_SCENARIOS_H_
#define TESTS_PODMAN_SCENARIOS_H_

#include <string>
#include <vector>

#include "tests/container/scenarios.h"

namespace podman_testing {

using container_testing::Outcome;

// An init under comparison: the `podman run` options that make it PID 1 in front of the command.
struct Init {
  std::string name;                  // "ours", "catatonit", "tini": the README table's column
  std::vector<std::string> options;  // e.g. {"--init", "--entrypoint", "[]"}
};
Init Ours();       // the image's own ENTRYPOINT, /coreutils timeout 0
Init Catatonit();  // `podman run --init` (Debian's catatonit), the image's ENTRYPOINT cleared
Init Tini();       // --entrypoint ["/tini", "--"] (Debian's tini-static, in the test image)

// One container per command: true; app exits 3; timeout 0.5 sleep 60; timeout -s KILL 0.5 sleep 60; app dies of
// TERM; app dies of USR1; not executable; not found. Ours: 0 3 124 137 143 138 126 127.
Outcome ExitCodes(const Init& init);
// `podman stop --time 10` while the app waits for TERM: the app reports how many TERMs it got, exits 42.
Outcome StopTheApp(const Init& init);
// `podman stop --time 10` of `sleep 1000`, once PID 1's child has exec'd sleep.
Outcome StopSleep(const Init& init);
// The app ignores TERM; `podman stop --time 5`. Ours runs with -k 0.5. The note says who ended it: "ended by -k"
// or podman's KILL (its warning), and when.
Outcome StopAnAppThatIgnoresTerm(const Init& init);
// The same with `podman stop --time 2` and ours without -k: podman's KILL after 2 s ends the container (137).
Outcome StopAnAppThatIgnoresTermWithoutKillAfter(const Init& init);
// `podman kill --signal SIGNAL` while the app waits for it (app signals): "NAME 1", then the app ends as SIGNAL would
// have ended it (dies of it; exits 0 for WINCH).
Outcome KillSignal(const Init& init, const std::string& signal);
// The signals KillSignal is run with: HUP INT QUIT USR1 USR2 WINCH ALRM.
std::vector<std::string> KillSignals();
// The app's child forks `orphans` processes and exits; "zombies K" is what is left once they died.
Outcome OrphanStorm(const Init& init, int orphans);
// The app starts a setsid() daemon; `podman stop --time 10`. Ours runs with --tree.
Outcome SetsidDaemon(const Init& init);

}  // namespace podman_testing

#endif  // TESTS_PODMAN_SCENARIOS_H_
