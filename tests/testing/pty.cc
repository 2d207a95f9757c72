#include "tests/testing/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
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

size_t Pty::Jam() {
  if (!ok() || fcntl(slave_, F_SETFL, fcntl(slave_, F_GETFL) | O_NONBLOCK) != 0) return 0;
  // The kernel moves what the slave wrote on to the master's line discipline asynchronously, which frees room
  // again: full means a round that takes nothing after a pause, with the master's readable count unchanged.
  const std::string filler(256, 'x');
  size_t total = 0;
  int last_readable = -1;
  for (int round = 0; round < 500; ++round) {
    size_t taken = 0;
    for (ssize_t w; (w = write(slave_, filler.data(), filler.size())) > 0 || (w < 0 && errno == EINTR);) {
      if (w > 0) taken += static_cast<size_t>(w);
    }
    total += taken;
    int readable = 0;
    if (ioctl(master_, FIONREAD, &readable) != 0) return 0;
    if (taken == 0 && readable == last_readable) return total;
    last_readable = readable;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

bool Pty::Type(const std::string& keys) {
  termios cooked;
  if (!ok() || tcgetattr(slave_, &cooked) != 0) return false;
  cooked.c_lflag |= ICANON;
  cooked.c_lflag &= ~static_cast<tcflag_t>(ECHO);
  cooked.c_cc[VEOF] = 004;  // ^D
  if (tcsetattr(slave_, TCSANOW, &cooked) != 0) return false;
  for (size_t done = 0; done < keys.size();) {
    const ssize_t w = write(master_, keys.data() + done, keys.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<size_t>(w);
  }
  return true;
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
