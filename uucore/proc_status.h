// uucore/proc_status.h -- a process's signal masks, as /proc/PID/status shows them.
//
// For kill -d (which signals a process has pending, blocks, ignores and catches), -r (signal only a process that
// catches the signal) and -l 0xMASK (a mask's signals by name):
//
//   absl::StatusOr<uucore::SignalMasks> masks = uucore::ReadSignalMasks(pid);
//   if (masks.ok() && uucore::MaskHasSignal(masks->caught, SIGHUP)) ...;
//
// Bit N-1 of a mask stands for signal N, as in the kernel's sigset_t: 0x4000 is TERM (15). Nothing here prints or
// exits.
#ifndef UUCORE_PROC_STATUS_H_
#define UUCORE_PROC_STATUS_H_

#include <stdint.h>
#include <sys/types.h>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace uucore {

// SignalMasks
//
// The five masks of /proc/PID/status. Pending and blocked are the main thread's (the status of a process is its
// thread group leader's); the others are the whole process's.
struct SignalMasks {
  uint64_t pending_thread = 0;   // SigPnd: pending for the main thread only.
  uint64_t pending_process = 0;  // ShdPnd: pending for the process, for any thread to take.
  uint64_t blocked = 0;          // SigBlk.
  uint64_t ignored = 0;          // SigIgn: disposition SIG_IGN.
  uint64_t caught = 0;           // SigCgt: a handler installed.
};

// MaskHasSignal()
//
// Whether `sig` (1 to 64) is set in `mask`; false for any other number, 0 included.
inline bool MaskHasSignal(uint64_t mask, int sig) { return sig >= 1 && sig <= 64 && ((mask >> (sig - 1)) & 1) != 0; }

// ParseSignalMask()
//
// A mask written in hexadecimal, as /proc/PID/status writes it ("0000000000004000"): one or more hex digits (either
// case), nothing else (no "0x", sign or space), of a value below 2^64; leading zeros do not count towards that.
// Error: InvalidArgument "invalid signal mask 'TEXT'".
[[nodiscard]] absl::StatusOr<uint64_t> ParseSignalMask(absl::string_view hex);

// ParseSignalMasks()
//
// The masks of a /proc/PID/status text: its lines "SigPnd:", "ShdPnd:", "SigBlk:", "SigIgn:" and "SigCgt:", each a
// tab then ParseSignalMask()'s digits; other lines are skipped.
// Error: InvalidArgument naming the line when one of the five is missing or is not a mask.
[[nodiscard]] absl::StatusOr<SignalMasks> ParseSignalMasks(absl::string_view status);

// ReadSignalMasks()
//
// ParseSignalMasks() of /proc/PID/status, read once (the kernel makes it in one go, so the five masks are of one
// instant).
// Errors: NotFound, message "open /proc/PID/status: No such file or directory", when there is no such process (or
// no /proc); uucore::ReadFile()'s others; ParseSignalMasks()'s.
[[nodiscard]] absl::StatusOr<SignalMasks> ReadSignalMasks(pid_t pid);

}  // namespace uucore

#endif  // UUCORE_PROC_STATUS_H_
