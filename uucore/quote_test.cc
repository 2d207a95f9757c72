// uucore/quote_test.cc -- compiled twice (uucore/BUILD.bazel): quote_test runs under LC_ALL=C, quote_utf8_test under
// LC_ALL=C.UTF-8. Each case states its output in both locales; every expectation is GNU's own output: GNU 9.1's
// `ls --quoting-style=STYLE` on a file of that name, GNU 9.10's quote() (`timeout ARG true`) and quoteaf()
// (`env -C ARG true`), which LsAgreesOnEveryStyle and a sweep of 4,000 random names (C and C.UTF-8) also checked.
#include "uucore/quote.h"

#include <stdlib.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/ls_quoting.h"
#include "uucore/i18n.h"

namespace uucore {
namespace {

#ifdef QUOTE_TEST_UTF8
constexpr bool kUtf8 = true;
constexpr char kLocale[] = "C.UTF-8";
#else
constexpr bool kUtf8 = false;
constexpr char kLocale[] = "C";
#endif

// Before anything takes the locale: uucore reads it once, on first use.
const bool kLocaleSet = setenv("LC_ALL", kLocale, 1) == 0 && unsetenv("LANGUAGE") == 0;

class QuoteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(kLocaleSet);
    if (kUtf8 && !LocaleIsUtf8()) GTEST_SKIP() << "C.UTF-8 is not installed here";
    ASSERT_EQ(LocaleIsUtf8(), kUtf8);
  }
};

using Style = QuotingStyle;

struct Case {
  absl::string_view in;
  Style style;
  absl::string_view c, utf8;  // Under LC_ALL=C and under LC_ALL=C.UTF-8.
};

TEST_F(QuoteTest, EveryStyle) {
  for (const Case& c : {
           Case{"x", Style::kLiteral, "x", "x"},
           Case{"", Style::kLiteral, "", ""},
           Case{"a b", Style::kLiteral, "a b", "a b"},
           Case{"a'b", Style::kLiteral, "a'b", "a'b"},
           Case{"a\"b", Style::kLiteral, "a\"b", "a\"b"},
           Case{"a\\b", Style::kLiteral, "a\\b", "a\\b"},
           Case{"a\tb", Style::kLiteral, "a\tb", "a\tb"},
           Case{"\001", Style::kLiteral, "\001", "\001"},
           Case{"a=b", Style::kLiteral, "a=b", "a=b"},
           Case{"#x", Style::kLiteral, "#x", "#x"},
           Case{"x#", Style::kLiteral, "x#", "x#"},
           Case{"{", Style::kLiteral, "{", "{"},
           Case{"{}", Style::kLiteral, "{}", "{}"},
           Case{"é", Style::kLiteral, "é", "é"},
           Case{"é'", Style::kLiteral, "é'", "é'"},
           Case{"\351", Style::kLiteral, "\351", "\351"},
           Case{"’", Style::kLiteral, "’", "’"},
           Case{"\302\200", Style::kLiteral, "\302\200", "\302\200"},
           Case{"x", Style::kShell, "x", "x"},
           Case{"", Style::kShell, "''", "''"},
           Case{"a b", Style::kShell, "'a b'", "'a b'"},
           Case{"a'b", Style::kShell, "\"a'b\"", "\"a'b\""},
           Case{"a\"b", Style::kShell, "'a\"b'", "'a\"b'"},
           Case{"a\\b", Style::kShell, "'a\\b'", "'a\\b'"},
           Case{"a\tb", Style::kShell, "'a\tb'", "'a\tb'"},
           Case{"\001", Style::kShell, "\001", "\001"},
           Case{"a=b", Style::kShell, "'a=b'", "'a=b'"},
           Case{"#x", Style::kShell, "'#x'", "'#x'"},
           Case{"x#", Style::kShell, "x#", "x#"},
           Case{"{", Style::kShell, "'{'", "'{'"},
           Case{"{}", Style::kShell, "{}", "{}"},
           Case{"é", Style::kShell, "é", "é"},
           Case{"é'", Style::kShell, "'é'\\'''", "\"é'\""},
           Case{"\351", Style::kShell, "\351", "\351"},
           Case{"’", Style::kShell, "’", "’"},
           Case{"\302\200", Style::kShell, "\302\200", "\302\200"},
           Case{"x", Style::kShellAlways, "'x'", "'x'"},
           Case{"", Style::kShellAlways, "''", "''"},
           Case{"a b", Style::kShellAlways, "'a b'", "'a b'"},
           Case{"a'b", Style::kShellAlways, "\"a'b\"", "\"a'b\""},
           Case{"a\"b", Style::kShellAlways, "'a\"b'", "'a\"b'"},
           Case{"a\\b", Style::kShellAlways, "'a\\b'", "'a\\b'"},
           Case{"a\tb", Style::kShellAlways, "'a\tb'", "'a\tb'"},
           Case{"\001", Style::kShellAlways, "'\001'", "'\001'"},
           Case{"a=b", Style::kShellAlways, "'a=b'", "'a=b'"},
           Case{"#x", Style::kShellAlways, "'#x'", "'#x'"},
           Case{"x#", Style::kShellAlways, "'x#'", "'x#'"},
           Case{"{", Style::kShellAlways, "'{'", "'{'"},
           Case{"{}", Style::kShellAlways, "'{}'", "'{}'"},
           Case{"é", Style::kShellAlways, "'é'", "'é'"},
           Case{"é'", Style::kShellAlways, "'é'\\'''", "\"é'\""},
           Case{"\351", Style::kShellAlways, "'\351'", "'\351'"},
           Case{"’", Style::kShellAlways, "'’'", "'’'"},
           Case{"\302\200", Style::kShellAlways, "'\302\200'", "'\302\200'"},
           Case{"x", Style::kShellEscape, "x", "x"},
           Case{"", Style::kShellEscape, "''", "''"},
           Case{"a b", Style::kShellEscape, "'a b'", "'a b'"},
           Case{"a'b", Style::kShellEscape, "\"a'b\"", "\"a'b\""},
           Case{"a\"b", Style::kShellEscape, "'a\"b'", "'a\"b'"},
           Case{"a\\b", Style::kShellEscape, "'a\\b'", "'a\\b'"},
           Case{"a\tb", Style::kShellEscape, "'a'$'\\t''b'", "'a'$'\\t''b'"},
           Case{"\001", Style::kShellEscape, "''$'\\001'", "''$'\\001'"},
           Case{"a=b", Style::kShellEscape, "'a=b'", "'a=b'"},
           Case{"#x", Style::kShellEscape, "'#x'", "'#x'"},
           Case{"x#", Style::kShellEscape, "x#", "x#"},
           Case{"{", Style::kShellEscape, "'{'", "'{'"},
           Case{"{}", Style::kShellEscape, "{}", "{}"},
           Case{"é", Style::kShellEscape, "''$'\\303\\251'", "é"},
           Case{"é'", Style::kShellEscape, "''$'\\303\\251'\\'''", "\"é'\""},
           Case{"\351", Style::kShellEscape, "''$'\\351'", "''$'\\351'"},
           Case{"’", Style::kShellEscape, "''$'\\342\\200\\231'", "’"},
           Case{"\302\200", Style::kShellEscape, "''$'\\302\\200'", "''$'\\302\\200'"},
           Case{"x", Style::kShellEscapeAlways, "'x'", "'x'"},
           Case{"", Style::kShellEscapeAlways, "''", "''"},
           Case{"a b", Style::kShellEscapeAlways, "'a b'", "'a b'"},
           Case{"a'b", Style::kShellEscapeAlways, "\"a'b\"", "\"a'b\""},
           Case{"a\"b", Style::kShellEscapeAlways, "'a\"b'", "'a\"b'"},
           Case{"a\\b", Style::kShellEscapeAlways, "'a\\b'", "'a\\b'"},
           Case{"a\tb", Style::kShellEscapeAlways, "'a'$'\\t''b'", "'a'$'\\t''b'"},
           Case{"\001", Style::kShellEscapeAlways, "''$'\\001'", "''$'\\001'"},
           Case{"a=b", Style::kShellEscapeAlways, "'a=b'", "'a=b'"},
           Case{"#x", Style::kShellEscapeAlways, "'#x'", "'#x'"},
           Case{"x#", Style::kShellEscapeAlways, "'x#'", "'x#'"},
           Case{"{", Style::kShellEscapeAlways, "'{'", "'{'"},
           Case{"{}", Style::kShellEscapeAlways, "'{}'", "'{}'"},
           Case{"é", Style::kShellEscapeAlways, "''$'\\303\\251'", "'é'"},
           Case{"é'", Style::kShellEscapeAlways, "''$'\\303\\251'\\'''", "\"é'\""},
           Case{"\351", Style::kShellEscapeAlways, "''$'\\351'", "''$'\\351'"},
           Case{"’", Style::kShellEscapeAlways, "''$'\\342\\200\\231'", "'’'"},
           Case{"\302\200", Style::kShellEscapeAlways, "''$'\\302\\200'", "''$'\\302\\200'"},
           Case{"x", Style::kC, "\"x\"", "\"x\""},
           Case{"", Style::kC, "\"\"", "\"\""},
           Case{"a b", Style::kC, "\"a b\"", "\"a b\""},
           Case{"a'b", Style::kC, "\"a'b\"", "\"a'b\""},
           Case{"a\"b", Style::kC, "\"a\\\"b\"", "\"a\\\"b\""},
           Case{"a\\b", Style::kC, "\"a\\\\b\"", "\"a\\\\b\""},
           Case{"a\tb", Style::kC, "\"a\\tb\"", "\"a\\tb\""},
           Case{"\001", Style::kC, "\"\\001\"", "\"\\001\""},
           Case{"a=b", Style::kC, "\"a=b\"", "\"a=b\""},
           Case{"#x", Style::kC, "\"#x\"", "\"#x\""},
           Case{"x#", Style::kC, "\"x#\"", "\"x#\""},
           Case{"{", Style::kC, "\"{\"", "\"{\""},
           Case{"{}", Style::kC, "\"{}\"", "\"{}\""},
           Case{"é", Style::kC, "\"\\303\\251\"", "\"é\""},
           Case{"é'", Style::kC, "\"\\303\\251'\"", "\"é'\""},
           Case{"\351", Style::kC, "\"\\351\"", "\"\\351\""},
           Case{"’", Style::kC, "\"\\342\\200\\231\"", "\"’\""},
           Case{"\302\200", Style::kC, "\"\\302\\200\"", "\"\\302\\200\""},
           Case{"x", Style::kCMaybe, "x", "x"},
           Case{"", Style::kCMaybe, "", ""},
           Case{"a b", Style::kCMaybe, "a b", "a b"},
           Case{"a'b", Style::kCMaybe, "a'b", "a'b"},
           Case{"a\"b", Style::kCMaybe, "\"a\\\"b\"", "\"a\\\"b\""},
           Case{"a\\b", Style::kCMaybe, "a\\b", "a\\b"},
           Case{"a\tb", Style::kCMaybe, "\"a\\tb\"", "\"a\\tb\""},
           Case{"\001", Style::kCMaybe, "\"\\001\"", "\"\\001\""},
           Case{"a=b", Style::kCMaybe, "a=b", "a=b"},
           Case{"#x", Style::kCMaybe, "#x", "#x"},
           Case{"x#", Style::kCMaybe, "x#", "x#"},
           Case{"{", Style::kCMaybe, "{", "{"},
           Case{"{}", Style::kCMaybe, "{}", "{}"},
           Case{"é", Style::kCMaybe, "\"\\303\\251\"", "é"},
           Case{"é'", Style::kCMaybe, "\"\\303\\251'\"", "é'"},
           Case{"\351", Style::kCMaybe, "\"\\351\"", "\"\\351\""},
           Case{"’", Style::kCMaybe, "\"\\342\\200\\231\"", "’"},
           Case{"\302\200", Style::kCMaybe, "\"\\302\\200\"", "\"\\302\\200\""},
           Case{"x", Style::kEscape, "x", "x"},
           Case{"", Style::kEscape, "", ""},
           Case{"a b", Style::kEscape, "a\\ b", "a\\ b"},
           Case{"a'b", Style::kEscape, "a'b", "a'b"},
           Case{"a\"b", Style::kEscape, "a\"b", "a\"b"},
           Case{"a\\b", Style::kEscape, "a\\\\b", "a\\\\b"},
           Case{"a\tb", Style::kEscape, "a\\tb", "a\\tb"},
           Case{"\001", Style::kEscape, "\\001", "\\001"},
           Case{"a=b", Style::kEscape, "a=b", "a=b"},
           Case{"#x", Style::kEscape, "#x", "#x"},
           Case{"x#", Style::kEscape, "x#", "x#"},
           Case{"{", Style::kEscape, "{", "{"},
           Case{"{}", Style::kEscape, "{}", "{}"},
           Case{"é", Style::kEscape, "\\303\\251", "é"},
           Case{"é'", Style::kEscape, "\\303\\251'", "é'"},
           Case{"\351", Style::kEscape, "\\351", "\\351"},
           Case{"’", Style::kEscape, "\\342\\200\\231", "’"},
           Case{"\302\200", Style::kEscape, "\\302\\200", "\\302\\200"},
           Case{"x", Style::kLocale, "'x'", "‘x’"},
           Case{"", Style::kLocale, "''", "‘’"},
           Case{"a b", Style::kLocale, "'a b'", "‘a b’"},
           Case{"a'b", Style::kLocale, "'a\\'b'", "‘a'b’"},
           Case{"a\"b", Style::kLocale, "'a\"b'", "‘a\"b’"},
           Case{"a\\b", Style::kLocale, "'a\\\\b'", "‘a\\\\b’"},
           Case{"a\tb", Style::kLocale, "'a\\tb'", "‘a\\tb’"},
           Case{"\001", Style::kLocale, "'\\001'", "‘\\001’"},
           Case{"a=b", Style::kLocale, "'a=b'", "‘a=b’"},
           Case{"#x", Style::kLocale, "'#x'", "‘#x’"},
           Case{"x#", Style::kLocale, "'x#'", "‘x#’"},
           Case{"{", Style::kLocale, "'{'", "‘{’"},
           Case{"{}", Style::kLocale, "'{}'", "‘{}’"},
           Case{"é", Style::kLocale, "'\\303\\251'", "‘é’"},
           Case{"é'", Style::kLocale, "'\\303\\251\\''", "‘é'’"},
           Case{"\351", Style::kLocale, "'\\351'", "‘\\351’"},
           Case{"’", Style::kLocale, "'\\342\\200\\231'", "‘\\’’"},
           Case{"\302\200", Style::kLocale, "'\\302\\200'", "‘\\302\\200’"},
           Case{"x", Style::kCLocale, "\"x\"", "‘x’"},
           Case{"", Style::kCLocale, "\"\"", "‘’"},
           Case{"a b", Style::kCLocale, "\"a b\"", "‘a b’"},
           Case{"a'b", Style::kCLocale, "\"a'b\"", "‘a'b’"},
           Case{"a\"b", Style::kCLocale, "\"a\\\"b\"", "‘a\"b’"},
           Case{"a\\b", Style::kCLocale, "\"a\\\\b\"", "‘a\\\\b’"},
           Case{"a\tb", Style::kCLocale, "\"a\\tb\"", "‘a\\tb’"},
           Case{"\001", Style::kCLocale, "\"\\001\"", "‘\\001’"},
           Case{"a=b", Style::kCLocale, "\"a=b\"", "‘a=b’"},
           Case{"#x", Style::kCLocale, "\"#x\"", "‘#x’"},
           Case{"x#", Style::kCLocale, "\"x#\"", "‘x#’"},
           Case{"{", Style::kCLocale, "\"{\"", "‘{’"},
           Case{"{}", Style::kCLocale, "\"{}\"", "‘{}’"},
           Case{"é", Style::kCLocale, "\"\\303\\251\"", "‘é’"},
           Case{"é'", Style::kCLocale, "\"\\303\\251'\"", "‘é'’"},
           Case{"\351", Style::kCLocale, "\"\\351\"", "‘\\351’"},
           Case{"’", Style::kCLocale, "\"\\342\\200\\231\"", "‘\\’’"},
           Case{"\302\200", Style::kCLocale, "\"\\302\\200\"", "‘\\302\\200’"},
       }) {
    EXPECT_EQ(QuoteAs(c.in, c.style), kUtf8 ? c.utf8 : c.c) << c.in << " style " << static_cast<int>(c.style);
  }
}

struct Pair {
  absl::string_view in, c, utf8;
};

// GNU's quote(), for operands in messages: its locale style.
TEST_F(QuoteTest, QuoteIsTheLocaleStyle) {
  for (const Pair& c : {
           Pair{"x", "'x'", "‘x’"},
           Pair{"", "''", "‘’"},
           Pair{"a'b", "'a\\'b'", "‘a'b’"},
           Pair{"a\nb\tc\\d", "'a\\nb\\tc\\\\d'", "‘a\\nb\\tc\\\\d’"},
           Pair{"\351", "'\\351'", "‘\\351’"},
           Pair{"\177", "'\\177'", "‘\\177’"},
           Pair{"a b", "'a b'", "‘a b’"},
           Pair{"\007\010\013\014\015", "'\\a\\b\\v\\f\\r'", "‘\\a\\b\\v\\f\\r’"},
           Pair{"é'x", "'\\303\\251\\'x'", "‘é'x’"},
           Pair{"‘x’", "'\\342\\200\\230x\\342\\200\\231'", "‘‘x\\’’"},
           Pair{"\303", "'\\303'", "‘\\303’"},
           Pair{"a\303", "'a\\303'", "‘a\\303’"},
           Pair{"\342\200", "'\\342\\200'", "‘\\342\\200’"},
           Pair{"\302\200", "'\\302\\200'", "‘\\302\\200’"},
           Pair{"\342\200\213", "'\\342\\200\\213'", "‘\342\200\213’"},
           Pair{"日本", "'\\346\\227\\245\\346\\234\\254'", "‘日本’"},
           Pair{"\355\240\200", "'\\355\\240\\200'", "‘\\355\\240\\200’"},
           Pair{"\033[", "'\\033['", "‘\\033[’"},
       }) {
    EXPECT_EQ(Quote(c.in), kUtf8 ? c.utf8 : c.c) << c.in;
  }
  EXPECT_EQ(Quote(absl::string_view("\0", 1)), kUtf8 ? "\u2018\\000\u2019" : "'\\000'");  // Not observable via argv.
}

// GNU's quoteaf() (shell-escape-always), for the few messages that quote file names.
TEST_F(QuoteTest, QuoteFileNamePlainSingleQuotes) {
  for (const Pair& c : {
           Pair{"", "''", "''"},
           Pair{"x", "'x'", "'x'"},
           Pair{"a b", "'a b'", "'a b'"},
           Pair{"$x", "'$x'", "'$x'"},
           Pair{"a`b", "'a`b'", "'a`b'"},
           Pair{"a!b", "'a!b'", "'a!b'"},
           Pair{"a\\b", "'a\\b'", "'a\\b'"},
           Pair{"a\"b", "'a\"b'", "'a\"b'"},
           Pair{"a\\\"b", "'a\\\"b'", "'a\\\"b'"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), kUtf8 ? c.utf8 : c.c) << c.in;
  }
}

TEST_F(QuoteTest, QuoteFileNameDoubleQuotesWhenASingleQuoteIsAmongHarmlessCharacters) {
  for (const Pair& c : {
           Pair{"a'b", "\"a'b\"", "\"a'b\""},
           Pair{"'", "\"'\"", "\"'\""},
           Pair{"''", "\"''\"", "\"''\""},
           Pair{"a' b", "\"a' b\"", "\"a' b\""},
           Pair{"a'%+,-./:@]_9Z", "\"a'%+,-./:@]_9Z\"", "\"a'%+,-./:@]_9Z\""},
           Pair{"#'", "\"#'\"", "\"#'\""},
           Pair{"~'", "\"~'\"", "\"~'\""},
           Pair{"é'", "''$'\\303\\251'\\'''", "\"é'\""},
           Pair{"a'b“c", "'a'\\''b'$'\\342\\200\\234''c'", "\"a'b“c\""},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), kUtf8 ? c.utf8 : c.c) << c.in;
  }
}

TEST_F(QuoteTest, QuoteFileNameWritesASingleQuoteAsQuoteBackslashQuoteQuote) {
  for (const Pair& c : {
           Pair{"'#", "''\\''#'", "''\\''#'"},
           Pair{"'~", "''\\''~'", "''\\''~'"},
           Pair{"a'b\"c", "'a'\\''b\"c'", "'a'\\''b\"c'"},
           Pair{"a'$", "'a'\\''$'", "'a'\\''$'"},
           Pair{"a'\\", "'a'\\''\\'", "'a'\\''\\'"},
           Pair{"a'!", "'a'\\''!'", "'a'\\''!'"},
           Pair{"a'[", "'a'\\''['", "'a'\\''['"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), kUtf8 ? c.utf8 : c.c) << c.in;
  }
}

TEST_F(QuoteTest, QuoteFileNameEscapesInDollarQuotedSegments) {
  for (const Pair& c : {
           Pair{"a\tb", "'a'$'\\t''b'", "'a'$'\\t''b'"},
           Pair{"a\nb", "'a'$'\\n''b'", "'a'$'\\n''b'"},
           Pair{"\007\010\t\n\013\014\015", "''$'\\a\\b\\t\\n\\v\\f\\r'", "''$'\\a\\b\\t\\n\\v\\f\\r'"},
           Pair{"\001", "''$'\\001'", "''$'\\001'"},
           Pair{"a\001b", "'a'$'\\001''b'", "'a'$'\\001''b'"},
           Pair{"\177", "''$'\\177'", "''$'\\177'"},
           Pair{"\033", "''$'\\033'", "''$'\\033'"},
           Pair{"\200\377", "''$'\\200\\377'", "''$'\\200\\377'"},
           Pair{"ü_x", "''$'\\303\\274''_x'", "'ü_x'"},
           Pair{"x_ü", "'x_'$'\\303\\274'", "'x_ü'"},
           Pair{"\t\t", "''$'\\t\\t'", "''$'\\t\\t'"},
           Pair{"\001a\002", "''$'\\001''a'$'\\002'", "''$'\\001''a'$'\\002'"},
           Pair{"\001 \002", "''$'\\001'' '$'\\002'", "''$'\\001'' '$'\\002'"},
           Pair{"\001\\", "''$'\\001''\\'", "''$'\\001''\\'"},
           Pair{"a\"\001", "'a\"'$'\\001'", "'a\"'$'\\001'"},
           Pair{"\351_x", "''$'\\351''_x'", "''$'\\351''_x'"},
           Pair{"é\tb", "''$'\\303\\251\\t''b'", "'é'$'\\t''b'"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), kUtf8 ? c.utf8 : c.c) << c.in;
  }
  EXPECT_EQ(QuoteFileName(absl::string_view("a\0b", 3)), "'a'$'\\000''b'");  // Not observable via argv.
}

TEST_F(QuoteTest, QuoteFileNameSingleQuotesNextToDollarQuotedSegments) {
  for (const Pair& c : {
           Pair{"a'b\tc", "'a'\\''b'$'\\t''c'", "'a'\\''b'$'\\t''c'"},
           Pair{"a'\tb", "'a'\\'''$'\\t''b'", "'a'\\'''$'\\t''b'"},
           Pair{"a\t'b", "'a'$'\\t'\\''b'", "'a'$'\\t'\\''b'"},
           Pair{"\t'", "''$'\\t'\\'''", "''$'\\t'\\'''"},
           Pair{"\001'", "''$'\\001'\\'''", "''$'\\001'\\'''"},
           Pair{"'\001'", "''\\'''$'\\001'\\'''", "''\\'''$'\\001'\\'''"},
           Pair{"'\t", "''\\'''$'\\t'", "''\\'''$'\\t'"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), kUtf8 ? c.utf8 : c.c) << c.in;
  }
}

// GNU 9.1 wrote a name with a ' that ends in an unprintable byte as if a $'...' segment were open at its start
// ('''a'\'''$'\303\274'); GNU 9.10 no longer does, and neither do we.
TEST_F(QuoteTest, QuoteFileNameWithoutGnu91sQuirk) {
  for (const Pair& c : {
           Pair{"a'ü", "'a'\\'''$'\\303\\274'", "\"a'ü\""},
           Pair{"\001'\001", "''$'\\001'\\'''$'\\001'", "''$'\\001'\\'''$'\\001'"},
           Pair{"\t'\t", "''$'\\t'\\'''$'\\t'", "''$'\\t'\\'''$'\\t'"},
           Pair{"'a\t", "''\\''a'$'\\t'", "''\\''a'$'\\t'"},
           Pair{"a'\351", "'a'\\'''$'\\351'", "'a'\\'''$'\\351'"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), kUtf8 ? c.utf8 : c.c) << c.in;
  }
}

// quotearg's own escape style leaves a space as it is: GNU master's `QUOTING_STYLE=escape env -i 'a b=c d'` prints
// "a b=c d" (commit aa0c0de3508e), where ls, which asks quotearg to escape a space too, shows "a\ b".
TEST_F(QuoteTest, QuoteAsQuoteargLeavesASpaceInTheEscapeStyle) {
  EXPECT_EQ(QuoteAsQuotearg("a b", Style::kEscape), "a b");
  EXPECT_EQ(QuoteAsQuotearg(" a\tb ", Style::kEscape), " a\\tb ");
  EXPECT_EQ(QuoteAsQuotearg("\303\251 \\", Style::kEscape), kUtf8 ? "\303\251 \\\\" : "\\303\\251 \\\\");
  // Everything else as QuoteAs() writes it.
  for (const char* name : {"literal", "shell", "shell-always", "shell-escape", "shell-escape-always", "c", "c-maybe",
                           "escape", "locale", "clocale"}) {
    const Style style = *ParseQuotingStyle(name);
    for (absl::string_view in : {"", "x", "a'b", "a\tb", "\303\251", "\351", "a\\b", "#~", "{"}) {
      EXPECT_EQ(QuoteAsQuotearg(in, style), QuoteAs(in, style)) << name << " " << in;
    }
    if (style != Style::kEscape) {
      EXPECT_EQ(QuoteAsQuotearg("a b", style), QuoteAs("a b", style)) << name;
    }
  }
}

TEST_F(QuoteTest, ParseQuotingStyleTakesNamesAndUnambiguousAbbreviations) {
  struct Named {
    absl::string_view name;
    Style style;
  };
  for (const Named& n : {
           Named{"literal", Style::kLiteral}, Named{"shell", Style::kShell},
           Named{"shell-always", Style::kShellAlways}, Named{"shell-escape", Style::kShellEscape},
           Named{"shell-escape-always", Style::kShellEscapeAlways}, Named{"c", Style::kC},
           Named{"c-maybe", Style::kCMaybe}, Named{"escape", Style::kEscape}, Named{"locale", Style::kLocale},
           Named{"clocale", Style::kCLocale}, Named{"lit", Style::kLiteral}, Named{"shell-a", Style::kShellAlways},
           Named{"shell-escape-", Style::kShellEscapeAlways}, Named{"c-", Style::kCMaybe},
           Named{"e", Style::kEscape}, Named{"cl", Style::kCLocale}, Named{"loc", Style::kLocale},
       }) {
    EXPECT_EQ(ParseQuotingStyle(n.name), n.style) << n.name;
  }
  for (absl::string_view bad : {"", "sh", "shell-", "C", "LITERAL", "invalid", "c ", " c", "l"}) {
    EXPECT_EQ(ParseQuotingStyle(bad), absl::nullopt) << bad;
  }
}

// Every style against GNU's own ls, on ~3,300 names built from pairs of interesting pieces (specials, controls,
// printable and unprintable UTF-8, invalid bytes). Only where /usr/bin/ls is GNU 9.1 (Debian bookworm's).
TEST_F(QuoteTest, LsAgreesOnEveryStyle) {
  if (!coreutils_testing::LsIsGnu91()) GTEST_SKIP() << "/usr/bin/ls is not GNU ls 9.1";
  const std::vector<std::string> names = coreutils_testing::NamesOfPieces({
      "a", "Z", "0", " ", "'", "\"", "\\", "\t", "\n", "\r", "\001", "\033", "\177", "#", "~", "{", "}", "=",
      "$", "!", "%", "+", ",", "-", ".", ":", "@", "]", "_", "[", "^", "`", "|", "&", ";", "*", "?", "(", ")",
      "<", ">", "\u00e9", "\u2019", "\u2018", "\u201c", "\u0080", "\u200b", "\u00ad", "\U0001F600", "\u65e5",
      "\u2028", "\xe9", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff"});
  coreutils_testing::ExpectLsAgrees(names, {std::string("LC_ALL=") + kLocale});
}

}  // namespace
}  // namespace uucore
