// uucore/signals.h -- the one table of Linux signals: names, numbers, descriptions, parsing.
#ifndef UUCORE_SIGNALS_H_
#define UUCORE_SIGNALS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace uucore {

// ParseSignal()
//
// Parses a signal as GNU's timeout, kill and env accept it (GNU's operand2sig):
//   - a decimal number ("9", "015"). A number above 128 is read as a shell exit status, as GNU does: from 129 to
//     254 only its low 7 bits count ("143" is TERM), from 255 its low 8 bits ("271" is TERM, ksh's 256 + N);
//   - a name in any case, with or without one "SIG" prefix ("KILL", "kill", "SigKill"), including the aliases
//     IOT, CLD and IO; after "SIG" a plain number is also a name ("SIG15"), without the exit-status reading;
//   - the real-time forms "RTMIN", "RTMIN+n", "RTMAX", "RTMAX-n", relative to SIGRTMIN/SIGRTMAX at run time. The
//     offset is read as GNU's strtol reads it, so "RTMIN1", "RTMIN 1" and "RTMAX+0" are accepted too.
// The caller chooses which numbers count besides the named signals (IsKnownSignal()):
//   - allow_zero: "0", "SIG0", "EXIT" (and 128, 256) give 0. GNU's kill -0 and timeout accept 0; env does not.
//   - allow_unnamed: a number from 1 to MaxSignal() that has no name, 32 and 33 under glibc ("32", "SIG32", the
//     exit statuses 160 and 288), as GNU's kill and timeout accept them (kill -s 32 sends signal 32). Without it
//     they are invalid, for callers that can only use named signals.
// Anything else (above MaxSignal(), unknown names) is invalid.
//
// Error: InvalidArgument "'ARG': invalid signal", GNU's msgid "%s: invalid signal" through uucore::Format (so
// translated in the user's locale) with ARG quoted by uucore::Quote; the caller adds its name.
[[nodiscard]] absl::StatusOr<int> ParseSignal(absl::string_view arg, bool allow_zero = false,
                                              bool allow_unnamed = false);

// SignalName()
//
// The name without "SIG" as GNU prints it: "TERM", "KILL", "RTMIN", "RTMIN+3", "RTMAX-1"; "EXIT" for 0;
// the decimal number for a number without a name ("32", as `kill -l 32` and `timeout -v -s 32` print it).
std::string SignalName(int signal);

// MaxSignal()
//
// The highest valid signal number (SIGRTMAX at run time). kill -l and env --list-signal-handling iterate up to
// MaxSignal() and skip the numbers that are not IsKnownSignal() (glibc keeps 32 and 33 for itself).
int MaxSignal();

// IsKnownSignal()
//
// True for 0 ("EXIT") and for every number that has a signal name: 1-31 and SIGRTMIN..SIGRTMAX on Linux.
bool IsKnownSignal(int signal);

// SignalDescription()
//
// What glibc's strsignal() says, for kill -t: "Terminated", "Real-time signal 3", and "Unknown signal 32" for a
// number without a name (0 too), translated by glibc's own catalog (text domain "libc") for the user's
// LC_MESSAGES, as GNU's kill -t prints it ("Unbekanntes Signal 32" under de_DE.UTF-8); English where no catalog
// is installed or the locale is C. Takes the user's locale (uucore::UseUserLocale()).
std::string SignalDescription(int signal);

}  // namespace uucore

#endif  // UUCORE_SIGNALS_H_
