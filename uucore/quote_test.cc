#include "uucore/quote.h"

#include "gtest/gtest.h"

namespace uucore {
namespace {

TEST(QuoteTest, MatchesGnuInTheCLocale) {
  struct Case {
    absl::string_view in, out;
  };
  for (const Case& c : {
           Case{"x", "'x'"},
           Case{"", "''"},
           Case{"a'b", "'a\\'b'"},
           Case{"a\nb\tc\\d", "'a\\nb\\tc\\\\d'"},
           Case{"\xe9", "'\\351'"},
           Case{absl::string_view("\0", 1), "'\\000'"},
           Case{"\x7f", "'\\177'"},
           Case{"a b", "'a b'"},
           Case{"\a\b\v\f\r", "'\\a\\b\\v\\f\\r'"},
       }) {
    EXPECT_EQ(Quote(c.in), c.out) << c.in;
  }
}

}  // namespace
}  // namespace uucore
