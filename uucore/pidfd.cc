#include "uucore/pidfd.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "uucore/duration.h"
#include "uucore/signal_wait.h"

namespace uucore {
namespace {

// pidfs's magic number (linux/magic.h since 6.9; Debian 12's headers predate it).
constexpr long kPidfsMagic = 0x50494446;  // NOLINT(runtime/int): statfs's f_type.

}  // namespace

absl::StatusOr<uint64_t> PidfdInode(int pidfd) {
  struct statfs fs;
  if (fstatfs(pidfd, &fs) != 0) return absl::ErrnoToStatus(errno, "fstatfs");
  if (fs.f_type != kPidfsMagic) return absl::UnimplementedError("pidfd inodes need Linux 6.9 or later");
  struct stat st;
  if (fstat(pidfd, &st) != 0) return absl::ErrnoToStatus(errno, "fstat");
  return static_cast<uint64_t>(st.st_ino);
}

int QueueVia(pid_t pid, int pidfd, int sig, int value) {
  siginfo_t info;
  memset(&info, 0, sizeof(info));  // The kernel hands the target these bytes as they are.
  info.si_signo = sig;
  info.si_code = SI_QUEUE;
  info.si_pid = getpid();
  info.si_uid = getuid();
  info.si_value.sival_int = value;
#ifdef SYS_pidfd_send_signal
  if (pidfd >= 0) return static_cast<int>(syscall(SYS_pidfd_send_signal, pidfd, sig, &info, 0));
#endif
  return static_cast<int>(syscall(SYS_rt_sigqueueinfo, pid, sig, &info));
}

absl::StatusOr<std::vector<bool>> WaitForExits(absl::Span<const int> pidfds, Deadline deadline) {
  std::vector<bool> exited(pidfds.size());
  std::vector<pollfd> polled;
  std::vector<size_t> index;  // polled[i] is pidfds[index[i]].
  for (size_t i = 0; i < pidfds.size(); ++i) {
    exited[i] = pidfds[i] < 0;
    if (pidfds[i] >= 0) {
      polled.push_back({pidfds[i], POLLIN, 0});
      index.push_back(i);
    }
  }
  while (!polled.empty()) {
    // The time left, read afresh after every wake: the deadline holds across EINTR, stops and long waits.
    const absl::Duration left = deadline.Remaining();
    const timespec timeout = ToKernelTimespec(left);
    const int ready = ppoll(polled.data(), polled.size(), deadline.is_never() ? nullptr : &timeout, nullptr);
    if (ready < 0 && errno == EINTR) continue;  // A handled signal or a stop: wait again for what is left.
    if (ready < 0) return absl::ErrnoToStatus(errno, "ppoll");
    size_t kept = 0;
    for (size_t i = 0; i < polled.size(); ++i) {
      if (polled[i].revents & POLLNVAL) return absl::InvalidArgumentError("ppoll: a descriptor is not open");
      if (polled[i].revents != 0) {
        exited[index[i]] = true;
        continue;
      }
      polled[kept] = polled[i];
      index[kept++] = index[i];
    }
    polled.resize(kept);
    index.resize(kept);
    if (ready == 0 && deadline.HasPassed()) break;  // 0 before the deadline: a kMaxKernelWait step ended.
  }
  return exited;
}

}  // namespace uucore
