#include "uucore/duration.h"

#include <errno.h>
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
#include "uucore/i18n.h"
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
  return absl::InvalidArgumentError(Format("invalid time interval %s", Quote(arg)));
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

// One strtod reading: the value, where it stopped, and whether it was out of range (ERANGE).
struct Reading {
  double value = 0;
  const char* end = nullptr;
  bool out_of_range = false;
};

Reading ReadNumber(const char* text, locale_t locale) {
  Reading r;
  char* end = nullptr;
  errno = 0;
  r.value = locale != nullptr ? strtod_l(text, &end, locale) : strtod(text, &end);
  r.out_of_range = errno == ERANGE;
  r.end = end;
  return r;
}

// As GNU reads numbers: in the C locale, and in the user's LC_NUMERIC ("0,3" with a decimal comma), the longer
// reading winning. The user's locale is loaded only when the C reading leaves something that is not a suffix.
// TEXT is null-terminated but may hold a NUL before its end, which is then trailing garbage.
Reading ReadLocaleNumber(absl::string_view text) {
  Reading c = ReadNumber(text.data(), CLocale());
  if (c.end != text.data() && SuffixSeconds(text.substr(c.end - text.data())) != 0) return c;
  const locale_t user = newlocale(LC_NUMERIC_MASK, "", static_cast<locale_t>(nullptr));
  if (user == nullptr) return c;  // No such locale: C's '.' only, as GNU after a failed setlocale.
  Reading local = ReadNumber(text.data(), user);
  freelocale(user);
  return local.end > c.end ? local : c;
}

// Non-negative seconds (NaN already rejected) to a Duration, rounded up to the next nanosecond (so a positive
// value never becomes 0, which would mean "no timeout"); anything past int64 seconds is forever.
absl::Duration FromSeconds(double seconds) {
  // 2^63 is exact as a double; below it, floor(seconds) fits in int64_t.
  constexpr double kInt64Limit = 9223372036854775808.0;
  if (!(seconds < kInt64Limit)) return absl::InfiniteDuration();
  const double whole = floor(seconds);
  // seconds - whole is exact; ceil of its nanoseconds is 0..1e9, and 1e9 carries into the seconds via absl.
  const int64_t nanos = static_cast<int64_t>(ceil((seconds - whole) * 1e9));
  return absl::Seconds(static_cast<int64_t>(whole)) + absl::Nanoseconds(nanos);
}

}  // namespace

absl::StatusOr<absl::Duration> ParseDuration(absl::string_view arg) {
  const std::string text(arg);  // strtod needs a terminated string; an embedded NUL ends the number early.
  const char* begin = text.c_str();
  // strtod is exactly GNU's number grammar: leading whitespace, sign, decimal/hex float, inf/infinity, nan.
  const Reading number = ReadLocaleNumber(text);
  if (number.end == begin) return InvalidInterval(arg);
  const int unit = SuffixSeconds(absl::string_view(text).substr(number.end - begin));
  // "!(value >= 0)" rejects NaN as well as negatives; -0 is accepted, as GNU does. A value too small to represent
  // keeps its sign: negative is invalid ("-1e-10000"), positive is the smallest wait there is.
  if (unit == 0 || !(number.value >= 0) || (signbit(number.value) != 0 && number.out_of_range)) {
    return InvalidInterval(arg);
  }
  if (number.value == 0 && number.out_of_range) return absl::Nanoseconds(1);
  return FromSeconds(number.value * unit);  // A double overflows to inf here, never UB.
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
