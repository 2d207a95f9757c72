// utils/kill/targets.h -- how kill reads the numbers of its command line: PIDs (GNU's way), PID:PIDFD_INODE
// (util-linux's), and the integers of -q and --timeout.
#ifndef UTILS_KILL_TARGETS_H_
#define UTILS_KILL_TARGETS_H_

#include <stdint.h>
#include <sys/types.h>

#include "absl/strings/string_view.h"

namespace kill_utility {

// ParseInt32()
//
// A decimal integer as GNU's strtoimax reads it: optional leading whitespace, one optional sign, digits, nothing
// after, within int32_t (pid_t on Linux; sigqueue's int value; util-linux's milliseconds).
bool ParseInt32(absl::string_view arg, int32_t* value);

// Target
//
// One PID operand: a process (pid > 0), the caller's process group (0), every process it may signal (-1) or
// process group N (-N); with PID:PIDFD_INODE, the process whose pidfd has that inode.
struct Target {
  pid_t pid = 0;
  uint64_t inode = 0;  // 0: none given.
  bool is_group() const { return pid <= 0; }
};

// ParseTarget()
//
// A PID operand: ParseInt32(), or PID:PIDFD_INODE, a PID above 0 then ':' and the inode, decimal digits only,
// above 0 and below 2^64. False for anything else (GNU's "invalid process id").
bool ParseTarget(absl::string_view arg, Target* target);

}  // namespace kill_utility

#endif  // UTILS_KILL_TARGETS_H_
