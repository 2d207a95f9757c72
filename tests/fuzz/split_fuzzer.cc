// Fuzzes env -S splitting (env::SplitString): no crash, errors only with GNU's messages, and plain input (no
// quote, backslash, '$' or '#') splits exactly as whitespace separation does.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "utils/env/split.h"

#define FUZZ_CHECK(cond) \
  if (!(cond)) abort()

namespace {

const char* Lookup(const std::string& name) {
  // Some names set (one with blanks, one empty), the rest unset: every expansion path is reachable.
  if (name.empty()) abort();
  if (name[0] == 'A') return "v a l";
  if (name[0] == 'E') return "";
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view s(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::vector<std::string>> words = env::SplitString(s, Lookup);
  if (!words.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(words.status()));
    return 0;
  }
  if (s.find_first_of("'\"\\$#") == absl::string_view::npos) {
    std::vector<std::string> plain = absl::StrSplit(s, absl::ByAnyChar(" \t\n\v\f\r"), absl::SkipEmpty());
    FUZZ_CHECK(*words == plain);
  }
  return 0;
}
