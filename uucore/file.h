// uucore/file.h -- reading a small file whole: /proc, sysfs and cgroup v2 files, which the kernel makes at once.
//
//   absl::StatusOr<std::string> mountinfo = uucore::ReadFile("/proc/self/mountinfo");
//   if (!mountinfo.ok()) return mountinfo.status();  // "open /proc/self/mountinfo: No such file or directory"
//
// Nothing here prints or exits.
#ifndef UUCORE_FILE_H_
#define UUCORE_FILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace uucore {

// ReadFd()
//
// Reads the file open on `fd` whole, from offset 0 to end of file (pread(2): the descriptor's own offset is left
// alone, so a descriptor kept open, such as a cgroup's cgroup.events, reads afresh each time). Short reads are
// followed by more; a read interrupted by a signal (EINTR) is made again. The file must be one that can be read at
// an offset (regular, /proc, sysfs, cgroup files; not a pipe or a terminal).
// Error: absl::ErrnoToStatus(errno, "read NAME"): message "read NAME: REASON", code from errno.
[[nodiscard]] absl::StatusOr<std::string> ReadFd(int fd, absl::string_view name);

// ReadFile(), ReadFileAt()
//
// Opens `path` (O_RDONLY | O_CLOEXEC; for ReadFileAt relative to the directory open on `dir_fd`, as openat(2)),
// reads it whole with ReadFd() and closes it.
// Errors: message "open PATH: REASON" or "read PATH: REASON" with PATH as given, code from errno (NotFound for
// ENOENT, ...).
[[nodiscard]] absl::StatusOr<std::string> ReadFile(const std::string& path);
[[nodiscard]] absl::StatusOr<std::string> ReadFileAt(int dir_fd, const std::string& path);

}  // namespace uucore

#endif  // UUCORE_FILE_H_
