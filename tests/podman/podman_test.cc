// tests/podman/podman_test.cc -- the image under podman (issue 36), rootful and daemonless: the index's amd64
// manifest picked, and the runc suite's scenarios that an engine user sees through Docker's command line (`podman
// stop`, `podman kill --signal`), ours asserted exactly, with the app's own account of the signals it got.
//
// The init is the image's `ENTRYPOINT ["/coreutils", "timeout", "0"]`, through --entrypoint with --tree or -k where a
// scenario needs it. Skipped, with the reason, where podman cannot run (engine.h); failed with it under
// COREUTILS_REQUIRE_PODMAN=1.
#include <signal.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/podman/engine.h"
#include "tests/podman/scenarios.h"
#include "tests/podman/text.h"
#include "tests/testing/environment_skip.h"
#include "tests/testing/run.h"

namespace podman_testing {
namespace {

using coreutils_testing::kRequirePodman;  // Set: a skip for the machine fails instead.

class PodmanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = ForeignBinary(); !why.empty()) GTEST_SKIP() << why;
    if (const std::string why = PodmanUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequirePodman, why);
    ASSERT_EQ(PodmanSetUpFailure(), "");
  }
};

// A blob of the layout by its digest ("sha256:...").
std::string Blob(const std::string& digest) {
  return coreutils_testing::ReadFile(Layout() + "/blobs/sha256/" + digest.substr(7));
}

// tools/image's index (tag `latest`, appended last to index.json), and the linux/amd64 manifest it names.
struct Index {
  std::string digest, amd64_manifest, amd64_layer;
};
Index ReadIndex() {
  Index index;
  const std::string top = coreutils_testing::ReadFile(Layout() + "/index.json");
  index.digest = top.substr(top.rfind("\"sha256:") + 1, 7 + 64);
  const std::string list = Blob(index.digest);
  const size_t amd64 = list.find("\"architecture\":\"amd64\"");
  const size_t entry = list.rfind('{', list.rfind('{', amd64) - 1);  // {"digest":...,"platform":{...}}
  index.amd64_manifest = JsonValue(list.substr(entry), "digest");
  const std::string manifest = Blob(index.amd64_manifest);
  index.amd64_layer = manifest.substr(manifest.rfind("\"sha256:") + 1, 7 + 64);  // Its one layer, last.
  return index;
}

TEST_F(PodmanTest, SkopeoInspectPicksTheIndexsAmd64Manifest) {
  const Index index = ReadIndex();
  ASSERT_EQ(index.amd64_layer.size(), 7u + 64) << index.amd64_manifest;
  Output inspected;
  ASSERT_EQ(Skopeo({"inspect", "oci:" + Layout() + ":latest"}, &inspected), 0) << inspected.err;
  const std::string& json = inspected.out;
  EXPECT_EQ(JsonValue(json, "Digest"), index.digest) << json;  // The reference's: the index's own.
  EXPECT_EQ(JsonValue(json, "Architecture"), "amd64") << json;
  const size_t layers = json.find("\"Layers\"");
  EXPECT_EQ(QuotedStrings(json.substr(layers + 9, json.find(']', layers) - layers - 9)),
            std::vector<std::string>{index.amd64_layer});
  Output stored;
  ASSERT_EQ(Podman({"image", "inspect", "--format", "{{.Architecture}} {{.Os}}", kImage}, &stored), 0) << stored.err;
  EXPECT_EQ(stored.out, "amd64 linux\n");
}

TEST_F(PodmanTest, TheLoadedImageRunsItsDefaultCommand) {
  const std::string binary = coreutils_testing::RunfilePath("utils/coreutils/coreutils");
  std::string ldd;
  if (container_testing::Capture({"/usr/bin/ldd", binary}, &ldd) == 0) {
    GTEST_SKIP() << "the binary is dynamic (sanitizer build) and the image holds no libraries; the test image, "
                    "which has them, runs every other case";
  }
  Output list, expected;
  ASSERT_EQ(container_testing::Capture({binary, "--list"}, &expected.out, &expected.err), 0) << expected.err;
  EXPECT_EQ(Podman({"run", "--rm", "--pull", "never", kImage}, &list), 0) << list.err;  // CMD ["/coreutils", "--list"]
  EXPECT_EQ(list.out, expected.out);
}

TEST_F(PodmanTest, TheRuntimeIsRuncAsPinnedInContainersConf) {
  Output info;
  ASSERT_EQ(Podman({"info", "--format", "{{.Host.OCIRuntime.Name}} {{.Host.OCIRuntime.Path}}"}, &info), 0)
      << info.err;
  EXPECT_EQ(info.out, "runc " + container_testing::FindProgram("runc") + "\n");
}

TEST_F(PodmanTest, TheRlimitWorkaroundIsInUseExactlyWhereTheRuntimeRefusesPodmansNofile) {
  // podman's own default for root, which containers.conf's `default_ulimits = []` leaves out.
  std::string output;
  const int status = Podman({"run", "--rm", "--pull", "never", "--ulimit", "nofile=1048576:1048576", kTestImage,
                             "true"},
                            &output);
  if (RlimitWorkaround()) {
    EXPECT_NE(status, 0);
    EXPECT_NE(output.find("error setting rlimit"), std::string::npos) << output;
  } else {
    EXPECT_EQ(status, 0) << output;
  }
}

TEST_F(PodmanTest, ExitCodesAreTheCommandsOr126Or127Or128PlusN) {
  const Outcome outcome = ExitCodes(Ours());
  ASSERT_EQ(outcome.error, "");
  // true, exit 3, timeout expired, timeout -s KILL expired, died of TERM, died of USR1, not executable, not found.
  EXPECT_EQ(outcome.statuses, (std::vector<int>{0, 3, 124, 128 + 9, 128 + 15, 128 + 10, 126, 127}));
}

TEST_F(PodmanTest, PodmanStopPassesTermToTheAppOnceAndItsStatusComesBack) {
  const Outcome outcome = StopTheApp(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{42});
  EXPECT_EQ(outcome.note, "");  // podman never had to KILL.
  EXPECT_EQ(Lines(outcome.output), (std::vector<std::string>{"ready", "TERM 1"}));
}

TEST_F(PodmanTest, PodmanStopEndsSleepWith143) {
  const Outcome outcome = StopSleep(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{128 + 15});
  EXPECT_EQ(outcome.note, "");
}

TEST_F(PodmanTest, KillAfterEndsAnAppThatIgnoresTermBeforePodmansKill) {
  const Outcome outcome = StopAnAppThatIgnoresTerm(Ours());  // timeout -k 0.5 0 /app immune; podman stop --time 5
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{128 + 9});
  EXPECT_EQ(outcome.note.substr(0, 12), "ended by -k ") << outcome.note;
}

TEST_F(PodmanTest, WithoutKillAfterPodmansKillEndsAnAppThatIgnoresTermWith137) {
  const Outcome outcome = StopAnAppThatIgnoresTermWithoutKillAfter(Ours());  // timeout 0 /app immune; stop --time 2
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{128 + 9});
  EXPECT_EQ(outcome.note.substr(0, 20), "podman's KILL after ") << outcome.note;
  EXPECT_EQ(Lines(outcome.output), std::vector<std::string>{"ready"});  // The TERM passed on was ignored.
}

TEST_F(PodmanTest, PodmanKillPassesEachSignalOnOnceAndTheAppsEndComesBack) {
  const std::vector<int> numbers = {SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGALRM};
  for (size_t i = 0; i < numbers.size(); ++i) {
    const std::string signal = KillSignals()[i];
    const Outcome outcome = KillSignal(Ours(), signal);
    ASSERT_EQ(outcome.error, "") << signal;
    // The app dies of it as it would have unhandled; WINCH is ignored by default, and the app exits 0.
    EXPECT_EQ(outcome.statuses, std::vector<int>{numbers[i] == SIGWINCH ? 0 : 128 + numbers[i]}) << signal;
    EXPECT_EQ(Lines(outcome.output), (std::vector<std::string>{"ready", signal + " 1"})) << signal;
  }
}

TEST_F(PodmanTest, AnOrphanStormOf1000LeavesNoZombie) {
  const Outcome outcome = OrphanStorm(Ours(), 1000);
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{0});
  EXPECT_EQ(Lines(outcome.output), std::vector<std::string>{"zombies 0"});
}

TEST_F(PodmanTest, TreeStopsASetsidDaemonWithTheApp) {
  const Outcome outcome = SetsidDaemon(Ours());  // timeout --tree 0 /app daemon; podman stop --time 10
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{128 + 15});
  EXPECT_EQ(outcome.note, "");
  std::vector<std::string> lines = Lines(outcome.output);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"app TERM", "daemon TERM", "ready"}));
}

}  // namespace
}  // namespace podman_testing
