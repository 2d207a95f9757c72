// kill -- send a signal to processes, or list signals. Follows GNU kill(1) 9.11, as GNU 9.10's kill behaves;
// tests/kill/kill_test.cc pins every behaviour. GNU's kill is not installed here (/usr/bin/kill is procps's), so the
// tests state GNU's output themselves.
//
// Usage: kill [-s SIGNAL | -SIGNAL] PID...  or: kill -l|-t [SIGNAL]...    (--help and kill(1): kill.help)
// Sending: SIGNAL defaults to TERM; 0 only checks that each PID could be signalled; a number without a name (32, 33
// under glibc) is sent as it is. PID 0 is our process group, -1 every process we may signal, -N process group N.
// Options and PIDs may come in any order (GNU's getopt permutes); `--` ends the options. -SIGNAL must be a whole
// argument ("-lKILL": "invalid option -- K"). -N with a digit is a signal only as the first argument: anywhere else
// it is a PID (`kill -s TERM -1`, `kill -9 -1` need no `--`) and options end there, as in GNU, which then ignores
// the PIDs before it (`kill 5 -9` signals only process group 9, with TERM). -KILL, -RTMIN+1 work anywhere.
// -n SIGNAL (bash) and -L (= -t) are accepted silently, as GNU does.
// Every PID is tried; a bad one is reported ("kill: 'x': invalid process id", "kill: '99999': No such process").
// Listing: -l with no SIGNAL prints EXIT (0) and every named signal, one per line; -l SIGNAL prints the number for
// a name and the name for a number, any number up to SIGRTMAX ("32" for 32, which has no name), or a shell exit
// status (143: TERM; 160: 32). -t prints "NUM NAME DESCRIPTION" rows (SIG32 for 32; descriptions as glibc's
// strsignal gives them, in the user's language). A bad SIGNAL operand is reported ("kill: 'FOO': invalid signal")
// and the others are still listed.
// Messages are GNU's msgids through uucore::Format, so GNU's catalogs translate them; getopt's are glibc's own.
// Exit status: 0 if every PID was signalled / every SIGNAL listed; 1 otherwise, on a usage error (bad -s SIGNAL,
// no PID, -l with -s, two -l/-t, two signals: message and Try line) and on a write error.
#include "utils/kill/kill.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"
#include "uucore/signals.h"
#include "utils/kill/kill_help.h"

namespace {

// No '+': options may follow PIDs. Digits and upper-case letters take an optional attached argument so that -9,
// -15, -KILL and -RTMIN+1 reach us whole as -SIGNAL; L is the table option, not a signal's first letter.
constexpr char kShortOptions[] =
    "0::1::2::3::4::5::6::7::8::9::A::B::C::D::E::F::G::H::I::J::K::M::N::O::P::Q::R::S::T::U::V::W::X::Y::Z::"
    "Lln:s:t";
constexpr auto kLongOptions = uucore::LongOptions({
    {"list", no_argument, nullptr, 'l'},
    {"signal", required_argument, nullptr, 's'},
    {"table", no_argument, nullptr, 't'},
});
constexpr uucore::CommandLine kCommandLine = {"kill", help::kKill, kShortOptions, kLongOptions.data()};

struct Options {  // Everything Run() needs; no globals.
  int signal = SIGTERM;
  bool signal_given = false, list = false, table = false;
  char** operands = nullptr;  // PIDs, or SIGNALs to list; null-terminated.
  int finished_status = -1;   // >= 0: --help or --version already answered with this status.
};

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]);  // No side effects beyond --help/--version.
int Run(const Options& options);                             // Returns the exit status.

bool IsDigit(int c) { return c >= '0' && c <= '9'; }
bool IsSignalOption(int c) { return IsDigit(c) || (c >= 'A' && c <= 'Z' && c != 'L'); }

absl::Status Usage(const std::string& message) { return absl::InvalidArgumentError(message); }

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  optind = 0;  // glibc: a full reset, as Main may run twice in one process.
  // getopt's complaints come in the user's language (uucore::GetoptLong loads it only for a complaint).
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    const char* signal_arg = optarg;
    if (IsSignalOption(c)) {
      // -N after the first argument is a PID, a process group: the options end there, as in GNU. The PIDs that
      // getopt skipped before it have not been moved yet, so they are left out, as GNU leaves them out.
      if (IsDigit(c) && optind != 2) {
        --optind;
        break;
      }
      const char* element = argv[optind - 1];  // Digits and letters after the option char are its argument.
      const char* rest = optarg != nullptr ? optarg : element + strlen(element);
      if (rest != element + 2) return Usage(uucore::Format("invalid option -- %c", std::string(1, c)));
      signal_arg = rest - 1;  // The whole argument but its '-'.
    }
    switch (c) {
      case 'l':
      case 't':
      case 'L':
        if (options.list) return Usage(uucore::Format("multiple -l or -t options specified"));
        options.list = true;
        options.table = c != 'l';
        break;
      case '?':
        return Usage("");  // Only the Try line: getopt has said what was wrong.
      case uucore::kAnswered:
        options.finished_status = uucore::AnsweredStatus();
        return options;
      default: {  // -s, -n, --signal, -SIGNAL.
        if (options.signal_given) {
          return Usage(uucore::Format("%s: multiple signals specified", uucore::Quote(signal_arg)));
        }
        absl::StatusOr<int> signal = uucore::ParseSignal(signal_arg, /*allow_zero=*/true, /*allow_unnamed=*/true);
        if (!signal.ok()) return signal.status();
        options.signal = *signal;
        options.signal_given = true;
        break;
      }
    }
  }
  if (options.list && options.signal_given) return Usage(uucore::Format("cannot combine signal with -l or -t"));
  if (!options.list && optind >= argc) return Usage(uucore::Format("no process ID specified"));
  options.operands = argv + optind;
  return options;
}

// A PID as GNU reads it (strtoimax, base 10): optional leading whitespace and sign, digits, nothing after, and
// within pid_t.
bool ParsePid(absl::string_view arg, pid_t* pid) {
  while (!arg.empty() && strchr(" \t\n\v\f\r", arg.front()) != nullptr) arg.remove_prefix(1);
  if (arg.empty() || arg.find_first_not_of("+-0123456789") != absl::string_view::npos) return false;
  int32_t value = 0;  // pid_t is int32_t on Linux; SimpleAtoi takes one sign and rejects overflow.
  if (!absl::SimpleAtoi(arg, &value)) return false;
  *pid = value;
  return true;
}

int SendSignals(int signal, char* const* pids) {
  int status = uucore::kExitSuccess;
  for (; *pids != nullptr; ++pids) {
    pid_t pid = 0;
    if (!ParsePid(*pids, &pid)) {
      uucore::Error(uucore::Format("%s: invalid process id", uucore::Quote(*pids)));
      status = uucore::kExitFailure;
    } else if (kill(pid, signal) != 0) {
      uucore::Error(absl::StrCat(uucore::Quote(*pids), ": ", uucore::ErrnoText(errno)));
      status = uucore::kExitFailure;
    }
  }
  return status;
}

struct TableWidths {
  int number = 1, name = 0;
};

// The widest number and name over every signal, so that a row for one SIGNAL lines up with the whole table.
TableWidths ComputeWidths() {
  TableWidths widths;
  widths.number = static_cast<int>(absl::StrCat(uucore::MaxSignal()).size());
  for (int signal = 1; signal <= uucore::MaxSignal(); ++signal) {
    if (!uucore::IsKnownSignal(signal)) continue;
    const int length = static_cast<int>(uucore::SignalName(signal).size());
    if (length > widths.name) widths.name = length;
  }
  return widths;
}

void PrintRow(const TableWidths& widths, int signal) {
  // A number without a name has the row "32 SIG32    Unknown signal 32", as in GNU.
  const std::string name = uucore::IsKnownSignal(signal) ? uucore::SignalName(signal) : absl::StrCat("SIG", signal);
  printf("%*d %-*s %s\n", widths.number, signal, widths.name, name.c_str(),
         uucore::SignalDescription(signal).c_str());
}

int ListSignals(const Options& options) {
  const TableWidths widths = options.table ? ComputeWidths() : TableWidths();
  if (*options.operands == nullptr) {  // EXIT (0), then every named signal; 32 and 33 only when asked for.
    for (int signal = 0; signal <= uucore::MaxSignal(); ++signal) {
      if (!uucore::IsKnownSignal(signal)) continue;
      if (options.table) {
        PrintRow(widths, signal);
      } else {
        puts(uucore::SignalName(signal).c_str());
      }
    }
    return uucore::kExitSuccess;
  }
  int status = uucore::kExitSuccess;
  for (char* const* arg = options.operands; *arg != nullptr; ++arg) {
    absl::StatusOr<int> signal = uucore::ParseSignal(*arg, /*allow_zero=*/true, /*allow_unnamed=*/true);
    if (!signal.ok()) {
      uucore::Error(signal.status().message());
      status = uucore::kExitFailure;
    } else if (options.table) {
      PrintRow(widths, *signal);
    } else if (IsDigit(**arg)) {  // A number (or exit status) converts to a name ...
      puts(uucore::SignalName(*signal).c_str());
    } else {  // ... and a name to a number.
      printf("%d\n", *signal);
    }
  }
  return status;
}

int Run(const Options& options) {
  if (options.list) return uucore::Finish(ListSignals(options));
  return SendSignals(options.signal, options.operands);
}

}  // namespace

int KillMain(int argc, char* argv[]) {
  absl::StatusOr<Options> options = ParseArgs(argc, argv);
  if (!options.ok()) return uucore::UsageError(options.status());
  if (options->finished_status >= 0) return options->finished_status;
  return Run(*options);
}
