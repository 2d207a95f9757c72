#include "utils/kill/targets.h"

#include <stdint.h>
#include <string.h>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"

namespace kill_utility {

bool ParseInt32(absl::string_view arg, int32_t* value) {
  while (!arg.empty() && strchr(" \t\n\v\f\r", arg.front()) != nullptr) arg.remove_prefix(1);
  if (arg.empty() || arg.find_first_not_of("+-0123456789") != absl::string_view::npos) return false;
  return absl::SimpleAtoi(arg, value);  // Takes one sign and rejects overflow.
}

bool ParseTarget(absl::string_view arg, Target* target) {
  const size_t colon = arg.find(':');
  int32_t pid = 0;
  if (!ParseInt32(arg.substr(0, colon), &pid)) return false;
  target->pid = pid;
  target->inode = 0;
  if (colon == absl::string_view::npos) return true;
  const absl::string_view inode = arg.substr(colon + 1);
  // Digits only: SimpleAtoi alone would take a sign and surrounding whitespace.
  if (pid <= 0 || inode.empty() || inode.find_first_not_of("0123456789") != absl::string_view::npos) return false;
  return absl::SimpleAtoi(inode, &target->inode) && target->inode != 0;
}

}  // namespace kill_utility
