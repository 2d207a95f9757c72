// utils/env/print_env.h -- the environment as env and printenv print it: one entry per line, quoted per
// QUOTING_STYLE byte for byte as GNU's development branch quotes it, or NUL-terminated and unquoted with -0.
#ifndef UTILS_ENV_PRINT_ENV_H_
#define UTILS_ENV_PRINT_ENV_H_

#include "absl/strings/string_view.h"
#include "uucore/quote.h"

namespace env {

// OutputQuotingStyle()
//
// The style that VALUE (the caller's QUOTING_STYLE, nullptr when unset) names, as ls reads it (a style's name or
// an unambiguous abbreviation: uucore::ParseQuotingStyle), else shell-escape. A value that names no style is
// reported on stderr, "NAME: ignoring invalid value of environment variable QUOTING_STYLE: 'VALUE'", and the
// default is used. With named, *named says whether VALUE named a style (false when unset or invalid).
uucore::QuotingStyle OutputQuotingStyle(const char* value, bool* named = nullptr);

// PrintEntry()
//
// Writes one environment entry to stdout. With null, the entry exactly as it is, then a NUL. Otherwise NAME=VALUE
// with NAME and VALUE each quoted in STYLE as gnulib's quotearg quotes them (uucore::QuoteAsQuotearg: 'a b'='c d'
// in shell-escape, the default), an empty VALUE left bare in every style (A=, as GNU master prefers to A=''), and
// an entry without '=' quoted whole; then a newline.
void PrintEntry(absl::string_view entry, bool null, uucore::QuotingStyle style);

// PrintValue()
//
// Writes VALUE quoted in STYLE as quotearg quotes it (an empty VALUE too: '' in shell-escape) and a newline, or
// VALUE exactly and a NUL with null (printenv NAME).
void PrintValue(absl::string_view value, bool null, uucore::QuotingStyle style);

}  // namespace env

#endif  // UTILS_ENV_PRINT_ENV_H_
