#include "uucore/quote.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace uucore {
namespace {

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

bool IsPrintableAscii(unsigned char c) { return c >= 0x20 && c < 0x7f; }

// A C escape, or three octal digits as GNU's quotearg writes bytes that are not printable in the C locale.
void AppendEscaped(unsigned char c, std::string* out) {
  *out += '\\';
  if (const char letter = CEscapeLetter(c)) {
    *out += letter;
    return;
  }
  *out += static_cast<char>('0' + (c >> 6));
  *out += static_cast<char>('0' + ((c >> 3) & 7));
  *out += static_cast<char>('0' + (c & 7));
}

// The bytes GNU keeps in its double-quoted form; '#' and '~' only as the first byte.
bool DoubleQuotable(absl::string_view arg) {
  for (size_t i = 0; i < arg.size(); ++i) {
    const unsigned char c = arg[i];
    const bool harmless = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          (c != 0 && absl::string_view(" %'+,-./:@]_").find(c) != absl::string_view::npos) ||
                          (i == 0 && (c == '#' || c == '~'));
    if (!harmless) return false;
  }
  return true;
}

// ARG between single quotes with $'...' segments for unprintable bytes. IN_SEGMENT: start as if a segment were
// open (GNU's quirk). Returns whether a segment was open at the end.
bool AppendSingleQuoted(absl::string_view arg, bool in_segment, std::string* out) {
  *out += '\'';
  for (unsigned char c : arg) {
    if (c == '\'') {
      *out += "'\\''";  // Closes whatever is open, a quoted quote, and reopens plain quoting.
      in_segment = false;
    } else if (!IsPrintableAscii(c)) {
      if (!in_segment) *out += "'$'";
      in_segment = true;
      AppendEscaped(c, out);
    } else {
      if (in_segment) *out += "''";
      in_segment = false;
      *out += static_cast<char>(c);
    }
  }
  *out += '\'';
  return in_segment;
}

}  // namespace

std::string Quote(absl::string_view arg) {
  std::string out;
  out.reserve(arg.size() + 2);
  out += '\'';
  for (unsigned char c : arg) {
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (!IsPrintableAscii(c)) {
      AppendEscaped(c, &out);
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '\'';
  return out;
}

std::string QuoteFileName(absl::string_view arg) {
  const bool has_single_quote = arg.find('\'') != absl::string_view::npos;
  if (has_single_quote && DoubleQuotable(arg)) return absl::StrCat("\"", arg, "\"");
  std::string out;
  const bool ends_in_segment = AppendSingleQuoted(arg, false, &out);
  if (has_single_quote && ends_in_segment) {  // GNU's quirk: it writes the name again from where it ended.
    out.clear();
    AppendSingleQuoted(arg, true, &out);
  }
  return out;
}

}  // namespace uucore
