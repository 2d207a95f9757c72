#include "uucore/process.h"

#include <errno.h>

#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

TEST(ExecFailureStatusTest, NotFoundIs127OthersAre126) {
  EXPECT_EQ(ExecFailureStatus(ENOENT), 127);
  EXPECT_EQ(ExecFailureStatus(ENOTDIR), 126);
}

}  // namespace
}  // namespace uucore
