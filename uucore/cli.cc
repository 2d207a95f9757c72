#include "uucore/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace uucore {
namespace {

// The one piece of process-wide state: who is speaking. Set by the dispatcher before a utility runs.
const char* program_name = "coreutils";
int failure_status = kExitFailure;
bool stdout_finished = false;  // Finish() closes stdout once; later calls only pass the status through.

// Writes the pieces as one line with a single write(2) through unbuffered stderr, so that messages from
// processes sharing a terminal or log do not interleave mid-line.
void WriteStderr(absl::string_view a, absl::string_view b = {}, absl::string_view c = {},
                 absl::string_view d = {}) {
  std::string line;
  line.reserve(a.size() + b.size() + c.size() + d.size());
  line.append(a.data(), a.size()).append(b.data(), b.size()).append(c.data(), c.size()).append(d.data(), d.size());
  fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace

void SetProgram(const char* name, int status) {
  program_name = name;
  failure_status = status;
}

const char* ProgramName() { return program_name; }
int FailureStatus() { return failure_status; }

void Error(absl::string_view message) { WriteStderr(program_name, ": ", message, "\n"); }

void Error(const absl::Status& status) { Error(status.message()); }

int UsageError(absl::string_view message) {
  if (!message.empty()) Error(message);
  WriteStderr("Try '", program_name, " --help' for more information.\n");
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
      WriteStderr(program_name, ": write error: ", strerror(close_errno), "\n");
    } else {
      WriteStderr(program_name, ": write error\n");
    }
    return failure_status;
  }
  // As GNU's close_stdout(): a diagnostic that could not be written (stderr closed or full) fails the run too, with
  // nothing said, since there is nowhere to say it (`timeout -v 1 sleep 9 2>/dev/full` exits 125, not 124).
  if (ferror(stderr)) return failure_status;
  return status;
}

}  // namespace uucore
