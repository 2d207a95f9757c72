#include "uucore/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <unistd.h>

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "uucore/i18n.h"
#include "uucore/signal_wait.h"

namespace uucore {
namespace {

// The one piece of process-wide state: who is speaking. Set by the dispatcher before a utility runs.
const char* program_name = "coreutils";  // argv[0] as given: the Try line and --help's usage.
absl::string_view short_name = "coreutils";  // Its last component: what diagnostics start with (GNU 9.10).
int failure_status = kExitFailure;
bool stdout_finished = false;  // Finish() closes stdout once; later calls only pass the status through.
int answered_status = kExitSuccess;  // What the last --help or --version answer returned.

// Writes the pieces as one line with a single write(2) through unbuffered stderr, so that messages from
// processes sharing a terminal or log do not interleave mid-line.
void WriteStderr(absl::string_view a, absl::string_view b = {}, absl::string_view c = {},
                 absl::string_view d = {}) {
  std::string line;
  line.reserve(a.size() + b.size() + c.size() + d.size());
  line.append(a.data(), a.size()).append(b.data(), b.size()).append(c.data(), c.size()).append(d.data(), d.size());
  fwrite(line.data(), 1, line.size(), stderr);
}

// The last component of a path ("/usr/bin/timeout" -> "timeout"); a name that ends in '/' stays whole.
absl::string_view LastComponent(absl::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == absl::string_view::npos || slash + 1 == path.size()) return path;
  return path.substr(slash + 1);
}

}  // namespace

void SetProgram(const char* name, int status) {
  program_name = name;
  short_name = LastComponent(name);
  failure_status = status;
}

const char* ProgramName() { return program_name; }
int FailureStatus() { return failure_status; }

void Error(absl::string_view message) {
  fflush(stdout);  // As GNU's error(): what was printed before the complaint comes before it.
  WriteStderr(short_name, ": ", message, "\n");
}

void Error(const absl::Status& status) { Error(status.message()); }

void Notice(absl::string_view message) {
  std::string line = absl::StrCat(short_name, ": ", message, "\n");
  for (absl::string_view rest = line; !rest.empty();) {
    const ssize_t n = write(STDERR_FILENO, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;  // Interrupted before writing anything: try again.
    if (n <= 0) return;                      // Nowhere to write it: a notice is not worth failing for.
    rest.remove_prefix(static_cast<size_t>(n));
  }
}

int GetoptLong(int argc, char* const argv[], const CommandLine& command_line) {
  opterr = 0;  // Silent first: a complaint needs the user's locale, which a good command line never loads.
  const int c = getopt_long(argc, argv, command_line.short_options, command_line.long_options, nullptr);
  if (c == -1) return c;  // The end of the options: what every run comes to, so checked first.
  if (c == cli_internal::kHelpOption || c == cli_internal::kVersionOption) {
    RestoreStartupSignalMask();
    answered_status = c == cli_internal::kHelpOption ? Help(command_line.help) : Version(command_line.utility);
    return kAnswered;
  }
  if (c != '?' && c != ':') return c;
  UseUserLocale();
  if (command_line.says_it_itself != nullptr && command_line.says_it_itself(optopt)) return '?';
  const int bad = optopt;  // The replay below sets it again, to the same option.
  // Parse again from the start with complaints on; the first error is this one, now said in the user's language.
  // Options before it are parsed twice, without effect: only their return values are dropped.
  optind = 0;
  opterr = 1;
  for (;;) {
    const int again = getopt_long(argc, argv, command_line.short_options, command_line.long_options, nullptr);
    if (again == -1 || again == '?' || again == ':') break;
  }
  optopt = bad;
  return '?';
}

int AnsweredStatus() { return answered_status; }

int UsageError(absl::string_view message) {
  if (!message.empty()) Error(message);
  WriteStderr(Format("Try '%s --help' for more information.\n", program_name));
  return failure_status;
}


int UsageError(const absl::Status& status) { return UsageError(status.message()); }

int Help(const char* text) {
  absl::string_view rest(text);
  for (size_t at; (at = rest.find("%s")) != absl::string_view::npos; rest.remove_prefix(at + 2)) {
    fwrite(rest.data(), 1, at, stdout);
    fputs(program_name, stdout);
  }
  fwrite(rest.data(), 1, rest.size(), stdout);
  return Finish(kExitSuccess);
}

int Version(const char* utility) {
  printf("%s (coreutils) %s\n"
         "Written from GNU coreutils' documented behaviour; shares no code with it.\n",
         utility, kVersion);
  return Finish(kExitSuccess);
}

int Finish(int status) {
  if (stdout_finished) return status;
  stdout_finished = true;
  // As GNU's close_stream(): an earlier stream error, or a failed close with output still pending (or for any
  // reason but EBADF, which only says stdout was closed before we started), means output was lost.
  const bool earlier_error = ferror(stdout) != 0;
  const bool pending = __fpending(stdout) != 0;
  errno = 0;
  const bool close_failed = fclose(stdout) != 0;
  const int close_errno = errno;
  if (earlier_error || (close_failed && (pending || close_errno != EBADF))) {
    if (close_failed && close_errno != 0) {
      // "write error" stays English, as GNU 9.10 prints it; the reason is the user's language.
      Error(absl::StrCat("write error: ", ErrnoText(close_errno)));
    } else {
      Error("write error");
    }
    return failure_status;
  }
  // As GNU's close_stdout(): a diagnostic that could not be written (stderr closed or full) fails the run too, with
  // nothing said, since there is nowhere to say it (`timeout -v 1 sleep 9 2>/dev/full` exits 125, not 124).
  if (ferror(stderr)) return failure_status;
  return status;
}

}  // namespace uucore
