// sleep -- pause for a time. Follows GNU sleep(1) 9.1; tests/sleep/sleep_test.cc pins it.
//
// Usage: sleep NUMBER[SUFFIX]...    or: sleep --help | --version    (--help and the man page sleep(1): sleep.help)
// NUMBER is a coreutils DURATION (uucore::ParseDuration): decimal or hex float, "inf", one suffix s/m/h/d; the
// operands are summed, saturating at forever ("inf", "1e400", "9223372036854775807 9223372036854775807").
// Options may come anywhere before "--", as GNU permutes (`sleep 1 --help` prints the help); there are no short
// options, so "-1" is an invalid option and a negative zero needs "--" (`sleep -- -0`).
// "missing operand" only when there is no argument at all: `sleep --` succeeds at once, as in GNU.
// Every invalid operand is reported ("sleep: invalid time interval 'x'") before the one Try line, as GNU does.
// The sleep aims at one deadline on CLOCK_MONOTONIC (uucore::SleepUntil): wall-clock changes do not move it, and
// after SIGSTOP/SIGCONT it resumes with only the time that is left. Signals keep their dispositions, so SIGTERM,
// SIGINT, SIGALRM... end it at once by their default action (143 for SIGTERM, as the shell sees it).
// Exit status: 0 after sleeping; 1 for a usage error (no operand, an invalid operand or option) or if the clock
// fails.
#include "utils/sleep/sleep.h"

#include <getopt.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "uucore/cli.h"
#include "uucore/duration.h"
#include "uucore/i18n.h"
#include "uucore/signal_wait.h"
#include "utils/sleep/sleep_help.h"

namespace {

constexpr char kShortOptions[] = "";  // None; no '+': GNU permutes, so --help after an operand still counts.
constexpr auto kLongOptions = uucore::LongOptions();
constexpr uucore::CommandLine kCommandLine = {"sleep", help::kSleep, kShortOptions, kLongOptions.data()};

struct Options {  // Everything Run() needs; no globals.
  absl::Duration duration = absl::ZeroDuration();
  int finished_status = -1;  // >= 0: --help or --version already answered with this status.
};

// Reports each invalid operand itself (GNU names them all before the Try line); the error it returns carries only
// what is left to say.
absl::StatusOr<Options> ParseArgs(int argc, char* argv[]);
int Run(const Options& options);  // Returns the exit status.

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  optind = 0;  // glibc: a full reset, as Main may run twice in one process.
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    switch (c) {
      case uucore::kAnswered:
        options.finished_status = uucore::AnsweredStatus();
        return options;
      default:
        return absl::InvalidArgumentError("");  // getopt has already said what was wrong.
    }
  }
  // GNU counts arguments, not operands: `sleep --` sleeps for no time and succeeds.
  if (argc <= 1) return absl::InvalidArgumentError(uucore::Format("missing operand"));
  bool all_valid = true;
  for (int i = optind; i < argc; ++i) {
    absl::StatusOr<absl::Duration> d = uucore::ParseDuration(argv[i]);
    if (!d.ok()) {
      uucore::Error(d.status());
      all_valid = false;
    } else {
      options.duration = uucore::SaturatingAdd(options.duration, *d);
    }
  }
  if (!all_valid) return absl::InvalidArgumentError("");
  return options;
}

int Run(const Options& options) {
  absl::Status slept = uucore::SleepUntil(uucore::Deadline::In(options.duration));
  if (!slept.ok()) {
    uucore::Error(slept);
    return uucore::kExitFailure;
  }
  return uucore::kExitSuccess;
}

}  // namespace

int SleepMain(int argc, char* argv[]) {
  absl::StatusOr<Options> options = ParseArgs(argc, argv);
  if (!options.ok()) return uucore::UsageError(options.status());
  if (options->finished_status >= 0) return options->finished_status;
  return Run(*options);
}
