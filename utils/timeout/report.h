// utils/timeout/report.h -- timeout --report=FILE: one JSON object that says how the command ended and who ended it.
//
// Owns: the JSON's form and where it goes (a descriptor, a FIFO, or FILE replaced atomically). Must not touch the
// run: what goes in the Outcome is the supervisor's and the ending's to fill (ending.h).
//
// Opened before the command starts (so a FILE that cannot be written fails timeout at once, status 125), written
// once when timeout exits:
//
//   absl::StatusOr<timeout_report::ReportFile> report = timeout_report::ReportFile::Open(path);
//   if (!report.ok()) { uucore::Error(report.status()); return uucore::kExitCanceled; }
//   ... run ...
//   timeout_report::Outcome outcome; ... fill ...
//   absl::Status written = report->Write(outcome);  // "error writing 'FILE': REASON" -> status 125 too
//
// The object, on one line followed by a newline; every key is always present, in this order:
//   {"status":124,                        timeout's own exit status
//    "timed_out":true,                    the time limit ran out (or ALRM came); not -k's KILL after a signal
//                                         passed on, which GNU counts as timed out (status 137, not 124/143)
//    "signal":"TERM",                     the signal sent when the limit ran out (kill -l's name): -s's, or KILL if
//                                         a signal passed on had armed -k already; null when timed_out is false
//    "killed":false,                      the -k KILL was sent
//    "forwarded":["HUP"],                 signals timeout received and passed on, each once, first received first
//    "command":{"pid":4242,               null when the command could not run
//               "exit":null,              its exit status, null when killed by a signal or not run
//               "signal":"TERM",          the signal that killed it, or null
//               "core":false},            it dumped core
//    "elapsed_s":1.000123,                seconds from spawn (where DURATION counts from) to the command's end
//                                         (monotonic), microseconds
//    "cpu":{"user_s":0.000812,"sys_s":0.001001},   of the command and its reaped descendants
//    "max_rss_kib":1234,                  the largest of them (wait4/getrusage), or null when unknown
//    "tree":{"backend":null,              "cgroup", "proc" or "pgroup" with --tree; null without
//            "signalled":0},              processes signalled, all signals together
//    "error":null}                        why the command could not run (status 126/127), else null
// Numbers never depend on the locale (timeout may have set LC_NUMERIC for its messages). Strings are UTF-8:
// valid UTF-8 is kept as is, every other byte becomes U+FFFD (a message can quote a file name in any encoding).
#ifndef UTILS_TIMEOUT_REPORT_H_
#define UTILS_TIMEOUT_REPORT_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace timeout_report {

// What the report says; see the key list above.
struct Outcome {
  int status = 0;
  bool timed_out = false;
  std::optional<int> signal;  // the signal number the limit sent when it ran out
  bool killed = false;
  std::vector<int> forwarded;  // signal numbers
  struct Command {
    std::optional<pid_t> pid;
    std::optional<int> exit;
    std::optional<int> signal;
    bool core = false;
  } command;
  absl::Duration elapsed;
  absl::Duration cpu_user, cpu_sys;
  std::optional<int64_t> max_rss_kib;
  std::optional<std::string> backend;
  int signalled = 0;
  std::optional<std::string> error;
};

// SignalWord()
//
// How -v and the report name a signal: without "SIG" ("TERM", "RTMIN+1"), and 0 and a number without a name as
// the number ("0", "32"), as GNU 9.10's -v prints them ("sending signal 0").
std::string SignalWord(int sig);

// CommandEnded()
//
// Fills command.pid, exit, signal and core from a wait status (waitpid's), as a shell reads it.
void CommandEnded(pid_t pid, int wait_status, Outcome* outcome);

// AddLiveUsage()
//
// Adds the CPU time of `pid`, a process not yet reaped, and of its own reaped children (/proc/PID/stat's utime,
// stime, cutime, cstime) to outcome's cpu, and raises max_rss_kib to its peak (/proc/PID/status VmHWM). For the one
// case where timeout cannot reap the command before the report: its KILL to the process group kills timeout too.
// Error: uucore::ReadFile's for /proc/PID/stat ("open /proc/PID/stat: REASON", code from errno), or InvalidArgument
// if it cannot be parsed.
absl::Status AddLiveUsage(pid_t pid, Outcome* outcome);

// ToJson()
//
// The object as described above, on one line, with a trailing newline.
std::string ToJson(const Outcome& outcome);

// JsonString()
//
// `text` as a JSON string literal, quotes included: '"' and '\' escaped, control characters as \b \f \n \r \t or
// \u00XX, DEL as \u007f, U+2028 and U+2029 as \u2028 and \u2029 (so the text is also a valid JavaScript
// literal), other valid UTF-8 kept as it is, and each byte of an invalid sequence (stray continuation byte,
// truncated or overlong sequence, surrogate, above U+10FFFF) replaced by U+FFFD.
std::string JsonString(absl::string_view text);

// ReportFile
//
// Where the report goes, opened before the command runs. Move-only.
class ReportFile {
 public:
  // Open()
  //
  //   - "/dev/stdout", "/dev/stderr", "/dev/fd/N", "/proc/self/fd/N": descriptor 1, 2 or N is duplicated (close-on-
  //     exec, so the command does not inherit the copy) and written directly, at its offset, O_APPEND kept: not
  //     reopened, since reopening would truncate a file opened by `3>>log`, and N must be open for writing.
  //   - an existing file that is not a regular file (a FIFO, /dev/null, a terminal): opened for writing directly,
  //     with O_NONBLOCK, cleared once open: a FIFO must have a reader already (else ENXIO at once, where a shell's
  //     redirection would wait for one, and timeout would wait with every signal but KILL blocked).
  //   - anything else is written atomically: an unnamed file (O_TMPFILE) is created now in FILE's directory
  //     (after following symbolic links, so a link stays a link and its target is replaced, or created if the
  //     link dangles, as by `>`; a link that fs.protected_symlinks forbids to follow is refused, EACCES, as by
  //     `>`); Write() names it ".NAME.XXXXXX" and renames it over FILE at once. Readers see the old FILE or the
  //     whole report, never a part, and a KILL before Write() leaves nothing behind (one between the link and the
  //     rename, microseconds, leaves the named file). Where O_TMPFILE is refused (EOPNOTSUPP, EISDIR, EINVAL: file
  //     systems or kernels without it) the ".NAME.XXXXXX" is created by Open(), as a named temporary file, which a
  //     KILL leaves behind; so also where Write() cannot link the unnamed file (no /proc, and no
  //     CAP_DAC_READ_SEARCH for AT_EMPTY_PATH): it writes the report again to a named temporary file. FILE must be
  //     writable if it exists, as for a shell's `>`. The new file gets FILE's mode if FILE existed, else 0666 less
  //     the umask.
  //   - where no file can be made beside an existing FILE (a directory we may not write to, EACCES; a read-only
  //     file system, a full one) but FILE itself can be opened for writing, as `>` needs: FILE is opened now and
  //     Write() truncates it and writes in place: not atomically (a reader may see it empty or partly written, and
  //     a failed write leaves it so), FILE's inode, owner and mode kept.
  // Error: "failed to open 'FILE' for writing: REASON" (GNU's msgid, through uucore::Format; FILE quoted by
  // uucore::QuoteFileName, as GNU's quoteaf), code from errno: ENOENT for a missing directory, EACCES, EISDIR
  // for a directory, EBADF for a descriptor that is not open for writing, ENXIO for a FIFO without a reader.
  [[nodiscard]] static absl::StatusOr<ReportFile> Open(absl::string_view path);

  ReportFile(ReportFile&& other) noexcept;
  ReportFile& operator=(ReportFile&& other) noexcept;
  ReportFile(const ReportFile&) = delete;
  ReportFile& operator=(const ReportFile&) = delete;
  ~ReportFile();  // Without Write(): closes, and removes the temporary file.

  // Write()
  //
  // Writes ToJson(outcome) (all of it, retrying partial writes and EINTR), then closes; for a regular file, sets
  // the mode, names the unnamed file and renames it over FILE (in place: truncates FILE first). Once only: a second call is FailedPrecondition.
  // Error: "error writing 'FILE': REASON" (GNU's msgid), code from errno (EPIPE for a pipe nobody reads, with
  // SIGPIPE blocked or ignored; ENOSPC); the temporary file is removed.
  absl::Status Write(const Outcome& outcome);

  // The path as given to Open().
  const std::string& path() const { return path_; }

 private:
  enum class Kind {
    kDirect,   // written where it is: a descriptor, a FIFO, a device
    kUnnamed,  // an O_TMPFILE in FILE's directory, named and renamed over FILE by Write()
    kNamed,    // a named temporary file, renamed over FILE by Write() (where O_TMPFILE is refused)
    kInPlace,  // FILE itself, truncated and written by Write(): no file could be made beside it
  };
  ReportFile(std::string path, int fd, Kind kind, std::string final_path, mode_t mode);

  std::string path_;        // as given
  int fd_ = -1;
  Kind kind_ = Kind::kDirect;
  std::string temp_path_;   // the temporary file's name while it has one, removed by the destructor
  std::string final_path_;  // what the temporary file is renamed to
  mode_t mode_ = 0644;
};

namespace report_internal {

// For report_test only: take the fallbacks as if O_TMPFILE were refused (Open() makes a named temporary file) or
// the unnamed file could not be linked (Write() writes the report again to a named temporary file).
struct TestHooks {
  bool refuse_tmpfile = false;
  bool refuse_link = false;
};
TestHooks& Hooks();

}  // namespace report_internal
}  // namespace timeout_report

#endif  // UTILS_TIMEOUT_REPORT_H_
