// utils/timeout/options.h -- timeout's command line: what Run() needs to know, parsed and checked before anything runs.
//
// Owns: the options table (short and long), --tree's and -k's and -s's argument checks, and Options, the one value
// every later step reads. Must not touch: processes, the clock, signal dispositions, or descriptors but stdout and
// stderr. What parsing does besides building Options is uucore's, each only where it is said: uucore::GetoptLong
// restores the start-up signal mask, then writes the answer to --help or --version to stdout; getopt writes its own
// complaints to stderr; and making a usage error's message loads the user's locale (uucore::UseUserLocale(): its
// language and quotes). A command line that runs a command does none of these. The contract these options
// implement: timeout.cc's first lines.
#ifndef UTILS_TIMEOUT_OPTIONS_H_
#define UTILS_TIMEOUT_OPTIONS_H_

#include <signal.h>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace timeout {

enum class KillTree { kOff, kOnTimeout, kOnExit };

struct Options {  // Everything Run() needs; no globals.
  int finished_status = -1;  // >= 0: --help or --version already answered with this status.
  absl::Duration duration = absl::ZeroDuration(), kill_after = absl::ZeroDuration();
  int signal = SIGTERM;
  bool foreground = false, preserve_status = false, verbose = false;
  bool inactivity = false;  // -i: the timer restarts at every output.
  KillTree kill_tree = KillTree::kOff;
  const char* report = nullptr;  // --report=FILE: the JSON outcome (utils/timeout/report.h).
  char** command = nullptr;
};

// Parses the command line, with no effects but those this file's first lines list (--help and --version answered,
// then finished_status set; getopt's complaints; the locale loaded for a usage error's message). Usage errors come
// back as the message to print (empty: getopt has already printed its own).
absl::StatusOr<Options> ParseArgs(int argc, char* argv[]);

}  // namespace timeout

#endif  // UTILS_TIMEOUT_OPTIONS_H_
