// uucore/duration.h -- GNU coreutils DURATION operands (timeout, sleep) and safe conversion to kernel values.
#ifndef UUCORE_DURATION_H_
#define UUCORE_DURATION_H_

#include <time.h>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace uucore {

// kMaxKernelWait
//
// The longest single wait handed to the kernel. Longer durations (including absl::InfiniteDuration(), "inf" and
// saturated values such as "9223372036854775808d") are waited for in steps of at most this, so no conversion to
// timespec can overflow, even where time_t is 32 bits. ~68 years: callers re-arm after it, nobody notices.
inline constexpr absl::Duration kMaxKernelWait = absl::Seconds(0x7fffffff);

// ParseDuration()
//
// Parses a coreutils DURATION: a non-negative decimal or hexadecimal floating-point number ("1", "1.5", ".5", "5.",
// "1e3", "0x1p-2", "0x10"), or "inf"/"infinity" (any case), followed by at most one suffix: s (seconds, the
// default), m (minutes), h (hours) or d (days). Leading whitespace is accepted; trailing characters, including
// whitespace, are not. The decimal point is '.' in every locale and, as in GNU, also the user's own (LC_ALL,
// LC_NUMERIC, LANG: "0,3" under de_DE.UTF-8); the user's locale is only loaded when '.' alone does not parse.
//
// Values too large to represent saturate to absl::InfiniteDuration() ("effectively forever"), never overflow.
// Values round up to the next nanosecond, never down, so a positive value never becomes 0 ("no timeout"); one too
// small even for a double ("1e-10000", "1e-18172487393827593258") is one nanosecond. A negative value is invalid
// however small ("-1e-10000"); zero with a minus sign ("-0") is 0, as in GNU.
//
// Error: InvalidArgument "invalid time interval 'ARG'" (ARG quoted as uucore::Quote does, the text translated as
// uucore::Format does) for the empty string, negative values, NaN, an unknown or repeated suffix ("42D", "1ss") and
// anything else unparsable.
[[nodiscard]] absl::StatusOr<absl::Duration> ParseDuration(absl::string_view arg);

// SaturatingAdd()
//
// a + b for non-negative durations, absl::InfiniteDuration() if either is infinite or the sum overflows.
// sleep adds its operands with it.
absl::Duration SaturatingAdd(absl::Duration a, absl::Duration b);

// ToKernelTimespec()
//
// A relative timespec for nanosleep/sigtimedwait/ppoll: negative becomes zero, anything above kMaxKernelWait
// (infinite included) becomes kMaxKernelWait. Never overflows.
timespec ToKernelTimespec(absl::Duration d);

}  // namespace uucore

#endif  // UUCORE_DURATION_H_
