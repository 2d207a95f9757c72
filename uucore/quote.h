// uucore/quote.h -- GNU's quoting styles, for operands in messages and for printed names and values.
//
// One function, QuoteAs(), writes a string in any of the ten styles GNU's ls --quoting-style and QUOTING_STYLE
// name; Quote() and QuoteFileName() are its two styles for messages. What counts as printable follows the user's
// locale's character set (uucore/i18n.h), as in GNU: under UTF-8 (or another multibyte set) a valid character that
// iswprint() accepts is kept as it is, and every other byte (invalid UTF-8, a non-printable character's bytes,
// controls) is escaped one byte at a time, as is a character cut short by the end of the string, together with
// everything after its first byte (GB18030 "\201" "9" "x" as \201\071\170, as gnulib's quotearg does); under C and
// POSIX each byte outside printable ASCII is escaped; in a single-byte locale (ISO-8859-1, KOI8-R) a byte that
// isprint() accepts is kept. A string of printable ASCII is quoted without looking at the locale at all (but for
// the locale styles' quotes), so plain names cost nothing more.
#ifndef UUCORE_QUOTE_H_
#define UUCORE_QUOTE_H_

#include <string>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"

namespace uucore {

// The styles, as GNU names them. With "x y'z\t" (printable ASCII but for the tab), under LC_ALL=C:
//   kLiteral           x y'z<TAB>          the string unchanged
//   kShell             'x y'\''z<TAB>'     kShellAlways, but bare when no byte needs quoting for a shell
//   kShellAlways       'x y'\''z<TAB>'     single quotes, each ' as '\''; other bytes unchanged
//   kShellEscape       'x y'\''z'$'\t'     kShellEscapeAlways, but bare when nothing needs quoting
//   kShellEscapeAlways 'x y'\''z'$'\t'     single quotes, with $'...' segments for bytes that are not printable
//   kC                 "x y'z\t"           double quotes, C escapes: \" \\ \a \b \t \n \v \f \r, \ooo
//   kCMaybe            "x y'z\t"           kC, but bare when nothing needs an escape (a lone \ does not)
//   kEscape            x\ y'z\t            kC's escapes without quotes; a space becomes "\ " (as ls shows it)
//   kLocale            'x y\'z\t'          the locale's quotes (below), escapes as kC; the closing quote escaped
//   kCLocale           "x y'z\t"           kLocale, with " instead of ' where the locale has no quotes of its own
// Shell styles need quoting for: the empty string; any of TAB LF CR space ! " $ & ' ( ) * ; < = > ? [ \ ^ ` |;
// # or ~ as the first byte; { or } as the whole string; a multibyte character with a later byte [ \ ^ ` or | (BIG5,
// GB18030: for shells that read bytes); and, in the -escape styles, any byte not printable. A string with a '
// whose other characters are all letters, digits, printable non-ASCII characters (a multibyte one, or a byte of a
// single-byte set) or ` %+,-./:@]_` (# and ~ as the first byte) is written between double quotes instead: "it's".
// The locale styles' quotes are GNU's: the translations of the msgids "`" and "'" in the "gnulib" text domain (the
// domain GNU 9.10 looks them up in; a German gnulib.mo gives „x“); without one, ‘x’ (U+2018, U+2019) under UTF-8,
// else 'x' (kLocale) or "x" (kCLocale).
enum class QuotingStyle {
  kLiteral,
  kShell,
  kShellAlways,
  kShellEscape,
  kShellEscapeAlways,
  kC,
  kCMaybe,
  kEscape,
  kLocale,
  kCLocale,
};

// ParseQuotingStyle()
//
// The style NAME names ("literal", "shell", "shell-always", "shell-escape", "shell-escape-always", "c",
// "c-maybe", "escape", "locale", "clocale"), or an unambiguous abbreviation of one, as ls reads QUOTING_STYLE
// ("lit", "shell-escape-a"; "c" is exact). nullopt for anything else ("", "sh", "C", "invalid").
absl::optional<QuotingStyle> ParseQuotingStyle(absl::string_view name);

// QuoteAs()
//
// ARG written in STYLE (see QuotingStyle). Output agrees with GNU 9.1's `ls --quoting-style=STYLE` for file names
// and with GNU 9.10's quote() and quoteaf() for operands, under C and C.UTF-8 (uucore/quote_test.cc), and with
// ls and GNU master's quotearg in ISO-8859-1, KOI8-R, ISO-8859-7, BIG5, GB18030 and EUC-JP
// (uucore/quote_locales_test.cc).
std::string QuoteAs(absl::string_view arg, QuotingStyle style);

// QuoteAsQuotearg()
//
// ARG as gnulib's quotearg_style(STYLE) writes it, with no character added to those STYLE quotes: QuoteAs() but
// for a space in kEscape, which QuoteAs() escapes as ls asks quotearg to ("a\ b") and this leaves as it is
// ("a b"). For what GNU prints through quotearg alone: env's and printenv's environment (GNU's development branch).
std::string QuoteAsQuotearg(absl::string_view arg, QuotingStyle style);

// Quote()
//
// QuoteAs(arg, kLocale): GNU's quote(), for operands in messages. "invalid time interval 'a\'b'" under C,
// "invalid time interval ‘a'b’" under C.UTF-8.
std::string Quote(absl::string_view arg);

// QuoteFileName()
//
// QuoteAs(arg, kShellEscapeAlways): GNU's quoteaf(), which a few messages use for file names so that a shell
// would read the result back as ARG: 'a b', "a'b", 'a'$'\t''b', ''$'\303\274''_x' (C locale), 'ü_x' (UTF-8).
// Used, as in GNU, for env's "cannot change directory to DIR" and -v "chdir:" and "argv0:", nohup's "failed to
// run command", "failed to open" and "appending output to". Other operands use Quote().
std::string QuoteFileName(absl::string_view arg);

}  // namespace uucore

#endif  // UUCORE_QUOTE_H_
