#include "utils/timeout/pid1.h"

#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>

#include "uucore/process.h"

namespace timeout {

bool IsPassedOnAsPid1Only(int sig) {
  return std::find(std::begin(kPassedOnAsPid1), std::end(kPassedOnAsPid1), sig) != std::end(kPassedOnAsPid1);
}

bool IsStopRequest(int sig) { return sig == SIGTERM || sig == SIGINT || sig == SIGQUIT; }

bool GiveCommandItsOwnGroup(pid_t self, uucore::SpawnOptions* spawn) {
  const bool own_terminal = getsid(0) == self && tcgetpgrp(STDIN_FILENO) == getpgrp();
  spawn->new_process_group = true;
  spawn->terminal_foreground = own_terminal ? STDIN_FILENO : -1;
  return own_terminal;
}

void TerminalBack::TakeTheTerminalBack() {
  tcsetpgrp(STDIN_FILENO, getpgrp());  // TTOU is blocked: allowed from the background.
}

}  // namespace timeout
