#include "uucore/proc_status.h"

#include <stdint.h>
#include <sys/types.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "uucore/file.h"

namespace uucore {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The mask on the line "KEY:\tMASK", or an error naming the line.
absl::StatusOr<uint64_t> MaskOfLine(absl::string_view status, absl::string_view key) {
  const std::string start = absl::StrCat(key, ":\t");
  for (absl::string_view line : absl::StrSplit(status, '\n')) {
    if (!absl::ConsumePrefix(&line, start)) continue;
    absl::StatusOr<uint64_t> mask = ParseSignalMask(line);
    if (!mask.ok()) return absl::InvalidArgumentError(absl::StrCat(key, ": ", mask.status().message()));
    return mask;
  }
  return absl::InvalidArgumentError(absl::StrCat("no ", key, " line"));
}

}  // namespace

absl::StatusOr<uint64_t> ParseSignalMask(absl::string_view hex) {
  uint64_t mask = 0;
  for (const char c : hex) {
    const int digit = HexDigit(c);
    // Checked before shifting: a digit that would push a set bit past bit 63 is out of range.
    if (digit < 0 || (mask >> 60) != 0) {
      return absl::InvalidArgumentError(absl::StrCat("invalid signal mask '", hex, "'"));
    }
    mask = (mask << 4) | static_cast<uint64_t>(digit);
  }
  if (hex.empty()) return absl::InvalidArgumentError("invalid signal mask ''");
  return mask;
}

absl::StatusOr<SignalMasks> ParseSignalMasks(absl::string_view status) {
  SignalMasks masks;
  struct Field {
    const char* key;
    uint64_t* mask;
  };
  for (const Field& field :
       {Field{"SigPnd", &masks.pending_thread}, Field{"ShdPnd", &masks.pending_process},
        Field{"SigBlk", &masks.blocked}, Field{"SigIgn", &masks.ignored}, Field{"SigCgt", &masks.caught}}) {
    absl::StatusOr<uint64_t> mask = MaskOfLine(status, field.key);
    if (!mask.ok()) return mask.status();
    *field.mask = *mask;
  }
  return masks;
}

absl::StatusOr<SignalMasks> ReadSignalMasks(pid_t pid) {
  absl::StatusOr<std::string> status = ReadFile(absl::StrCat("/proc/", pid, "/status"));
  if (!status.ok()) return status.status();
  return ParseSignalMasks(*status);
}

}  // namespace uucore
