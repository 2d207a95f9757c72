// Fuzzes uucore::ParseSignal and the table behind it: every accepted signal has a name that parses back to it.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "uucore/signals.h"

#define FUZZ_CHECK(cond) \
  if (!(cond)) abort()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool allow_zero = data[0] & 1;  // The first byte picks the mode; the rest is the operand.
  const absl::string_view arg(reinterpret_cast<const char*>(data + 1), size - 1);
  absl::StatusOr<int> sig = uucore::ParseSignal(arg, allow_zero);
  if (!sig.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(sig.status()));
    FUZZ_CHECK(absl::EndsWith(sig.status().message(), "': invalid signal"));
    return 0;
  }
  FUZZ_CHECK(uucore::IsKnownSignal(*sig));
  FUZZ_CHECK(*sig != 0 || allow_zero);
  FUZZ_CHECK(*sig >= 0 && *sig <= uucore::MaxSignal());
  const std::string name = uucore::SignalName(*sig);
  absl::StatusOr<int> again = uucore::ParseSignal(name, /*allow_zero=*/true);
  FUZZ_CHECK(again.ok() && *again == *sig);
  FUZZ_CHECK(!uucore::SignalDescription(*sig).empty());
  return 0;
}
