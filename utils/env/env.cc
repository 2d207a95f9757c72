// env -- run a program in a modified environment. Follows GNU env(1) 9.1; tests/env/env_test.cc pins it.
constexpr char kHelp[] = R"(Usage: %s [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Run COMMAND in a changed environment, where each NAME has the given VALUE.
Without a COMMAND, print the environment that results instead.

An argument that a long option requires is required by its short form too.
  -i, --ignore-environment  begin with no variables at all
  -0, --null           print a NUL, not a newline, after each variable
  -u, --unset=NAME     take NAME out of the environment
  -C, --chdir=DIR      run COMMAND with DIR as its working directory
  -S, --split-string=S  split S into words (honouring quotes, escapes and
                        ${NAME}) and use them as arguments; this is how a
                        shebang line can pass more than one argument
      --block-signal[=SIG]    have SIG blocked when COMMAND starts
      --default-signal[=SIG]  reset SIG to its default action and unblock it
      --ignore-signal[=SIG]   have COMMAND ignore SIG
      --list-signal-handling  before running COMMAND, show on stderr each
                                signal that is blocked or ignored
  -v, --debug          describe each step on stderr as it is taken
      --help        show this help text, then exit
      --version     show version information, then exit

A lone '-' has the same effect as -i.

SIG is a signal's name (e.g. 'PIPE') or number (e.g. '13'), or several of
them separated by commas; when SIG is left out, every signal is affected.
)";
// Order of work, as GNU: parse (an -S string is split where it stands and parsing resumes over its words, so it
// may hold options; -v traces the split); then -i, -u (ignored after -i), NAME=VALUE; with no COMMAND print the
// environment (-C is then an error; signal options are ignored); else signal dispositions, the signal mask,
// --list-signal-handling, -C, and exec, searching PATH. -0 with a COMMAND is an error.
// Exit status: 0 after printing; 125 env itself failed (usage, -u NAME with '=', a bad -S string, a signal action
// that cannot be set for a named signal, -C DIR); 126 COMMAND found but not runnable; 127 not found; else COMMAND's.
#include "utils/env/env.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <forward_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "utils/env/split.h"
#include "uucore/cli.h"
#include "uucore/process.h"
#include "uucore/quote.h"
#include "uucore/signals.h"

extern char** environ;

namespace {

constexpr char kShortOptions[] = "+C:iS:u:v0";  // '+': stop at the first NAME=VALUE or COMMAND.
enum { kBlockSignal = 256, kDefaultSignal, kIgnoreSignal, kListSignals, kHelpOption, kVersionOption };
// In GNU's order: getopt lists an ambiguous abbreviation's candidates in table order ("--d": '--default-signal'
// '--debug'; "--i": '--ignore-environment' '--ignore-signal').
constexpr option kLongOptions[] = {
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
    {"help", no_argument, nullptr, kHelpOption},
    {"version", no_argument, nullptr, kVersionOption},
    {nullptr, 0, nullptr, 0},
};

// What to do with one signal before exec. The last option naming a signal wins, separately for its action and
// its mask bit; --default-signal both restores the default action and unblocks.
enum class Action : unsigned char { kKeep, kDefault, kIgnore };
enum class Mask : unsigned char { kKeep, kBlock, kUnblock };
struct SignalPlan {
  Action action = Action::kKeep;
  bool from_all = false;  // Set by an option without SIG: a signal that cannot be changed (KILL) is skipped.
  Mask mask = Mask::kKeep;
};

struct Options {  // Everything Run() needs; no globals.
  bool ignore_environment = false, null = false, debug = false, list_signals = false;
  const char* chdir = nullptr;
  std::vector<const char*> unset;
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

// glibc keeps signals 32 and 33 for its threads: they have no name and cannot be handled, so they are no signal
// to env (GNU rejects "32" and skips them when SIG is omitted).
bool IsUsableSignal(int sig) { return sig >= 1 && sig <= uucore::MaxSignal() && (sig < 32 || sig >= SIGRTMIN); }

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
      if (IsUsableSignal(sig)) apply(sig, true);
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
    if (!sig.ok()) return sig.status();
    if (!IsUsableSignal(*sig)) return absl::InvalidArgumentError(absl::StrCat(uucore::Quote(item), ": invalid signal"));
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

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = getopt_long(argc, argv, kShortOptions, kLongOptions, nullptr)) != -1;) {
    switch (c) {
      case 'i': options.ignore_environment = true; break;
      case '0': options.null = true; break;
      case 'v': options.debug = true; break;
      case 'u': options.unset.push_back(optarg); break;
      case 'C': options.chdir = optarg; break;
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
      case kHelpOption: options.finished_status = uucore::Help(kHelp); return options;
      case kVersionOption: options.finished_status = uucore::Version("env"); return options;
      default:
        // A shebang line passes "-i A=1" as one argument: getopt stops at the blank. Point at -S.
        if (IsSpace(optopt)) return absl::InvalidArgumentError("use -[v]S to pass options in shebang lines");
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

const char* ActionName(Action action) { return action == Action::kIgnore ? "IGNORE" : "DEFAULT"; }

// Sets dispositions, then the mask, in signal order as GNU does. Returns false after reporting a failure.
bool ApplySignals(const Options& options) {
  const int max = uucore::MaxSignal();
  for (int sig = 1; sig <= max; ++sig) {
    const SignalPlan& plan = options.signals[sig];
    if (plan.action == Action::kKeep) continue;
    struct sigaction action = {};
    action.sa_handler = plan.action == Action::kIgnore ? SIG_IGN : SIG_DFL;
    sigemptyset(&action.sa_mask);
    const bool failed = sigaction(sig, &action, nullptr) != 0;
    if (failed && !plan.from_all) {
      uucore::Error(absl::StrCat("failed to set signal action for signal ", sig, ": ", strerror(errno)));
      return false;
    }
    if (options.debug) {
      fprintf(stderr, "Reset signal %s (%d) to %s%s\n", uucore::SignalName(sig).c_str(), sig, ActionName(plan.action),
              failed ? " (failure ignored)" : "");
    }
  }
  sigset_t mask;
  sigprocmask(SIG_BLOCK, nullptr, &mask);
  bool changed = false;
  for (int sig = 1; sig <= max; ++sig) {
    const Mask bit = options.signals[sig].mask;
    if (bit == Mask::kKeep) continue;
    changed = true;
    if (bit == Mask::kBlock) {
      sigaddset(&mask, sig);  // KILL and STOP are accepted here and dropped by the kernel, as in GNU.
    } else {
      sigdelset(&mask, sig);
    }
    if (options.debug) {
      fprintf(stderr, "signal %s (%d) mask set to %s\n", uucore::SignalName(sig).c_str(), sig,
              bit == Mask::kBlock ? "BLOCK" : "UNBLOCK");
    }
  }
  if (changed && sigprocmask(SIG_SETMASK, &mask, nullptr) != 0) {
    uucore::Error(absl::StrCat("failed to set signal process mask: ", strerror(errno)));
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
    if (sigaction(sig, nullptr, &action) != 0) continue;
    const bool ignored = action.sa_handler == SIG_IGN;
    const bool blocked = sigismember(&mask, sig) == 1;
    if (!ignored && !blocked) continue;
    fprintf(stderr, "%-10s (%2d): %s%s%s\n", uucore::SignalName(sig).c_str(), sig, blocked ? "BLOCK" : "",
            blocked && ignored ? "," : "", ignored ? "IGNORE" : "");
  }
}

// -i, -u and NAME=VALUE. Returns the command (the operands after the assignments), or nullptr after reporting
// a failure.
char** EditEnvironment(const Options& options) {
  if (options.ignore_environment) {
    static char* empty_environment[] = {nullptr};
    if (options.debug) fputs("cleaning environ\n", stderr);
    environ = empty_environment;
  } else {
    for (const char* name : options.unset) {
      if (options.debug) fprintf(stderr, "unset:    %s\n", name);
      if (unsetenv(name) != 0) {  // glibc: EINVAL for "" and for a NAME containing '='.
        uucore::Error(absl::StrCat("cannot unset ", uucore::Quote(name), ": ", strerror(errno)));
        return nullptr;
      }
    }
  }
  char** operand = options.operands;
  for (; *operand != nullptr && strchr(*operand, '=') != nullptr; ++operand) {
    if (options.debug) fprintf(stderr, "setenv:   %s\n", *operand);
    if (putenv(*operand) != 0) {  // putenv, not setenv: "=x" is accepted, as in GNU.
      uucore::Error(absl::StrCat("cannot set ", uucore::Quote(*operand), ": ", strerror(errno)));
      return nullptr;
    }
  }
  return operand;
}

int PrintEnvironment(bool null) {
  const char end = null ? '\0' : '\n';
  if (environ == nullptr) return uucore::kExitSuccess;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    fputs(*entry, stdout);
    putchar(end);
  }
  return uucore::kExitSuccess;
}

int Run(const Options& options) {
  char** const command = EditEnvironment(options);
  if (command == nullptr) return uucore::kExitCanceled;
  if (*command == nullptr) {
    if (options.chdir != nullptr) return uucore::UsageError("must specify command with --chdir (-C)");
    return PrintEnvironment(options.null);
  }
  if (options.null) return uucore::UsageError("cannot specify --null (-0) with command");
  if (!ApplySignals(options)) return uucore::kExitCanceled;
  if (options.list_signals) ListSignals();
  if (options.chdir != nullptr) {
    // DIR is quoted as a file name here (GNU's shell-escape style), unlike every other operand.
    if (options.debug) fprintf(stderr, "chdir:    %s\n", uucore::QuoteFileName(options.chdir).c_str());
    if (chdir(options.chdir) != 0) {
      uucore::Error(
          absl::StrCat("cannot change directory to ", uucore::QuoteFileName(options.chdir), ": ", strerror(errno)));
      return uucore::kExitCanceled;
    }
  }
  if (options.debug) {
    fprintf(stderr, "executing: %s\n", command[0]);
    for (int i = 0; command[i] != nullptr; ++i)
      fprintf(stderr, "   arg[%d]= %s\n", i, uucore::Quote(command[i]).c_str());
  }
  const absl::Status exec = uucore::ExecReplacing(command);
  uucore::Error(absl::StrCat(uucore::Quote(command[0]), ": ", exec.message()));
  // A name with blanks that was not found is most likely a shebang line's options without -S.
  if (exec.code() == absl::StatusCode::kNotFound && strpbrk(command[0], " \t\n\v\f\r") != nullptr) {
    uucore::Error("use -[v]S to pass options in shebang lines");
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
