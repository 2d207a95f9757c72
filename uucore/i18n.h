// uucore/i18n.h -- the user's locale, taken only when a message or an odd number needs it.
//
// Every message a utility prints is GNU coreutils' own English text (its msgid), so GNU's installed message
// catalogs (/usr/share/locale/LANG/LC_MESSAGES/coreutils.mo, text domain "coreutils") translate ours exactly as
// they translate GNU's. Where no catalog is installed (minimal images, the C and C.UTF-8 locales) the English
// text is used as it is.
//
//   uucore::Error(uucore::Format("invalid time interval %s", uucore::Quote(arg)));
//   // LC_ALL=C: "invalid time interval 'x'"   LC_ALL=de_DE.UTF-8: "ungültiges Zeitintervall „x“"
//
// Nothing here runs at start-up: the locale is read from the environment (setlocale(LC_ALL, "")) on the first
// call that needs it, so a utility that prints nothing pays nothing. Messages of ours that GNU does not have
// (options beyond GNU) go through Format() too; with no catalog entry they stay English.
#ifndef UUCORE_I18N_H_
#define UUCORE_I18N_H_

#include <initializer_list>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace uucore {

// UseUserLocale()
//
// Sets the process's locale from the environment (LC_ALL, LC_*, LANG) the first time it is called; later calls
// do nothing. An unknown or missing locale leaves "C" in force, as GNU's setlocale(LC_ALL, "") does. Messages in
// C.UTF-8 (C.utf8) are C's: English whatever LANGUAGE says, as current glibc has it.
void UseUserLocale();

// LocaleIsUtf8()
//
// Whether the user's locale (UseUserLocale()) uses UTF-8 as its character set (C.UTF-8, en_US.UTF-8, ...).
bool LocaleIsUtf8();

// Translate()
//
// msgid translated by GNU coreutils' catalog for the user's LC_MESSAGES (and LANGUAGE), or msgid itself.
const char* Translate(const char* msgid);

// ErrnoText()
//
// strerror(err) in the user's language (glibc's own catalogs), for messages: "No such file or directory".
const char* ErrnoText(int err);

// Format()
//
// Translate(msgid), then each printf conversion in it (%s, %d, %lu, ...: flags, width and length are read and
// dropped) replaced by the next argument, or by the Nth for a positional %N$s, as translations may reorder
// them; "%%" is one '%'. A conversion without an argument stays as it is. Arguments are anything absl::StrCat
// takes (strings, integers).
std::string FormatPieces(const char* msgid, std::initializer_list<absl::string_view> args);
template <typename... Args>
std::string Format(const char* msgid, const Args&... args) {
  return FormatPieces(msgid, {absl::string_view(absl::AlphaNum(args).Piece())...});
}

}  // namespace uucore

#endif  // UUCORE_I18N_H_
