#include "utils/coreutils/registry.h"

#include <algorithm>

#include "uucore/cli.h"
#include "utils/env/env.h"
#include "utils/kill/kill.h"
#include "utils/nohup/nohup.h"
#include "utils/printenv/printenv.h"
#include "utils/sleep/sleep.h"
#include "utils/timeout/timeout.h"
#include "utils/true/true.h"

namespace coreutils {
namespace {

// Adding a utility: a folder under utils/ (with NAME.help), its library in :registry's deps and its man page in
// :man_pages, and one line here, in order.
constexpr Utility kUtilities[] = {
    {"env", EnvMain, uucore::kExitCanceled},
    {"false", FalseMain, uucore::kExitFailure},
    {"kill", KillMain, uucore::kExitFailure},
    {"nohup", NohupMain, uucore::kExitCanceled},
    {"printenv", PrintenvMain, kPrintenvFailure},
    {"sleep", SleepMain, uucore::kExitFailure},
    {"timeout", TimeoutMain, uucore::kExitCanceled, /*keeps_signals_blocked=*/true},
    {"true", TrueMain, uucore::kExitFailure},
};

}  // namespace

absl::Span<const Utility> Utilities() { return kUtilities; }

const Utility* FindUtility(absl::string_view name) {
  // Binary search: the table is sorted, and dispatch runs on every start-up.
  const Utility* it = std::lower_bound(std::begin(kUtilities), std::end(kUtilities), name,
                                       [](const Utility& u, absl::string_view n) { return u.name < n; });
  return it != std::end(kUtilities) && it->name == name ? it : nullptr;
}

}  // namespace coreutils
