// tests/testing/ls_quoting.h -- GNU 9.1's ls as the oracle for uucore::QuoteAs(): the quote tests compare every
// style on many names with `ls --quoting-style=STYLE` run in the same locale.
#ifndef TESTS_TESTING_LS_QUOTING_H_
#define TESTS_TESTING_LS_QUOTING_H_

#include <functional>
#include <string>
#include <vector>

#include "uucore/quote.h"

namespace coreutils_testing {

// Whether /usr/bin/ls is GNU ls 9.1 (Debian bookworm's), whose output the comparison expects.
bool LsIsGnu91();

// Every name pieces makes: each piece, and each two of them in a row ("." and ".." left out).
std::vector<std::string> NamesOfPieces(const std::vector<std::string>& pieces);

// ExpectLsAgrees()
//
// Makes a file of each of NAMES in a fresh directory and EXPECTs uucore::QuoteAs(name, style) to be what
// `/usr/bin/ls -d -U --zero --quoting-style=STYLE` prints for it, with ENV added to the runner's environment (the
// locale), in each of GNU's ten styles that COMPARED(style) accepts. GNU 9.1's quirk, which 9.10 fixed, is not
// compared (a name with a ' in the shell-escape styles that ls writes otherwise: quote_test.cc's
// QuoteFileNameWithoutGnu91sQuirk); the rest must be at least nine names in ten.
void ExpectLsAgrees(const std::vector<std::string>& names, const std::vector<std::string>& env,
                    const std::function<bool(uucore::QuotingStyle)>& compared =
                        [](uucore::QuotingStyle) { return true; });

}  // namespace coreutils_testing

#endif  // TESTS_TESTING_LS_QUOTING_H_
