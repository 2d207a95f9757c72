// uucore/signals.h -- the one table of Linux signals: names, numbers, descriptions, parsing.
#ifndef UUCORE_SIGNALS_H_
#define UUCORE_SIGNALS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace uucore {

// ParseSignal()
//
// Parses a signal as GNU's timeout, kill and env accept it: a decimal number ("9"), a name with or without the
// SIG prefix ("KILL", "SIGKILL"), and the real-time forms "RTMIN", "RTMIN+n", "RTMAX", "RTMAX-n". Names are
// matched as GNU matches them (see signals.cc for case rules). "0"/"EXIT" are accepted only when allow_zero.
//
// Error: InvalidArgument "'ARG': invalid signal" (ARG quoted as uucore::Quote does; the caller adds its name).
[[nodiscard]] absl::StatusOr<int> ParseSignal(absl::string_view arg, bool allow_zero = false);

// SignalName()
//
// The name without "SIG" as GNU prints it: "TERM", "KILL", "RTMIN", "RTMIN+3", "RTMAX-1"; "EXIT" for 0;
// the decimal number for anything unknown.
std::string SignalName(int signal);

// MaxSignal()
//
// The highest valid signal number (SIGRTMAX at run time); every number in 1..MaxSignal() is a signal, which is
// how env --list-signal-handling and kill -l iterate.
int MaxSignal();

// SignalDescription()
//
// strsignal()-style text for kill -L/-t ("Terminated", "Real-time signal 3"), independent of the locale.
std::string SignalDescription(int signal);

}  // namespace uucore

#endif  // UUCORE_SIGNALS_H_
