// uucore/quote_catalog_test.cc -- the locale styles' quotes come from a catalog where one translates them.
//
// GNU 9.10 looks up the msgids "`" and "'" in the "gnulib" text domain (with a German gnulib.mo bind-mounted into
// /usr/share/locale/de/LC_MESSAGES, `LC_ALL=de_DE.UTF-8 timeout 'a’b“c' true` says `„a’b\“c“`; without one, as
// on Debian, `‘a\’b“c’`, even though coreutils.mo translates "`" too). Here a gnulib.mo of our own is bound with
// bindtextdomain() before uucore takes the locale, which it does once.
#include <libintl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/locales.h"
#include "uucore/quote.h"

namespace uucore {
namespace {

void Put32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) *out += static_cast<char>((v >> (8 * i)) & 0xff);
}

// A GNU .mo file (little-endian, no hash table) with ENTRIES sorted by msgid.
std::string MoFile(const std::vector<std::pair<std::string, std::string>>& entries) {
  const uint32_t n = static_cast<uint32_t>(entries.size());
  const uint32_t originals = 28, translations = originals + 8 * n, strings = translations + 8 * n;
  std::string header, table_o, table_t, data;
  Put32(&header, 0x950412de);
  for (uint32_t v : {0u, n, originals, translations, 0u, strings}) Put32(&header, v);
  for (const auto& entry : entries) {
    Put32(&table_o, static_cast<uint32_t>(entry.first.size()));
    Put32(&table_o, strings + static_cast<uint32_t>(data.size()));
    data += entry.first + '\0';
  }
  for (const auto& entry : entries) {
    Put32(&table_t, static_cast<uint32_t>(entry.second.size()));
    Put32(&table_t, strings + static_cast<uint32_t>(data.size()));
    data += entry.second + '\0';
  }
  return header + table_o + table_t + data;
}

TEST(QuoteCatalogTest, TheGnulibDomainTranslatesTheQuotes) {
  const coreutils_testing::GeneratedLocale de = coreutils_testing::MakeLocale("de_DE", "UTF-8");
  if (!de.skip_reason.empty()) GTEST_SKIP() << de.skip_reason;
  for (const std::string& entry : de.env) putenv(strdup(entry.c_str()));
  setenv("LANGUAGE", "de", 1);
  const std::string dir = std::string(getenv("TEST_TMPDIR")) + "/mo";
  for (const std::string& d : {dir, dir + "/de", dir + "/de/LC_MESSAGES"}) mkdir(d.c_str(), 0755);
  std::ofstream(dir + "/de/LC_MESSAGES/gnulib.mo", std::ios::binary)
      << MoFile({{"", "Content-Type: text/plain; charset=UTF-8\n"}, {"'", "\u00bb"}, {"`", "\u00ab"}});
  ASSERT_NE(bindtextdomain("gnulib", dir.c_str()), nullptr);

  // Not coreutils.mo's German „x“: only the gnulib domain counts.
  EXPECT_EQ(Quote("x"), "\u00abx\u00bb");                                // «x»
  EXPECT_EQ(Quote("a\u2019b\u00bbc"), "\u00aba\u2019b\\\u00bbc\u00bb");  // The closing quote is escaped.
  EXPECT_EQ(Quote("a'b\t"), "\u00aba'b\\t\u00bb");
  EXPECT_EQ(QuoteAs("x", QuotingStyle::kCLocale), "\u00abx\u00bb");
  EXPECT_EQ(QuoteFileName("a b"), "'a b'");  // The shell styles have no locale quotes.
}

}  // namespace
}  // namespace uucore
