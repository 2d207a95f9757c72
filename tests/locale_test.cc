// timeout and sleep in the user's locale (issue 22): quotes by the character set, numbers with the locale's decimal
// separator, messages through GNU's installed catalogs. Expected texts are GNU 9.10's own output in the same locale.
// The German locale is compiled for the test (tests/testing/locales.h); cases that need it, or GNU's German catalogs
// (Debian packages coreutils and libc-l10n), are skipped with the reason where they are missing.
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/locales.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

Options InLocale(const std::vector<std::string>& env) {
  Options options;
  options.env = env;
  return options;
}

void ExpectTimed(const Case& c, const Options& options, double min_seconds, double max_seconds) {
  Result r = Invoke(c.argv, options);
  EXPECT_EQ(r.status, c.status) << c.name;
  EXPECT_EQ(r.out, c.out) << c.name;
  EXPECT_EQ(r.err, c.err) << c.name;
  EXPECT_GE(r.seconds, min_seconds) << c.name;
  EXPECT_LT(r.seconds, max_seconds) << c.name;
}

TEST(Utf8LocaleTest, OperandsAreQuotedWithUnicodeQuotes) {
  const Options utf8 = InLocale({"LC_ALL=C.UTF-8"});
  // The Try line keeps its straight quotes: they are part of the message, not a quoted operand.
  ExpectCase({"timeout", {"timeout", "1x", "true"}, 125, "",
              "timeout: invalid time interval \u20181x\u2019\nTry 'timeout --help' for more information.\n"},
             utf8);
  ExpectCase({"sleep", {"sleep", "x"}, 1, "",
              "sleep: invalid time interval \u2018x\u2019\nTry 'sleep --help' for more information.\n"},
             utf8);
  ExpectCase({"timeout -s", {"timeout", "-s", "FOO", "1", "true"}, 125, "",
              "timeout: \u2018FOO\u2019: invalid signal\nTry 'timeout --help' for more information.\n"},
             utf8);
  ExpectCase({"timeout -v", {"timeout", "-v", "0.1", "sleep", "10"}, 124, "",
              "timeout: sending signal TERM to command \u2018sleep\u2019\n"},
             utf8);
  // LANG alone decides too, as setlocale(LC_ALL, "") reads it.
  Options lang;
  lang.clear_env = true;
  lang.env = {"LANG=C.UTF-8", "PATH=/usr/bin:/bin"};
  ExpectCase({"LANG", {"timeout", "1x", "true"}, 125, "",
              "timeout: invalid time interval \u20181x\u2019\nTry 'timeout --help' for more information.\n"},
             lang);
}

TEST(Utf8LocaleTest, TheCLocaleKeepsAsciiQuotes) {
  ExpectCase({"C", {"timeout", "1x", "true"}, 125, "",
              "timeout: invalid time interval '1x'\nTry 'timeout --help' for more information.\n"},
             InLocale({"LC_ALL=C"}));
  ExpectCase({"POSIX", {"sleep", "x"}, 1, "", "sleep: invalid time interval 'x'\nTry 'sleep --help' for more information.\n"},
             InLocale({"LC_ALL=POSIX"}));
}

class GermanTest : public testing::Test {
 protected:
  void SetUp() override {
    de_ = MakeLocale("de_DE", "UTF-8");
    if (!de_.skip_reason.empty()) GTEST_SKIP() << de_.skip_reason;
  }
  Options German() const { return InLocale(de_.env); }
  GeneratedLocale de_;
};

// LC_ALL=de_DE.UTF-8: ',' is the decimal separator; '.' keeps working, as in GNU.
TEST_F(GermanTest, TheDecimalCommaWorks) {
  ExpectTimed({"sleep 0,3", {"sleep", "0,3"}, 0, "", ""}, German(), 0.25, 5);
  ExpectTimed({"sleep 1,5s", {"sleep", "1,5s"}, 0, "", ""}, German(), 1.45, 6);
  ExpectTimed({"sleep 0.3", {"sleep", "0.3"}, 0, "", ""}, German(), 0.25, 5);
  ExpectTimed({"timeout 0,1", {"timeout", "0,1", "sleep", "10"}, 124, "", ""}, German(), 0.05, 5);
  ExpectTimed({"timeout -k 0,1", {"timeout", "-k", "0,1", "0,1", "sh", "-c", "trap '' TERM; sleep 10"}, 137, "", ""},
              German(), 0.15, 5);
}

TEST_F(GermanTest, TheCLocaleHasNoDecimalComma) {
  ExpectCase({"sleep 0,3 in C", {"sleep", "0,3"}, 1, "",
              "sleep: invalid time interval '0,3'\nTry 'sleep --help' for more information.\n"},
             InLocale({"LC_ALL=C"}));
}

// GNU 9.10's German output, byte for byte. The quotes around operands are ‘…’ (GNU takes them from the gnulib
// text domain, which Debian does not translate); the Try line is translated whole, with „…“.
TEST_F(GermanTest, MessagesAreGnusTranslations) {
  if (!HasGermanCatalog()) GTEST_SKIP() << "no /usr/share/locale/de/LC_MESSAGES/coreutils.mo (Debian's coreutils)";
  if (access("/usr/share/locale/de/LC_MESSAGES/libc.mo", R_OK) != 0) {
    GTEST_SKIP() << "no /usr/share/locale/de/LC_MESSAGES/libc.mo (Debian's libc-l10n)";
  }
  const std::string kTry = "\u201etimeout --help\u201c liefert weitere Informationen.\n";
  for (const Case& c : std::vector<Case>{
           {"invalid interval", {"timeout", "1x", "true"}, 125, "",
            "timeout: ung\u00fcltiges Zeitintervall \u20181x\u2019\n" + kTry},
           {"getopt, through glibc's catalog", {"timeout", "-x", "1", "true"}, 125, "",
            "timeout: Ung\u00fcltige Option -- x\n" + kTry},
           {"invalid signal", {"timeout", "-s", "FOO", "1", "true"}, 125, "",
            "timeout: \u2018FOO\u2019: ung\u00fcltiges Signal\n" + kTry},
           {"-v", {"timeout", "-v", "0.1", "sleep", "10"}, 124, "",
            "timeout: Signal TERM wird an Befehl \u2018sleep\u2019 geschickt\n"},
           {"not found, strerror from glibc's catalog", {"timeout", "1", "/nonexistent"}, 127, "",
            "timeout: der Befehl \u2018/nonexistent\u2019 konnte nicht ausgef\u00fchrt werden: Datei oder Verzeichnis "
            "nicht gefunden\n"},
           {"an argmatch error", {"timeout", "--tree=x", "1", "true"}, 125, "",
            "timeout: ung\u00fcltiges Argument \u2018x\u2019 f\u00fcr \u2018--tree\u2019\nG\u00fcltige Argumente "
            "sind:\n  - \u2018timeout\u2019\n  - \u2018exit\u2019\n" + kTry},
           {"sleep", {"sleep"}, 1, "",
            "sleep: fehlender Operand\n\u201esleep --help\u201c liefert weitere Informationen.\n"},
       }) {
    ExpectCase(c, German());
  }
}

// C.UTF-8 speaks English, as C does: LANGUAGE (GNU gettext's list of languages) is ignored, messages and strerror
// alike, as GNU 9.10 on a current glibc does (glibc bug 16621; the static glibc 2.36 we link would translate).
TEST(Utf8LocaleTest, LanguageIsIgnoredUnderCUtf8AsUnderC) {
  if (!HasGermanCatalog()) GTEST_SKIP() << "no /usr/share/locale/de/LC_MESSAGES/coreutils.mo (Debian's coreutils)";
  const Options utf8 = InLocale({"LC_ALL=C.UTF-8", "LANGUAGE=de"});
  ExpectCase({"a message", {"timeout", "1x", "true"}, 125, "",
              "timeout: invalid time interval \u20181x\u2019\nTry 'timeout --help' for more information.\n"},
             utf8);
  if (access("/usr/share/locale/de/LC_MESSAGES/libc.mo", R_OK) == 0) {  // Else glibc would say it in English anyway.
    ExpectCase({"strerror", {"timeout", "1", "/nonexistent"}, 127, "",
                "timeout: failed to run command \u2018/nonexistent\u2019: No such file or directory\n"},
               utf8);
    ExpectCase({"getopt", {"timeout", "-x", "1", "true"}, 125, "",
                "timeout: invalid option -- 'x'\nTry 'timeout --help' for more information.\n"},
               utf8);
  }
  ExpectCase({"C", {"timeout", "1x", "true"}, 125, "",
              "timeout: invalid time interval '1x'\nTry 'timeout --help' for more information.\n"},
             InLocale({"LC_ALL=C", "LANGUAGE=de"}));
}

}  // namespace
}  // namespace coreutils_testing
