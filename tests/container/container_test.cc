// tests/container/container_test.cc -- ours as a container's PID 1 under runc (issue 15): the image, and every
// scenario with its exact statuses and the app's own account of the signals it got.
//
// The init is the image's `ENTRYPOINT ["/coreutils", "timeout", "0"]`, with --tree or -k where a scenario needs it.
// Skipped, with the reason, where runc cannot run (not root, runc or umoci missing, no namespaces); failed with it
// under COREUTILS_REQUIRE_RUNC=1 (tests/testing/environment_skip.h).
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/container/runtime.h"
#include "tests/container/scenarios.h"
#include "tests/testing/environment_skip.h"
#include "tests/testing/run.h"

namespace container_testing {
namespace {

using coreutils_testing::kRequireRunc;  // Set: a skip for the machine fails instead.

class ContainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = RuncUnavailable(); !why.empty()) SKIP_FOR_ENVIRONMENT(kRequireRunc, why);
  }
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    line.erase(std::remove(line.begin(), line.end(), '\r'), line.end());
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// The digest after the last "sha256:" of a JSON blob of the layout (index.json's manifest, a manifest's last layer).
std::string LastDigest(const std::string& json) {
  const size_t at = json.rfind("sha256:");
  return at == std::string::npos ? "" : json.substr(at + 7, 64);
}

TEST_F(ContainerTest, TheImageHoldsOneFileAndALinkPerUtility) {
  const std::string blobs = ImageLayout() + "/blobs/sha256/";
  const std::string manifest = coreutils_testing::ReadFile(blobs + LastDigest(coreutils_testing::ReadFile(
                                                                      ImageLayout() + "/index.json")));
  ASSERT_NE(manifest.find("\"layers\":[{"), std::string::npos) << manifest;
  ASSERT_EQ(manifest.find("sha256:", manifest.find("\"layers\"") + 16), manifest.rfind("sha256:")) << "one layer";
  std::string listing;
  ASSERT_EQ(Capture({"/bin/sh", "-c",
                     "tar -tvzf " + blobs + LastDigest(manifest) + " | awk '{print substr($1, 1, 1), $6, $7, $8}'"},
                    &listing),
            0)
      << listing;
  std::string names;
  ASSERT_EQ(Capture({coreutils_testing::BinaryPath(), "--list"}, &names), 0);
  std::vector<std::string> expected = {"d .", "d bin/", "- coreutils"};
  for (const std::string& name : Lines(names)) expected.push_back("l bin/" + name + " -> ../coreutils");
  std::vector<std::string> got = Lines(listing);
  for (std::string& line : got) line.erase(line.find_last_not_of(' ') + 1);
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

TEST_F(ContainerTest, RuncKillTermReachesTheAppOnceAndItsStatusComesBack) {
  const Outcome outcome = StopSignal(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{42});
  EXPECT_EQ(Lines(outcome.output), (std::vector<std::string>{"ready", "TERM 1"}));
}

TEST_F(ContainerTest, AnOrphanStormOf1000LeavesNoZombie) {
  const Outcome outcome = OrphanStorm(Ours(), 1000);
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{0});
  EXPECT_EQ(Lines(outcome.output), std::vector<std::string>{"zombies 0"});
}

TEST_F(ContainerTest, ExitCodesAreTheCommandsOr126Or127Or128PlusN) {
  const Outcome outcome = ExitCodes(Ours());
  ASSERT_EQ(outcome.error, "");
  // true, false, not executable, not found, killed by USR1.
  EXPECT_EQ(outcome.statuses, (std::vector<int>{0, 1, 126, 127, 128 + 10}));
}

TEST_F(ContainerTest, TreeStopsASetsidDaemonWithTheApp) {
  const Outcome outcome = SetsidDaemon(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{128 + 15});
  std::vector<std::string> lines = Lines(outcome.output);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"app TERM", "daemon TERM", "ready"}));
}

TEST_F(ContainerTest, KillAfterEndsAnAppThatIgnoresTerm) {
  const Outcome outcome = ImmuneToTerm(Ours());  // timeout -k 0.5 0 app
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{128 + 9});
  EXPECT_GE(outcome.seconds, 0.5);  // -k counts from the TERM passed on, after `runc kill` started.
}

TEST_F(ContainerTest, CtrlCOnTheTerminalReachesTheAppOnce) {
  const Outcome outcome = CtrlC(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{128 + 2});
  std::vector<std::string> lines = Lines(outcome.output);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "INT 1"), lines.end()) << outcome.output;
  EXPECT_EQ(outcome.output.find("INT 2"), std::string::npos) << outcome.output;
}

TEST_F(ContainerTest, CtrlZOnTheTerminalStopsTheAppAndSigcontResumesIt) {
  const Outcome outcome = CtrlZ(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_TRUE(outcome.stopped) << "the app never stopped after Ctrl-Z";
  EXPECT_EQ(outcome.statuses, std::vector<int>{0});
  std::vector<std::string> lines = Lines(outcome.output);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "CONT"), lines.end()) << outcome.output;
}

TEST_F(ContainerTest, ASignalTheAppSendsItsOwnGroupDoesNotComeBackThroughPid1) {
  const Outcome outcome = KillOwnGroup(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_EQ(outcome.statuses, std::vector<int>{0});
  EXPECT_EQ(Lines(outcome.output), (std::vector<std::string>{"ready", "TERM 1"}));
}

// `docker kill -s TSTP` / `-s CONT`: passed on as tini and dumb-init pass them (a PID 1 that does not handle them
// has the kernel drop them).
TEST_F(ContainerTest, RuncKillTstpStopsTheAppAndContResumesIt) {
  const Outcome outcome = StopAndContinue(Ours());
  ASSERT_EQ(outcome.error, "");
  EXPECT_TRUE(outcome.stopped) << "the app never stopped after TSTP";
  EXPECT_EQ(outcome.note, "stopped");
  EXPECT_EQ(outcome.statuses, std::vector<int>{0});
  EXPECT_EQ(Lines(outcome.output), (std::vector<std::string>{"ready", "CONT"}));
}

}  // namespace
}  // namespace container_testing
