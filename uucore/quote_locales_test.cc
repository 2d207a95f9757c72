// uucore/quote_locales_test.cc -- QuoteAs() in locales whose character set is neither ASCII nor UTF-8 (quote_test.cc
// has C and C.UTF-8): single-byte ones (ISO-8859-1, KOI8-R, ISO-8859-7), where a byte that isprint() accepts is a
// printable character, and multibyte ones (BIG5, GB18030, EUC-JP), where a character's later byte may be an ASCII
// one. Each locale is compiled for the test (tests/testing/locales.h) and put in force for LC_CTYPE, the only
// category quoting reads, around its cases; the locale styles' quotes are ASCII in all of them, as under C.
// Every expectation is GNU's own output in that locale: GNU master's (aa0c0de3508e) env printing the string as a
// value, which is gnulib's quotearg, and GNU 9.1's `ls --quoting-style=STYLE` on a file of that name, which agree
// on each (but one case, named); LsAgreesOnEveryStyle compares pairs of pieces with ls.
#include <locale.h>
#include <stdlib.h>

#include <ostream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/ls_quoting.h"
#include "tests/testing/locales.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"

namespace uucore {
namespace {

using Style = QuotingStyle;

struct Charset {
  const char* source;   // /usr/share/i18n/locales/SOURCE
  const char* charmap;  // /usr/share/i18n/charmaps/CHARMAP
};

// gtest shows a parameter as SOURCE.CHARMAP, and names the instances after the character set.
void PrintTo(const Charset& charset, std::ostream* os) { *os << charset.source << "." << charset.charmap; }

// gtest names the instances after the character set.
std::string CharsetName(const ::testing::TestParamInfo<Charset>& info) {
  std::string name = info.param.charmap;
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

class QuoteTest : public ::testing::TestWithParam<Charset> {
 protected:
  void SetUp() override {
    ASSERT_EQ(setenv("LC_ALL", "C", 1), 0);
    UseUserLocale();  // C for everything, once: later calls change nothing, so LC_CTYPE stays as set below.
    const coreutils_testing::GeneratedLocale made = coreutils_testing::MakeLocale(GetParam().source,
                                                                                  GetParam().charmap);
    if (!made.skip_reason.empty()) GTEST_SKIP() << made.skip_reason;
    locale_ = made;
    ASSERT_EQ(made.env[0].rfind("LOCPATH=", 0), 0u);
    ASSERT_EQ(setenv("LOCPATH", made.env[0].substr(8).c_str(), 1), 0);
    ASSERT_NE(setlocale(LC_CTYPE, made.name.c_str()), nullptr) << made.name;
  }
  void TearDown() override { setlocale(LC_CTYPE, "C"); }

  coreutils_testing::GeneratedLocale locale_;
};

struct Case {
  const char* locale;  // Its name: SOURCE.CHARMAP.
  absl::string_view in;
  Style style;
  absl::string_view out;
};

// Each behaviour of gnulib's quotearg that depends on the character set.
TEST_P(QuoteTest, AsGnuQuotesIt) {
  size_t compared = 0;
  for (const Case& c : {
           // A printable byte beyond ASCII counts as harmless next to a ': the string goes between double quotes,
           // in every shell style, as "it's" does.
           Case{"fr_FR.ISO-8859-1", "\351'", Style::kShell, "\"\351'\""},
           Case{"fr_FR.ISO-8859-1", "\351'", Style::kShellAlways, "\"\351'\""},
           Case{"fr_FR.ISO-8859-1", "\351'", Style::kShellEscape, "\"\351'\""},
           Case{"fr_FR.ISO-8859-1", "\351'", Style::kShellEscapeAlways, "\"\351'\""},
           Case{"fr_FR.ISO-8859-1", "l\351'", Style::kShellAlways, "\"l\351'\""},
           Case{"fr_FR.ISO-8859-1", "it's \351t\351", Style::kShellEscape, "\"it's \351t\351\""},
           Case{"fr_FR.ISO-8859-1", "\351'", Style::kC, "\"\351'\""},
           Case{"fr_FR.ISO-8859-1", "\351'", Style::kLocale, "'\351\\''"},
           // One that is not printable (a C1 control) is not harmless: single quotes, or a $'...' segment.
           Case{"fr_FR.ISO-8859-1", "\205'", Style::kShell, "'\205'\\'''"},
           Case{"fr_FR.ISO-8859-1", "\205'", Style::kShellEscape, "''$'\\205'\\'''"},
           Case{"fr_FR.ISO-8859-1", "\351", Style::kShellEscape, "\351"},
           Case{"fr_FR.ISO-8859-1", "\351\205", Style::kShellEscape, "'\351'$'\\205'"},
           Case{"ru_RU.KOI8-R", "it's \301", Style::kShell, "\"it's \301\""},
           Case{"ru_RU.KOI8-R", "\301'", Style::kShellEscapeAlways, "\"\301'\""},
           Case{"ru_RU.KOI8-R", "\200'", Style::kShellEscape, "\"\200'\""},  // A box-drawing character.
           Case{"el_GR.ISO-8859-7", "\362'", Style::kShellEscape, "\"\362'\""},
           Case{"el_GR.ISO-8859-7", "\362'", Style::kShellAlways, "\"\362'\""},
           Case{"el_GR.ISO-8859-7", "\256'", Style::kShellEscape, "''$'\\256'\\'''"},  // Unassigned.
           // A character whose second byte is [ \ ^ ` or | is quoted in the shell and shell-escape styles, for
           // shells that read bytes; its bytes are kept, never escaped, also in the other styles.
           Case{"zh_TW.BIG5", "\244\\", Style::kShell, "'\244\\'"},
           Case{"zh_TW.BIG5", "\244\\", Style::kShellEscape, "'\244\\'"},
           Case{"zh_TW.BIG5", "\245`", Style::kShell, "'\245`'"},
           Case{"zh_TW.BIG5", "\244[", Style::kShellEscape, "'\244['"},
           Case{"zh_TW.BIG5", "\244^", Style::kShellEscape, "'\244^'"},
           Case{"zh_TW.BIG5", "\244|", Style::kShellEscape, "'\244|'"},
           Case{"zh_TW.BIG5", "\244@", Style::kShellEscape, "\244@"},
           Case{"zh_TW.BIG5", "x\244\\y", Style::kShell, "'x\244\\y'"},
           Case{"zh_TW.BIG5", "\244\\'", Style::kShell, "\"\244\\'\""},
           Case{"zh_TW.BIG5", "\244\\'", Style::kShellEscapeAlways, "\"\244\\'\""},
           Case{"zh_TW.BIG5", "\244\\", Style::kC, "\"\244\\\""},
           Case{"zh_TW.BIG5", "\244\\", Style::kCMaybe, "\244\\"},
           Case{"zh_TW.BIG5", "\244\\", Style::kEscape, "\244\\"},
           Case{"zh_TW.BIG5", "\244\\", Style::kLocale, "'\244\\'"},
           Case{"zh_TW.BIG5", "\244'", Style::kShellEscape, "''$'\\244'\\'''"},  // Not a character: escaped.
           Case{"zh_TW.BIG5", "a\244", Style::kShellEscape, "'a'$'\\244'"},
           Case{"zh_CN.GB18030", "\244|", Style::kShellEscape, "'\244|'"},
           Case{"zh_CN.GB18030", "\244[", Style::kShell, "'\244['"},
           Case{"zh_CN.GB18030", "\225\\y", Style::kShellEscape, "'\225\\y'"},
           // A character cut short by the end of the string (mbrtowc(): incomplete, also when a byte read could
           // not continue it) is one unprintable sequence to the end: each byte in octal, none looked at else.
           Case{"zh_CN.GB18030", "\3540", Style::kShellEscape, "''$'\\354\\060'"},
           Case{"zh_CN.GB18030", "\3540", Style::kShell, "\3540"},
           Case{"zh_CN.GB18030", "\2449\266", Style::kC, "\"\\244\\071\\266\""},
           Case{"zh_CN.GB18030", "a\2019x", Style::kEscape, "a\\201\\071\\170"},
           Case{"zh_CN.GB18030", "a\2019x", Style::kShellEscape, "'a'$'\\201\\071\\170'"},
           Case{"zh_CN.GB18030", "\2019|", Style::kShell, "\2019|"},
           Case{"zh_CN.GB18030", "\2019|", Style::kShellEscape, "''$'\\201\\071\\174'"},
           Case{"zh_CN.GB18030", "\2019'", Style::kShellAlways, "'\2019''"},
           Case{"zh_CN.GB18030", "\2019'", Style::kShellEscape, "''$'\\201\\071\\047'"},
           Case{"zh_CN.GB18030", "\2019\t", Style::kShellEscape, "''$'\\201\\071\\011'"},
           Case{"zh_CN.GB18030", "\2019\t", Style::kC, "\"\\201\\071\\011\""},
           // GNU master's; GNU 9.1's ls writes '''it'\''s'$'\201\071' (its quirk, quote_test.cc).
           Case{"zh_CN.GB18030", "it's\2019", Style::kShellEscape, "'it'\\''s'$'\\201\\071'"},
           // A whole character that is not printable (U+0080): each byte in octal.
           Case{"zh_CN.GB18030", "\2010\2010", Style::kShellEscape, "''$'\\201\\060\\201\\060'"},
           Case{"zh_CN.GB18030", "\2010\2010", Style::kCMaybe, "\"\\201\\060\\201\\060\""},
           Case{"zh_CN.GB18030", "\2010\2010'", Style::kShell, "'\2010\2010'\\'''"},
           Case{"ja_JP.EUC-JP", "\244\242'", Style::kShell, "\"\244\242'\""},
           Case{"ja_JP.EUC-JP", "x\217\260", Style::kShellEscape, "'x'$'\\217\\260'"},
           Case{"ja_JP.EUC-JP", "x\217\260", Style::kC, "\"x\\217\\260\""},
           Case{"ja_JP.EUC-JP", "\2161", Style::kShellEscape, "''$'\\216''1'"},
           Case{"ja_JP.EUC-JP", "\244\242\244", Style::kLocale, "'\244\242\\244'"},
       }) {
    if (locale_.name != c.locale) continue;
    ++compared;
    EXPECT_EQ(QuoteAs(c.in, c.style), c.out) << c.in << " style " << static_cast<int>(c.style);
    EXPECT_EQ(QuoteAsQuotearg(c.in, c.style), c.out) << c.in << " style " << static_cast<int>(c.style);
  }
  EXPECT_GT(compared, 0u);
}

// Every style against GNU 9.1's ls in this locale, on the names made of one or two pieces: ASCII specials, and
// single bytes and characters of each character set (whole, cut short, invalid). Only where /usr/bin/ls is GNU 9.1.
TEST_P(QuoteTest, LsAgreesOnEveryStyle) {
  if (!coreutils_testing::LsIsGnu91()) GTEST_SKIP() << "/usr/bin/ls is not GNU ls 9.1";
  const std::vector<std::string> names = coreutils_testing::NamesOfPieces({
      "a", "0", " ", "'", "\"", "\\", "\t", "\001", "#", "~", "{", "$", "[", "^", "`", "|", "@", "]", "?", "9",
      "\200", "\205", "\240", "\256", "\301", "\351", "\362", "\377",                      // Single bytes.
      "\244\\", "\244[", "\245`", "\244^", "\244|", "\244@", "\244\242", "\241\100",      // BIG5.
      "\225\\", "\2010", "\2010\201", "\2010\2010", "\3540", "\2449",                     // GB18030.
      "\217\260", "\217\260\241", "\216", "\216\261", "\244"});                          // EUC-JP.
  // GNU 9.1's gnulib gave GB18030 quotes of its own ("\241\007e" and "\241\257", sic); master's quotes there are
  // ASCII, as ours (AsGnuQuotesIt).
  const bool gb18030 = locale_.name == "zh_CN.GB18030";
  auto compared = [gb18030](Style style) { return !gb18030 || (style != Style::kLocale && style != Style::kCLocale); };
  // LC_CTYPE alone: messages, and so the locale styles' quotes, stay C's.
  coreutils_testing::ExpectLsAgrees(names, {locale_.env[0], "LC_ALL=", "LC_CTYPE=" + locale_.name}, compared);
}

INSTANTIATE_TEST_SUITE_P(Locales, QuoteTest,
                         ::testing::Values(Charset{"fr_FR", "ISO-8859-1"}, Charset{"ru_RU", "KOI8-R"},
                                           Charset{"el_GR", "ISO-8859-7"}, Charset{"zh_TW", "BIG5"},
                                           Charset{"zh_CN", "GB18030"}, Charset{"ja_JP", "EUC-JP"}),
                         CharsetName);

}  // namespace
}  // namespace uucore
