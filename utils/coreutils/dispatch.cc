// coreutils -- the multicall binary: one executable, every utility.
//
// Usage: NAME [ARG]...                  through a link named NAME (busybox-style; any chain of symlinks)
//    or: coreutils NAME [ARG]...        the utility then sees argv[0] == NAME
//    or: coreutils --list | --help | --version
//    or: coreutils --install [--symlinks|--hardlinks] [--force] DIR
// Dispatch uses only the basename of argv[0], so `/bin/timeout`, `./timeout` and a link to a link all work; any
// basename that starts with "coreutils" (coreutils-amd64, coreutils.static) is the dispatcher itself.
// --install makes DIR/NAME for every utility (symbolic links by default); an existing file is reported and left
// alone unless --force, which replaces it atomically; a link that already leads to this binary is fine.
// Exit status: the utility's; 1 for an unknown NAME, a usage error, or any link --install could not make.
// --help and the man page coreutils(1): coreutils.help.
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "uucore/cli.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "utils/coreutils/coreutils_help.h"
#include "utils/coreutils/dispatch.h"
#include "utils/coreutils/registry.h"

namespace {


// --help and --version are entries of its own, not uucore::LongOptions()'s, which GetoptLong() would answer at once:
// ParseMulticall() only parses (tests/fuzz runs it on every input), and MulticallMain() answers.
enum { kList = 256, kInstall, kSymlinks, kHardlinks, kForce, kHelpOpt, kVersionOpt };
constexpr option kLongOptions[] = {
    {"list", no_argument, nullptr, kList},         {"install", no_argument, nullptr, kInstall},
    {"symlinks", no_argument, nullptr, kSymlinks}, {"hardlinks", no_argument, nullptr, kHardlinks},
    {"force", no_argument, nullptr, kForce},       {"help", no_argument, nullptr, kHelpOpt},
    {"version", no_argument, nullptr, kVersionOpt}, {nullptr, 0, nullptr, 0},
};
constexpr uucore::CommandLine kCommandLine = {"coreutils", help::kCoreutils, "+", kLongOptions};

int RunUtility(const coreutils::Utility& utility, int argc, char* argv[]) {
  // Signals that arrived since our first instruction act now, as they would have on arrival (entry.S).
  if (!utility.keeps_signals_blocked) uucore::RestoreStartupSignalMask();
  uucore::SetProgram(argv[0], utility.failure_status);
  optind = 0;  // glibc: a full getopt reset, so each Main() parses from scratch.
  // Every utility's output is checked the same way: a lost write turns into "write error" and its failure status.
  return uucore::Finish(utility.main(argc, argv));
}

// The path of this executable, for links to point at.
std::string SelfPath(const char* argv0) {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) return std::string(buf, n);
  // No /proc (a bare chroot): resolve argv[0] instead.
  if (strchr(argv0, '/') != nullptr && realpath(argv0, buf) != nullptr) return buf;
  return "";
}

bool SameFile(const char* a, const char* b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int Install(const std::string& dir, bool hard, bool force, const char* argv0) {
  const std::string self = SelfPath(argv0);
  if (self.empty()) {
    uucore::Error("cannot find this program's own path (is /proc mounted?)");
    return uucore::kExitFailure;
  }
  int status = uucore::kExitSuccess;
  for (const coreutils::Utility& u : coreutils::Utilities()) {
    const std::string link = absl::StrCat(dir, "/", u.name);
    auto make = [&](const std::string& at) {
      return hard ? ::link(self.c_str(), at.c_str()) : symlink(self.c_str(), at.c_str());
    };
    if (make(link) == 0) continue;
    int err = errno;
    if (err == EEXIST && !force) {
      if (SameFile(link.c_str(), self.c_str())) continue;  // Already ours: installing twice is not an error.
      uucore::Error(absl::StrCat(uucore::Quote(link), ": file exists; not replaced (use --force)"));
      status = uucore::kExitFailure;
      continue;
    }
    if (err == EEXIST) {
      // Replace atomically: make the new link beside the old one, then rename over it.
      const std::string tmp = absl::StrCat(dir, "/.", u.name, ".coreutils-install");
      unlink(tmp.c_str());
      if (make(tmp) == 0) {
        if (rename(tmp.c_str(), link.c_str()) == 0) continue;
        err = errno;
        unlink(tmp.c_str());
      } else {
        err = errno;
      }
    }
    uucore::Error(absl::StrCat("cannot create link ", uucore::Quote(link), ": ", strerror(err)));
    status = uucore::kExitFailure;
  }
  return status;
}

int MulticallMain(int argc, char* argv[]) {
  uucore::SetProgram(argv[0], uucore::kExitFailure);
  // --list, --install and usage errors run with the caller's mask; a utility's own run decides in RunUtility.
  absl::StatusOr<coreutils::MulticallRequest> request = coreutils::ParseMulticall(argc, argv);
  // `coreutils timeout ...` keeps every signal blocked from the first instruction until timeout waits for them (the
  // PID 1 start-up window); anything else the dispatcher answers itself runs with the caller's mask, as it came.
  if (!request.ok() || request->action != coreutils::MulticallRequest::kRun) uucore::RestoreStartupSignalMask();
  if (!request.ok()) {
    if (absl::IsNotFound(request.status())) {  // An unknown NAME is not a usage error: no Try line, as busybox.
      uucore::Error(request.status());
      return uucore::kExitFailure;
    }
    return uucore::UsageError(request.status());
  }
  switch (request->action) {
    case coreutils::MulticallRequest::kList:
      for (const coreutils::Utility& u : coreutils::Utilities()) puts(u.name);
      return uucore::Finish(uucore::kExitSuccess);
    case coreutils::MulticallRequest::kHelp: return uucore::Help(kCommandLine.help);
    case coreutils::MulticallRequest::kVersion: return uucore::Version(kCommandLine.utility);
    case coreutils::MulticallRequest::kInstall:
      return Install(request->install_dir, request->hardlinks, request->force, argv[0]);
    case coreutils::MulticallRequest::kRun: break;
  }
  return RunUtility(*request->utility, argc - request->name_index, argv + request->name_index);
}

}  // namespace

namespace coreutils {

absl::string_view Basename(absl::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  return slash == absl::string_view::npos ? path : path.substr(slash + 1);
}

absl::StatusOr<MulticallRequest> ParseMulticall(int argc, char* argv[]) {
  MulticallRequest request;
  bool install = false, link_options = false;
  optind = 0;  // glibc: a full reset, so parsing can run more than once in a process (tests, fuzzing).
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    switch (c) {
      case kList: request.action = MulticallRequest::kList; return request;
      case kHelpOpt: request.action = MulticallRequest::kHelp; return request;
      case kVersionOpt: request.action = MulticallRequest::kVersion; return request;
      case kInstall: install = true; break;
      case kSymlinks:
        request.hardlinks = false;
        link_options = true;
        break;
      case kHardlinks:
        request.hardlinks = true;
        link_options = true;
        break;
      case kForce:
        request.force = true;
        link_options = true;
        break;
      default: return absl::InvalidArgumentError("");  // getopt has said what was wrong.
    }
  }
  if (install) {
    if (optind == argc) return absl::InvalidArgumentError("--install: missing directory operand");
    if (optind + 1 != argc) {
      return absl::InvalidArgumentError(absl::StrCat("extra operand ", uucore::Quote(argv[optind + 1])));
    }
    request.action = MulticallRequest::kInstall;
    request.install_dir = argv[optind];
    return request;
  }
  if (link_options) return absl::InvalidArgumentError("--symlinks, --hardlinks and --force go with --install");
  if (optind == argc) return absl::InvalidArgumentError("missing program name");
  request.utility = FindUtility(argv[optind]);
  if (request.utility == nullptr) {
    return absl::NotFoundError(absl::StrCat("unknown program ", uucore::Quote(argv[optind])));
  }
  request.name_index = optind;
  return request;
}

int Main(int argc, char* argv[]) {
  // execve() with an empty argv is legal (Linux >= 5.18 then passes argv[0] == ""): behave as the plain
  // multicall binary would with no arguments.
  static char kSelf[] = "coreutils";
  static char* kEmptyArgv[] = {kSelf, nullptr};
  if (argc < 1 || argv[0] == nullptr || argv[0][0] == '\0') argc = 1, argv = kEmptyArgv;

  const absl::string_view name = Basename(argv[0]);
  if (const Utility* utility = FindUtility(name)) return RunUtility(*utility, argc, argv);
  // Any name that starts with "coreutils" (coreutils-amd64, coreutils.static, a release file) is the dispatcher.
  if (absl::StartsWith(name, "coreutils")) return MulticallMain(argc, argv);
  uucore::SetProgram("coreutils", uucore::kExitFailure);
  uucore::Error(absl::StrCat("unknown program ", uucore::Quote(name)));
  return uucore::kExitFailure;
}

}  // namespace coreutils
