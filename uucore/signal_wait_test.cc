#include "uucore/signal_wait.h"

#include <signal.h>

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

TEST(DeadlineTest, NeverIsLaterThanAnything) {
  EXPECT_LT(Deadline::In(absl::Hours(1)), Deadline::Never());
  EXPECT_TRUE(Deadline::In(absl::InfiniteDuration()).is_never());
}

}  // namespace
}  // namespace uucore
