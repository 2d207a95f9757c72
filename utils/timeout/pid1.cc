#include "utils/timeout/pid1.h"

#include <signal.h>

#include <algorithm>
#include <iterator>

namespace timeout {

bool IsPassedOnAsPid1Only(int sig) {
  return std::find(std::begin(kPassedOnAsPid1), std::end(kPassedOnAsPid1), sig) != std::end(kPassedOnAsPid1);
}

bool IsStopRequest(int sig) { return sig == SIGTERM || sig == SIGINT || sig == SIGQUIT; }

}  // namespace timeout
