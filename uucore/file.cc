#include "uucore/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace uucore {

absl::StatusOr<std::string> ReadFd(int fd, absl::string_view name) {
  std::string text;
  char buf[4096];
  off_t at = 0;
  for (;;) {
    const ssize_t n = pread(fd, buf, sizeof buf, at);
    if (n > 0) {
      text.append(buf, static_cast<size_t>(n));
      at += n;
      continue;
    }
    if (n == 0) return text;
    const int err = errno;  // Taken before StrCat allocates.
    if (err == EINTR) continue;  // Interrupted before reading anything; read again.
    return absl::ErrnoToStatus(err, absl::StrCat("read ", name));  // "read NAME: REASON", code from errno.
  }
}

absl::StatusOr<std::string> ReadFileAt(int dir_fd, const std::string& path) {
  const int fd = openat(dir_fd, path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;  // Taken before StrCat allocates.
    return absl::ErrnoToStatus(err, absl::StrCat("open ", path));
  }
  absl::StatusOr<std::string> text = ReadFd(fd, path);
  close(fd);
  return text;
}

absl::StatusOr<std::string> ReadFile(const std::string& path) { return ReadFileAt(AT_FDCWD, path); }

}  // namespace uucore
