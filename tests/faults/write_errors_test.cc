// Faults: stdout or stderr closed or /dev/full, for every utility. Output that cannot be written is an error
// ("NAME: write error: ...") with the utility's failure status; a message that cannot be written is lost quietly.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/faults/differential.h"

namespace coreutils_faults {
namespace {

const char kFull[] = "No space left on device";
const char kBad[] = "Bad file descriptor";

std::string WriteError(const std::string& name, const char* why) { return name + ": write error: " + why + "\n"; }

// What each utility returns when its own output fails: GNU's exit_failure for it.
struct Utility {
  std::string name;
  int failure;
};
const std::vector<Utility> kUtilities = {{"timeout", 125}, {"sleep", 1}, {"env", 125},
                                         {"nohup", 125},   {"true", 1},  {"false", 1}, {"kill", 1}};

TEST(WriteErrorsTest, HelpAndVersionToAFullOrClosedStdout) {
  for (const Utility& u : kUtilities) {
    for (const std::string option : {"--help", "--version"}) {
      ExpectFaultCase({u.name + " " + option + " >/dev/full", Fault::kStdoutFull, {u.name, option}, u.failure, "",
                       WriteError(u.name, kFull)});
      ExpectFaultCase({u.name + " " + option + " >&-", Fault::kStdoutClosed, {u.name, option}, u.failure, "",
                       WriteError(u.name, kBad)});
      ExpectFaultCase({u.name + " " + option + " >&- 2>&-", Fault::kBothClosed, {u.name, option}, u.failure, "", ""});
    }
  }
}

TEST(WriteErrorsTest, PrintingToAFullOrClosedStdout) {
  for (const FaultCase& c : std::vector<FaultCase>{
           {"env prints the environment", Fault::kStdoutFull, {"env"}, 125, "", WriteError("env", kFull)},
           {"env -i A=1", Fault::kStdoutFull, {"env", "-i", "A=1"}, 125, "", WriteError("env", kFull)},
           {"env -0 -i A=1", Fault::kStdoutFull, {"env", "-0", "-i", "A=1"}, 125, "", WriteError("env", kFull)},
           {"env -i A=1, closed", Fault::kStdoutClosed, {"env", "-i", "A=1"}, 125, "", WriteError("env", kBad)},
           {"env -i prints nothing, so nothing fails", Fault::kStdoutFull, {"env", "-i"}, 0, "", ""},
           {"env -i prints nothing, closed", Fault::kStdoutClosed, {"env", "-i"}, 0, "", ""},
           {"env -i A=1, both closed", Fault::kBothClosed, {"env", "-i", "A=1"}, 125, "", ""},
           // kill: /usr/bin/kill is procps; these are GNU kill 9.1's (atexit close_stdout, EXIT_FAILURE).
           {"kill -l", Fault::kStdoutFull, {"kill", "-l"}, 1, "", WriteError("kill", kFull)},
           {"kill -l 9", Fault::kStdoutFull, {"kill", "-l", "9"}, 1, "", WriteError("kill", kFull)},
           {"kill -l 137", Fault::kStdoutFull, {"kill", "-l", "137"}, 1, "", WriteError("kill", kFull)},
           {"kill -t", Fault::kStdoutFull, {"kill", "-t"}, 1, "", WriteError("kill", kFull)},
           {"kill -L", Fault::kStdoutFull, {"kill", "-L"}, 1, "", WriteError("kill", kFull)},
           {"kill -l, closed", Fault::kStdoutClosed, {"kill", "-l"}, 1, "", WriteError("kill", kBad)},
           {"kill -l KILL, closed", Fault::kStdoutClosed, {"kill", "-l", "KILL"}, 1, "", WriteError("kill", kBad)},
           // Utilities that print nothing do not notice.
           {"sleep 0", Fault::kStdoutFull, {"sleep", "0"}, 0, "", ""},
           {"true", Fault::kStdoutClosed, {"true"}, 0, "", ""},
           {"false", Fault::kStdoutFull, {"false"}, 1, "", ""},
           {"timeout runs the command", Fault::kStdoutClosed, {"timeout", "10", "true"}, 0, "", ""},
           {"nohup without a terminal runs the command", Fault::kStdoutFull, {"nohup", "true"}, 0, "", ""},
       }) {
    ExpectFaultCase(c);
  }
}

// A message that cannot be written changes nothing else: the status is what it would have been.
TEST(WriteErrorsTest, UsageErrorsWithAnUnwritableStderr) {
  for (const FaultCase& c : std::vector<FaultCase>{
           {"timeout --bad", Fault::kStderrClosed, {"timeout", "--bad"}, 125, "", ""},
           {"timeout --bad, full", Fault::kStderrFull, {"timeout", "--bad"}, 125, "", ""},
           {"timeout x true", Fault::kStderrFull, {"timeout", "x", "true"}, 125, "", ""},
           {"timeout -s FOO", Fault::kStderrClosed, {"timeout", "-s", "FOO", "1", "true"}, 125, "", ""},
           {"sleep x", Fault::kStderrClosed, {"sleep", "x"}, 1, "", ""},
           {"sleep --bad, full", Fault::kStderrFull, {"sleep", "--bad"}, 1, "", ""},
           {"env --bad, full", Fault::kStderrFull, {"env", "--bad"}, 125, "", ""},
           {"env -C missing", Fault::kStderrClosed, {"env", "-C", "/nonexistent", "true"}, 125, "", ""},
           {"env -C missing, full", Fault::kStderrFull, {"env", "-C", "/nonexistent", "true"}, 125, "", ""},
           {"env -u A=B", Fault::kStderrFull, {"env", "-u", "A=B", "true"}, 125, "", ""},
           {"nohup --bad", Fault::kStderrClosed, {"nohup", "--bad"}, 125, "", ""},
           {"nohup with no command", Fault::kStderrFull, {"nohup"}, 125, "", ""},
           {"true ignores its arguments", Fault::kStderrFull, {"true", "--bad"}, 0, "", ""},
           {"kill -s FOO", Fault::kStderrClosed, {"kill", "-s", "FOO", "1"}, 1, "", ""},
           {"kill of no process", Fault::kStderrFull, {"kill", "-0", "2147483647"}, 1, "", ""},
           {"kill -l 999", Fault::kStderrFull, {"kill", "-l", "999"}, 1, "", ""},
           // No message at all: nothing to fail.
           {"timeout without -v", Fault::kStderrClosed, {"timeout", "0.1", "sleep", "10"}, 124, "", ""},
           {"timeout -v, the command exits first", Fault::kStderrClosed, {"timeout", "-v", "10", "true"}, 0, "", ""},
           {"timeout -v -k, killed with its group", Fault::kStderrClosed,
            {"timeout", "-v", "-k", "0.1", "0.1", "sh", "-c", "trap '' TERM; sleep 10"}, 137, "", ""},
       }) {
    ExpectFaultCase(c);
  }
}

}  // namespace
}  // namespace coreutils_faults
