#include "utils/timeout/report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "uucore/file.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"
#include "uucore/signals.h"

namespace timeout_report {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at the start of `s`, or 0 if it is not one (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF).
size_t Utf8Length(absl::string_view s) {
  const auto byte = [&s](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(0);
  size_t n;
  unsigned char lo = 0x80, hi = 0xBF;  // The range of the second byte.
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // No overlong.
    if (b0 == 0xED) hi = 0x9F;  // No surrogate.
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // No overlong.
    if (b0 == 0xF4) hi = 0x8F;  // Nothing above U+10FFFF.
  } else {
    return 0;
  }
  if (s.size() < n || byte(1) < lo || byte(1) > hi) return 0;
  for (size_t i = 2; i < n; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return n;
}

// Seconds with six decimals, from integers: printf's %f would follow LC_NUMERIC ("1,5" in de_DE).
std::string Seconds(absl::Duration d) {
  int64_t us = absl::ToInt64Microseconds(d);
  if (us < 0) us = 0;
  std::string frac = absl::StrCat(us % 1000000);
  return absl::StrCat(us / 1000000, ".", std::string(6 - frac.size(), '0'), frac);
}

std::string SignalOrNull(const std::optional<int>& sig) {
  return sig.has_value() ? JsonString(uucore::SignalName(*sig)) : "null";
}

template <typename T>
std::string NumberOrNull(const std::optional<T>& n) {
  return n.has_value() ? absl::StrCat(*n) : "null";
}

const char* Bool(bool b) { return b ? "true" : "false"; }

absl::Status OpenError(absl::string_view path, int err) {
  return absl::Status(absl::ErrnoToStatusCode(err),
                      absl::StrCat(uucore::Format("failed to open %s for writing", uucore::QuoteFileName(path)), ": ",
                                   uucore::ErrnoText(err)));
}

absl::Status WriteError(absl::string_view path, int err) {
  return absl::Status(absl::ErrnoToStatusCode(err),
                      absl::StrCat(uucore::Format("error writing %s", uucore::QuoteFileName(path)), ": ",
                                   uucore::ErrnoText(err)));
}

// The descriptor a /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N path names, or -1.
int NamedDescriptor(absl::string_view path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  if (!absl::ConsumePrefix(&path, "/dev/fd/") && !absl::ConsumePrefix(&path, "/proc/self/fd/")) return -1;
  int fd;
  if (path.empty() || !std::all_of(path.begin(), path.end(), absl::ascii_isdigit) || !absl::SimpleAtoi(path, &fd))
    return -1;
  return fd;
}

mode_t CurrentUmask() {
  const mode_t mask = umask(022);
  umask(mask);
  return mask;
}

}  // namespace

void CommandEnded(pid_t pid, int wait_status, Outcome* outcome) {
  outcome->command.pid = pid;
  outcome->command.exit.reset();
  outcome->command.signal.reset();
  outcome->command.core = false;
  if (WIFEXITED(wait_status)) outcome->command.exit = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) {
    outcome->command.signal = WTERMSIG(wait_status);
    outcome->command.core = WCOREDUMP(wait_status);
  }
}

absl::Status AddLiveUsage(pid_t pid, Outcome* outcome) {
  absl::StatusOr<std::string> stat = uucore::ReadFile(absl::StrCat("/proc/", pid, "/stat"));
  if (!stat.ok()) return stat.status();
  // "PID (COMM) S ..." : COMM may hold spaces and parentheses, so the fields start after the last ')'.
  const size_t paren = stat->rfind(')');
  if (paren == std::string::npos) return absl::InvalidArgumentError("unreadable /proc stat");
  std::vector<absl::string_view> fields = absl::StrSplit(absl::string_view(*stat).substr(paren + 2), ' ');
  // fields[0] is field 3 (state); utime..cstime are fields 14..17.
  if (fields.size() < 15) return absl::InvalidArgumentError("short /proc stat");
  int64_t ticks[4];
  for (int i = 0; i < 4; ++i) {
    if (!absl::SimpleAtoi(fields[11 + i], &ticks[i])) return absl::InvalidArgumentError("bad /proc stat");
  }
  const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
  outcome->cpu_user += absl::Seconds(static_cast<double>(ticks[0] + ticks[2]) / hz);
  outcome->cpu_sys += absl::Seconds(static_cast<double>(ticks[1] + ticks[3]) / hz);
  absl::StatusOr<std::string> status = uucore::ReadFile(absl::StrCat("/proc/", pid, "/status"));
  if (status.ok()) {
    for (absl::string_view line : absl::StrSplit(*status, '\n')) {
      int64_t kib;
      if (absl::ConsumePrefix(&line, "VmHWM:") && absl::ConsumeSuffix(&line, " kB") &&
          absl::SimpleAtoi(absl::StripAsciiWhitespace(line), &kib)) {
        outcome->max_rss_kib = std::max(outcome->max_rss_kib.value_or(0), kib);
      }
    }
  }
  return absl::OkStatus();
}

std::string JsonString(absl::string_view text) {
  std::string out = "\"";
  while (!text.empty()) {
    const unsigned char c = static_cast<unsigned char>(text[0]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          static constexpr char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
          break;
        }
        const size_t n = Utf8Length(text);
        if (n == 0) {
          out += kReplacement;  // One per byte of the invalid sequence.
          break;
        }
        if (n == 3 && c == 0xE2 && text[1] == '\x80' && (text[2] == '\xA8' || text[2] == '\xA9')) {
          out += text[2] == '\xA8' ? "\\u2028" : "\\u2029";
        } else {
          out.append(text.data(), n);
        }
        text.remove_prefix(n);
        continue;
    }
    text.remove_prefix(1);
  }
  out += '"';
  return out;
}

std::string ToJson(const Outcome& o) {
  return absl::StrCat(
      "{\"status\":", o.status, ",\"timed_out\":", Bool(o.timed_out), ",\"signal\":", SignalOrNull(o.signal),
      ",\"killed\":", Bool(o.killed),                                                                       //
      ",\"command\":{\"pid\":", NumberOrNull(o.command.pid), ",\"exit\":", NumberOrNull(o.command.exit),  //
      ",\"signal\":", SignalOrNull(o.command.signal), ",\"core\":", Bool(o.command.core), "}",             //
      ",\"elapsed_s\":", Seconds(o.elapsed),                                                                //
      ",\"cpu\":{\"user_s\":", Seconds(o.cpu_user), ",\"sys_s\":", Seconds(o.cpu_sys), "}",                 //
      ",\"max_rss_kib\":", NumberOrNull(o.max_rss_kib),                                                     //
      ",\"tree\":{\"backend\":", o.backend.has_value() ? JsonString(*o.backend) : "null",                   //
      ",\"signalled\":", o.signalled, "}",                                                                  //
      ",\"error\":", o.error.has_value() ? JsonString(*o.error) : "null", "}\n");
}

ReportFile::ReportFile(std::string path, int fd, std::string temp_path, std::string final_path, mode_t mode)
    : path_(std::move(path)), fd_(fd), temp_path_(std::move(temp_path)), final_path_(std::move(final_path)),
      mode_(mode) {}

ReportFile::ReportFile(ReportFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), temp_path_(std::move(other.temp_path_)),
      final_path_(std::move(other.final_path_)), mode_(other.mode_) {
  other.fd_ = -1;
  other.temp_path_.clear();
}

ReportFile& ReportFile::operator=(ReportFile&& other) noexcept {
  if (this == &other) return *this;
  this->~ReportFile();
  path_ = std::move(other.path_);
  fd_ = other.fd_;
  temp_path_ = std::move(other.temp_path_);
  final_path_ = std::move(other.final_path_);
  mode_ = other.mode_;
  other.fd_ = -1;
  other.temp_path_.clear();
  return *this;
}

ReportFile::~ReportFile() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (!temp_path_.empty()) unlink(temp_path_.c_str());
  temp_path_.clear();
}

absl::StatusOr<ReportFile> ReportFile::Open(absl::string_view path_view) {
  const std::string path(path_view);
  // A descriptor named by path: duplicated, not reopened (reopening /dev/fd/N truncates and resets the offset).
  const int named = NamedDescriptor(path);
  if (named >= 0) {
    const int flags = fcntl(named, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) return OpenError(path, EBADF);
    const int fd = fcntl(named, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) return OpenError(path, errno);
    return ReportFile(path, fd, "", "", 0);
  }
  if (path.empty()) return OpenError(path, ENOENT);  // As open(2) refuses it.
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return OpenError(path, EISDIR);
  if (path.back() == '/') {
    // A directory to be, never a file: open(2) with O_CREAT refuses it without creating anything, and says why
    // (EISDIR, or ENOENT, EACCES, ENOTDIR on the way).
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
    const int err = fd < 0 ? errno : EISDIR;
    if (fd >= 0) close(fd);
    return OpenError(path, err);
  }
  if (exists && !S_ISREG(st.st_mode)) {  // A FIFO, a device: written where it is.
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return OpenError(path, errno);
    return ReportFile(path, fd, "", "", 0);
  }
  if (exists && access(path.c_str(), W_OK) != 0) return OpenError(path, errno);  // As `>` would refuse it.
  // Atomically: a temporary file beside the real one (through a symbolic link: beside its target).
  std::string final_path = path;
  struct stat lst;
  if (exists && lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    char resolved[PATH_MAX];
    if (realpath(path.c_str(), resolved) != nullptr) final_path = resolved;
  }
  const size_t slash = final_path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : final_path.substr(0, slash == 0 ? 1 : slash);
  const std::string name = slash == std::string::npos ? final_path : final_path.substr(slash + 1);
  std::string temp = absl::StrCat(dir == "/" ? "" : dir, "/.", name, ".XXXXXX");
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return OpenError(path, errno);
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~CurrentUmask());
  return ReportFile(path, fd, temp, final_path, mode);
}

absl::Status ReportFile::Write(const Outcome& outcome) {
  if (fd_ < 0) return absl::FailedPreconditionError(absl::StrCat("report ", path_, " already written"));
  const std::string text = ToJson(outcome);
  int err = 0;
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd_, text.data() + done, text.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;  // Interrupted before writing anything; write again.
    } else {
      err = n < 0 ? errno : EIO;
      break;
    }
  }
  if (err == 0 && !temp_path_.empty() && fchmod(fd_, mode_) != 0) err = errno;
  if (close(fd_) != 0 && err == 0 && errno != EINTR) err = errno;
  fd_ = -1;
  if (err == 0 && !temp_path_.empty() && rename(temp_path_.c_str(), final_path_.c_str()) != 0) err = errno;
  if (err != 0) {
    if (!temp_path_.empty()) unlink(temp_path_.c_str());
    temp_path_.clear();
    return WriteError(path_, err);
  }
  temp_path_.clear();
  return absl::OkStatus();
}

}  // namespace timeout_report
