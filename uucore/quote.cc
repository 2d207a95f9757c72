#include "uucore/quote.h"

#include <string>

namespace uucore {

std::string Quote(absl::string_view arg) {
  std::string out;
  out.reserve(arg.size() + 2);
  out += '\'';
  for (unsigned char c : arg) {
    const char* escape = nullptr;
    switch (c) {
      case '\'': escape = "\\'"; break;
      case '\\': escape = "\\\\"; break;
      case '\a': escape = "\\a"; break;
      case '\b': escape = "\\b"; break;
      case '\t': escape = "\\t"; break;
      case '\n': escape = "\\n"; break;
      case '\v': escape = "\\v"; break;
      case '\f': escape = "\\f"; break;
      case '\r': escape = "\\r"; break;
      default: break;
    }
    if (escape != nullptr) {
      out += escape;
    } else if (c < 0x20 || c >= 0x7f) {
      // Three octal digits, as GNU's quotearg does for bytes that are not printable in the C locale.
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '\'';
  return out;
}

}  // namespace uucore
