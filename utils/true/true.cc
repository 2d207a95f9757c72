// true, false -- do nothing, successfully or unsuccessfully. Follows GNU true(1)/false(1).
//
// Usage: true [ignored command line arguments]
//    or: true OPTION            (OPTION is --help or --version, and only when it is the sole argument)
// Every other argument is ignored, including unknown options and `--help` with company (`true --help x`).
// Exit status: true 0, false 1 -- also after --help/--version for false, as GNU; a failed write of the help or
// version text gives "write error" and 1 for both.
// Both live here, as in GNU, because they differ only in their status; false has no folder of its own.
// --help and the man pages: true.help, false.help. No getopt: only a lone --help or --version is an option.
#include "utils/true/true.h"

#include <string.h>

#include "uucore/cli.h"
#include "utils/true/false_help.h"
#include "utils/true/true_help.h"

namespace {

int Run(int argc, char* argv[], const char* name, const char* help, int status) {
  // Only a lone --help or --version is an option; GNU ignores everything else so scripts can pass anything.
  if (argc == 2) {
    if (strcmp(argv[1], "--help") == 0) return uucore::Help(help) == uucore::kExitSuccess ? status : uucore::kExitFailure;
    if (strcmp(argv[1], "--version") == 0) {
      return uucore::Version(name) == uucore::kExitSuccess ? status : uucore::kExitFailure;
    }
  }
  return status;
}

}  // namespace

int TrueMain(int argc, char* argv[]) { return Run(argc, argv, "true", help::kTrue, uucore::kExitSuccess); }

int FalseMain(int argc, char* argv[]) { return Run(argc, argv, "false", help::kFalse, uucore::kExitFailure); }
