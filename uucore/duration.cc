#include "uucore/duration.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "uucore/quote.h"

namespace uucore {
namespace {

// The "C" locale, made on first use (not at start-up): strtod_l then reads '.' whatever LC_NUMERIC says.
// glibc hands back its built-in C locale without allocating; null (never seen) falls back to plain strtod.
locale_t CLocale() {
  static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
  return c_locale;
}

absl::Status InvalidInterval(absl::string_view arg) {
  return absl::InvalidArgumentError(absl::StrCat("invalid time interval ", Quote(arg)));
}

// Seconds per unit for the one optional suffix; 0 for anything else.
int SuffixSeconds(absl::string_view suffix) {
  if (suffix.empty()) return 1;
  if (suffix.size() != 1) return 0;
  switch (suffix[0]) {
    case 's': return 1;
    case 'm': return 60;
    case 'h': return 60 * 60;
    case 'd': return 24 * 60 * 60;
    default: return 0;
  }
}

// Non-negative seconds (NaN already rejected) to a Duration: nearest nanosecond, but never a positive value
// down to zero, and anything past int64 seconds is forever.
absl::Duration FromSeconds(double seconds) {
  // 2^63 is exact as a double; below it, floor(seconds) fits in int64_t.
  constexpr double kInt64Limit = 9223372036854775808.0;
  if (!(seconds < kInt64Limit)) return absl::InfiniteDuration();
  const double whole = floor(seconds);
  const int64_t nanos = llround((seconds - whole) * 1e9);  // 0..1e9: 1e9 carries into the seconds via absl.
  absl::Duration d = absl::Seconds(static_cast<int64_t>(whole)) + absl::Nanoseconds(nanos);
  if (d == absl::ZeroDuration() && seconds > 0) d = absl::Nanoseconds(1);  // 0 would mean "no timeout".
  return d;
}

}  // namespace

absl::StatusOr<absl::Duration> ParseDuration(absl::string_view arg) {
  const std::string text(arg);  // strtod_l needs a terminated string; an embedded NUL ends the number early.
  const char* begin = text.c_str();
  char* end = nullptr;
  // strtod_l is exactly GNU's number grammar: leading whitespace, sign, decimal/hex float, inf/infinity, nan.
  const locale_t c_locale = CLocale();
  const double value = c_locale != nullptr ? strtod_l(begin, &end, c_locale) : strtod(begin, &end);
  if (end == begin) return InvalidInterval(arg);
  const int unit = SuffixSeconds(absl::string_view(text).substr(end - begin));
  // "!(value >= 0)" rejects NaN as well as negatives; -0 is accepted, as GNU does.
  if (unit == 0 || !(value >= 0)) return InvalidInterval(arg);
  return FromSeconds(value * unit);  // A double overflows to inf here, never UB.
}

absl::Duration SaturatingAdd(absl::Duration a, absl::Duration b) {
  if (a == absl::InfiniteDuration() || b == absl::InfiniteDuration()) return absl::InfiniteDuration();
  return a + b;  // absl::Duration arithmetic saturates at +infinity on overflow.
}

timespec ToKernelTimespec(absl::Duration d) {
  if (d <= absl::ZeroDuration()) return timespec{0, 0};
  if (d >= kMaxKernelWait) d = kMaxKernelWait;
  return absl::ToTimespec(d);
}

}  // namespace uucore
