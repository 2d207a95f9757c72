// Fuzzes uucore::ParseDuration and the conversions after it: no crash, no UB (run under UBSan), and the contract's
// invariants hold for every input.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "uucore/duration.h"

#define FUZZ_CHECK(cond) \
  if (!(cond)) abort()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view arg(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<absl::Duration> d = uucore::ParseDuration(arg);
  if (!d.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(d.status()));
    FUZZ_CHECK(absl::StartsWith(d.status().message(), "invalid time interval '"));
    return 0;
  }
  FUZZ_CHECK(*d >= absl::ZeroDuration());
  const timespec ts = uucore::ToKernelTimespec(*d);
  FUZZ_CHECK(ts.tv_sec >= 0 && ts.tv_nsec >= 0 && ts.tv_nsec < 1000000000);
  FUZZ_CHECK(ts.tv_sec <= absl::ToInt64Seconds(uucore::kMaxKernelWait));
  const absl::Duration twice = uucore::SaturatingAdd(*d, *d);
  FUZZ_CHECK(twice >= *d);
  return 0;
}
