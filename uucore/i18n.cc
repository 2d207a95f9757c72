#include "uucore/i18n.h"

#include <langinfo.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/string_view.h"

namespace uucore {
namespace {

constexpr char kTextDomain[] = "coreutils";  // GNU's catalogs; glibc looks in /usr/share/locale.

bool locale_taken = false;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

void UseUserLocale() {
  if (locale_taken) return;
  locale_taken = true;
  setlocale(LC_ALL, "");  // Failure keeps "C": English and ASCII quotes, as GNU.
  // C.UTF-8's messages are C's: English, LANGUAGE ignored, as glibc 2.43 has it (bug 16621; GNU 9.10 on it); the
  // static glibc 2.36 we link would let LANGUAGE translate them (and strerror).
  const char* messages = setlocale(LC_MESSAGES, nullptr);
  if (messages != nullptr && strncmp(messages, "C.", 2) == 0) setlocale(LC_MESSAGES, "C");
}

bool LocaleIsUtf8() {
  UseUserLocale();
  const char* codeset = nl_langinfo(CODESET);
  return codeset != nullptr && (strcasecmp(codeset, "UTF-8") == 0 || strcasecmp(codeset, "UTF8") == 0);
}

const char* Translate(const char* msgid) {
  UseUserLocale();
  return dcgettext(kTextDomain, msgid, LC_MESSAGES);
}

const char* ErrnoText(int err) {
  UseUserLocale();  // strerror speaks the user's language once the locale is in force.
  return strerror(err);
}

std::string FormatPieces(const char* msgid, std::initializer_list<absl::string_view> args) {
  const absl::string_view format = Translate(msgid);
  std::string out;
  out.reserve(format.size() + 32);
  size_t next = 0;  // The argument a plain conversion takes.
  for (size_t i = 0; i < format.size();) {
    const char c = format[i];
    if (c != '%') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    // %[N$][flags][width][.precision][length]conversion
    size_t j = i + 1, position = 0;
    size_t digits_end = j;
    while (digits_end < format.size() && IsDigit(format[digits_end])) ++digits_end;
    if (digits_end > j && digits_end < format.size() && format[digits_end] == '$') {
      for (size_t k = j; k < digits_end; ++k) position = position * 10 + static_cast<size_t>(format[k] - '0');
      j = digits_end + 1;
    }
    while (j < format.size() && strchr("-+ #0'", format[j]) != nullptr) ++j;
    while (j < format.size() && (IsDigit(format[j]) || format[j] == '.')) ++j;
    while (j < format.size() && strchr("hlLqjzt", format[j]) != nullptr) ++j;
    if (j >= format.size() || !absl::ascii_isalpha(static_cast<unsigned char>(format[j]))) {
      out += c;  // Not a conversion after all: keep the text.
      ++i;
      continue;
    }
    const size_t index = position > 0 ? position - 1 : next++;
    if (index < args.size()) {
      const absl::string_view arg = args.begin()[index];
      out.append(arg.data(), arg.size());
    } else {
      out.append(format.data() + i, j + 1 - i);
    }
    i = j + 1;
  }
  return out;
}

}  // namespace uucore
