// printenv -- print all or part of the environment. Follows GNU printenv(1) 9.10, with names and values quoted per
// QUOTING_STYLE as in GNU's development branch (issue 14); tests/printenv/printenv_test.cc pins it. A VARIABLE's
// value is quoted only on a terminal unless QUOTING_STYLE names a style (unset or invalid, as ls quotes names only
// on a terminal), so that `$(printenv VAR)` gets the value itself, as from every GNU release.
//
// Usage: printenv [-0|--null] [VARIABLE]...    (--help and the man page printenv(1): printenv.help)
// A VARIABLE matches each entry NAME=VALUE of that exact NAME, all of them in environment order when a name is
// there twice; an empty VARIABLE or one with '=' matches nothing (not found, without a message), as in GNU.
// Options stop at the first operand ('+'), so `printenv A -0` looks up "-0". -i and -u are invalid options like
// any other ("invalid option -- 'i'", then the Try line), as in GNU master since 255febf98 (9.10 took them, and
// then printed only the Try line).
// QUOTING_STYLE: a style's name or unambiguous abbreviation; anything else is warned about and shell-escape used.
// Exit status: 0 all found (or none asked for), 1 some VARIABLE not found, 2 usage error or write error.
#include "utils/printenv/printenv.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "absl/strings/string_view.h"
#include "utils/env/print_env.h"
#include "uucore/cli.h"
#include "uucore/quote.h"
#include "utils/printenv/printenv_help.h"

extern char** environ;

namespace {

constexpr char kShortOptions[] = "+0";
constexpr auto kLongOptions = uucore::LongOptions({{"null", no_argument, nullptr, '0'}});
constexpr uucore::CommandLine kCommandLine = {"printenv", help::kPrintenv, kShortOptions, kLongOptions.data()};

struct Options {  // Everything Run() needs; no globals.
  bool null = false;
  char** variables = nullptr;  // Null-terminated.
  int finished_status = -1;    // >= 0: --help, --version or a usage error already answered with this status.
};

Options ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    switch (c) {
      case '0': options.null = true; break;
      case uucore::kAnswered: options.finished_status = uucore::AnsweredStatus(); return options;
      default:  // getopt has said what was wrong.
        options.finished_status = uucore::UsageError("");
        return options;
    }
  }
  options.variables = argv + optind;
  return options;
}

int Run(const Options& options) {
  bool asked = false;  // QUOTING_STYLE names a style; an invalid one counts as unset (warned about), as ls takes it.
  const uucore::QuotingStyle style =
      options.null ? uucore::QuotingStyle::kLiteral : env::OutputQuotingStyle(getenv("QUOTING_STYLE"), &asked);
  if (*options.variables == nullptr) {
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
      env::PrintEntry(*entry, options.null, style);
    }
    return uucore::kExitSuccess;
  }
  // A value alone, unasked, is quoted for a reader at a terminal only: a script's $(printenv VAR) takes it as it is.
  // (-0 prints values as they are.)
  const uucore::QuotingStyle value_style =
      options.null || (!asked && !isatty(STDOUT_FILENO)) ? uucore::QuotingStyle::kLiteral : style;
  int status = uucore::kExitSuccess;
  for (char** variable = options.variables; *variable != nullptr; ++variable) {
    const absl::string_view name(*variable);
    bool found = false;
    if (!name.empty() && name.find('=') == absl::string_view::npos) {
      for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const absl::string_view e(*entry);
        if (e.size() > name.size() && e[name.size()] == '=' && e.substr(0, name.size()) == name) {
          env::PrintValue(e.substr(name.size() + 1), options.null, value_style);
          found = true;
        }
      }
    }
    if (!found) status = uucore::kExitFailure;
  }
  return status;
}

}  // namespace

int PrintenvMain(int argc, char* argv[]) {
  const Options options = ParseArgs(argc, argv);
  if (options.finished_status >= 0) return options.finished_status;
  return Run(options);
}
