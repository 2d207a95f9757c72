// PLACEHOLDER: replaced by the real utility; registered so the table is stable while it is written.
#include "utils/timeout/timeout.h"

#include "uucore/cli.h"

int TimeoutMain(int, char*[]) {
  uucore::Error("not built yet");
  return uucore::FailureStatus();
}
