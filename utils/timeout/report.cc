#include "utils/timeout/report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
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
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "uucore/file.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "uucore/signals.h"

namespace timeout_report {

namespace report_internal {
TestHooks& Hooks() {
  static TestHooks hooks;
  return hooks;
}
}  // namespace report_internal

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
  return sig.has_value() ? JsonString(SignalWord(*sig)) : "null";
}

std::string SignalList(const std::vector<int>& sigs) {
  return absl::StrCat("[", absl::StrJoin(sigs, ",", [](std::string* out, int sig) {
    out->append(JsonString(SignalWord(sig)));
  }), "]");
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

// The whole of `text` to `fd`, partial writes and EINTR retried: 0, or the errno (EIO for a write of nothing).
int WriteAll(int fd, absl::string_view text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n > 0) {
      done += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;  // Interrupted before writing anything; write again.
    } else {
      return n < 0 ? errno : EIO;
    }
  }
  return 0;
}

// Six characters for a temporary name, as mkstemp's XXXXXX (getrandom; the clock and pid where it has nothing).
std::string RandomSuffix() {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  uint64_t bits = 0;
  if (getrandom(&bits, sizeof bits, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bits)) {
    const int64_t now_ns = absl::ToInt64Nanoseconds(uucore::MonotonicNow());
    bits = (static_cast<uint64_t>(now_ns) << 20) ^ static_cast<uint64_t>(now_ns >> 30) ^
           (static_cast<uint64_t>(getpid()) << 40);
  }
  std::string suffix;
  for (int i = 0; i < 6; ++i, bits /= 62) suffix += kChars[bits % 62];
  return suffix;
}

// Gives the unnamed file `fd` (O_TMPFILE) a fresh name, PREFIX and six characters: through /proc/self/fd/N, which
// needs no privilege, else AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH. 0 and the name in *linked, or the errno.
int LinkUnnamed(int fd, const std::string& prefix, std::string* linked) {
  char proc_path[32];
  snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
  if (report_internal::Hooks().refuse_link) return EPERM;
  int err = EEXIST;
  for (int attempt = 0; attempt < 100 && err == EEXIST; ++attempt) {
    *linked = prefix + RandomSuffix();
    err = 0;
    if (linkat(AT_FDCWD, proc_path, AT_FDCWD, linked->c_str(), AT_SYMLINK_FOLLOW) == 0) break;
    err = errno;
    if (err == EEXIST) continue;
    if (linkat(fd, "", AT_FDCWD, linked->c_str(), AT_EMPTY_PATH) == 0) {
      err = 0;
      break;
    }
    if (errno == EEXIST) err = EEXIST;
  }
  if (err != 0) linked->clear();
  return err;
}

// The directory PATH's last component is in: "." for a bare name, "/" for one right under the root.
std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
}

// Whether open(2) would follow the link LINK (lstat: st): not, under fs.protected_symlinks, when it lies in a sticky
// world-writable directory (/tmp) and neither we nor the directory's owner own it. We rename over its target
// ourselves, so the kernel does not check this for us.
bool MayFollow(const std::string& link, const struct stat& st) {
  if (st.st_uid == geteuid()) return true;
  const std::string dir = DirectoryOf(link);
  struct stat dst;
  if (stat(dir.c_str(), &dst) != 0 || (dst.st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH) ||
      dst.st_uid == st.st_uid) {
    return true;
  }
  absl::StatusOr<std::string> setting = uucore::ReadFile("/proc/sys/fs/protected_symlinks");
  return !setting.ok() || absl::StripAsciiWhitespace(*setting) == "0";
}

// PATH with its symbolic links followed, as open(2) follows them, to the name that is or will be the regular file:
// an existing file's, or the one a dangling link names (which `>` would create through the link). 0, or the errno.
int FollowLinks(const std::string& path, std::string* final_path) {
  std::string current = path;
  for (int links = 0; links <= 40; ++links) {  // Linux's limit on the links one lookup follows.
    struct stat st;
    const bool found = lstat(current.c_str(), &st) == 0;
    if (!found && errno != ENOENT) return errno;  // ENOTDIR, EACCES on the way.
    if (!found || !S_ISLNK(st.st_mode)) {  // The file, or a free name (or a missing directory: ENOENT later).
      if (current.back() == '/') return EISDIR;  // A link to "DIR/" that does not exist: a directory to be.
      *final_path = std::move(current);
      return 0;
    }
    if (!MayFollow(current, st)) return EACCES;
    char target[PATH_MAX];
    const ssize_t n = readlink(current.c_str(), target, sizeof target);
    if (n < 0) return errno;
    if (n == 0) return ENOENT;
    if (static_cast<size_t>(n) == sizeof target) return ENAMETOOLONG;
    // A relative target is relative to the link's directory.
    const size_t slash = current.rfind('/');
    current = target[0] == '/' || slash == std::string::npos
                  ? std::string(target, static_cast<size_t>(n))
                  : absl::StrCat(absl::string_view(current).substr(0, slash + 1), absl::string_view(target, n));
  }
  return ELOOP;
}

// ".NAME." in FINAL's directory: the start of a temporary name beside FINAL.
std::string TempPrefix(absl::string_view final_path) {
  const size_t slash = final_path.rfind('/');
  if (slash == absl::string_view::npos) return absl::StrCat(".", final_path, ".");
  return absl::StrCat(final_path.substr(0, slash + 1), ".", final_path.substr(slash + 1), ".");
}

// A named temporary file PREFIX + XXXXXX (mkostemp), for where O_TMPFILE is refused: its descriptor and *path, or
// -1 and errno set.
int NamedTemporary(const std::string& prefix, std::string* path) {
  std::string temp = prefix + "XXXXXX";
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd >= 0) *path = std::move(temp);
  return fd;
}

}  // namespace

std::string SignalWord(int sig) { return sig == 0 ? "0" : uucore::SignalName(sig); }

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
      ",\"killed\":", Bool(o.killed), ",\"forwarded\":", SignalList(o.forwarded),                             //
      ",\"command\":{\"pid\":", NumberOrNull(o.command.pid), ",\"exit\":", NumberOrNull(o.command.exit),  //
      ",\"signal\":", SignalOrNull(o.command.signal), ",\"core\":", Bool(o.command.core), "}",             //
      ",\"elapsed_s\":", Seconds(o.elapsed),                                                                //
      ",\"cpu\":{\"user_s\":", Seconds(o.cpu_user), ",\"sys_s\":", Seconds(o.cpu_sys), "}",                 //
      ",\"max_rss_kib\":", NumberOrNull(o.max_rss_kib),                                                     //
      ",\"tree\":{\"backend\":", o.backend.has_value() ? JsonString(*o.backend) : "null",                   //
      ",\"signalled\":", o.signalled, "}",                                                                  //
      ",\"error\":", o.error.has_value() ? JsonString(*o.error) : "null", "}\n");
}

ReportFile::ReportFile(std::string path, int fd, Kind kind, std::string final_path, mode_t mode)
    : path_(std::move(path)), fd_(fd), kind_(kind), final_path_(std::move(final_path)), mode_(mode) {}

ReportFile::ReportFile(ReportFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), kind_(other.kind_), temp_path_(std::move(other.temp_path_)),
      final_path_(std::move(other.final_path_)), mode_(other.mode_) {
  other.fd_ = -1;
  other.temp_path_.clear();
}

ReportFile& ReportFile::operator=(ReportFile&& other) noexcept {
  if (this == &other) return *this;
  this->~ReportFile();
  path_ = std::move(other.path_);
  fd_ = other.fd_;
  kind_ = other.kind_;
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
    return ReportFile(path, fd, Kind::kDirect, "", 0);
  }
  if (path.empty()) return OpenError(path, ENOENT);  // As open(2) refuses it.
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  const int stat_errno = exists ? 0 : errno;
  if (exists && S_ISDIR(st.st_mode)) return OpenError(path, EISDIR);
  if (path.back() == '/') {
    // A directory to be, never a file: open(2) with O_CREAT refuses it without creating anything, and says why
    // (EISDIR, or ENOENT, EACCES, ENOTDIR on the way).
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
    const int err = fd < 0 ? errno : EISDIR;
    if (fd >= 0) close(fd);
    return OpenError(path, err);
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A FIFO, a device: written where it is. O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead
    // of blocking us in open() for ever, every signal but KILL blocked and the time limit not yet running.
    const int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return OpenError(path, errno);
    const int flags = fcntl(fd, F_GETFL);  // The write blocks until the reader has taken it, as a shell's would.
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
      const int err = errno;
      close(fd);
      return OpenError(path, err);
    }
    return ReportFile(path, fd, Kind::kDirect, "", 0);
  }
  if (!exists && stat_errno != ENOENT) return OpenError(path, stat_errno);  // ELOOP, ENOTDIR, EACCES on the way.
  if (exists && access(path.c_str(), W_OK) != 0) return OpenError(path, errno);  // As `>` would refuse it.
  // Atomically: a file beside the real one (through symbolic links: beside the target, which a dangling link then
  // gets, as `>` would create it), renamed over it at the end.
  std::string final_path;
  if (const int err = FollowLinks(path, &final_path); err != 0) return OpenError(path, err);
  const std::string dir = DirectoryOf(final_path);
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~CurrentUmask());
  // Unnamed until Write() (O_TMPFILE): a KILL before then leaves nothing behind. Where the file system refuses
  // O_TMPFILE (EOPNOTSUPP; EISDIR or EINVAL from a kernel or file system that does not know it), a named
  // temporary file, which a KILL leaves behind.
  int fd = report_internal::Hooks().refuse_tmpfile ? (errno = EOPNOTSUPP, -1)
                                                    : open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0) return ReportFile(path, fd, Kind::kUnnamed, final_path, mode);
  std::string temp;
  if (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) fd = NamedTemporary(TempPrefix(final_path), &temp);
  if (fd >= 0) {
    ReportFile report(path, fd, Kind::kNamed, final_path, mode);
    report.temp_path_ = std::move(temp);
    return report;
  }
  int err = errno;
  if (exists) {
    // Nothing can be made beside FILE (a directory we may not write to), but FILE itself may be writable, which is
    // all `>` needs: written in place, not atomically, and truncated only by Write().
    fd = open(final_path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd >= 0) return ReportFile(path, fd, Kind::kInPlace, final_path, mode);
    err = errno;  // What `>` would say.
  }
  return OpenError(path, err);
}

absl::Status ReportFile::Write(const Outcome& outcome) {
  if (fd_ < 0) return absl::FailedPreconditionError(absl::StrCat("report ", path_, " already written"));
  const std::string text = ToJson(outcome);
  int err = kind_ == Kind::kInPlace && ftruncate(fd_, 0) != 0 ? errno : 0;
  if (err == 0) err = WriteAll(fd_, text);
  if (err == 0 && (kind_ == Kind::kUnnamed || kind_ == Kind::kNamed) && fchmod(fd_, mode_) != 0) err = errno;
  if (err == 0 && kind_ == Kind::kUnnamed) {
    // A name now, renamed over FILE at once: only a KILL between the two leaves it behind.
    if (LinkUnnamed(fd_, TempPrefix(final_path_), &temp_path_) != 0) {
      // No link (no /proc, no privilege for AT_EMPTY_PATH, a file system that refuses it): write it again, to a
      // named temporary file.
      close(fd_);
      fd_ = NamedTemporary(TempPrefix(final_path_), &temp_path_);
      if (fd_ < 0) {
        err = errno;
      } else {
        err = WriteAll(fd_, text);
        if (err == 0 && fchmod(fd_, mode_) != 0) err = errno;
      }
    }
  }
  if (fd_ >= 0 && close(fd_) != 0 && err == 0 && errno != EINTR) err = errno;
  fd_ = -1;
  if (err == 0 && !temp_path_.empty() && rename(temp_path_.c_str(), final_path_.c_str()) != 0) err = errno;
  if (!temp_path_.empty() && err != 0) unlink(temp_path_.c_str());
  temp_path_.clear();
  if (err != 0) return WriteError(path_, err);
  return absl::OkStatus();
}

}  // namespace timeout_report
