// uucore/cli.h -- the conventions every utility's command line shares.
//
// This is the one part of uucore that writes: it formats diagnostics exactly as GNU coreutils 9.10 does and returns
// the exit status the caller should use. It never exits; utilities return from their Main().
//
//   NAME: MESSAGE                                         Error(), Notice()
//   NAME: MESSAGE\nTry 'ARGV0 --help' for more information.   UsageError()
//   NAME: write error: No space left on device            Finish(), when stdout could not be written
//   NAME --help, NAME --version                           GetoptLong(), for every table made by LongOptions()
//
// As GNU 9.10: NAME is the last component of argv[0] ("timeout" when run as /usr/bin/timeout), while the Try line,
// --help's usage lines and getopt's own complaints keep argv[0] as given (ARGV0). Fixed texts of ours (the Try line,
// "write error") are translated through GNU's catalogs (uucore/i18n.h); callers translate their MESSAGEs with
// uucore::Format.
#ifndef UUCORE_CLI_H_
#define UUCORE_CLI_H_

#include <getopt.h>
#include <stddef.h>

#include <array>

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
// Writes "NAME: MESSAGE\n" to stderr. The status overload writes the status's message. A message that cannot be
// written (stderr closed or full) makes Finish() return FailureStatus().
void Error(absl::string_view message);
void Error(const absl::Status& status);

// Notice()
//
// Writes "NAME: MESSAGE\n" to stderr like Error(), but a notice that cannot be written changes nothing: for
// timeout -v's "sending signal ..." (GNU 9.10 still exits 124 with `2>/dev/full`).
void Notice(absl::string_view message);


// UsageError()
//
// Writes "NAME: MESSAGE" and the "Try 'ARGV0 --help' for more information." line to stderr and returns
// FailureStatus(). An empty message writes only the Try line (getopt has already printed its own complaint).
[[nodiscard]] int UsageError(absl::string_view message);
[[nodiscard]] int UsageError(const absl::Status& status);

// LongOptions()
//
// A utility's table of long options for GetoptLong(): its own, then --help and --version, which GetoptLong()
// answers, then the terminating entry. They come last, as in GNU's tables: getopt lists an ambiguous abbreviation's
// candidates in table order ("--ver": '--verbose' '--version').
//   constexpr auto kLongOptions = uucore::LongOptions({{"signal", required_argument, nullptr, 's'}, ...});
template <size_t N>
constexpr std::array<option, N + 3> LongOptions(const option (&own)[N]);
constexpr std::array<option, 3> LongOptions();  // Only --help and --version.

// CommandLine
//
// What GetoptLong() needs to read one utility's command line.
struct CommandLine {
  const char* utility;         // The name --version reports ("timeout", whatever argv[0] is).
  const char* help;            // What --help prints: help::kNAME, made from utils/NAME/NAME.help (see Help()).
  const char* short_options;   // getopt's.
  const option* long_options;  // From LongOptions() (or a table of the caller's own, which GetoptLong() passes on).
  // If given, asked about a bad short option (optopt) first: true means the caller words that complaint itself and
  // getopt's is not printed (env's "invalid option -- ' '" from a shebang line).
  bool (*says_it_itself)(int optopt) = nullptr;
};

// GetoptLong()
//
// glibc's getopt_long(), GNU's exact option grammar, with its complaints ("invalid option -- 'x'", "unrecognized
// option '--bogus'", ...) in the user's language: the user's locale is loaded only when there is something to
// complain about (the complaint is then reproduced by parsing the same argv again up to the bad option, which
// getopt's order makes the first error again). Returns what getopt_long returns; '?' after an error; kAnswered once
// it has answered --help or --version (see LongOptions()): the caller stops parsing and returns AnsweredStatus().
// The answer is written with the signal mask the program started with, as RestoreStartupSignalMask() sets it
// (timeout parses with every signal blocked; `timeout --help | head -c1` must die of SIGPIPE, as GNU's does).
int GetoptLong(int argc, char* const argv[], const CommandLine& command_line);
inline constexpr int kAnswered = -2;
int AnsweredStatus();  // What Help() or Version() returned for the last answer.

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

// The version every utility reports (tools/helpgen reads it from here for the man pages).
inline constexpr char kVersion[] = "0.1.0";

// Implementation details.

namespace cli_internal {
inline constexpr int kHelpOption = 0x7fffff00;  // Beyond any character and any utility's own value.
inline constexpr int kVersionOption = kHelpOption + 1;
inline constexpr option kHelp = {"help", no_argument, nullptr, kHelpOption};
inline constexpr option kVersion = {"version", no_argument, nullptr, kVersionOption};
}  // namespace cli_internal

template <size_t N>
constexpr std::array<option, N + 3> LongOptions(const option (&own)[N]) {
  std::array<option, N + 3> all{};
  for (size_t i = 0; i < N; ++i) all[i] = own[i];
  all[N] = cli_internal::kHelp;
  all[N + 1] = cli_internal::kVersion;
  return all;  // The last entry stays all zeros: the end.
}

constexpr std::array<option, 3> LongOptions() {
  return {cli_internal::kHelp, cli_internal::kVersion, option{}};
}

}  // namespace uucore

#endif  // UUCORE_CLI_H_
