// env -- run a program in a modified environment. Follows GNU env(1) 9.10, plus what GNU's development branch adds
// (issues 14 and 35): --env0-from, and the printed environment quoted per QUOTING_STYLE byte for byte as it does.
// tests/env/env_test.cc pins it.
//
// Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]    (the options, --help and env(1): env.help)
// Order of work, as GNU master: parse (an -S string is split where it stands and parsing resumes over its words, so
// it may hold options; -v traces the split; --block-signal of glibc's unnamed signals 32 and 33 fails here); read
// QUOTING_STYLE unless -0 (an invalid value is warned about even when a command runs); build the new environment
// (utils/env/environment.h: -i, the --env0-from entries, every -u, the NAME=VALUE operands); with no COMMAND print
// it (-C, then -a, are then errors; signal options are ignored); else -0 is an error, then signal dispositions,
// the signal mask, --list-signal-handling, -C, and exec of COMMAND (searched in the new PATH) with argv[0] from -a.
// --env0-from FILE: NUL-terminated entries; after -i each is kept exactly as read, so `env -0 >f; env -i
// --env0-from=f env -0` reproduces f byte for byte. Only the last --env0-from is read, as in GNU master.
// Printing: byte for byte as GNU master prints (issue 35). QUOTING_STYLE is read from env's own environment as it
// started (not the one printed), first, unless -0; an invalid value is warned about (even when a command runs) and
// shell-escape used; -0 prints every entry exactly as it is. The user's locale (for
// messages and quotes) is also env's own, as GNU takes it at start-up, whatever -i, -u or NAME=VALUE change.
// Exit status: 0 after printing; 125 env itself failed (usage, -u NAME with '=', a bad -S string, a signal action
// that cannot be set for a named signal, -C DIR, an unreadable --env0-from FILE or one not ending in NUL); 126
// COMMAND found but not runnable; 127 not found; else COMMAND's.
#include "utils/env/env.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <climits>
#include <forward_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "utils/env/environment.h"
#include "utils/env/print_env.h"
#include "utils/env/split.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/quote.h"
#include "uucore/signals.h"
#include "utils/env/env_help.h"

extern char** environ;

namespace {

constexpr char kShortOptions[] = "+a:C:iS:u:v0";  // '+': stop at the first NAME=VALUE or COMMAND.
enum {
  kBlockSignal = 256,
  kDefaultSignal,
  kIgnoreSignal,
  kListSignals,
  kEnv0From,
};
// In GNU's order: getopt lists an ambiguous abbreviation's candidates in table order ("--d": '--default-signal'
// '--debug'; "--i": '--ignore-environment' '--ignore-signal').
constexpr auto kLongOptions = uucore::LongOptions({
    {"argv0", required_argument, nullptr, 'a'},
    {"ignore-environment", no_argument, nullptr, 'i'},
    {"null", no_argument, nullptr, '0'},
    {"unset", required_argument, nullptr, 'u'},
    {"chdir", required_argument, nullptr, 'C'},
    {"default-signal", optional_argument, nullptr, kDefaultSignal},
    {"ignore-signal", optional_argument, nullptr, kIgnoreSignal},
    {"block-signal", optional_argument, nullptr, kBlockSignal},
    {"list-signal-handling", no_argument, nullptr, kListSignals},
    {"debug", no_argument, nullptr, 'v'},
    {"split-string", required_argument, nullptr, 'S'},
    {"env0-from", required_argument, nullptr, kEnv0From},
});

// What to do with one signal before exec. The last option naming a signal wins, separately for its action and
// its mask bit; --default-signal both restores the default action and unblocks.
enum class Action : unsigned char { kKeep, kDefault, kIgnore };
enum class Mask : unsigned char { kKeep, kBlock, kUnblock };
struct SignalPlan {
  Action action = Action::kKeep;
  bool from_all = false;  // Set by an option without SIG: a signal that cannot be changed (KILL, 32) is skipped.
  Mask mask = Mask::kKeep;
};

struct Options {  // Everything Run() needs; no globals.
  bool ignore_environment = false, null = false, debug = false, list_signals = false;
  const char* chdir = nullptr;
  const char* argv0 = nullptr;
  std::vector<const char*> unset;
  const char* env0_file = nullptr;  // --env0-from: the last one given, the only one read, as in GNU master.
  SignalPlan signals[NSIG];
  char** operands = nullptr;  // [NAME=VALUE]... [COMMAND [ARG]...], null-terminated.
  int finished_status = -1;   // >= 0: --help or --version already answered with this status.
  // -S storage: each split makes a new argv (the words, then the arguments not yet parsed). Lists keep every
  // string and array where it is, since getopt, putenv and exec hold pointers into them, and cost nothing unused.
  std::forward_list<std::string> split_words;
  std::forward_list<std::vector<char*>> split_argvs;
};

// ParseArgs() errors: kInvalidArgument is a usage error (the Try line follows); any other code is a plain
// "env: MESSAGE". Both exit 125. Its only output besides --help/--version is the -v trace of -S.
absl::StatusOr<Options> ParseArgs(int argc, char* argv[]);
int Run(const Options& options);  // Returns the exit status.

bool IsSpace(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// glibc keeps signals 32 and 33 for its threads: they have no name, their action cannot be read or set and their
// mask bit cannot be set. GNU 9.10 accepts them by number; an option without SIG skips them for the mask and
// tries (and ignores the failure) for the action.
bool IsUnnamedSignal(int sig) { return sig >= 32 && sig < SIGRTMIN; }

std::string EnvSignalName(int sig) {
  return IsUnnamedSignal(sig) ? absl::StrCat("SIG", sig) : uucore::SignalName(sig);  // GNU 9.10's -v name.
}

// An unnamed signal (32, 33) as GNU 9.10 accepts it: a decimal number ("32", "0032", or as a shell's exit
// status "160", "288", "544"), or "SIG" and a number ("SIG32", "sig033"). uucore::ParseSignal() rejects these.
absl::optional<int> ParseUnnamedSignal(absl::string_view item) {
  const bool prefixed = item.size() > 3 && absl::EqualsIgnoreCase(item.substr(0, 3), "SIG");
  if (prefixed) item.remove_prefix(3);
  if (item.empty()) return absl::nullopt;
  long long n = 0;
  for (char c : item) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return absl::nullopt;
    n = n * 10 + (c - '0');
    if (n > INT_MAX) return absl::nullopt;  // As GNU: a number must fit an int.
  }
  if (!prefixed && n > 254) n &= 255;  // ksh's 256 + N.
  if (!prefixed && n > 128) n &= 127;  // A shell's 128 + N.
  if (!IsUnnamedSignal(static_cast<int>(n))) return absl::nullopt;
  return static_cast<int>(n);
}

absl::Status AddSignals(Options& options, int option, const char* arg) {
  auto apply = [&](int sig, bool from_all) {
    SignalPlan& plan = options.signals[sig];
    if (option == kBlockSignal) {
      plan.mask = Mask::kBlock;
      return;
    }
    plan.action = option == kIgnoreSignal ? Action::kIgnore : Action::kDefault;
    plan.from_all = from_all;
    if (option == kDefaultSignal) plan.mask = Mask::kUnblock;
  };
  if (arg == nullptr) {  // No SIG: every signal.
    for (int sig = 1; sig <= uucore::MaxSignal(); ++sig) {
      if (!(option == kBlockSignal && IsUnnamedSignal(sig))) apply(sig, true);
    }
    return absl::OkStatus();
  }
  absl::string_view rest(arg);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const absl::string_view item = rest.substr(0, comma);
    rest = comma == absl::string_view::npos ? absl::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;  // "INT,", ",INT" and "" are fine, as in GNU.
    absl::StatusOr<int> sig = uucore::ParseSignal(item);
    if (!sig.ok()) {
      // Handled here until uucore::ParseSignal takes unnamed numbers itself.
      const absl::optional<int> unnamed = ParseUnnamedSignal(item);
      if (!unnamed.has_value()) {
        return absl::InvalidArgumentError(uucore::Format("%s: invalid signal", uucore::Quote(item)));
      }
      sig = *unnamed;
    }
    if (option == kBlockSignal && IsUnnamedSignal(*sig)) {  // GNU's sigaddset fails while parsing.
      return absl::FailedPreconditionError(
          absl::StrCat(uucore::Format("failed to block signal %d", *sig), ": ", strerror(EINVAL)));
    }
    apply(*sig, false);
  }
  return absl::OkStatus();
}

// Replaces the -S operand by its words: the new argv is argv[0], the words, then everything not parsed yet.
absl::Status SplitOperand(Options& options, const char* arg, int* argc, char*** argv) {
  const bool debug = options.debug;
  auto lookup = [debug](const std::string& name) -> const char* {
    const char* value = getenv(name.c_str());
    if (debug) {
      if (value != nullptr) {
        fprintf(stderr, "expanding ${%s} into %s\n", name.c_str(), uucore::Quote(value).c_str());
      } else {
        fprintf(stderr, "replacing ${%s} with null string\n", name.c_str());
      }
    }
    return value;
  };
  absl::StatusOr<std::vector<std::string>> words = env::SplitString(arg, lookup);
  if (!words.ok()) return absl::FailedPreconditionError(words.status().message());
  std::vector<char*>& next = options.split_argvs.emplace_front();
  next.push_back((*argv)[0]);
  for (size_t i = 0; i < words->size(); ++i) {
    if (debug) {
      if (i == 0) fprintf(stderr, "split -S:  %s\n", uucore::Quote(arg).c_str());
      fprintf(stderr, i == 0 ? " into:    %s\n" : "     &    %s\n", uucore::Quote((*words)[i]).c_str());
    }
    next.push_back(options.split_words.emplace_front(std::move((*words)[i])).data());
  }
  for (int i = optind; i < *argc; ++i) next.push_back((*argv)[i]);
  next.push_back(nullptr);
  *argc = static_cast<int>(next.size()) - 1;
  *argv = next.data();
  optind = 0;  // glibc: restart over the new argv (index 0 stays the program name).
  return absl::OkStatus();
}

// A blank in an option (a shebang line's "-i A=1") is env's own complaint (IsSpace), which names -S.
constexpr uucore::CommandLine kCommandLine = {"env", help::kEnv, kShortOptions, kLongOptions.data(), IsSpace};

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    switch (c) {
      case 'a': options.argv0 = optarg; break;
      case 'i': options.ignore_environment = true; break;
      case '0': options.null = true; break;
      case 'v': options.debug = true; break;
      case 'u': options.unset.push_back(optarg); break;
      case 'C': options.chdir = optarg; break;
      case kEnv0From: options.env0_file = optarg; break;
      case 'S': {
        absl::Status split = SplitOperand(options, optarg, &argc, &argv);
        if (!split.ok()) return split;
        break;
      }
      case kBlockSignal:
      case kDefaultSignal:
      case kIgnoreSignal: {
        absl::Status added = AddSignals(options, c, optarg);
        if (!added.ok()) return added;
        break;
      }
      case kListSignals: options.list_signals = true; break;
      case uucore::kAnswered: options.finished_status = uucore::AnsweredStatus(); return options;
      default:
        // A shebang line passes "-i A=1" as one argument: getopt stops at the blank. Point at -S.
        if (IsSpace(optopt)) {  // Said here, not by getopt: GNU 9.10 names the program, not argv[0].
          uucore::Error(uucore::Format("invalid option -- '%c'", std::string(1, static_cast<char>(optopt))));
          return absl::InvalidArgumentError(uucore::Format("use -[v]S to pass options in shebang lines"));
        }
        return absl::InvalidArgumentError("");  // getopt has said what was wrong.
    }
  }
  if (optind < argc && strcmp(argv[optind], "-") == 0) {  // A mere "-" implies -i.
    options.ignore_environment = true;
    ++optind;
  }
  options.operands = argv + optind;
  return options;
}

// The user's locale is env's own environment's, as GNU sets it at start-up; uucore takes it lazily, on the first
// message, which may come after -i, -u or NAME=VALUE changed the environment. The environment env started with is
// left as it is (the new one is built aside, env::BuildEnvironment()), so it is enough to keep where it is and put
// it back for the instant uucore reads it.
class CallerLocale {
 public:
  void Take() const {
    char** const now = environ;
    environ = started_with_;
    uucore::UseUserLocale();
    environ = now;
  }

 private:
  char** const started_with_ = environ;
};

// "env: MESSAGE: strerror(err)" in the caller's locale; MESSAGE comes from a function, since quoting and
// translating need the locale taken first.
template <typename MessageFn>
void ErrorWithErrno(const CallerLocale& locale, int err, MessageFn message) {
  locale.Take();
  uucore::Error(absl::StrCat(message(), ": ", strerror(err)));
}

const char* ActionName(Action action) { return action == Action::kIgnore ? "IGNORE" : "DEFAULT"; }

// Sets dispositions, then the mask, in signal order as GNU does. Returns false after reporting a failure.
bool ApplySignals(const Options& options, const CallerLocale& locale) {
  const int max = uucore::MaxSignal();
  for (int sig = 1; sig <= max; ++sig) {
    const SignalPlan& plan = options.signals[sig];
    if (plan.action == Action::kKeep) continue;
    // As GNU: read the action first (this fails for glibc's 32 and 33), then set it (fails for KILL and STOP).
    struct sigaction action;
    bool failed = sigaction(sig, nullptr, &action) != 0;
    if (failed && !plan.from_all) {
      ErrorWithErrno(locale, errno, [sig] { return uucore::Format("failed to get signal action for signal %d", sig); });
      return false;
    }
    if (!failed) {
      action = {};
      action.sa_handler = plan.action == Action::kIgnore ? SIG_IGN : SIG_DFL;
      sigemptyset(&action.sa_mask);
      failed = sigaction(sig, &action, nullptr) != 0;
      if (failed && !plan.from_all) {
        ErrorWithErrno(locale, errno,
                       [sig] { return uucore::Format("failed to set signal action for signal %d", sig); });
        return false;
      }
    }
    if (options.debug) {
      fprintf(stderr, "Reset signal %s (%d) to %s%s\n", EnvSignalName(sig).c_str(), sig, ActionName(plan.action),
              failed ? " (failure ignored)" : "");
    }
  }
  sigset_t mask;
  sigprocmask(SIG_BLOCK, nullptr, &mask);
  bool changed = false;
  for (int sig = 1; sig <= max; ++sig) {
    const Mask bit = options.signals[sig].mask;
    if (bit == Mask::kKeep || IsUnnamedSignal(sig)) continue;  // glibc's own signals keep their bit.
    changed = true;
    if (bit == Mask::kBlock) {
      sigaddset(&mask, sig);  // KILL and STOP are accepted here and dropped by the kernel, as in GNU.
    } else {
      sigdelset(&mask, sig);
    }
    if (options.debug) {
      fprintf(stderr, "signal %s (%d) mask set to %s\n", EnvSignalName(sig).c_str(), sig,
              bit == Mask::kBlock ? "BLOCK" : "UNBLOCK");
    }
  }
  if (changed && sigprocmask(SIG_SETMASK, &mask, nullptr) != 0) {
    ErrorWithErrno(locale, errno, [] { return uucore::Format("failed to set signal process mask"); });
    return false;
  }
  return true;
}

// --list-signal-handling: what the command will inherit, read back from the process, not from the options.
void ListSignals() {
  sigset_t mask;
  sigprocmask(SIG_BLOCK, nullptr, &mask);
  for (int sig = 1; sig <= uucore::MaxSignal(); ++sig) {
    struct sigaction action;
    if (sigaction(sig, nullptr, &action) != 0) continue;  // glibc's 32 and 33: nothing to show, as in GNU.
    const bool ignored = action.sa_handler == SIG_IGN;
    const bool blocked = sigismember(&mask, sig) == 1;
    if (!ignored && !blocked) continue;
    fprintf(stderr, "%-10s (%2d): %s%s%s\n", EnvSignalName(sig).c_str(), sig, blocked ? "BLOCK" : "",
            blocked && ignored ? "," : "", ignored ? "IGNORE" : "");
  }
}

// The first operand that is not NAME=VALUE: COMMAND, or the terminating null.
char** FindCommand(char** operands) {
  while (*operands != nullptr && strchr(*operands, '=') != nullptr) ++operands;
  return operands;
}

// -i, --env0-from, -u and NAME=VALUE, into a new environ. Returns false after reporting a failure.
bool EditEnvironment(const Options& options) {
  // environ points into it until the process execs or exits: kept (reachable) for the life of the process.
  static auto* const kept = new std::forward_list<env::Environment>;
  env::Environment& environment = kept->emplace_front();
  env::Edits edits;
  edits.ignore_environment = options.ignore_environment;
  edits.file = options.env0_file;
  edits.unset = absl::MakeConstSpan(options.unset);
  edits.assignments = options.operands;
  edits.trace = options.debug;
  const absl::Status built = env::BuildEnvironment(edits, &environment);  // environ is still the caller's here.
  if (!built.ok()) {
    uucore::Error(built);
    return false;
  }
  environ = environment.entries();
  return true;
}

int Run(const Options& options) {
  char** const command = FindCommand(options.operands);
  // As GNU master: QUOTING_STYLE is read (and an invalid one warned about) first, whenever -0 is not given, even when
  // a command runs; the caller's, not the printed environment's.
  const uucore::QuotingStyle style =
      options.null ? uucore::QuotingStyle::kLiteral : env::OutputQuotingStyle(getenv("QUOTING_STYLE"));
  CallerLocale locale;
  const bool changes = options.ignore_environment || !options.unset.empty() || options.env0_file != nullptr ||
                       command != options.operands;
  if (changes && !EditEnvironment(options)) return uucore::kExitCanceled;
  if (*command == nullptr) {
    locale.Take();
    if (options.chdir != nullptr) return uucore::UsageError(uucore::Format("must specify command with --chdir (-C)"));
    if (options.argv0 != nullptr) return uucore::UsageError(uucore::Format("must specify command with --argv0 (-a)"));
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
      env::PrintEntry(*entry, options.null, style);
    }
    return uucore::kExitSuccess;
  }
  if (options.null) {
    locale.Take();
    return uucore::UsageError(uucore::Format("cannot specify --null (-0) with command"));
  }
  if (options.debug) locale.Take();  // The traces below quote.
  if (!ApplySignals(options, locale)) return uucore::kExitCanceled;
  if (options.list_signals) ListSignals();
  if (options.chdir != nullptr) {
    // DIR is quoted as a file name here (GNU's shell-escape style), unlike other operands.
    if (options.debug) fprintf(stderr, "chdir:    %s\n", uucore::QuoteFileName(options.chdir).c_str());
    if (chdir(options.chdir) != 0) {
      ErrorWithErrno(locale, errno, [&options] {
        return uucore::Format("cannot change directory to %s", uucore::QuoteFileName(options.chdir));
      });
      return uucore::kExitCanceled;
    }
  }
  char* const program = command[0];
  if (options.argv0 != nullptr) {
    if (options.debug) fprintf(stderr, "argv0:     %s\n", uucore::QuoteFileName(options.argv0).c_str());
    command[0] = const_cast<char*>(options.argv0);
  }
  if (options.debug) {
    fprintf(stderr, "executing: %s\n", program);
    for (int i = 0; command[i] != nullptr; ++i)
      fprintf(stderr, "   arg[%d]= %s\n", i, uucore::Quote(command[i]).c_str());
  }
  execvp(program, command);  // Searches the PATH of the new environment, as GNU.
  const int err = errno;
  locale.Take();  // Before strerror(), which speaks the user's language too.
  const absl::Status exec = uucore::ExecError(err);
  uucore::Error(absl::StrCat(uucore::Quote(program), ": ", exec.message()));
  // A name with blanks that was not found is most likely a shebang line's options without -S.
  if (exec.code() == absl::StatusCode::kNotFound && strpbrk(program, " \t\n\v\f\r") != nullptr) {
    uucore::Error(uucore::Format("use -[v]S to pass options in shebang lines"));
  }
  // exit like sh, nohup, timeout: 127 if not found, 126 if found but not runnable.
  return uucore::ExecFailureStatus(exec);
}

}  // namespace

int EnvMain(int argc, char* argv[]) {
  absl::StatusOr<Options> options = ParseArgs(argc, argv);
  if (!options.ok()) {
    if (options.status().code() == absl::StatusCode::kInvalidArgument) return uucore::UsageError(options.status());
    uucore::Error(options.status());
    return uucore::kExitCanceled;
  }
  if (options->finished_status >= 0) return options->finished_status;
  return Run(*options);
}
