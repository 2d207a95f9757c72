#include "utils/timeout/options.h"

#include <getopt.h>
#include <signal.h>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "uucore/cli.h"
#include "uucore/duration.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"
#include "uucore/signals.h"
#include "utils/timeout/timeout_help.h"

namespace timeout {
namespace {

constexpr char kShortOptions[] = "+fik:ps:v";  // '+': stop at DURATION so COMMAND's options pass through.
enum { kTreeOption = 256, kReportOption };
constexpr auto kLongOptions = uucore::LongOptions({
    {"foreground", no_argument, nullptr, 'f'},      {"kill-after", required_argument, nullptr, 'k'},
    {"preserve-status", no_argument, nullptr, 'p'}, {"signal", required_argument, nullptr, 's'},
    {"verbose", no_argument, nullptr, 'v'},         {"inactivity", no_argument, nullptr, 'i'},
    {"tree", optional_argument, nullptr, kTreeOption},  {"report", required_argument, nullptr, kReportOption},
});
constexpr uucore::CommandLine kCommandLine = {"timeout", help::kTimeout, kShortOptions, kLongOptions.data()};

}  // namespace

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    switch (c) {
      case 'f': options.foreground = true; break;
      case 'p': options.preserve_status = true; break;
      case 'v': options.verbose = true; break;
      case 'i': options.inactivity = true; break;
      case kReportOption: options.report = optarg; break;
      case kTreeOption: {
        const absl::string_view when = optarg == nullptr ? "timeout" : optarg;
        if (when == "timeout") {
          options.kill_tree = KillTree::kOnTimeout;
        } else if (when == "exit") {
          options.kill_tree = KillTree::kOnExit;
        } else {  // As GNU's argmatch words it.
          return absl::InvalidArgumentError(absl::StrCat(
              uucore::Format("invalid argument %s for %s", uucore::Quote(when), uucore::Quote("--tree")), "\n",
              uucore::Format("Valid arguments are:"), "\n  - ", uucore::Quote("timeout"), "\n  - ",
              uucore::Quote("exit")));
        }
        break;
      }
      case 'k': {
        absl::StatusOr<absl::Duration> d = uucore::ParseDuration(optarg);
        if (!d.ok()) return d.status();
        options.kill_after = *d;
        break;
      }
      case 's': {
        // GNU accepts 0 ("EXIT") and the numbers without a name (32, 33).
        absl::StatusOr<int> sig = uucore::ParseSignal(optarg, /*allow_zero=*/true, /*allow_unnamed=*/true);
        if (!sig.ok()) return sig.status();
        options.signal = *sig;
        break;
      }
      case uucore::kAnswered: options.finished_status = uucore::AnsweredStatus(); return options;
      default: return absl::InvalidArgumentError("");  // getopt has said what was wrong.
    }
  }
  // GNU says only "Try ..." when DURATION or COMMAND is missing.
  if (argc - optind < 2) return absl::InvalidArgumentError("");
  absl::StatusOr<absl::Duration> d = uucore::ParseDuration(argv[optind]);
  if (!d.ok()) return d.status();
  options.duration = *d;
  options.command = argv + optind + 1;
  return options;
}

}  // namespace timeout
