#include "tests/testing/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace coreutils_testing {

Pty::Pty() {
  // posix_openpt/grantpt/unlockpt/ptsname: no libutil needed.
  master_ = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0) return;
  const char* name = ptsname(master_);
  if (name == nullptr) return;
  slave_ = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (slave_ < 0) return;
  termios raw;
  if (tcgetattr(slave_, &raw) == 0) {
    cfmakeraw(&raw);
    tcsetattr(slave_, TCSANOW, &raw);
  }
}

Pty::~Pty() {
  if (master_ >= 0) close(master_);
  if (slave_ >= 0) close(slave_);
}

std::function<void()> Pty::OnFds(std::vector<int> fds) const {
  const int slave = slave_;
  return [slave, fds] {
    for (int fd : fds) dup2(slave, fd);
  };
}

std::string Pty::Drain() {
  if (slave_ >= 0) close(slave_);
  slave_ = -1;
  std::string out;
  fcntl(master_, F_SETFL, fcntl(master_, F_GETFL) | O_NONBLOCK);
  char buf[4096];
  for (;;) {
    const ssize_t got = read(master_, buf, sizeof buf);
    if (got > 0) {
      out.append(buf, got);
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // 0, EIO (no slave left) or EAGAIN: all that was written has been read.
    }
  }
  return out;
}

}  // namespace coreutils_testing
