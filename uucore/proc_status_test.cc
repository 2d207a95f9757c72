#include "uucore/proc_status.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

using ::coreutils_testing::IsOk;
using ::coreutils_testing::IsOkAndHolds;
using ::coreutils_testing::StatusIs;

TEST(ParseSignalMaskTest, HexDigitsUpTo64Bits) {
  EXPECT_THAT(ParseSignalMask("0000000000384000"), IsOkAndHolds(0x384000u));
  EXPECT_THAT(ParseSignalMask("ffffffffffffffff"), IsOkAndHolds(~uint64_t{0}));
  EXPECT_THAT(ParseSignalMask("FfFf"), IsOkAndHolds(0xffffu));
  EXPECT_THAT(ParseSignalMask("00000000000000000001"), IsOkAndHolds(1u));  // Leading zeros are free.
}

TEST(ParseSignalMaskTest, RejectsAnythingElse) {
  for (absl::string_view bad : {"", "0x1", "g", "1 ", " 1", "-1", "+1", "10000000000000000"}) {
    EXPECT_THAT(ParseSignalMask(bad), StatusIs(absl::StatusCode::kInvalidArgument)) << bad;
  }
  EXPECT_THAT(ParseSignalMask("1g"), StatusIs(absl::StatusCode::kInvalidArgument, "invalid signal mask '1g'"));
}

TEST(MaskHasSignalTest, BitNMinusOneIsSignalN) {
  EXPECT_TRUE(MaskHasSignal(0x4000, SIGTERM));
  EXPECT_FALSE(MaskHasSignal(0x4000, SIGINT));
  EXPECT_TRUE(MaskHasSignal(uint64_t{1} << 63, 64));
  EXPECT_FALSE(MaskHasSignal(~uint64_t{0}, 0));
  EXPECT_FALSE(MaskHasSignal(~uint64_t{0}, 65));
}

TEST(ParseSignalMasksTest, TheFiveLinesOfAStatusText) {
  absl::StatusOr<SignalMasks> masks = ParseSignalMasks(
      "Name:\tsleep\nSigQ:\t0/63471\nSigPnd:\t0000000000000001\nShdPnd:\t0000000000000002\n"
      "SigBlk:\t0000000000010000\nSigIgn:\t0000000000384004\nSigCgt:\t0000000000004002\nCapInh:\t0\n");
  ASSERT_THAT(masks, IsOk());
  EXPECT_EQ(masks->pending_thread, 1u);
  EXPECT_EQ(masks->pending_process, 2u);
  EXPECT_EQ(masks->blocked, 0x10000u);
  EXPECT_EQ(masks->ignored, 0x384004u);
  EXPECT_EQ(masks->caught, 0x4002u);
}

TEST(ParseSignalMasksTest, AMissingOrBadLineIsNamed) {
  EXPECT_THAT(ParseSignalMasks("SigPnd:\t0\nShdPnd:\t0\nSigBlk:\t0\nSigIgn:\t0\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, "no SigCgt line"));
  EXPECT_THAT(ParseSignalMasks("SigPnd:\t0\nShdPnd:\tx\nSigBlk:\t0\nSigIgn:\t0\nSigCgt:\t0\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, "ShdPnd: invalid signal mask 'x'"));
}

TEST(ReadSignalMasksTest, WhatAChildBlocksIgnoresAndCatches) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  if (child == 0) {
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_SETMASK, &block, nullptr);
    signal(SIGHUP, SIG_IGN);
    struct sigaction action = {};
    action.sa_handler = [](int) {};
    sigaction(SIGUSR1, &action, nullptr);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    raise(SIGUSR2);  // Blocked: stays pending, for the process.
    close(ready[1]);
    for (;;) pause();
  }
  ASSERT_GT(child, 0);  // Before any kill(child, ...): kill(-1, SIGKILL) would reach every process.
  close(ready[1]);
  char byte;
  ASSERT_EQ(read(ready[0], &byte, 1), 0);
  absl::StatusOr<SignalMasks> masks = ReadSignalMasks(child);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  ASSERT_THAT(masks, IsOk());
  EXPECT_TRUE(MaskHasSignal(masks->blocked, SIGUSR2));
  EXPECT_TRUE(MaskHasSignal(masks->pending_thread | masks->pending_process, SIGUSR2));
  EXPECT_TRUE(MaskHasSignal(masks->ignored, SIGHUP));
  EXPECT_TRUE(MaskHasSignal(masks->caught, SIGUSR1));
  EXPECT_FALSE(MaskHasSignal(masks->caught | masks->ignored, SIGTERM));
  // Reaped: no such process.
  EXPECT_THAT(ReadSignalMasks(child), StatusIs(absl::StatusCode::kNotFound));
}

}  // namespace
}  // namespace uucore
