// tests/podman/kube_test.cc -- examples/kubernetes/pod.yaml, the committed file itself, under `podman kube play`
// (issue 36): the kubelet's stop (TERM, terminationGracePeriodSeconds, KILL) reaches the app through timeout, an app
// that ignores TERM is ended by timeout's -k before the kubelet's KILL would come, and nothing is left running.
//
// The spec names the application's image (registry.example/job:1.0); the test tags its test image with that name,
// so the file is played byte for byte: the tag `daemon` runs /app as `app daemon` (TERM handlers, a setsid daemon),
// `immune` as `app immune` (TERM ignored). podman 4.3 takes no grace period from the spec and its `kube down` stops
// with none (it KILLs at once: containers/podman#22397, fixed in 5.1), so the test stops the pod as the kubelet
// would, `podman pod stop --time GRACE`, then tears it down with `podman kube down`.
// Skipped, with the reason, where podman cannot run (engine.h); failed with it under COREUTILS_REQUIRE_PODMAN=1.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/container/runtime.h"
#include "tests/podman/engine.h"
#include "tests/podman/text.h"
#include "tests/podman/yaml_subset.h"
#include "tests/testing/environment_skip.h"
#include "tests/testing/run.h"

namespace podman_testing {
namespace {

using coreutils_testing::kRequirePodman;  // Set: a skip for the machine fails instead.

// What the test reads of the spec, by path (yaml_subset.h).
struct PodSpec {
  std::string error;  // What could not be read ("" if all was).
  std::string path, pod, container, image;
  int grace_seconds = -1;
  std::vector<std::string> command, args;
  double kill_after = -1;  // the command's -k
};

// The scalar at `node`, or why not (`where` names it).
std::string Scalar(const YamlNode* node, const std::string& where, std::string* value) {
  if (node == nullptr || node->kind != YamlNode::Kind::kScalar) return where + ": not a value";
  *value = node->scalar;
  return "";
}

std::string Strings(const YamlNode* node, const std::string& where, std::vector<std::string>* values) {
  if (node == nullptr || node->kind != YamlNode::Kind::kSequence) return where + ": not a sequence";
  for (const YamlNode& item : node->sequence) {
    if (item.kind != YamlNode::Kind::kScalar) return where + ": an item is not a string";
    values->push_back(item.scalar);
  }
  return "";
}

// metadata.name, spec.terminationGracePeriodSeconds, and the one container's name, image, command and args.
PodSpec ReadSpec() {
  PodSpec spec;
  spec.path = coreutils_testing::RunfilePath("examples/kubernetes/pod.yaml");
  YamlNode root;
  spec.error = ParseYamlSubset(coreutils_testing::ReadFile(spec.path), &root);
  if (!spec.error.empty()) return spec;
  const YamlNode* metadata = root.Get("metadata");
  const YamlNode* pod = root.Get("spec");
  const YamlNode* containers = pod != nullptr ? pod->Get("containers") : nullptr;
  if (containers == nullptr || containers->sequence.size() != 1) {
    spec.error = "spec.containers: not one container";
    return spec;
  }
  const YamlNode& container = containers->sequence[0];
  std::string grace;
  for (const std::string& error :
       {Scalar(metadata != nullptr ? metadata->Get("name") : nullptr, "metadata.name", &spec.pod),
        Scalar(pod->Get("terminationGracePeriodSeconds"), "spec.terminationGracePeriodSeconds", &grace),
        Scalar(container.Get("name"), "spec.containers[0].name", &spec.container),
        Scalar(container.Get("image"), "spec.containers[0].image", &spec.image),
        Strings(container.Get("command"), "spec.containers[0].command", &spec.command),
        Strings(container.Get("args"), "spec.containers[0].args", &spec.args)}) {
    if (spec.error.empty()) spec.error = error;
  }
  if (spec.error.empty() && (grace.empty() || grace.find_first_not_of("0123456789") != std::string::npos)) {
    spec.error = "spec.terminationGracePeriodSeconds: not a number of seconds: " + grace;
  }
  if (!spec.error.empty()) return spec;
  spec.grace_seconds = atoi(grace.c_str());
  const auto k = std::find(spec.command.begin(), spec.command.end(), "-k");
  if (k != spec.command.end() && k + 1 != spec.command.end()) spec.kill_after = atof((k + 1)->c_str());
  return spec;
}

// The container's log without timeout's first -v line, which names the --tree backend this host gives the
// container ("timeout: --tree: backend proc (...)" here: no cgroup2 mount in it).
std::vector<std::string> WithoutBackendLine(const std::string& log) {
  std::vector<std::string> lines = Lines(log);
  lines.erase(std::remove_if(lines.begin(), lines.end(),
                             [](const std::string& l) { return l.rfind("timeout: --tree: backend ", 0) == 0; }),
              lines.end());
  return lines;
}

// One play of the spec: the image tagged as the spec names it, `podman kube play`, the log followed from the start.
class Play {
 public:
  Play(const PodSpec& spec, const std::string& mode) : spec_(spec) {
    std::string output;
    if (Podman({"tag", TestImage(mode), spec.image}, &output) != 0) error_ = "podman tag: " + output;
    // No network: kube play would make a CNI bridge, an iptables chain and /var/lib/cni state on the host.
    if (error_.empty() && Podman({"kube", "play", "--network", "none", spec.path}, &output) != 0) {
      error_ = "podman kube play: " + output;
    }
    Remember(output);
    if (error_.empty()) logs_ = SpawnPodman({"logs", "--follow", ctr()}, &logs_fd_);
    if (error_.empty() && !container_testing::ReadUntil(&logs_fd_, &log_, "ready\n", 30)) {
      error_ = "no \"ready\" from the app: " + log_;
    }
  }
  // Tears down what a failed case left, and reaps the log's reader.
  ~Play() {
    std::string output;
    Podman({"pod", "rm", "--force", "--time", "0", "--ignore", spec_.pod}, &output);
    if (logs_ > 0 && WaitChild(logs_, 10) < 0) kill(logs_, SIGKILL), WaitChild(logs_, 10);
    if (logs_fd_ >= 0) close(logs_fd_);
  }
  const std::string& error() const { return error_; }
  std::string ctr() const { return spec_.pod + "-" + spec_.container; }  // podman's name for the container

  // What the kubelet does: TERM, then KILL after the grace period. podman's output in *messages.
  int StopAsTheKubeletWould(std::string* messages) {
    return Podman({"pod", "stop", "--time", std::to_string(spec_.grace_seconds), spec_.pod}, messages, 120);
  }
  int ExitCode() {
    Output code;
    if (Podman({"inspect", "--format", "{{.State.ExitCode}}", ctr()}, &code) != 0 || code.out.empty()) return -1;
    return atoi(code.out.c_str());
  }
  // The whole log, once the container has ended (`podman logs --follow` ends with it).
  const std::string& Log() {
    container_testing::ReadUntil(&logs_fd_, &log_, std::string(1, '\0'), 30);
    if (logs_ > 0 && WaitChild(logs_, 10) >= 0) logs_ = -1;
    return log_;
  }
  int Down(std::string* output) { return Podman({"kube", "down", spec_.path}, output); }

 private:
  PodSpec spec_;
  std::string error_, log_;
  pid_t logs_ = -1;
  int logs_fd_ = -1;
};

class KubeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = ReadSpec();
    ASSERT_EQ(spec_.error, "") << spec_.path;  // Before any skip: the file is the repository's, on any machine.
    if (const std::string why = ForeignBinary(); !why.empty()) GTEST_SKIP() << why;
    if (const std::string why = PodmanUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequirePodman, why);
    ASSERT_EQ(PodmanSetUpFailure(), "");
  }
  // After `kube down`: podman lists no pod and no container, and no process of them is left.
  void ExpectNothingLeft() {
    Output listed;
    EXPECT_EQ(Podman({"pod", "ps", "--quiet"}, &listed), 0) << listed.err;
    EXPECT_EQ(listed.out, "");
    EXPECT_EQ(Podman({"ps", "--all", "--quiet"}, &listed), 0) << listed.err;
    EXPECT_EQ(listed.out, "");
    EXPECT_EQ(Descendants(30), std::vector<std::string>{});
  }
  PodSpec spec_;
};

TEST_F(KubeTest, TheSpecRunsTheAppUnderTimeoutWhoseKillAfterEndsBeforeTheGracePeriod) {
  EXPECT_EQ(spec_.pod, "coreutils-job");
  EXPECT_EQ(spec_.container, "job");
  EXPECT_EQ(std::vector<std::string>(spec_.command.begin(), spec_.command.begin() + 5),
            (std::vector<std::string>{"/coreutils", "timeout", "-v", "--tree", "-k"}));
  EXPECT_EQ(spec_.args, std::vector<std::string>{"/app"});
  ASSERT_GT(spec_.kill_after, 0);
  // README, "In Kubernetes": -k ends before the kubelet's KILL, with a margin for a loaded node.
  EXPECT_LE(spec_.kill_after + 2, spec_.grace_seconds);
}

TEST_F(KubeTest, TermReachesTheAppsHandlersAndThePodEndsWithinItsGracePeriod) {
  Play play(spec_, "daemon");
  ASSERT_EQ(play.error(), "");
  std::string messages;
  ASSERT_EQ(play.StopAsTheKubeletWould(&messages), 0) << messages;
  EXPECT_EQ(messages.find("resorting to SIGKILL"), std::string::npos) << messages;  // The grace period's KILL.
  EXPECT_EQ(play.ExitCode(), 128 + 15);
  std::vector<std::string> lines = WithoutBackendLine(play.Log());
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"app TERM", "daemon TERM", "ready",
                                             "timeout: sending signal TERM to command '/app'"}));
  std::string output;
  EXPECT_EQ(play.Down(&output), 0) << output;
  ExpectNothingLeft();
}

TEST_F(KubeTest, AnAppThatIgnoresTermIsEndedByKillAfterBeforeTheKubeletsKill) {
  Play play(spec_, "immune");
  ASSERT_EQ(play.error(), "");
  std::string messages;
  ASSERT_EQ(play.StopAsTheKubeletWould(&messages), 0) << messages;
  EXPECT_EQ(messages.find("resorting to SIGKILL"), std::string::npos) << messages;
  EXPECT_EQ(play.ExitCode(), 128 + 9);
  EXPECT_EQ(WithoutBackendLine(play.Log()),
            (std::vector<std::string>{"ready", "timeout: sending signal TERM to command '/app'",
                                      "timeout: sending signal KILL to command '/app'"}));
  std::string output;
  EXPECT_EQ(play.Down(&output), 0) << output;
  ExpectNothingLeft();
}

// The spec's securityContext (the "restricted" Pod Security Standard) holds under kube play: timeout, PID 1, runs
// as 65534 with no capability, no_new_privs and the runtime's seccomp filter, and --tree still works under it (the
// test above, and its backend line here).
TEST_F(KubeTest, TheSpecsSecurityContextHoldsForPid1) {
  Play play(spec_, "daemon");
  ASSERT_EQ(play.error(), "");
  Output pid;
  ASSERT_EQ(Podman({"inspect", "--format", "{{.State.Pid}}", play.ctr()}, &pid), 0) << pid.err;
  std::vector<std::string> status;
  for (const std::string& line : Lines(coreutils_testing::ReadFile("/proc/" + Lines(pid.out).at(0) + "/status"))) {
    for (const char* field : {"Uid:", "Gid:", "CapEff:", "CapPrm:", "NoNewPrivs:", "Seccomp:"}) {
      if (line.rfind(field, 0) == 0) status.push_back(line);
    }
  }
  EXPECT_EQ(status, (std::vector<std::string>{"Uid:\t65534\t65534\t65534\t65534", "Gid:\t65534\t65534\t65534\t65534",
                                              "CapPrm:\t0000000000000000", "CapEff:\t0000000000000000",
                                              "NoNewPrivs:\t1", "Seccomp:\t2"}));
  std::string messages;
  ASSERT_EQ(play.StopAsTheKubeletWould(&messages), 0) << messages;
  // (timeout's stderr and the app's stdout come into the log in either order.)
  const std::vector<std::string> lines = Lines(play.Log());
  const auto backend = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.rfind("timeout: --tree: backend ", 0) == 0;
  });
  ASSERT_NE(backend, lines.end()) << play.Log();
  std::cerr << "the backend in the pod: " << *backend << "\n";
  std::string output;
  EXPECT_EQ(play.Down(&output), 0) << output;
  ExpectNothingLeft();
}

// Why the tests above stop the pod first: podman 4.x's `kube down` alone KILLs at once, and the app never hears of
// it (containers/podman#22397; 5.1 stops with each container's stop signal and timeout).
TEST_F(KubeTest, KubeDownAloneGivesNoGracePeriodInPodman4) {
  Output version;
  ASSERT_EQ(Podman({"version", "--format", "{{.Client.Version}}"}, &version), 0) << version.err;
  if (version.out.compare(0, 2, "4.") != 0) GTEST_SKIP() << "podman " << version.out << " is not 4.x";
  Play play(spec_, "daemon");
  ASSERT_EQ(play.error(), "");
  std::string output;
  EXPECT_EQ(play.Down(&output), 0) << output;
  EXPECT_EQ(WithoutBackendLine(play.Log()), std::vector<std::string>{"ready"});  // No TERM reached anyone.
  ExpectNothingLeft();
}

}  // namespace
}  // namespace podman_testing
