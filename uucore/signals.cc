#include "uucore/signals.h"

#include <libintl.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"

namespace uucore {
namespace {

struct SignalEntry {
  int number;
  const char* name;         // Without "SIG", as GNU prints it.
  const char* description;  // strsignal()'s C-locale text, glibc's msgid; nullptr for an alias.
};

#define UUCORE_SIG(name, description) {SIG##name, #name, description}
#define UUCORE_SIG_ALIAS(name) {SIG##name, #name, nullptr}

// Every Linux signal below SIGRTMIN. The first entry for a number names it (29 is POLL, as GNU prints it); the
// aliases GNU also accepts come last.
constexpr SignalEntry kSignals[] = {
    UUCORE_SIG(HUP, "Hangup"),
    UUCORE_SIG(INT, "Interrupt"),
    UUCORE_SIG(QUIT, "Quit"),
    UUCORE_SIG(ILL, "Illegal instruction"),
    UUCORE_SIG(TRAP, "Trace/breakpoint trap"),
    UUCORE_SIG(ABRT, "Aborted"),
    UUCORE_SIG(BUS, "Bus error"),
    UUCORE_SIG(FPE, "Floating point exception"),
    UUCORE_SIG(KILL, "Killed"),
    UUCORE_SIG(USR1, "User defined signal 1"),
    UUCORE_SIG(SEGV, "Segmentation fault"),
    UUCORE_SIG(USR2, "User defined signal 2"),
    UUCORE_SIG(PIPE, "Broken pipe"),
    UUCORE_SIG(ALRM, "Alarm clock"),
    UUCORE_SIG(TERM, "Terminated"),
#ifdef SIGSTKFLT
    UUCORE_SIG(STKFLT, "Stack fault"),
#endif
    UUCORE_SIG(CHLD, "Child exited"),
    UUCORE_SIG(CONT, "Continued"),
    UUCORE_SIG(STOP, "Stopped (signal)"),
    UUCORE_SIG(TSTP, "Stopped"),
    UUCORE_SIG(TTIN, "Stopped (tty input)"),
    UUCORE_SIG(TTOU, "Stopped (tty output)"),
    UUCORE_SIG(URG, "Urgent I/O condition"),
    UUCORE_SIG(XCPU, "CPU time limit exceeded"),
    UUCORE_SIG(XFSZ, "File size limit exceeded"),
    UUCORE_SIG(VTALRM, "Virtual timer expired"),
    UUCORE_SIG(PROF, "Profiling timer expired"),
#ifdef SIGWINCH
    UUCORE_SIG(WINCH, "Window changed"),
#endif
#ifdef SIGPOLL
    UUCORE_SIG(POLL, "I/O possible"),
#endif
#ifdef SIGPWR
    UUCORE_SIG(PWR, "Power failure"),
#endif
    UUCORE_SIG(SYS, "Bad system call"),
#ifdef SIGIOT
    UUCORE_SIG_ALIAS(IOT),
#endif
#ifdef SIGCLD
    UUCORE_SIG_ALIAS(CLD),
#endif
#ifdef SIGIO
    UUCORE_SIG_ALIAS(IO),
#endif
};

#undef UUCORE_SIG
#undef UUCORE_SIG_ALIAS

constexpr char kExitName[] = "EXIT";  // Signal 0, as the shell's trap names it.
constexpr char kLibcDomain[] = "libc";  // glibc's own catalog, which translates strsignal()'s texts.

absl::Status InvalidSignal(absl::string_view arg) {
  return absl::InvalidArgumentError(Format("%s: invalid signal", Quote(arg)));
}

// glibc's translation of one of its own messages, with its one "%d" replaced by n where it has one.
std::string LibcText(const char* msgid, int n) {
  UseUserLocale();
  return absl::StrReplaceAll(dcgettext(kLibcDomain, msgid, LC_MESSAGES), {{"%d", absl::StrCat(n)}});
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A decimal number of digits only; false if empty, not all digits, or beyond int64.
bool ParseDigits(absl::string_view text, int64_t* value) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!IsDigit(c)) return false;
  }
  return absl::SimpleAtoi(text, value);
}

// The offset after RTMIN/RTMAX, read as strtol reads it (GNU uses strtol there): optional whitespace and sign,
// then digits; nothing at all means 0. So "RTMIN1", "RTMIN 1" and "RTMAX+0" are all valid, as in GNU.
bool ParseOffset(absl::string_view text, int64_t* value) {
  if (text.empty()) {
    *value = 0;
    return true;
  }
  while (!text.empty() && absl::ascii_isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (!ParseDigits(text, value)) return false;
  if (negative) *value = -*value;
  return true;
}

// A name already upper-cased and without "SIG": a table name, EXIT, RTMIN[offset], RTMAX[offset], or a plain
// signal number (no exit-status masking here: "SIG143" is invalid). -1 if none.
int LookupName(absl::string_view name) {
  int64_t n = 0;
  if (!name.empty() && IsDigit(name.front())) return ParseDigits(name, &n) && n <= MaxSignal() ? n : -1;
  if (name == kExitName) return 0;
  for (const SignalEntry& entry : kSignals) {
    if (name == entry.name) return entry.number;
  }
  const int rt_span = SIGRTMAX - SIGRTMIN;
  if (absl::ConsumePrefix(&name, "RTMIN")) {
    return ParseOffset(name, &n) && n >= 0 && n <= rt_span ? SIGRTMIN + static_cast<int>(n) : -1;
  }
  if (absl::ConsumePrefix(&name, "RTMAX")) {
    return ParseOffset(name, &n) && n <= 0 && n >= -rt_span ? SIGRTMAX + static_cast<int>(n) : -1;
  }
  return -1;
}

// A number given as the whole operand. As GNU does, a shell exit status for a signal stands for the signal:
// above 128 only the low 7 bits count (143 is TERM), from 255 the low 8 bits (ksh's 256 + N).
int ParseNumber(absl::string_view arg) {
  int64_t n = 0;
  if (!ParseDigits(arg, &n) || n > INT32_MAX) return -1;
  return static_cast<int>(n) & (n >= 0xFF ? 0xFF : 0x7F);
}

bool IsRealTime(int signal) { return signal >= SIGRTMIN && signal <= SIGRTMAX; }

const SignalEntry* FindEntry(int signal) {
  for (const SignalEntry& entry : kSignals) {
    if (entry.number == signal) return &entry;
  }
  return nullptr;
}

}  // namespace

int MaxSignal() { return SIGRTMAX; }

bool IsKnownSignal(int signal) { return signal == 0 || IsRealTime(signal) || FindEntry(signal) != nullptr; }

absl::StatusOr<int> ParseSignal(absl::string_view arg, bool allow_zero, bool allow_unnamed) {
  int signal = -1;
  if (!arg.empty() && IsDigit(arg.front())) {
    signal = ParseNumber(arg);
  } else {
    // GNU matches names in any case ("term", "SigTerm"), with at most one "SIG" prefix.
    const std::string upper = absl::AsciiStrToUpper(arg);
    absl::string_view name = upper;
    signal = LookupName(name);
    if (signal < 0 && absl::ConsumePrefix(&name, "SIG")) signal = LookupName(name);
  }
  const bool valid = signal == 0 ? allow_zero
                                 : signal > 0 && signal <= MaxSignal() && (allow_unnamed || IsKnownSignal(signal));
  if (!valid) return InvalidSignal(arg);
  return signal;
}

std::string SignalName(int signal) {
  if (signal == 0) return kExitName;
  if (const SignalEntry* entry = FindEntry(signal)) return entry->name;
  if (IsRealTime(signal)) {
    // The nearer end names it, as GNU does: RTMIN..RTMIN+15, then RTMAX-14..RTMAX with glibc's 34..64.
    const int from_min = signal - SIGRTMIN, from_max = SIGRTMAX - signal;
    if (from_min <= (SIGRTMAX - SIGRTMIN) / 2) return from_min == 0 ? "RTMIN" : absl::StrCat("RTMIN+", from_min);
    return from_max == 0 ? "RTMAX" : absl::StrCat("RTMAX-", from_max);
  }
  return absl::StrCat(signal);
}

std::string SignalDescription(int signal) {
  if (const SignalEntry* entry = FindEntry(signal)) return LibcText(entry->description, signal);
  if (IsRealTime(signal)) return LibcText("Real-time signal %d", signal - SIGRTMIN);
  return LibcText("Unknown signal %d", signal);
}

}  // namespace uucore
