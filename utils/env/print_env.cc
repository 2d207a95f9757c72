#include "utils/env/print_env.h"

#include <stdio.h>

#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"

namespace env {
namespace {

void Write(absl::string_view bytes) { fwrite(bytes.data(), 1, bytes.size(), stdout); }

}  // namespace

uucore::QuotingStyle OutputQuotingStyle(const char* value, bool* named) {
  const absl::optional<uucore::QuotingStyle> style =
      value != nullptr ? uucore::ParseQuotingStyle(value) : absl::optional<uucore::QuotingStyle>();
  if (named != nullptr) *named = style.has_value();
  if (style.has_value()) return *style;
  if (value == nullptr) return uucore::QuotingStyle::kShellEscape;
  uucore::Error(
      uucore::Format("ignoring invalid value of environment variable QUOTING_STYLE: %s", uucore::Quote(value)));
  return uucore::QuotingStyle::kShellEscape;
}

void PrintEntry(absl::string_view entry, bool null, uucore::QuotingStyle style) {
  if (null) {
    Write(entry);
    putchar('\0');
    return;
  }
  const size_t equals = entry.find('=');
  if (equals == absl::string_view::npos) {
    Write(uucore::QuoteAsQuotearg(entry, style));
  } else {
    Write(uucore::QuoteAsQuotearg(entry.substr(0, equals), style));
    putchar('=');
    const absl::string_view value = entry.substr(equals + 1);
    if (!value.empty()) Write(uucore::QuoteAsQuotearg(value, style));  // A=, not A='': GNU master's choice.
  }
  putchar('\n');
}

void PrintValue(absl::string_view value, bool null, uucore::QuotingStyle style) {
  if (null) {
    Write(value);
    putchar('\0');
    return;
  }
  Write(uucore::QuoteAsQuotearg(value, style));
  putchar('\n');
}

}  // namespace env
