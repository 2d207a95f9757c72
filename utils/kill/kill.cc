// PLACEHOLDER: replaced by the real utility; registered so the table is stable while it is written.
#include "utils/kill/kill.h"

#include "uucore/cli.h"

int KillMain(int, char*[]) {
  uucore::Error("not built yet");
  return uucore::FailureStatus();
}
