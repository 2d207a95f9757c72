#include "uucore/i18n.h"

#include <stdlib.h>

#include "gtest/gtest.h"

namespace uucore {
namespace {

// LC_ALL=C (set below, before the first use): no catalog, so the English msgid itself is the format.
class FormatTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { setenv("LC_ALL", "C", 1); }
};

TEST_F(FormatTest, PlainConversionsTakeTheArgumentsInOrder) {
  EXPECT_EQ(Format("invalid time interval %s", "'x'"), "invalid time interval 'x'");
  EXPECT_EQ(Format("%s: %s", "a", "b"), "a: b");
  EXPECT_EQ(Format("failed to set signal action for signal %d: %s", 9, "Invalid argument"),
            "failed to set signal action for signal 9: Invalid argument");
}

TEST_F(FormatTest, PositionalConversionsPickTheirArgument) {
  EXPECT_EQ(Format("%2$s then %1$s", "first", "second"), "second then first");
}

TEST_F(FormatTest, FlagsWidthAndLengthAreDropped) {
  EXPECT_EQ(Format("[%-5s|%lu|%03d]", "a", 7, 2), "[a|7|2]");
}

TEST_F(FormatTest, PercentSignsAndMissingArguments) {
  EXPECT_EQ(Format("100%% of %s", "it"), "100% of it");
  EXPECT_EQ(Format("%s and %s", "one"), "one and %s");
  EXPECT_EQ(Format("50% off"), "50% off");
  EXPECT_EQ(Format("trailing %"), "trailing %");
}

TEST_F(FormatTest, TheCLocaleIsNotUtf8AndTranslatesNothing) {
  EXPECT_FALSE(LocaleIsUtf8());
  EXPECT_STREQ(Translate("invalid time interval %s"), "invalid time interval %s");
}

}  // namespace
}  // namespace uucore
