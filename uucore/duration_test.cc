#include "uucore/duration.h"

#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/locales.h"
#include "tests/testing/status_matchers.h"

namespace uucore {
namespace {

using ::coreutils_testing::StatusIs;

struct Accepted {
  std::string name;
  std::string arg;
  absl::Duration expected;
};

TEST(ParseDurationTest, AcceptsGnuGrammar) {
  for (const Accepted& c : std::vector<Accepted>{
           {"integer seconds", "1", absl::Seconds(1)},
           {"zero", "0", absl::ZeroDuration()},
           {"fraction", "1.5", absl::Milliseconds(1500)},
           {"leading point", ".5", absl::Milliseconds(500)},
           {"trailing point", "5.", absl::Seconds(5)},
           {"exponent", "1e3", absl::Seconds(1000)},
           {"capital exponent", "1E3", absl::Seconds(1000)},
           {"negative exponent", "25e-2", absl::Milliseconds(250)},
           {"hex float", "0x1p-2", absl::Milliseconds(250)},
           {"hex float with capitals", "0X1P-2", absl::Milliseconds(250)},
           {"hex integer", "0x10", absl::Seconds(16)},
           {"hex fraction", "0x.8", absl::Milliseconds(500)},
           {"hex digit e is not an exponent", "0x1e3", absl::Seconds(0x1e3)},
           {"hex digit d is not a suffix", "0x10d", absl::Seconds(0x10d)},
           {"suffix s", "2s", absl::Seconds(2)},
           {"suffix m", "1.5m", absl::Seconds(90)},
           {"suffix h", "2h", absl::Hours(2)},
           {"suffix d", "1d", absl::Hours(24)},
           {"fractional day", ".5d", absl::Hours(12)},
           {"minutes without rounding error", "1.1m", absl::Seconds(66)},
           {"hex with suffix", "0x1.8p1s", absl::Seconds(3)},
           {"leading space", " 1", absl::Seconds(1)},
           {"leading tab and newline", "\t\n1", absl::Seconds(1)},
           {"plus sign", "+1", absl::Seconds(1)},
           {"plus sign after space", "  +0", absl::ZeroDuration()},
           {"negative zero", "-0", absl::ZeroDuration()},
           {"negative zero fraction", "-0.0", absl::ZeroDuration()},
           {"negative hex zero", "-0x0", absl::ZeroDuration()},
           {"zero with exponent", "0e0", absl::ZeroDuration()},
           {"inf", "inf", absl::InfiniteDuration()},
           {"INF", "INF", absl::InfiniteDuration()},
           {"Infinity", "Infinity", absl::InfiniteDuration()},
           {"plus inf", "+inf", absl::InfiniteDuration()},
           {"inf with suffix", "infs", absl::InfiniteDuration()},
           {"infinity days", "infinityd", absl::InfiniteDuration()},
           {"one nanosecond", "1e-9", absl::Nanoseconds(1)},
           {"up to the next nanosecond", "1.0000000014", absl::Seconds(1) + absl::Nanoseconds(2)},
           {"never down, even from .1 of one", "1.1e-9", absl::Nanoseconds(2)},
       }) {
    absl::StatusOr<absl::Duration> got = ParseDuration(c.arg);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status();
    EXPECT_EQ(*got, c.expected) << c.name;
  }
}

TEST(ParseDurationTest, RoundsTinyPositiveValuesUpToOneNanosecond) {
  // Including values strtod cannot represent at all (it returns 0 with ERANGE): GNU 9.10 times out at once.
  for (const char* tiny : {"1e-10", "0.0000000001", "0x1p-40", "4.9e-324", "1e-12m", "1e-400", "1e-10000",
                           "1e-18172487393827593258", "0x1p-1080", " +1e-10000", "1e-10000d"}) {
    absl::StatusOr<absl::Duration> got = ParseDuration(tiny);
    ASSERT_TRUE(got.ok()) << tiny;
    EXPECT_EQ(*got, absl::Nanoseconds(1)) << tiny;
  }
}

TEST(ParseDurationTest, ZeroWrittenAnyWayIsZero) {
  for (const char* zero : {"0e-400", "0e-10000", "-0e5", "0x0p0", "-0"}) {
    absl::StatusOr<absl::Duration> got = ParseDuration(zero);
    ASSERT_TRUE(got.ok()) << zero;
    EXPECT_EQ(*got, absl::ZeroDuration()) << zero;
  }
}

TEST(ParseDurationTest, NegativeValuesAreInvalidHoweverSmall) {
  for (absl::string_view bad : {"-1e-400", "-1e-10000", " -1e-10000", "-4.9e-324", "-1e-18172487393827593258"}) {
    EXPECT_THAT(ParseDuration(bad), StatusIs(absl::StatusCode::kInvalidArgument)) << "'" << bad << "'";
  }
}

TEST(ParseDurationTest, SaturatesHugeValuesToInfinity) {
  for (const char* huge : {"9223372036854775808d", "9223372036854775807", "9223372036854775808", "1e400",
                           "99999999999999999999h", "1e308d", "1.7976931348623157e308", "0x1p1023d"}) {
    absl::StatusOr<absl::Duration> got = ParseDuration(huge);
    ASSERT_TRUE(got.ok()) << huge;
    EXPECT_EQ(*got, absl::InfiniteDuration()) << huge;
  }
}

TEST(ParseDurationTest, LargeFiniteValuesStayFinite) {
  absl::StatusOr<absl::Duration> got = ParseDuration("4611686018427387904");  // 2^62 seconds.
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, absl::Seconds(int64_t{1} << 62));
  got = ParseDuration("0x1.fffffffffffffp62");  // The largest double below 2^63 seconds.
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, absl::Seconds(INT64_MAX - 1023));
  got = ParseDuration("0x1p40d");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, absl::Hours(int64_t{1} << 40) * 24);
}

TEST(ParseDurationTest, RejectsEverythingElse) {
  for (absl::string_view bad : {"", " ", "x", "1 ", "1\t", "42D", "1S", "1M", "1ss", "1sm", "1e", "1e+", "e3", ".",
                                "0x", "1.2.3", "1,5", "1_", "s", "in", "infinit", "-0.1", "-1", " -1", "-inf", "+-1",
                                "--1", "nan", "NaN", "-nan", "nan(1)", "nans", "1 s", "1x", "0x1p", "1y"}) {
    EXPECT_THAT(ParseDuration(bad), StatusIs(absl::StatusCode::kInvalidArgument)) << "'" << bad << "'";
  }
}

TEST(ParseDurationTest, EmbeddedNulIsTrailingGarbage) {
  EXPECT_THAT(ParseDuration(absl::string_view("1\0", 2)), StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(ParseDurationTest, ErrorMessageQuotesTheArgument) {
  EXPECT_THAT(ParseDuration("x"), StatusIs(absl::StatusCode::kInvalidArgument, "invalid time interval 'x'"));
  EXPECT_THAT(ParseDuration(""), StatusIs(absl::StatusCode::kInvalidArgument, "invalid time interval ''"));
  EXPECT_THAT(ParseDuration("1 "), StatusIs(absl::StatusCode::kInvalidArgument, "invalid time interval '1 '"));
  EXPECT_THAT(ParseDuration("a'b"), StatusIs(absl::StatusCode::kInvalidArgument, "invalid time interval 'a\\'b'"));
  EXPECT_THAT(ParseDuration("1\n"), StatusIs(absl::StatusCode::kInvalidArgument, "invalid time interval '1\\n'"));
}

TEST(ParseDurationTest, TheCLocaleHasNoDecimalComma) {
  setenv("LC_ALL", "C", 1);
  EXPECT_THAT(ParseDuration("1,5"), StatusIs(absl::StatusCode::kInvalidArgument, "invalid time interval '1,5'"));
}

// The user's LC_NUMERIC (here a German one, decimal comma, compiled for the test) is read from the environment, as
// GNU's setlocale(LC_ALL, "") reads it; '.' keeps working.
TEST(ParseDurationTest, TheUsersDecimalSeparatorWorksToo) {
  const coreutils_testing::GeneratedLocale de = coreutils_testing::MakeLocale("de_DE", "UTF-8");
  if (!de.skip_reason.empty()) GTEST_SKIP() << de.skip_reason;
  for (const std::string& entry : de.env) {
    const size_t eq = entry.find('=');
    setenv(entry.substr(0, eq).c_str(), entry.substr(eq + 1).c_str(), 1);  // Copied: nothing to free or leak.
  }
  absl::StatusOr<absl::Duration> comma = ParseDuration("1,5");
  absl::StatusOr<absl::Duration> comma_suffix = ParseDuration("0,5m");
  absl::StatusOr<absl::Duration> point = ParseDuration("1.5");
  absl::StatusOr<absl::Duration> both = ParseDuration("1,5.5");
  setenv("LC_ALL", "C", 1);
  ASSERT_TRUE(comma.ok()) << comma.status();
  EXPECT_EQ(*comma, absl::Milliseconds(1500));
  ASSERT_TRUE(comma_suffix.ok()) << comma_suffix.status();
  EXPECT_EQ(*comma_suffix, absl::Seconds(30));
  ASSERT_TRUE(point.ok()) << point.status();
  EXPECT_EQ(*point, absl::Milliseconds(1500));
  EXPECT_THAT(both, StatusIs(absl::StatusCode::kInvalidArgument));
}

TEST(SaturatingAddTest, Cases) {
  const absl::Duration inf = absl::InfiniteDuration();
  const absl::Duration max = absl::Seconds(INT64_MAX);
  EXPECT_EQ(SaturatingAdd(absl::Seconds(1), absl::Milliseconds(500)), absl::Milliseconds(1500));
  EXPECT_EQ(SaturatingAdd(absl::ZeroDuration(), absl::ZeroDuration()), absl::ZeroDuration());
  EXPECT_EQ(SaturatingAdd(inf, absl::Seconds(1)), inf);
  EXPECT_EQ(SaturatingAdd(absl::Seconds(1), inf), inf);
  EXPECT_EQ(SaturatingAdd(inf, inf), inf);
  EXPECT_EQ(SaturatingAdd(max, max), inf);
  EXPECT_EQ(SaturatingAdd(max, absl::Seconds(1)), inf);
  EXPECT_EQ(SaturatingAdd(max + absl::Nanoseconds(999999999), absl::Nanoseconds(1)), inf);  // Carry overflows.
}

TEST(ToKernelTimespecTest, Cases) {
  struct Case {
    std::string name;
    absl::Duration in;
    time_t sec;
    long nsec;
  };
  for (const Case& c : std::vector<Case>{
           {"zero", absl::ZeroDuration(), 0, 0},
           {"negative is zero", absl::Seconds(-5), 0, 0},
           {"negative infinity is zero", -absl::InfiniteDuration(), 0, 0},
           {"one nanosecond", absl::Nanoseconds(1), 0, 1},
           {"fraction", absl::Milliseconds(1500), 1, 500000000},
           {"just below the cap", kMaxKernelWait - absl::Nanoseconds(1), 0x7ffffffe, 999999999},
           {"the cap", kMaxKernelWait, 0x7fffffff, 0},
           {"above the cap", kMaxKernelWait + absl::Seconds(1), 0x7fffffff, 0},
           {"huge", absl::Seconds(INT64_MAX), 0x7fffffff, 0},
           {"infinite", absl::InfiniteDuration(), 0x7fffffff, 0},
       }) {
    timespec ts = ToKernelTimespec(c.in);
    EXPECT_EQ(ts.tv_sec, c.sec) << c.name;
    EXPECT_EQ(ts.tv_nsec, c.nsec) << c.name;
  }
}

}  // namespace
}  // namespace uucore
