// utils/kill/options.cc -- kill's command line: GNU's grammar, util-linux's options and --wait, and the checks that
// keep nonsense from being half done (a group with --wait, -q with -l) before anything is sent.
#include "utils/kill/options.h"

#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "utils/kill/kill_help.h"
#include "utils/kill/targets.h"
#include "uucore/cli.h"
#include "uucore/duration.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "uucore/signals.h"

namespace kill_utility {
namespace {

// Long options without a short form, and the hidden entries that keep GNU's abbreviations.
enum LongOnly : int {
  kTimeout = 0x100,
  kVerbose,
  kWait,
  kListLong,     // --list, which may carry =0xMASK.
  kSignalAlias,  // --s: GNU's abbreviation of --signal, now also a prefix of --show-process-state.
  kTableAlias,   // --t: of --table, now also of --timeout.
  kVersionAlias  // --v, --ve, --ver: of --version, now also of --verbose.
};

// No '+': options may follow PIDs. Digits and upper-case letters take an optional attached argument so that -9,
// -15, -KILL and -RTMIN+1 reach us whole as -SIGNAL; L is the table option, not a signal's first letter.
constexpr char kShortOptions[] =
    "0::1::2::3::4::5::6::7::8::9::A::B::C::D::E::F::G::H::I::J::K::M::N::O::P::Q::R::S::T::U::V::W::X::Y::Z::"
    "Ld:ln:q:rs:t";
// An exact match wins over an abbreviation in getopt: the aliases keep `--s HUP`, `--t` and `--v` as GNU reads them.
// They take an optional argument so that getopt never words a complaint with their short names (see GnuComplaint).
constexpr auto kLongOptions = uucore::LongOptions({
    {"list", optional_argument, nullptr, kListLong},
    {"queue", required_argument, nullptr, 'q'},
    {"require-handler", no_argument, nullptr, 'r'},
    {"show-process-state", required_argument, nullptr, 'd'},
    {"signal", required_argument, nullptr, 's'},
    {"table", no_argument, nullptr, 't'},
    {"timeout", required_argument, nullptr, kTimeout},
    {"verbose", no_argument, nullptr, kVerbose},
    {"wait", optional_argument, nullptr, kWait},
    {"s", optional_argument, nullptr, kSignalAlias},
    {"t", optional_argument, nullptr, kTableAlias},
    {"v", optional_argument, nullptr, kVersionAlias},
    {"ve", optional_argument, nullptr, kVersionAlias},
    {"ver", optional_argument, nullptr, kVersionAlias},
});
constexpr uucore::CommandLine kCommandLine = {"kill", help::kKill, kShortOptions, kLongOptions.data()};
// GNU's own long options, for the complaints getopt gives GNU's kill.
constexpr auto kGnuLongOptions = uucore::LongOptions({
    {"list", no_argument, nullptr, 'l'},
    {"signal", required_argument, nullptr, 's'},
    {"table", no_argument, nullptr, 't'},
});

// --v, --ve, --ver: what uucore::GetoptLong does for --version.
int AnswerVersion() {
  uucore::RestoreStartupSignalMask();
  return uucore::Version("kill");
}

bool IsDigit(int c) { return c >= '0' && c <= '9'; }
bool IsSignalOption(int c) { return IsDigit(c) || (c >= 'A' && c <= 'Z' && c != 'L'); }

absl::Status Usage(const std::string& message) { return absl::InvalidArgumentError(message); }

// getopt's complaint about the long option `element` as GNU's kill gets it ("option '--list' doesn't allow an
// argument", "option '--signal' requires an argument"), in the user's language: glibc words it from GNU's table.
absl::Status GnuComplaint(char* argv0, char* element) {
  uucore::UseUserLocale();
  char* argv[] = {argv0, element, nullptr};
  optind = 0;
  opterr = 1;
  (void)getopt_long(2, argv, "", kGnuLongOptions.data(), nullptr);
  return Usage("");  // Only the Try line: getopt has said what was wrong.
}

// The argument of an option that takes one more element than getopt gives it (--s SIGNAL, --timeout MS SIGNAL).
// Taking argv[optind] is safe with GNU's permutation: getopt moves it along with the option.
const char* NextArgument(int argc, char* argv[]) { return optind < argc ? argv[optind++] : nullptr; }

absl::Status SetSignal(Options* options, const char* arg) {
  if (options->signal_given) return Usage(uucore::Format("%s: multiple signals specified", uucore::Quote(arg)));
  absl::StatusOr<int> signal = uucore::ParseSignal(arg, /*allow_zero=*/true, /*allow_unnamed=*/true);
  if (!signal.ok()) return signal.status();
  options->signal = *signal;
  options->signal_given = true;
  return absl::OkStatus();
}

absl::Status SetList(Options* options, bool table) {
  if (options->mode == Mode::kList) return Usage(uucore::Format("multiple -l or -t options specified"));
  if (options->mode == Mode::kShowState) return Usage(uucore::Format("cannot combine -d with -l or -t"));
  options->mode = Mode::kList;
  options->table = table;
  return absl::OkStatus();
}

absl::Status SetShowState(Options* options, const char* arg) {
  if (options->mode == Mode::kShowState) return Usage(uucore::Format("multiple -d options specified"));
  if (options->mode == Mode::kList) return Usage(uucore::Format("cannot combine -d with -l or -t"));
  Target target;
  if (!ParseTarget(arg, &target) || target.is_group() || target.inode != 0) {
    return Usage(uucore::Format("%s: invalid process id", uucore::Quote(arg)));
  }
  options->mode = Mode::kShowState;
  options->state_pid = target.pid;
  options->state_arg = arg;
  return absl::OkStatus();
}

absl::Status SetQueue(Options* options, const char* arg) {
  if (!ParseInt32(arg, &options->queue_value)) {
    return Usage(uucore::Format("%s: invalid queue value", uucore::Quote(arg)));
  }
  options->queue = true;
  return absl::OkStatus();
}

// --timeout MS SIGNAL: MS as util-linux reads it (a decimal int), but not negative (util-linux's poll would wait
// for ever).
absl::Status AddFollowUp(Options* options, const char* ms, const char* signal_arg) {
  int32_t milliseconds = 0;
  if (!ParseInt32(ms, &milliseconds) || milliseconds < 0) {
    return Usage(uucore::Format("%s: invalid number of milliseconds", uucore::Quote(ms)));
  }
  if (signal_arg == nullptr) {
    return Usage(uucore::Format("missing follow-up signal after %s", uucore::Quote(absl::StrCat("--timeout ", ms))));
  }
  absl::StatusOr<int> signal = uucore::ParseSignal(signal_arg, /*allow_zero=*/true, /*allow_unnamed=*/true);
  if (!signal.ok()) return signal.status();
  options->follow_ups.push_back({absl::Milliseconds(milliseconds), *signal});
  return absl::OkStatus();
}

absl::Status SetWait(Options* options, const char* duration) {
  options->wait = true;
  options->wait_limit = absl::InfiniteDuration();
  if (duration == nullptr) return absl::OkStatus();
  absl::StatusOr<absl::Duration> limit = uucore::ParseDuration(duration);
  if (!limit.ok()) return Usage(std::string(limit.status().message()));
  options->wait_limit = *limit;
  return absl::OkStatus();
}

// -SIGNAL, -s, -n, --signal: the signal's text, or an error for -SIGNAL glued to other letters ("-lKILL").
absl::StatusOr<const char*> SignalArgument(int c, char* argv[]) {
  if (!IsSignalOption(c)) return optarg;
  const char* element = argv[optind - 1];  // Digits and letters after the option char are its argument.
  const char* rest = optarg != nullptr ? optarg : element + strlen(element);
  if (rest != element + 2) return Usage(uucore::Format("invalid option -- %c", std::string(1, c)));
  return rest - 1;  // The whole argument but its '-'.
}

// The option that stops -l, -t and -d from making sense, if any (the first one given).
struct SendOnly {
  const char* name = nullptr;
  void Saw(const char* option) {
    if (name == nullptr) name = option;
  }
};

// One option (getopt's return c) into options.
absl::Status TakeOption(int c, int argc, char* argv[], Options* options, SendOnly* send_only) {
  switch (c) {
    case 'l':
    case 't':
    case 'L':
      return SetList(options, c != 'l');
    case kListLong:
      if (optarg != nullptr && !absl::StartsWith(optarg, "0x")) return GnuComplaint(argv[0], argv[optind - 1]);
      options->list_mask = optarg;
      return SetList(options, /*table=*/false);
    case kTableAlias:
      if (optarg != nullptr) return GnuComplaint(argv[0], argv[optind - 1]);
      return SetList(options, /*table=*/true);
    case 'd':
      return SetShowState(options, optarg);
    case 'q':
      send_only->Saw("-q");
      return SetQueue(options, optarg);
    case 'r':
      send_only->Saw("-r");
      options->require_handler = true;
      return absl::OkStatus();
    case kVerbose:
      send_only->Saw("--verbose");
      options->verbose = true;
      return absl::OkStatus();
    case kTimeout: {
      send_only->Saw("--timeout");
      const char* ms = optarg;
      return AddFollowUp(options, ms, NextArgument(argc, argv));
    }
    case kWait:
      send_only->Saw("--wait");
      return SetWait(options, optarg);
    case kSignalAlias: {
      char* element = argv[optind - 1];
      const char* arg = optarg != nullptr ? optarg : NextArgument(argc, argv);
      if (arg == nullptr) return GnuComplaint(argv[0], element);
      return SetSignal(options, arg);
    }
    default: {  // -s, -n, --signal, -SIGNAL.
      absl::StatusOr<const char*> arg = SignalArgument(c, argv);
      if (!arg.ok()) return arg.status();
      return SetSignal(options, *arg);
    }
  }
}

// Whether -N is still a signal. In GNU only as the first argument; here also after util-linux's options alone, as
// util-linux reads `kill --verbose -9 PID` and `kill -q 5 -10 PID`: while no PID and no option of GNU's (a signal
// among them) has come before it. GNU's own command lines have none of those options, so GNU's rule is unchanged.
class LeadingOptions {
 public:
  // Before each getopt call: getopt will skip the non-options (PIDs) from optind to reach the next option, unless
  // it is still in the middle of an element of grouped short options ("-rq5").
  void BeforeGetopt(int argc, char* argv[]) {
    if (optind == element_) return;
    element_ = optind > 0 ? optind : 1;  // optind 0: the reset, from the first argument.
    for (; element_ < argc && IsNonOption(argv[element_]); ++element_) leading_ = false;
  }
  // After getopt returned an option: `ours` when it is one of util-linux's sending options (-q, -r, --verbose,
  // --timeout, --wait).
  void AfterOption(bool ours) {
    leading_ = leading_ && ours;
    if (optind != element_) element_ = -1;  // The element is done.
  }
  bool minus_number_is_signal() const { return leading_; }

 private:
  static bool IsNonOption(const char* arg) { return arg[0] != '-' || arg[1] == '\0'; }  // As getopt reads them.
  int element_ = -1;  // The element getopt is reading options from, or -1 between elements.
  bool leading_ = true;
};

bool IsUtilLinuxSendingOption(int c) { return c == 'q' || c == 'r' || c == kVerbose || c == kTimeout || c == kWait; }

// What cannot go together, once every option is known: the first conflict found, in GNU's order of checks.
absl::Status CheckCombination(const Options& options, const SendOnly& send_only) {
  if (options.mode == Mode::kList) {
    if (options.signal_given) return Usage(uucore::Format("cannot combine signal with -l or -t"));
    if (send_only.name != nullptr) return Usage(uucore::Format("cannot combine %s with -l or -t", send_only.name));
    return absl::OkStatus();
  }
  if (options.mode == Mode::kShowState) {
    if (options.signal_given) return Usage(uucore::Format("cannot combine signal with -d"));
    if (send_only.name != nullptr) return Usage(uucore::Format("cannot combine %s with -d", send_only.name));
    if (*options.operands != nullptr) {
      return Usage(uucore::Format("extra operand %s", uucore::Quote(*options.operands)));
    }
    return absl::OkStatus();
  }
  if (*options.operands == nullptr) return Usage(uucore::Format("no process ID specified"));
  // A group has no pidfd to wait on (the alternative would be polling), and no one handler to look up.
  if (!options.follows_targets() && !options.require_handler) return absl::OkStatus();
  for (char* const* arg = options.operands; *arg != nullptr; ++arg) {
    Target target;
    if (!ParseTarget(*arg, &target) || !target.is_group()) continue;
    if (!options.follows_targets()) {
      return Usage(uucore::Format("-r: %s names a group of processes, not one whose handler can be looked up",
                                  uucore::Quote(*arg)));
    }
    return Usage(
        uucore::Format("%s: cannot wait for %s: a group of processes has no pidfd, and waiting for one "
                       "would mean polling",
                       options.wait ? "--wait" : "--timeout", uucore::Quote(*arg)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  SendOnly send_only;
  optind = 0;  // glibc: a full reset, as Main may run twice in one process.
  // getopt's complaints come in the user's language (uucore::GetoptLong loads it only for a complaint).
  LeadingOptions leading;
  for (int c; leading.BeforeGetopt(argc, argv), (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    if (c == '?') return Usage("");  // Only the Try line: getopt has said what was wrong.
    if (c == uucore::kAnswered || c == kVersionAlias) {
      if (c == kVersionAlias && optarg != nullptr) return GnuComplaint(argv[0], argv[optind - 1]);
      options.finished_status = c == uucore::kAnswered ? uucore::AnsweredStatus() : AnswerVersion();
      return options;
    }
    // -N after the first argument (or after util-linux's options) is a PID, a process group: the options end there,
    // as in GNU. The PIDs that getopt skipped before it have not been moved yet, so they are left out, as GNU
    // leaves them out.
    if (IsDigit(c) && optind != 2 && !leading.minus_number_is_signal()) {
      --optind;
      break;
    }
    leading.AfterOption(IsUtilLinuxSendingOption(c));
    absl::Status taken = TakeOption(c, argc, argv, &options, &send_only);
    if (!taken.ok()) return taken;
  }
  options.operands = argv + optind;
  absl::Status combination = CheckCombination(options, send_only);
  if (!combination.ok()) return combination;
  return options;
}

}  // namespace kill_utility
