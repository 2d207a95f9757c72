// uucore/quote.h -- GNU's quoting of operands and file names in messages under LC_ALL=C.
#ifndef UUCORE_QUOTE_H_
#define UUCORE_QUOTE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace uucore {

// Quote()
//
// Returns ARG between ASCII single quotes, escaping as GNU coreutils does in the C locale: `'` -> `\'`,
// `\` -> `\\`, the C escapes \a \b \t \n \v \f \r, and any other byte outside printable ASCII as three octal
// digits (`\351`). Used for operands in messages: "invalid time interval 'a\'b'".
std::string Quote(absl::string_view arg);

// QuoteFileName()
//
// Returns ARG quoted as GNU coreutils quotes file names in some messages (its quoteaf(): "shell-escape-always"
// style) in the C locale, so that a shell would read most results back as ARG:
//   - ARG with a `'` whose other bytes are all letters, digits or ` %'+,-./:@]_` (and `#` or `~` as its first
//     byte) goes between double quotes, as it is: "a'b".
//   - Anything else goes between single quotes: '' for the empty string, 'a b', 'a\b', '$x'. Each `'` becomes
//     `'\''`; each run of bytes outside printable ASCII becomes a $'...' segment spliced between the quoted parts,
//     with the C escapes \a \b \t \n \v \f \r or three octal digits: 'a'$'\t''b', ''$'\303\274''_x' (a leading
//     run follows an empty '' pair), 'x_'$'\303\274' (a trailing run ends the result).
//   - GNU 9.1's quirk, reproduced: when ARG has a `'` (and no double quotes) and ends in a byte outside printable
//     ASCII, the result starts as if a $'...' segment were open: a first ordinary byte gets an extra '' before it
//     ('''a'\'''$'\303\274' for a'\303\274) and a first unprintable byte loses its `'$'` opener ('\001'\'''$'\001'
//     for \001'\001, which a shell would not read back as ARG).
// Used, as in GNU, for env's "cannot change directory to DIR" and -v "chdir:", nohup's "failed to run command",
// "failed to open" and "appending output to". Other operands use Quote().
std::string QuoteFileName(absl::string_view arg);

}  // namespace uucore

#endif  // UUCORE_QUOTE_H_
