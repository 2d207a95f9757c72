#include "uucore/quote.h"

#include <ctype.h>
#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <wchar.h>
#include <wctype.h>

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "uucore/i18n.h"

namespace uucore {
namespace {

constexpr struct {
  const char* name;
  QuotingStyle style;
} kStyleNames[] = {
    {"literal", QuotingStyle::kLiteral},
    {"shell", QuotingStyle::kShell},
    {"shell-always", QuotingStyle::kShellAlways},
    {"shell-escape", QuotingStyle::kShellEscape},
    {"shell-escape-always", QuotingStyle::kShellEscapeAlways},
    {"c", QuotingStyle::kC},
    {"c-maybe", QuotingStyle::kCMaybe},
    {"escape", QuotingStyle::kEscape},
    {"locale", QuotingStyle::kLocale},
    {"clocale", QuotingStyle::kCLocale},
};

// One piece of the string as quoting sees it, as gnulib's quotearg steps through it: an ASCII byte; in a single-byte
// locale any byte; in a multibyte one a whole character (printable or not), a byte that starts none, or, where the
// string ends inside a character, everything from there on, which quotearg takes as one unprintable sequence.
struct Unit {
  absl::string_view bytes;
  bool printable;
  bool cut_short;  // That last, unfinished sequence: none of its bytes is looked at for quoting, only escaped.
};

bool IsPrintableAscii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

// The whole string as units. The locale is consulted only when a byte outside ASCII is met: in a single-byte
// locale (C, POSIX, ISO-8859-1, ...) that byte is printable if isprint() says so (never in C); in a multibyte one
// (UTF-8, EUC-JP, GB18030, ...) the character it starts is, if mbrtowc() decodes it and iswprint() accepts it.
// mbrtowc() calls a sequence incomplete when the string ends first, even if a byte already read could not continue
// it (GB18030 "\201" "9" "x": a four-byte character needs a fourth byte); then quotearg escapes all of it to the
// end (or to a NUL), and so do we: "\201\071\170", where "\201" "9" "x" separately would be "\2019x".
std::vector<Unit> Split(absl::string_view arg) {
  std::vector<Unit> units;
  units.reserve(arg.size());
  int multibyte = -1;  // Unknown until needed.
  for (size_t i = 0; i < arg.size();) {
    const unsigned char c = arg[i];
    if (c >= 0x80 && multibyte < 0) {
      UseUserLocale();
      multibyte = MB_CUR_MAX > 1 ? 1 : 0;
    }
    if (c >= 0x80 && multibyte == 1) {
      wchar_t wc;
      mbstate_t state{};
      const size_t n = mbrtowc(&wc, arg.data() + i, arg.size() - i, &state);
      if (n == static_cast<size_t>(-2)) {
        const size_t end = std::min(arg.find('\0', i), arg.size());
        units.push_back({arg.substr(i, end - i), false, true});
        i = end;
        continue;
      }
      if (n != static_cast<size_t>(-1) && n > 0) {
        units.push_back({arg.substr(i, n), iswprint(static_cast<wint_t>(wc)) != 0, false});
        i += n;
        continue;
      }
      // Invalid: this byte alone is escaped, and decoding resumes at the next.
    }
    const bool printable = c < 0x80 ? IsPrintableAscii(c) : multibyte == 0 && isprint(c) != 0;
    units.push_back({arg.substr(i, 1), printable, false});
    ++i;
  }
  return units;
}

// \a \b \t \n \v \f \r as their C escape letter, else 0.
char CEscapeLetter(unsigned char c) {
  switch (c) {
    case '\a': return 'a';
    case '\b': return 'b';
    case '\t': return 't';
    case '\n': return 'n';
    case '\v': return 'v';
    case '\f': return 'f';
    case '\r': return 'r';
    default: return 0;
  }
}

// A unit that is not printable: a control's C escape, else three octal digits for each byte (also for a tab or
// newline inside a sequence cut short, as quotearg writes them: "\201\060\011").
void AppendEscaped(absl::string_view bytes, std::string* out) {
  for (const char byte : bytes) {
    const unsigned char c = static_cast<unsigned char>(byte);
    *out += '\\';
    if (const char letter = bytes.size() == 1 ? CEscapeLetter(c) : 0) {
      *out += letter;
      continue;
    }
    *out += static_cast<char>('0' + (c >> 6));
    *out += static_cast<char>('0' + ((c >> 3) & 7));
    *out += static_cast<char>('0' + (c & 7));
  }
}

// ---- The backslash styles: c, c-maybe, escape, locale, clocale.

struct Quotes {
  std::string open, close;
};

// GNU's gettext_quote(): a translation of "`" or "'" in the gnulib domain, else the UTF-8 quotes, else ASCII.
std::string LocaleQuote(const char* msgid, bool utf8, const char* ascii) {
  UseUserLocale();
  const char* translated = dcgettext("gnulib", msgid, LC_MESSAGES);
  if (translated != msgid) return translated;  // Found in a catalog, even if spelled the same (GNU compares so).
  if (utf8) return msgid[0] == '`' ? "\xe2\x80\x98" : "\xe2\x80\x99";
  return ascii;
}

// Looked up once: the locale does not change after UseUserLocale().
const Quotes& LocaleQuotes(bool clocale) {
  if (clocale) {
    static const Quotes quotes = {LocaleQuote("`", LocaleIsUtf8(), "\""), LocaleQuote("'", LocaleIsUtf8(), "\"")};
    return quotes;
  }
  static const Quotes quotes = {LocaleQuote("`", LocaleIsUtf8(), "'"), LocaleQuote("'", LocaleIsUtf8(), "'")};
  return quotes;
}

// escape_space: kEscape writes a space as "\ " (ls's choice, QuoteAs()); quotearg alone leaves it.
std::string QuoteWithBackslashes(absl::string_view arg, QuotingStyle style, bool escape_space) {
  Quotes quotes;
  if (style == QuotingStyle::kC || style == QuotingStyle::kCMaybe) {
    quotes = {"\"", "\""};
  } else if (style == QuotingStyle::kLocale || style == QuotingStyle::kCLocale) {
    quotes = LocaleQuotes(style == QuotingStyle::kCLocale);
  }
  std::string body;
  body.reserve(arg.size() + 2);
  bool escaped = false;  // Whether anything but a backslash needed an escape (c-maybe then quotes).
  const std::vector<Unit> units = Split(arg);
  for (size_t i = 0; i < units.size(); ++i) {
    const Unit& unit = units[i];
    const size_t offset = static_cast<size_t>(unit.bytes.data() - arg.data());
    if (!quotes.close.empty() && absl::StartsWith(arg.substr(offset), quotes.close)) {
      body += '\\';  // The closing quote inside the string, escaped; it may span units (French " »").
      body += quotes.close;
      escaped = true;
      while (i + 1 < units.size() && units[i + 1].bytes.data() < arg.data() + offset + quotes.close.size()) ++i;
      continue;
    }
    if (!unit.printable) {
      AppendEscaped(unit.bytes, &body);
      escaped = true;
    } else if (unit.bytes == "\\") {
      body += "\\\\";
    } else if (unit.bytes == " " && style == QuotingStyle::kEscape && escape_space) {
      body += "\\ ";
    } else {
      body.append(unit.bytes.data(), unit.bytes.size());
    }
  }
  if (style == QuotingStyle::kCMaybe && !escaped) return std::string(arg);
  return quotes.open + body + quotes.close;
}

// ---- The shell styles: shell, shell-always, shell-escape, shell-escape-always.

bool NeedsShellQuoting(const Unit& unit, size_t position, size_t size) {
  if (unit.cut_short) return false;  // Only the -escape styles quote it, as they quote anything unprintable.
  // A multibyte character (printable or not) with a later byte that a shell reading bytes would take for one of
  // these (BIG5 and GB18030 "\244\\", "\244|"): quotearg quotes it for such shells.
  if (unit.bytes.size() > 1) return unit.bytes.find_first_of("[\\^`|", 1) != absl::string_view::npos;
  const unsigned char c = unit.bytes[0];
  if (c == '\t' || c == '\n' || c == '\r') return true;
  if (!IsPrintableAscii(c)) return false;  // Only the -escape styles quote these (their caller checks).
  if (absl::string_view(" !\"$&'()*;<=>?[\\^`|").find(static_cast<char>(c)) != absl::string_view::npos) return true;
  if (position == 0 && (c == '#' || c == '~')) return true;
  return size == 1 && (c == '{' || c == '}');  // Alone, a shell's reserved word.
}

// Whether a string with a ' may go between double quotes as it is.
bool DoubleQuotable(const std::vector<Unit>& units) {
  size_t position = 0;
  for (const Unit& unit : units) {
    const unsigned char c = unit.bytes[0];
    // Any printable character beyond ASCII: a multibyte one, or a single byte in ISO-8859-1, KOI8-R, ...
    const bool harmless = (unit.printable && c >= 0x80) || (c >= 'a' && c <= 'z') ||
                          (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          (c != 0 && absl::string_view(" %'+,-./:@]_").find(static_cast<char>(c)) !=
                                         absl::string_view::npos) ||
                          (position == 0 && (c == '#' || c == '~'));
    if (!harmless) return false;
    position += unit.bytes.size();
  }
  return true;
}

std::string QuoteForShell(absl::string_view arg, QuotingStyle style) {
  const bool always = style == QuotingStyle::kShellAlways || style == QuotingStyle::kShellEscapeAlways;
  const bool escapes = style == QuotingStyle::kShellEscape || style == QuotingStyle::kShellEscapeAlways;
  const std::vector<Unit> units = Split(arg);
  bool needed = always || arg.empty();
  bool has_single_quote = false;
  size_t position = 0;
  for (const Unit& unit : units) {
    needed = needed || NeedsShellQuoting(unit, position, arg.size()) || (escapes && !unit.printable);
    has_single_quote = has_single_quote || unit.bytes == "'";
    position += unit.bytes.size();
  }
  if (!needed) return std::string(arg);
  if (has_single_quote && DoubleQuotable(units)) return "\"" + std::string(arg) + "\"";
  std::string out = "'";
  bool in_segment = false;  // Inside a $'...' segment of escapes.
  for (const Unit& unit : units) {
    if (unit.bytes == "'") {
      out += "'\\''";  // Closes what is open, a quoted quote, and reopens plain quoting.
      in_segment = false;
    } else if (escapes && !unit.printable) {
      if (!in_segment) out += "'$'";
      in_segment = true;
      AppendEscaped(unit.bytes, &out);
    } else {
      if (in_segment) out += "''";
      in_segment = false;
      out.append(unit.bytes.data(), unit.bytes.size());
    }
  }
  out += '\'';
  return out;
}

}  // namespace

absl::optional<QuotingStyle> ParseQuotingStyle(absl::string_view name) {
  absl::optional<QuotingStyle> prefix_match;
  int prefix_matches = 0;
  for (const auto& entry : kStyleNames) {
    if (name == entry.name) return entry.style;
    if (!name.empty() && absl::StartsWith(entry.name, name)) {
      prefix_match = entry.style;
      ++prefix_matches;
    }
  }
  if (prefix_matches == 1) return prefix_match;
  return absl::nullopt;
}

std::string QuoteAs(absl::string_view arg, QuotingStyle style) {
  switch (style) {
    case QuotingStyle::kLiteral: return std::string(arg);
    case QuotingStyle::kShell:
    case QuotingStyle::kShellAlways:
    case QuotingStyle::kShellEscape:
    case QuotingStyle::kShellEscapeAlways: return QuoteForShell(arg, style);
    case QuotingStyle::kC:
    case QuotingStyle::kCMaybe:
    case QuotingStyle::kEscape:
    case QuotingStyle::kLocale:
    case QuotingStyle::kCLocale: return QuoteWithBackslashes(arg, style, /*escape_space=*/true);
  }
  return std::string(arg);
}

std::string QuoteAsQuotearg(absl::string_view arg, QuotingStyle style) {
  if (style == QuotingStyle::kEscape) return QuoteWithBackslashes(arg, style, /*escape_space=*/false);
  return QuoteAs(arg, style);
}

std::string Quote(absl::string_view arg) { return QuoteAs(arg, QuotingStyle::kLocale); }

std::string QuoteFileName(absl::string_view arg) { return QuoteAs(arg, QuotingStyle::kShellEscapeAlways); }

}  // namespace uucore
