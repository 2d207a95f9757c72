// utils/coreutils/registry.h -- the table of utilities the multicall binary dispatches to.
#ifndef UTILS_COREUTILS_REGISTRY_H_
#define UTILS_COREUTILS_REGISTRY_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace coreutils {

struct Utility {
  const char* name;                     // What argv[0]'s basename, or `coreutils NAME`, must be.
  int (*main)(int argc, char* argv[]);  // Returns the exit status; never calls exit().
  int failure_status;                   // Status for the utility's own failures: usage, write errors.
  // The binary starts with every signal blocked (entry.S). The dispatcher gives every utility the mask it was
  // started with, but one that takes over the blocked mask itself (timeout, which waits for signals and must not
  // lose one that arrives while it starts) and restores it where it has to.
  bool keeps_signals_blocked = false;
};

// Every utility, sorted by name with no duplicates (registry_test checks both).
absl::Span<const Utility> Utilities();

// The utility called NAME, or nullptr.
const Utility* FindUtility(absl::string_view name);

}  // namespace coreutils

#endif  // UTILS_COREUTILS_REGISTRY_H_
