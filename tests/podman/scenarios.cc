#include "tests/podman/scenarios.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/podman/container.h"
#include "tests/testing/run.h"

namespace podman_testing {
namespace {

using coreutils_testing::Now;

// What podman stop prints when the stop signal did not end the container within --time.
constexpr char kPodmansKill[] = "resorting to SIGKILL";

// The `podman run` options and command for `command` under `init`; `ours_options` go to our timeout (before its
// DURATION, through --entrypoint), peers have no equivalent.
Container::Spec SpecFor(const Init& init, const std::vector<std::string>& command,
                        const std::vector<std::string>& ours_options = {}) {
  Container::Spec spec = {init.options, command};
  if (init.name == "ours" && !ours_options.empty()) {
    std::string entrypoint = "[\"/coreutils\", \"timeout\"";
    for (const std::string& option : ours_options) entrypoint += ", \"" + option + "\"";
    spec.options.insert(spec.options.end(), {"--entrypoint", entrypoint + ", \"0\"]"});
  }
  return spec;
}

// Runs the container up to the app's "ready", then `act` (podman stop or kill); the container's status.
Outcome ReadyThen(const Container::Spec& spec, const std::function<std::string(Container*)>& act) {
  Outcome outcome;
  Container container(spec);
  outcome.error = container.Run();
  if (outcome.error.empty() && !container.WaitFor("ready\n", 30)) {
    outcome.error = "no \"ready\" from the app: " + container.output();
  }
  if (!outcome.error.empty()) return outcome;
  const double start = Now();
  outcome.error = act(&container);
  outcome.statuses.push_back(container.Wait(30));
  outcome.seconds = Now() - start;
  container.Drain(1);
  outcome.output = container.output();
  return outcome;
}

// Waits until PID 1 of the container has a child that has exec'd `comm` ("" then, else why not): a signal sent
// before that could end the init, or its child before the exec, and not the command.
std::string WaitForChildOfPid1(const Container& container, const std::string& comm, double seconds) {
  Output pid1;  // Once running (`podman start --attach` may not have started it yet), it has a PID 1.
  if (Podman({"wait", "--condition", "running", container.name()}, &pid1, seconds) != 0) {
    return "never running: " + pid1.err;
  }
  if (Podman({"inspect", "--format", "{{.State.Pid}}", container.name()}, &pid1) != 0 || atoi(pid1.out.c_str()) <= 0) {
    return "no PID 1: " + pid1.out + pid1.err;
  }
  const pid_t init = atoi(pid1.out.c_str());
  for (const double deadline = Now() + seconds; Now() < deadline;) {
    if (container_testing::ChildOf(init, comm) != 0) return "";
    const timespec tick = {0, 10 * 1000 * 1000};
    nanosleep(&tick, nullptr);
  }
  return "PID 1 (" + std::to_string(init) + ") has no child " + comm + " after " + std::to_string(seconds) + " s";
}

// `podman stop --time SECONDS` as the action; its warning, if any, in *messages.
std::function<std::string(Container*)> StopWithin(int seconds, std::string* messages) {
  return [seconds, messages](Container* container) {
    const int status = container->Stop(seconds, messages);
    return status == 0 ? "" : "podman stop exited " + std::to_string(status) + ": " + *messages;
  };
}

// The app ignores TERM (ours given `ours_options`); `podman stop --time SECONDS`. The note says who ended it.
Outcome StopImmune(const Init& init, const std::vector<std::string>& ours_options, int seconds) {
  std::string messages;
  Outcome outcome = ReadyThen(SpecFor(init, {"/app", "immune"}, ours_options), StopWithin(seconds, &messages));
  char note[64];
  const bool podmans = messages.find(kPodmansKill) != std::string::npos;
  snprintf(note, sizeof note, "%s after %.2f s", podmans ? "podman's KILL" : "ended by -k", outcome.seconds);
  outcome.note = note;
  return outcome;
}

}  // namespace

Init Ours() { return {"ours", {}}; }
Init Catatonit() { return {"catatonit", {"--init", "--entrypoint", "[]"}}; }
Init Tini() { return {"tini", {"--entrypoint", "[\"/tini\", \"--\"]"}}; }

Outcome ExitCodes(const Init& init) {
  Outcome outcome;
  const std::vector<std::vector<std::string>> commands = {
      {"true"},
      {"/app", "exit", "3"},
      {"timeout", "0.5", "sleep", "60"},
      {"timeout", "-s", "KILL", "0.5", "sleep", "60"},
      {"/app", "raise", std::to_string(SIGTERM)},
      {"/app", "raise", std::to_string(SIGUSR1)},
      {"/noexec"},
      {"/missing"}};
  for (const std::vector<std::string>& command : commands) {
    Container container(SpecFor(init, command));
    outcome.error = container.Run();
    if (!outcome.error.empty()) return outcome;
    outcome.statuses.push_back(container.Wait(60));
  }
  return outcome;
}

Outcome StopTheApp(const Init& init) {
  std::string messages;
  Outcome outcome = ReadyThen(SpecFor(init, {"/app", "wait-term"}), StopWithin(10, &messages));
  if (messages.find(kPodmansKill) != std::string::npos) outcome.note = "podman's KILL";
  return outcome;
}

Outcome StopSleep(const Init& init) {
  Outcome outcome;
  Container container(SpecFor(init, {"sleep", "1000"}));
  outcome.error = container.Run();
  if (!outcome.error.empty()) return outcome;
  // sleep says nothing: the stop waits for it to exist, exec'd (PID 1's TERM before that could be timeout's own
  // 143, or end sleep's parent before the exec).
  outcome.error = WaitForChildOfPid1(container, "sleep", 30);
  if (!outcome.error.empty()) return outcome;
  const double start = Now();
  std::string messages;
  if (container.Stop(10, &messages) != 0) outcome.error = "podman stop failed: " + messages;
  outcome.statuses.push_back(container.Wait(30));
  outcome.seconds = Now() - start;
  if (messages.find(kPodmansKill) != std::string::npos) outcome.note = "podman's KILL";
  return outcome;
}

Outcome StopAnAppThatIgnoresTerm(const Init& init) { return StopImmune(init, {"-k", "0.5"}, 5); }

Outcome StopAnAppThatIgnoresTermWithoutKillAfter(const Init& init) { return StopImmune(init, {}, 2); }

std::vector<std::string> KillSignals() { return {"HUP", "INT", "QUIT", "USR1", "USR2", "WINCH", "ALRM"}; }

Outcome KillSignal(const Init& init, const std::string& signal) {
  return ReadyThen(SpecFor(init, {"/app", "signals"}), [&signal](Container* container) {
    return container->Kill(signal) ? "" : "podman kill --signal " + signal + " failed";
  });
}

Outcome OrphanStorm(const Init& init, int orphans) {
  Outcome outcome;
  Container container(SpecFor(init, {"/app", "storm", std::to_string(orphans)}));
  outcome.error = container.Run();
  if (!outcome.error.empty()) return outcome;
  outcome.statuses.push_back(container.Wait(60));
  container.Drain(1);
  outcome.output = container.output();
  return outcome;
}

Outcome SetsidDaemon(const Init& init) {
  std::string messages;
  Outcome outcome = ReadyThen(SpecFor(init, {"/app", "daemon"}, {"--tree"}), StopWithin(10, &messages));
  if (messages.find(kPodmansKill) != std::string::npos) outcome.note = "podman's KILL";
  return outcome;
}

}  // namespace podman_testing
