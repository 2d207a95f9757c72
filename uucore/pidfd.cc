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

#include <utility>
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

absl::StatusOr<std::vector<bool>> WaitForExits(absl::Span<const int> pidfds, Deadline deadline, DeadlineTimer* timer) {
  std::vector<bool> exited(pidfds.size());
  std::vector<pollfd> polled;  // The pidfds still running, then the timer's descriptor when the wait is timed.
  std::vector<size_t> index;   // polled[i] is pidfds[index[i]].
  for (size_t i = 0; i < pidfds.size(); ++i) {
    exited[i] = pidfds[i] < 0;
    if (pidfds[i] >= 0) {
      polled.push_back({pidfds[i], POLLIN, 0});
      index.push_back(i);
    }
  }
  size_t running = polled.size();
  const bool timed = running > 0 && !deadline.is_never() && !deadline.HasPassed();
  DeadlineTimer own;
  if (timed) {
    if (timer == nullptr) {
      absl::StatusOr<DeadlineTimer> made = DeadlineTimer::Create();
      if (!made.ok()) return made.status();
      own = *std::move(made);
      timer = &own;
    }
    polled.push_back({timer->fd(), POLLIN, 0});
  }
  // Untimed: Never() waits with no timeout; a deadline already passed polls once.
  const timespec zero = {0, 0};
  const timespec* timeout = timed || deadline.is_never() ? nullptr : &zero;
  while (running > 0) {
    if (timed) {
      // The deadline as an absolute time (no system call while the timer is set for it), which a stop, the kernel's
      // restart of ppoll or a late wake cannot move.
      if (absl::Status armed = timer->Arm(deadline); !armed.ok()) return armed;
    }
    const int ready = ppoll(polled.data(), polled.size(), timeout, nullptr);
    if (ready < 0 && errno == EINTR) continue;  // A handled signal: wait again, for the same instant.
    if (ready < 0) return absl::ErrnoToStatus(errno, "ppoll");
    if (timed && polled.back().revents != 0) timer->Consume();  // Fired: the deadline, or a kMaxKernelWait step.
    size_t kept = 0;
    for (size_t i = 0; i < running; ++i) {
      if (polled[i].revents & POLLNVAL) return absl::InvalidArgumentError("ppoll: a descriptor is not open");
      if (polled[i].revents != 0) {
        exited[index[i]] = true;
        continue;
      }
      polled[kept] = polled[i];
      index[kept++] = index[i];
    }
    if (timed) polled[kept] = polled.back();
    running = kept;
    polled.resize(running + (timed ? 1 : 0));
    index.resize(running);
    if (!deadline.is_never() && deadline.HasPassed()) break;
  }
  return exited;
}

}  // namespace uucore
