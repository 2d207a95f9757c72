// Faults: a message that cannot be written (stderr closed or /dev/full). GNU's utilities end through
// close_stdout(), which sees stderr's error flag and exits with the utility's failure status instead of the one
// it meant: timeout and env exit 125 after an unwritable -v message or exec failure message.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/faults/differential.h"

namespace coreutils_faults {
namespace {

// GNU reports a message it could not write by exiting with its failure status (close_stdout at exit sees stderr's
// error flag): timeout and env exit 125 instead of 124, 126, 127 or the preserved status (fixed in uucore::Finish).
// GNU's nohup does so only for /dev/full: with fd 2 closed it does not try to write at all.
TEST(UnwritableMessageTest, TheStatusBecomesTheFailureStatusAsInGnu) {
  for (const FaultCase& c : std::vector<FaultCase>{
           {"timeout of a directory 2>&-", Fault::kStderrClosed, {"timeout", "10", "/"}, 125, "", ""},
           {"timeout of a missing command 2>/dev/full", Fault::kStderrFull, {"timeout", "10", "/nonexistent"},
            125, "", ""},
           {"env of a directory 2>&-", Fault::kStderrClosed, {"env", "/"}, 125, "", ""},
           {"env of a missing command 2>/dev/full", Fault::kStderrFull, {"env", "/nonexistent"}, 125, "", ""},
           {"nohup of a directory 2>/dev/full", Fault::kStderrFull, {"nohup", "/"}, 125, "", ""},
           {"nohup of a missing command 2>/dev/full", Fault::kStderrFull, {"nohup", "/nonexistent"}, 125, "",
            ""},
           // GNU's nohup keeps 126/127 when fd 2 is closed; ours agrees.
           {"nohup of a directory 2>&-", Fault::kStderrClosed, {"nohup", "/"}, 126, "", ""},
           {"nohup of a missing command 2>&-", Fault::kStderrClosed, {"nohup", "/nonexistent"}, 127, "", ""},
       }) {
    ExpectFaultCase(c);
  }
}

// GNU 9.10 changed this (9.1 exited 125): timeout -v's "sending signal" notice that cannot be written does not
// change the status, since the expiry happened all the same. Stated here, not compared with /usr/bin's 9.1.
TEST(UnwritableMessageTest, TimeoutVerboseNoticesKeepTheStatusAsGnu910) {
  for (const FaultCase& c : std::vector<FaultCase>{
           {"timeout -v 0.1 sleep 10 2>&-", Fault::kStderrClosed, {"timeout", "-v", "0.1", "sleep", "10"}, 124,
            "", ""},
           {"timeout -v 0.1 sleep 10 2>/dev/full", Fault::kStderrFull, {"timeout", "-v", "0.1", "sleep", "10"},
            124, "", ""},
           {"timeout -v --preserve-status", Fault::kStderrFull,
            {"timeout", "-v", "--preserve-status", "0.1", "sleep", "10"}, 143, "", ""},
           {"timeout -v --foreground -s KILL (timeout survives its KILL)", Fault::kStderrClosed,
            {"timeout", "-v", "--foreground", "-s", "KILL", "0.1", "sleep", "10"}, 137, "", ""},
       }) {
    coreutils_testing::ExpectCase({c.name, c.argv, c.status, c.out, c.err}, WithFault(c.fault));
  }
}

}  // namespace
}  // namespace coreutils_faults
