// uucore/cli.h -- the conventions every utility's command line shares.
//
// This is the one part of uucore that writes: it formats diagnostics exactly as GNU coreutils does under LC_ALL=C
// and returns the exit status the caller should use. It never exits; utilities return from their Main().
//
//   NAME: MESSAGE                                     Error()
//   NAME: MESSAGE\nTry 'NAME --help' for more information.   UsageError()
//   NAME: write error: No space left on device        Finish(), when stdout could not be written
//
// NAME is argv[0] as the utility received it (GNU prints "/usr/bin/timeout: ..." when run by that path).
#ifndef UUCORE_CLI_H_
#define UUCORE_CLI_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace uucore {

// Exit statuses shared across utilities, named as GNU's system.h names them.
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitTimedOut = 124;      // timeout: the command timed out.
inline constexpr int kExitCanceled = 125;      // timeout, env, nohup: the utility itself failed.
inline constexpr int kExitCannotInvoke = 126;  // the command was found but could not be run.
inline constexpr int kExitEnoent = 127;        // the command was not found.

// SetProgram()
//
// Records the name used in messages (argv[0] as given) and the status a utility returns for its own failures
// (usage errors, write errors): 125 for timeout, env and nohup, 1 for the others. The dispatcher calls it before
// each utility's Main(); name must outlive the call to Main().
void SetProgram(const char* name, int failure_status);
const char* ProgramName();
int FailureStatus();

// Error()
//
// Writes "NAME: MESSAGE\n" to stderr. The status overload writes the status's message.
void Error(absl::string_view message);
void Error(const absl::Status& status);

// UsageError()
//
// Writes "NAME: MESSAGE" and the "Try 'NAME --help' for more information." line to stderr and returns
// FailureStatus(). An empty message writes only the Try line (getopt has already printed its own complaint).
[[nodiscard]] int UsageError(absl::string_view message);
[[nodiscard]] int UsageError(const absl::Status& status);

// Help()
//
// Writes a utility's help text to stdout; every "%s" in it stands for ProgramName(). Returns Finish(0), so a help
// text that could not be written (`--help >/dev/full`) still gives a write error and FailureStatus().
[[nodiscard]] int Help(const char* text);

// Version()
//
// Writes "NAME (coreutils) VERSION" and the licence lines to stdout, with NAME the utility's canonical name
// (as GNU does), and returns Finish(0).
[[nodiscard]] int Version(const char* utility);

// Finish()
//
// Flushes and closes stdout as GNU's close_stdout does: if anything written could not be delivered, writes
// "NAME: write error[: REASON]" and returns FailureStatus(); otherwise returns status. A stdout that was closed
// before the program started is not an error when nothing was written to it. A diagnostic that could not be
// written to stderr (closed or full) also makes it return FailureStatus(), silently, as GNU's close_stdout does. Only the first call closes stdout;
// later calls return status unchanged (the dispatcher calls it after every utility, which may have called it).
[[nodiscard]] int Finish(int status);

// The version every utility reports.
inline constexpr char kVersion[] = "0.1.0";

}  // namespace uucore

#endif  // UUCORE_CLI_H_
