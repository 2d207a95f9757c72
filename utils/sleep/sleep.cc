// PLACEHOLDER: replaced by the real utility; registered so the table is stable while it is written.
#include "utils/sleep/sleep.h"

#include "uucore/cli.h"

int SleepMain(int, char*[]) {
  uucore::Error("not built yet");
  return uucore::FailureStatus();
}
