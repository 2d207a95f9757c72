// utils/kill/listing.cc -- -l and -t as GNU prints them, masks as util-linux reads them, -d as util-linux prints it.
#include "utils/kill/listing.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/proc_status.h"
#include "uucore/quote.h"
#include "uucore/signals.h"

namespace kill_utility {
namespace {

bool IsDigit(int c) { return c >= '0' && c <= '9'; }

struct TableWidths {
  int number = 1, name = 0;
};

// The widest number and name over every signal, so that a row for one SIGNAL lines up with the whole table.
TableWidths ComputeWidths() {
  TableWidths widths;
  widths.number = static_cast<int>(absl::StrCat(uucore::MaxSignal()).size());
  for (int signal = 1; signal <= uucore::MaxSignal(); ++signal) {
    if (!uucore::IsKnownSignal(signal)) continue;
    const int length = static_cast<int>(uucore::SignalName(signal).size());
    if (length > widths.name) widths.name = length;
  }
  return widths;
}

void PrintRow(const TableWidths& widths, int signal) {
  // A number without a name has the row "32 SIG32    Unknown signal 32", as in GNU.
  const std::string name = uucore::IsKnownSignal(signal) ? uucore::SignalName(signal) : absl::StrCat("SIG", signal);
  printf("%*d %-*s %s\n", widths.number, signal, widths.name, name.c_str(), uucore::SignalDescription(signal).c_str());
}

// "0x" and hex digits, as util-linux's -l takes a mask; "0x" alone, other letters or more than 64 bits are not one.
absl::StatusOr<uint64_t> ParseMaskOperand(absl::string_view arg) {
  absl::StatusOr<uint64_t> mask = uucore::ParseSignalMask(arg.substr(2));
  // GNU's message for the operand, which GNU reads as a bad SIGNAL.
  if (!mask.ok()) return absl::InvalidArgumentError(uucore::Format("%s: invalid signal", uucore::Quote(arg)));
  return mask;
}

// Each signal of a mask, in order: its name (-l) or its row (-t).
void ListMask(const TableWidths& widths, bool table, uint64_t mask) {
  for (int signal = 1; signal <= 64; ++signal) {
    if (!uucore::MaskHasSignal(mask, signal)) continue;
    if (table) {
      PrintRow(widths, signal);
    } else {
      puts(uucore::SignalName(signal).c_str());
    }
  }
}

// One operand of -l or -t; false (reported) when it is neither a signal nor a mask.
bool ListOperand(const TableWidths& widths, bool table, const char* arg) {
  if (absl::StartsWith(arg, "0x")) {
    absl::StatusOr<uint64_t> mask = ParseMaskOperand(arg);
    if (!mask.ok()) {
      uucore::Error(mask.status().message());
      return false;
    }
    ListMask(widths, table, *mask);
    return true;
  }
  absl::StatusOr<int> signal = uucore::ParseSignal(arg, /*allow_zero=*/true, /*allow_unnamed=*/true);
  if (!signal.ok()) {
    uucore::Error(signal.status().message());
    return false;
  }
  if (table) {
    PrintRow(widths, *signal);
  } else if (IsDigit(*arg)) {  // A number (or exit status) converts to a name ...
    puts(uucore::SignalName(*signal).c_str());
  } else {  // ... and a name to a number.
    printf("%d\n", *signal);
  }
  return true;
}

// A signal's name as util-linux's -d writes it (GNU has no -d): GNU's but for IO (29, GNU's POLL) and RT0 to RT30
// (SIGRTMIN + N, GNU's RTMIN, RTMIN+1 ... RTMAX); 32 and 33 by number, as both do.
std::string UtilLinuxName(int signal) {
  if (signal == SIGIO) return "IO";
  if (signal >= SIGRTMIN && signal <= SIGRTMAX) return absl::StrCat("RT", signal - SIGRTMIN);
  return uucore::SignalName(signal);
}

// Each name of a mask followed by a space, as util-linux's -d writes them.
std::string NamesOf(uint64_t mask) {
  std::string names;
  for (int signal = 1; signal <= 64; ++signal) {
    if (uucore::MaskHasSignal(mask, signal)) absl::StrAppend(&names, UtilLinuxName(signal), " ");
  }
  return names;
}

}  // namespace

int ListSignals(const Options& options) {
  const TableWidths widths = options.table ? ComputeWidths() : TableWidths();
  if (*options.operands == nullptr && options.list_mask == nullptr) {
    // EXIT (0), then every named signal; 32 and 33 only when asked for.
    for (int signal = 0; signal <= uucore::MaxSignal(); ++signal) {
      if (!uucore::IsKnownSignal(signal)) continue;
      if (options.table) {
        PrintRow(widths, signal);
      } else {
        puts(uucore::SignalName(signal).c_str());
      }
    }
    return uucore::kExitSuccess;
  }
  bool ok = options.list_mask == nullptr || ListOperand(widths, options.table, options.list_mask);
  for (char* const* arg = options.operands; *arg != nullptr; ++arg) {
    ok = ListOperand(widths, options.table, *arg) && ok;
  }
  return ok ? uucore::kExitSuccess : uucore::kExitFailure;
}

int ShowProcessState(const char* arg, pid_t pid) {
  absl::StatusOr<uucore::SignalMasks> masks = uucore::ReadSignalMasks(pid);
  if (!masks.ok()) {
    // No /proc/PID: no such process, unless /proc itself is missing, which kill(2) tells apart.
    const bool gone = kill(pid, 0) != 0 && errno == ESRCH;
    uucore::Error(absl::StrCat(uucore::Quote(arg), ": ", gone ? uucore::ErrnoText(ESRCH) : masks.status().message()));
    return uucore::kExitFailure;
  }
  struct Field {
    const char* label;  // util-linux's.
    uint64_t mask;
  };
  for (const Field& field :
       {Field{"Pending (thread)", masks->pending_thread}, Field{"Pending (process)", masks->pending_process},
        Field{"Blocked", masks->blocked}, Field{"Ignored", masks->ignored}, Field{"Caught", masks->caught}}) {
    if (field.mask != 0) printf("%s: %s\n", field.label, NamesOf(field.mask).c_str());
  }
  return uucore::kExitSuccess;
}

}  // namespace kill_utility
