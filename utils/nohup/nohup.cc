// PLACEHOLDER: replaced by the real utility; registered so the table is stable while it is written.
#include "utils/nohup/nohup.h"

#include "uucore/cli.h"

int NohupMain(int, char*[]) {
  uucore::Error("not built yet");
  return uucore::FailureStatus();
}
