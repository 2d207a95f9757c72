#include "uucore/quote.h"

#include "gtest/gtest.h"

namespace uucore {
namespace {

struct Case {
  absl::string_view in, out;
};

TEST(QuoteTest, MatchesGnuInTheCLocale) {
  for (const Case& c : {
           Case{"x", "'x'"},
           Case{"", "''"},
           Case{"a'b", "'a\\'b'"},
           Case{"a\nb\tc\\d", "'a\\nb\\tc\\\\d'"},
           Case{"\xe9", "'\\351'"},
           Case{absl::string_view("\0", 1), "'\\000'"},
           Case{"\x7f", "'\\177'"},
           Case{"a b", "'a b'"},
           Case{"\a\b\v\f\r", "'\\a\\b\\v\\f\\r'"},
       }) {
    EXPECT_EQ(Quote(c.in), c.out) << c.in;
  }
}

// Every expectation below is GNU env 9.1's own output for `LC_ALL=C env -C NAME true` ("cannot change directory
// to OUT: ..."); a model of these rules also agreed with GNU on 12000 random names and on every byte 1-255.
TEST(QuoteFileNameTest, PlainSingleQuotesWithoutEscapes) {
  for (const Case& c : {
           Case{"", "''"},
           Case{"x", "'x'"},
           Case{"a b", "'a b'"},
           Case{"$x", "'$x'"},
           Case{"a`b", "'a`b'"},
           Case{"a!b", "'a!b'"},
           Case{"a\\b", "'a\\b'"},  // A backslash is just a byte between single quotes.
           Case{"a\"b", "'a\"b'"},
           Case{"a\\\"b", "'a\\\"b'"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), c.out) << c.in;
  }
}

TEST(QuoteFileNameTest, DoubleQuotesWhenASingleQuoteIsAmongHarmlessBytes) {
  for (const Case& c : {
           Case{"a'b", "\"a'b\""},
           Case{"'", "\"'\""},
           Case{"''", "\"''\""},
           Case{"a' b", "\"a' b\""},
           Case{"a'%+,-./:@]_9Z", "\"a'%+,-./:@]_9Z\""},
           Case{"#'", "\"#'\""},  // '#' and '~' are harmless as the first byte only.
           Case{"~'", "\"~'\""},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), c.out) << c.in;
  }
}

TEST(QuoteFileNameTest, SingleQuoteWrittenAsQuoteBackslashQuoteQuote) {
  for (const Case& c : {
           Case{"'#", "''\\''#'"},
           Case{"'~", "''\\''~'"},
           Case{"a'b\"c", "'a'\\''b\"c'"},
           Case{"a'$", "'a'\\''$'"},
           Case{"a'\\", "'a'\\''\\'"},
           Case{"a'!", "'a'\\''!'"},
           Case{"a'[", "'a'\\''['"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), c.out) << c.in;
  }
}

TEST(QuoteFileNameTest, UnprintableBytesInDollarQuotedSegments) {
  for (const Case& c : {
           Case{"a\tb", "'a'$'\\t''b'"},
           Case{"a\nb", "'a'$'\\n''b'"},
           Case{"\a\b\t\n\v\f\r", "''$'\\a\\b\\t\\n\\v\\f\\r'"},
           Case{"\001", "''$'\\001'"},
           Case{"a\001b", "'a'$'\\001''b'"},
           Case{"\177", "''$'\\177'"},
           Case{"\033", "''$'\\033'"},
           Case{"\200\377", "''$'\\200\\377'"},
           Case{"\303\274_x", "''$'\\303\\274''_x'"},  // UTF-8 is bytes in the C locale.
           Case{"x_\303\274", "'x_'$'\\303\\274'"},
           Case{"\t\t", "''$'\\t\\t'"},
           Case{"\001a\002", "''$'\\001''a'$'\\002'"},
           Case{"\001 \002", "''$'\\001'' '$'\\002'"},
           Case{"\001\\", "''$'\\001''\\'"},
           Case{"a\"\001", "'a\"'$'\\001'"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), c.out) << c.in;
  }
}

TEST(QuoteFileNameTest, SingleQuotesNextToDollarQuotedSegments) {
  for (const Case& c : {
           Case{"a'b\tc", "'a'\\''b'$'\\t''c'"},
           Case{"a'\tb", "'a'\\'''$'\\t''b'"},
           Case{"a\t'b", "'a'$'\\t'\\''b'"},
           Case{"\t'", "''$'\\t'\\'''"},
           Case{"\001'", "''$'\\001'\\'''"},
           Case{"'\001'", "''\\'''$'\\001'\\'''"},
           Case{"'\t", "''\\'''$'\\t'"},
       }) {
    EXPECT_EQ(QuoteFileName(c.in), c.out) << c.in;
  }
}

// GNU 9.1's quirk, reproduced: a name with a single quote that ends in an unprintable byte is written as if a
// $'...' segment were already open at its start.
TEST(QuoteFileNameTest, GnuQuirkWhenASingleQuotedNameEndsUnprintable) {
  for (const Case& c : {
           Case{"a'\303\274", "'''a'\\'''$'\\303\\274'"},  // An extra '' before the first byte.
           Case{"\001'\001", "'\\001'\\'''$'\\001'"},       // The first segment lacks its '$' opener.
           Case{"\t'\t", "'\\t'\\'''$'\\t'"},
           Case{"'a\t", "''\\''a'$'\\t'"},                   // A leading ' is unaffected.
       }) {
    EXPECT_EQ(QuoteFileName(c.in), c.out) << c.in;
  }
}

TEST(QuoteFileNameTest, KeepsNul) {  // Not observable through argv: the rule for any other control byte.
  EXPECT_EQ(QuoteFileName(absl::string_view("a\0b", 3)), "'a'$'\\000''b'");
}

}  // namespace
}  // namespace uucore
