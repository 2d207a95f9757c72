// PLACEHOLDER: replaced by the real utility; registered so the table is stable while it is written.
#include "utils/env/env.h"

#include "uucore/cli.h"

int EnvMain(int, char*[]) {
  uucore::Error("not built yet");
  return uucore::FailureStatus();
}
