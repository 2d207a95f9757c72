// tests/testing/locales.h -- locales made for a test, for the cases that run in the user's locale.
//
// C.UTF-8 is always there (glibc builds it in). Other locales (de_DE.UTF-8: German messages, ',' as the decimal
// separator) are compiled with localedef from Debian's `locales` sources into a private directory, which the
// command under test finds through LOCPATH; nothing on the system changes.
#ifndef TESTS_TESTING_LOCALES_H_
#define TESTS_TESTING_LOCALES_H_

#include <string>
#include <vector>

namespace coreutils_testing {

struct GeneratedLocale {
  std::string name;                 // e.g. "de_DE.UTF-8", for LC_ALL.
  std::vector<std::string> env;     // LOCPATH=... and LC_ALL=NAME: append to Options::env.
  std::string skip_reason;          // Non-empty: the locale could not be made here (GTEST_SKIP() with it).
};

// MakeLocale()
//
// Compiles the locale SOURCE (a file in /usr/share/i18n/locales, e.g. "de_DE") with CHARMAP (e.g. "UTF-8") once
// per test process, into TEST_TMPDIR. The result's env runs a command in it.
GeneratedLocale MakeLocale(const std::string& source, const std::string& charmap);

// Whether GNU coreutils' German message catalog is installed (/usr/share/locale/de/LC_MESSAGES/coreutils.mo).
bool HasGermanCatalog();

}  // namespace coreutils_testing

#endif  // TESTS_TESTING_LOCALES_H_
