// utils/coreutils/dispatch.h -- from argv to a utility: the multicall binary's whole logic.
#ifndef UTILS_COREUTILS_DISPATCH_H_
#define UTILS_COREUTILS_DISPATCH_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "utils/coreutils/registry.h"

namespace coreutils {

// What `coreutils [OPTION]... [NAME [ARG]...]` asks for.
struct MulticallRequest {
  enum Action { kRun, kList, kHelp, kVersion, kInstall } action = kRun;
  const Utility* utility = nullptr;    // kRun: the utility NAME names.
  int name_index = 0;                  // kRun: NAME's index in argv; the utility gets argv + name_index.
  const char* install_dir = nullptr;   // kInstall: DIR.
  bool hardlinks = false, force = false;  // kInstall.
};

// Basename()
//
// The last component of a path, ignoring trailing slashes ("/bin/true" -> "true", "a/b/" -> "b", "/" -> "/").
absl::string_view Basename(absl::string_view path);

// ParseMulticall()
//
// Parses the multicall binary's own command line (argv[0] is "coreutils" or a path to it). Pure but for getopt's
// own complaint on stderr and its globals (it resets optind itself).
// Errors: InvalidArgument with the usage message (empty when getopt has printed it); NotFound
// "unknown program 'NAME'".
[[nodiscard]] absl::StatusOr<MulticallRequest> ParseMulticall(int argc, char* argv[]);

// Main()
//
// The whole binary: dispatch on Basename(argv[0]) or, for "coreutils", on the multicall command line. Returns the
// exit status.
int Main(int argc, char* argv[]);

}  // namespace coreutils

#endif  // UTILS_COREUTILS_DISPATCH_H_
