// nohup -- run a command immune to hangups. Follows GNU nohup(1) 9.10; tests/nohup/nohup_test.cc pins it.
//
// Usage: nohup COMMAND [ARG]...    or: nohup --help | --version    (--help and the man page nohup(1): nohup.help)
// Only --help and --version are options ('+': the first other word is COMMAND). Before exec, as GNU 9.10:
//   stdin a terminal:  reopened write-only on /dev/null, so reads fail (EBADF) instead of stopping the job;
//   stdout a terminal: appended to ./nohup.out, else $HOME/nohup.out, created with mode 0600 whatever the umask;
//   stderr a terminal: sent where stdout now goes (to nohup.out even when stdout was closed);
//   SIGHUP ignored, which exec keeps.
// One notice on the old stderr says what was done: "ignoring input", "appending output to 'nohup.out'",
// "redirecting standard error to standard output", or "ignoring input and " one of the other two (GNU's msgids,
// translated by its catalogs; nohup.out's name and COMMAND quoted as file names, uucore::QuoteFileName).
// A notice that cannot be written (stderr closed, full, a terminal that takes nothing) stops nohup before exec
// with status 125: a user who cannot be told where the output goes gets no command run. A nohup.out already
// opened by then stays, as GNU leaves it: created empty, or an existing one unchanged.
// Exit status: 125 nohup itself failed (127 when POSIXLY_CORRECT is set); 126 COMMAND found but not runnable;
// 127 not found; otherwise COMMAND's.
#include "utils/nohup/nohup.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/quote.h"
#include "utils/nohup/nohup_help.h"

namespace {

constexpr char kShortOptions[] = "+";  // No short options; stop at COMMAND so its options pass through.
constexpr auto kLongOptions = uucore::LongOptions();
constexpr uucore::CommandLine kCommandLine = {"nohup", help::kNohup, kShortOptions, kLongOptions.data()};

struct Options {             // Everything Run() needs; no globals.
  char** command = nullptr;  // COMMAND [ARG]..., null-terminated.
  int finished_status = -1;  // >= 0: --help or --version already answered with this status.
};
absl::StatusOr<Options> ParseArgs(int argc, char* argv[]);  // Errors are usage errors.
int Run(const Options& options);

absl::StatusOr<Options> ParseArgs(int argc, char* argv[]) {
  Options options;
  for (int c; (c = uucore::GetoptLong(argc, argv, kCommandLine)) != -1;) {
    switch (c) {
      case uucore::kAnswered: options.finished_status = uucore::AnsweredStatus(); return options;
      default: return absl::InvalidArgumentError("");  // getopt has said what was wrong.
    }
  }
  if (optind == argc) return absl::InvalidArgumentError(uucore::Format("missing operand"));
  options.command = argv + optind;
  return options;
}

// GNU's error() appends strerror in the user's language; the locale is read only now that a message needs it.
std::string Reason(int err) { return absl::StrCat(": ", uucore::ErrnoText(err)); }

// Writes a notice about what nohup did. False if it could not be written: nothing before the notices writes to
// stderr, so its error flag is this notice's (and uucore::Finish() would turn it into 125 anyway).
bool Notice(const std::string& text) {
  uucore::Error(text);
  return ferror(stderr) == 0;
}

// Opens FILE for appending with mode 0600 exactly: the umask must not widen or narrow what protects the output.
// With target >= 0 the file ends up on that descriptor (as GNU's fd_reopen). Returns the descriptor, or -1 and errno.
int OpenOutput(const std::string& file, int target) {
  const mode_t old_umask = umask(~(S_IRUSR | S_IWUSR) & 0777);
  int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND, S_IRUSR | S_IWUSR);
  int saved_errno = errno;
  umask(old_umask);
  if (fd >= 0 && target >= 0 && fd != target) {
    const int moved = dup2(fd, target);
    saved_errno = errno;
    close(fd);
    fd = moved;
  }
  errno = saved_errno;
  return fd;
}

// ./nohup.out, else $HOME/nohup.out, on descriptor target if >= 0. Returns the descriptor and sets *name, or
// reports both failures and returns -1.
int OpenNohupOut(int target, std::string* name) {
  *name = "nohup.out";
  int fd = OpenOutput(*name, target);
  if (fd >= 0) return fd;
  const int cwd_errno = errno;
  const char* home = getenv("HOME");
  if (home != nullptr) {
    // As GNU's file_name_concat: an empty HOME means the current directory, and no slash is doubled.
    std::string in_home = home;
    if (!in_home.empty() && in_home.back() != '/') in_home += '/';
    in_home += "nohup.out";
    fd = OpenOutput(in_home, target);
    if (fd >= 0) {
      *name = in_home;
      return fd;
    }
    const int home_errno = errno;
    uucore::Error(uucore::Format("failed to open %s", uucore::QuoteFileName(*name)) + Reason(cwd_errno));
    uucore::Error(uucore::Format("failed to open %s", uucore::QuoteFileName(in_home)) + Reason(home_errno));
    return -1;
  }
  uucore::Error(uucore::Format("failed to open %s", uucore::QuoteFileName(*name)) + Reason(cwd_errno));
  return -1;
}

int Run(const Options& options) {
  const bool ignoring_input = isatty(STDIN_FILENO);
  const bool redirecting_stdout = isatty(STDOUT_FILENO);
  const bool stdout_is_closed = fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF;
  const bool redirecting_stderr = isatty(STDERR_FILENO);

  if (ignoring_input) {
    // Write-only, so a read fails at once instead of stopping a background job on the terminal.
    const int fd = open("/dev/null", O_WRONLY);
    if (fd < 0 || (fd != STDIN_FILENO && (dup2(fd, STDIN_FILENO) < 0 || close(fd) != 0))) {
      const int err = errno;  // Before Format(), which may read the locale.
      uucore::Error(uucore::Format("failed to render standard input unusable") + Reason(err));
      return uucore::FailureStatus();
    }
    if (!redirecting_stdout && !redirecting_stderr && !Notice(uucore::Format("ignoring input"))) {
      return uucore::FailureStatus();
    }
  }

  int out_fd = STDOUT_FILENO;  // Where stderr goes if it is a terminal.
  if (redirecting_stdout || (redirecting_stderr && stdout_is_closed)) {
    std::string name;
    out_fd = OpenNohupOut(redirecting_stdout ? STDOUT_FILENO : -1, &name);
    if (out_fd < 0) return uucore::FailureStatus();
    const std::string quoted = uucore::QuoteFileName(name);
    if (!Notice(ignoring_input ? uucore::Format("ignoring input and appending output to %s", quoted)
                               : uucore::Format("appending output to %s", quoted))) {
      return uucore::FailureStatus();  // nohup.out stays as it is (empty if just created), as GNU leaves it.
    }
  }

  int saved_stderr = -1;  // The terminal, to report a failed exec where the user sees it.
  if (redirecting_stderr) {
    if (!redirecting_stdout &&
        !Notice(uucore::Format(ignoring_input ? "ignoring input and redirecting standard error to standard output"
                                              : "redirecting standard error to standard output"))) {
      return uucore::FailureStatus();
    }
    saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    if (dup2(out_fd, STDERR_FILENO) < 0) {
      const int err = errno;  // Before Format(), which may read the locale.
      uucore::Error(uucore::Format("failed to redirect standard error") + Reason(err));
      return uucore::FailureStatus();
    }
    // A closed stdout stays closed (GNU); only stderr was sent to nohup.out.
    if (out_fd != STDOUT_FILENO || stdout_is_closed) close(out_fd);
  }

  signal(SIGHUP, SIG_IGN);  // The point of nohup: an ignored disposition survives exec.
  execvp(options.command[0], options.command);
  const int exec_errno = errno;
  // Report only where the user's original stderr is, as GNU: put the saved terminal back, and with fd 2 closed from
  // the start (dup2 of a closed descriptor fails) say nothing and keep 126/127, as GNU does; a message that cannot
  // be written to an open stderr (/dev/full) makes uucore::Finish() return 125, as GNU's close_stdout.
  const int original_stderr = saved_stderr >= 0 ? saved_stderr : STDERR_FILENO;
  if (dup2(original_stderr, STDERR_FILENO) == STDERR_FILENO) {
    uucore::Error(uucore::Format("failed to run command %s", uucore::QuoteFileName(options.command[0])) +
                  Reason(exec_errno));
  }
  // exit like sh, env, timeout: 127 if not found, 126 if found but not runnable.
  return uucore::ExecFailureStatus(exec_errno);
}

}  // namespace

int NohupMain(int argc, char* argv[]) {
  // POSIX: nohup's own failures exit 127 under POSIXLY_CORRECT (write errors and usage included).
  if (getenv("POSIXLY_CORRECT") != nullptr) uucore::SetProgram(uucore::ProgramName(), uucore::kExitEnoent);
  absl::StatusOr<Options> options = ParseArgs(argc, argv);
  if (!options.ok()) return uucore::UsageError(options.status());
  if (options->finished_status >= 0) return options->finished_status;
  return Run(*options);
}
