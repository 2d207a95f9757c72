#include "utils/timeout/relay.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "uucore/process.h"
#include "uucore/signal_wait.h"

namespace timeout {

Relay::~Relay() {
  for (Stream& s : streams_) CloseFrom(s);
  if (sigfd_ >= 0) close(sigfd_);
}

absl::Status Relay::Open(const sigset_t& signals, bool pipes, unsigned closed) {
  const bool open1 = (closed & 2u) == 0, open2 = (closed & 4u) == 0;
  sigfd_ = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
  if (sigfd_ < 0) return absl::ErrnoToStatus(errno, "signalfd");
  // The deadline as a timer in the poll set: ppoll's own timeout would fire 0.1% of the duration late.
  absl::StatusOr<uucore::DeadlineTimer> timer = uucore::DeadlineTimer::Create();
  if (!timer.ok()) return timer.status();
  timer_ = *std::move(timer);
  if (!pipes) return absl::OkStatus();
  const pid_t me = getpid();
  const bool shared = open1 && open2 && syscall(SYS_kcmp, me, me, KCMP_FILE, 1, 2) == 0;
  for (int fd : {1, 2}) {
    if (!(fd == 1 ? open1 : open2)) continue;  // A closed descriptor stays closed for the command, as without -i.
    Stream& s = streams_[fd - 1];
    s.to = fd;
    if (fd == 2 && shared) {
      s.to = -1;
      streams_[0].also = 2;
      continue;
    }
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return absl::ErrnoToStatus(errno, "pipe");
    s.from = ends[0];  // Above 2: a closed 0, 1 or 2 is held (uucore::HoldClosedStandardDescriptors()).
    s.child_end = ends[1];
    fcntl(s.from, F_SETFL, O_NONBLOCK);  // Ours alone: drained without blocking once the command has exited.
    ChooseHow(fd, s);
  }
  return absl::OkStatus();
}

absl::StatusOr<pid_t> Relay::Spawn(char* const argv[], const uucore::SpawnOptions& spawn) {
  int saved[2] = {-1, -1};
  const auto restore = [&saved] {
    for (int i = 0; i < 2; ++i) {
      if (saved[i] < 0) continue;
      dup2(saved[i], i + 1);  // Our own stdout/stderr back, for the copy and for our messages.
      close(saved[i]);
    }
  };
  for (int i = 0; i < 2; ++i) {
    const Stream& s = streams_[i];
    const int end = s.child_end >= 0 ? s.child_end : (i == 1 && streams_[0].also == 2 ? streams_[0].child_end : -1);
    if (end < 0) continue;
    saved[i] = fcntl(i + 1, F_DUPFD_CLOEXEC, 3);
    if (saved[i] < 0) {  // Out of descriptors: without ours kept aside, the copy would write into its own pipe.
      const int err = errno;
      restore();
      return absl::ErrnoToStatus(err, "dup");
    }
    dup2(end, i + 1);  // Without close-on-exec: the command inherits it.
  }
  absl::StatusOr<pid_t> child = uucore::Spawn(argv, spawn);
  restore();
  // Kept after a failure: the caller may start the command again (without the cgroup, when clone3 refused it).
  if (!child.ok()) return child;
  for (Stream& s : streams_) {
    if (s.child_end >= 0) close(s.child_end);  // Only the command holds the write ends: its exit gives EOF.
    s.child_end = -1;
  }
  return child;
}

absl::StatusOr<Relay::Event> Relay::Wait(uucore::Deadline deadline) {
  for (;;) {
    if (absl::Status armed = timer_.Arm(deadline); !armed.ok()) return armed;
    pollfd fds[7] = {{sigfd_, POLLIN, 0},   {-1, 0, 0}, {-1, 0, 0}, {watched_, POLLPRI, 0},
                     {-1, 0, 0},            {-1, 0, 0}, {timer_.fd(), POLLIN, 0}};
    for (int i = 0; i < 2; ++i) {
      const Stream& s = streams_[i];
      if (s.len > s.off || s.full) {
        fds[i + 1] = {s.to, POLLOUT, 0};  // Bytes are waiting for room: read no more until they are out.
      } else if (s.from >= 0) {
        fds[i + 1] = {s.from, POLLIN, 0};
        // Idle: our output's own POLLERR (a pipe whose reader is gone), so that the pipe closes before the
        // command's next write, which then fails (SIGPIPE) as it would have on that output, not into our buffer.
        fds[i + 4] = {s.to, 0, 0};
      }
    }
    if (ppoll(fds, 7, nullptr, nullptr) < 0) {
      if (errno == EINTR) continue;  // A stop/continue or a handled signal: wait again.
      return absl::ErrnoToStatus(errno, "ppoll");
    }
    if (fds[6].revents != 0) timer_.Consume();  // Fired (maybe for an earlier deadline): the next Arm() aims again.
    bool moved = false;
    for (int i = 0; i < 2; ++i) {
      if (fds[i + 4].revents & POLLERR) {
        CloseFrom(streams_[i]);  // What the command wrote meanwhile would have been lost in that pipe as well.
        continue;
      }
      if (fds[i + 1].fd >= 0 && fds[i + 1].revents != 0) moved |= Move(streams_[i]);
    }
    if (fds[0].revents != 0) {
      signalfd_siginfo info;
      const ssize_t n = read(sigfd_, &info, sizeof info);
      if (n == static_cast<ssize_t>(sizeof info)) {
        // Output moved in the same wake is not lost: the caller restarts its timer on the next one at once.
        pending_activity_ = pending_activity_ || moved;
        return Event{static_cast<int>(info.ssi_signo), info.ssi_code, static_cast<pid_t>(info.ssi_pid)};
      }
    }
    if (moved || pending_activity_) {
      pending_activity_ = false;
      return Event{kActivity};
    }
    if (fds[3].revents & (POLLPRI | POLLERR)) return Event{kWatched};
    if (deadline.HasPassed()) return Event{0};
  }
}

void Relay::Drain() {
  for (Stream& s : streams_) {
    while (s.splice && s.from >= 0) {
      if (Move(s)) continue;
      if (!s.full) break;  // Empty for now, EOF, or an error: nothing more to move. (Refused: copied below.)
      AwaitRoom(s.to);
    }
    if (s.splice) continue;
    while (s.from >= 0 || s.len > s.off) {
      if (s.len > s.off) {
        if (!WriteAll(s)) break;
        continue;
      }
      const ssize_t n = read(s.from, s.buf, s.chunk);
      if (n < 0 && errno == EINTR) continue;  // Interrupted before reading; read again.
      if (n <= 0) break;                       // Empty for now (EAGAIN), EOF, or an error: nothing more to copy.
      s.len = static_cast<size_t>(n);
      s.off = 0;
    }
  }
}

void Relay::ChooseHow(int fd, Stream& s) {
  struct stat st;
  const int flags = fcntl(fd, F_GETFL);
  if (fstat(fd, &st) != 0 || flags < 0) return;
  if (S_ISREG(st.st_mode)) s.chunk = sizeof s.buf;
  const bool dev_null = S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3);
  s.splice = (flags & O_APPEND) == 0 && (S_ISFIFO(st.st_mode) || dev_null);
}

void Relay::AwaitRoom(int fd) {
  pollfd out = {fd, POLLOUT, 0};
  (void)poll(&out, 1, -1);  // EINTR: the caller tries again, and comes back here if it must.
}

bool Relay::Pending(int fd) {
  int n = 0;
  return ioctl(fd, FIONREAD, &n) == 0 && n > 0;
}

void Relay::CloseFrom(Stream& s) {
  if (s.from >= 0) close(s.from);
  if (s.child_end >= 0) close(s.child_end);  // Held only if no command was started.
  s.from = s.child_end = -1;
  s.full = false;  // Nothing is waiting any more.
}

bool Relay::Move(Stream& s) {
  if (s.splice) {
    const ssize_t n = splice(s.from, nullptr, s.to, nullptr, kSpliceMax, SPLICE_F_NONBLOCK);
    if (n > 0) {
      s.full = false;
      return true;
    }
    if (n == 0) {
      CloseFrom(s);  // EOF, as below.
      return false;
    }
    if (errno == EINTR) return false;  // Interrupted before moving; poll again.
    if (errno == EAGAIN) {
      s.full = Pending(s.from);  // No room in our output: poll it for room, not the pipe for bytes.
      return false;
    }
    if (errno != EINVAL) {
      CloseFrom(s);  // Our output is gone (EPIPE), as a failed write below.
      return false;
    }
    s.splice = s.full = false;  // This output takes no splice after all: copy from now on.
  }
  if (s.len > s.off) {
    const ssize_t n = write(s.to, s.buf + s.off, s.len - s.off);
    if (n > 0) {
      s.off += static_cast<size_t>(n);
      return true;
    }
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return false;  // Not taken this time; poll again.
    // Our output is gone (EPIPE: SIGPIPE is blocked in timeout): close the pipe so that the command's next write
    // fails with EPIPE/SIGPIPE, as it would have written to the closed output itself.
    s.len = s.off = 0;
    CloseFrom(s);
    return false;
  }
  const ssize_t n = read(s.from, s.buf, s.chunk);
  if (n > 0) {
    s.len = static_cast<size_t>(n);
    s.off = 0;
    return true;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return false;  // Nothing after all; poll again.
  CloseFrom(s);  // EOF: the command (and all who share the pipe) closed it; the other stream goes on.
  return false;
}

bool Relay::WriteAll(Stream& s) {
  while (s.len > s.off) {
    const ssize_t n = write(s.to, s.buf + s.off, s.len - s.off);
    if (n > 0) {
      s.off += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;  // Interrupted before writing; write again.
    if (n < 0 && errno == EAGAIN) {
      AwaitRoom(s.to);
      continue;
    }
    s.len = s.off = 0;
    CloseFrom(s);
    return false;
  }
  s.len = s.off = 0;
  return true;
}

}  // namespace timeout
