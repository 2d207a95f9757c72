// printenv -- print all or part of the environment. Follows GNU printenv(1) 9.10, with names and values quoted per
// QUOTING_STYLE as in GNU's development branch (issue 14); tests/printenv/printenv_test.cc pins it.
constexpr char kHelp[] = R"(Usage: %s [OPTION] [VARIABLE]...
Print the value of each VARIABLE in the environment, or, with no VARIABLE,
every NAME=VALUE of the environment, as env does.  Names and values are
quoted as QUOTING_STYLE says (see env --help; shell-escape when it is unset).

  -0, --null        print a NUL, not a newline, after each entry or value,
                    and quote nothing
      --help        show this help text, then exit
      --version     show version information, then exit

Exit status: 0 if every VARIABLE was found, 1 if one was not, 2 for a usage
or write error.
)";
// A VARIABLE matches each entry NAME=VALUE of that exact NAME, all of them in environment order when a name is
// there twice; an empty VARIABLE or one with '=' matches nothing (not found, without a message), as in GNU.
// Options stop at the first operand ('+'), so `printenv A -0` looks up "-0". GNU's getopt string also takes -i
// and -u NAME, and then only prints the Try line: so do we.
// QUOTING_STYLE: a style's name or unambiguous abbreviation; anything else is warned about and shell-escape used.
// Exit status: 0 all found (or none asked for), 1 some VARIABLE not found, 2 usage error or write error.
#include "utils/printenv/printenv.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "absl/strings/string_view.h"
#include "utils/env/print_env.h"
#include "uucore/cli.h"
#include "uucore/quote.h"

extern char** environ;

namespace {

constexpr char kShortOptions[] = "+iu:0";  // GNU's: -i and -u are accepted by getopt and then refused.
enum { kHelpOption = 256, kVersionOption };
constexpr option kLongOptions[] = {
    {"null", no_argument, nullptr, '0'},
    {"help", no_argument, nullptr, kHelpOption},
    {"version", no_argument, nullptr, kVersionOption},
    {nullptr, 0, nullptr, 0},
};

struct Options {  // Everything Run() needs; no globals.
  bool null = false;
  char** variables = nullptr;  // Null-terminated.
  int finished_status = -1;    // >= 0: --help, --version or a usage error already answered with this status.
};

Options ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = uucore::GetoptLong(argc, argv, kShortOptions, kLongOptions)) != -1;) {
    switch (c) {
      case '0': options.null = true; break;
      case kHelpOption: options.finished_status = uucore::Help(kHelp); return options;
      case kVersionOption: options.finished_status = uucore::Version("printenv"); return options;
      default:  // -i, -u NAME, or what getopt has already complained about.
        options.finished_status = uucore::UsageError("");
        return options;
    }
  }
  options.variables = argv + optind;
  return options;
}

int Run(const Options& options) {
  const uucore::QuotingStyle style =
      options.null ? uucore::QuotingStyle::kLiteral : env::OutputQuotingStyle(getenv("QUOTING_STYLE"));
  if (*options.variables == nullptr) {
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
      env::PrintEntry(*entry, options.null, style);
    }
    return uucore::kExitSuccess;
  }
  int status = uucore::kExitSuccess;
  for (char** variable = options.variables; *variable != nullptr; ++variable) {
    const absl::string_view name(*variable);
    bool found = false;
    if (!name.empty() && name.find('=') == absl::string_view::npos) {
      for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const absl::string_view e(*entry);
        if (e.size() > name.size() && e[name.size()] == '=' && e.substr(0, name.size()) == name) {
          env::PrintValue(e.substr(name.size() + 1), options.null, style);
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
