// utils/kill/options.h -- kill's command line, read into Options before anything is sent or listed.
#ifndef UTILS_KILL_OPTIONS_H_
#define UTILS_KILL_OPTIONS_H_

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace kill_utility {

enum class Mode {
  kSend,       // Signal the PIDs (the default).
  kList,       // -l, -t, --list=0xMASK: tell about signals.
  kShowState,  // -d PID: a process's signal masks.
};

// --timeout MS SIGNAL: once MS have passed, SIGNAL to each target still running.
struct FollowUp {
  absl::Duration after;
  int signal;
};

struct Options {  // Everything Run() needs; no globals.
  Mode mode = Mode::kSend;
  int signal = SIGTERM;
  bool signal_given = false, table = false;
  const char* list_mask = nullptr;  // --list=0xMASK: listed before the operands.
  bool queue = false;               // -q VALUE: sigqueue, with queue_value.
  int32_t queue_value = 0;
  std::vector<FollowUp> follow_ups;  // --timeout, in order.
  bool wait = false;                 // --wait[=DURATION]: until every target has exited, or wait_limit.
  absl::Duration wait_limit = absl::InfiniteDuration();
  bool require_handler = false, verbose = false;
  pid_t state_pid = 0;  // -d PID, and PID as given.
  const char* state_arg = nullptr;
  char** operands = nullptr;  // PIDs, or SIGNALs to list; null-terminated.
  int finished_status = -1;   // >= 0: --help or --version already answered with this status.

  // Whether a target needs a pidfd to be followed after its signal (--timeout, --wait).
  bool follows_targets() const { return wait || !follow_ups.empty(); }
  // Whether nothing but kill(2) is asked for: GNU's kill.
  bool plain() const { return !queue && !follows_targets() && !require_handler && !verbose; }
};

// ParseArgs()
//
// GNU's kill command line plus util-linux's options and --wait. No side effects beyond --help/--version. A usage
// error is InvalidArgument with the message to print before the Try line ("" when getopt has printed it).
absl::StatusOr<Options> ParseArgs(int argc, char* argv[]);

}  // namespace kill_utility

#endif  // UTILS_KILL_OPTIONS_H_
