// env -S splitting, one behaviour per case; every expectation was observed with GNU env 9.1 (`env -v -S STRING`).
#include "utils/env/split.h"

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace env {
namespace {

using ::coreutils_testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

const std::map<std::string, std::string>& Vars() {
  static const auto* vars =
      new std::map<std::string, std::string>{{"HOME", "/root"}, {"E", ""}, {"X", "a b"}, {"_a1", "u"}, {"Q", "\"'\\"}};
  return *vars;
}

const char* Lookup(const std::string& name) {
  auto it = Vars().find(name);
  return it == Vars().end() ? nullptr : it->second.c_str();
}

absl::StatusOr<std::vector<std::string>> Split(absl::string_view s) { return SplitString(s, Lookup); }

struct Good {
  const char* name;
  std::string input;
  std::vector<std::string> words;
};

TEST(SplitStringTest, Splits) {
  for (const Good& c : std::vector<Good>{
           {"empty string", "", {}},
           {"only blanks", "  \t ", {}},
           {"one word", "true", {"true"}},
           {"runs of blanks separate", "  a   b ", {"a", "b"}},
           {"every C space separates", "a\tb\nc\vd\fe\rf", {"a", "b", "c", "d", "e", "f"}},
           {"double quotes keep blanks", "echo \"a  b\" c", {"echo", "a  b", "c"}},
           {"single quotes keep blanks", "'x y'", {"x y"}},
           {"quotes join parts of a word", "A=\"a\"b\"c\"", {"A=abc"}},
           {"quoted part joins the next text", "x \"a b\"c d", {"x", "a bc", "d"}},
           {"empty double quotes are an argument", "\"\" a", {"", "a"}},
           {"empty single quotes are an argument", "'' a", {"", "a"}},
           {"newline inside quotes is kept", "a \"b\nc\"", {"a", "b\nc"}},
           {"single quotes: \\\\ and \\' escape", "'a\\\\b' 'a\\'b'", {"a\\b", "a'b"}},
           {"single quotes: other backslashes stay", "'\\t\\n\\q\\_\\c\\\"'", {"\\t\\n\\q\\_\\c\\\""}},
           {"single quotes: no expansion", "'${HOME}'", {"${HOME}"}},
           {"single quote inside double quotes", "\"'\"", {"'"}},
           {"double quote inside single quotes", "'\"'", {"\""}},
           {"unquoted escapes", "\\\"\\#\\$\\'\\\\", {"\"#$'\\"}},
           {"control escapes", "\\t\\n\\r\\f\\v", {"\t\n\r\f\v"}},
           {"control escapes in double quotes", "\"\\t\\n\\r\\f\\v\"", {"\t\n\r\f\v"}},
           {"escapes in double quotes", "\"\\\"\\#\\$\\'\\\\\"", {"\"#$'\\"}},
           {"\\_ separates unquoted", "a\\_b", {"a", "b"}},
           {"\\_ runs separate once", "a\\_\\_b", {"a", "b"}},
           {"leading \\_", "\\_a", {"a"}},
           {"trailing \\_", "a\\_", {"a"}},
           {"\\_ is a space in double quotes", "\"a\\_b\"", {"a b"}},
           {"\\c ends the string", "a\\c b", {"a"}},
           {"\\c at a word start", "a \\cb c", {"a"}},
           {"\\c alone", "\\c", {}},
           {"\\c before an unterminated quote", "a\\c\"", {"a"}},
           {"\\c in single quotes is literal", "'a\\cb'", {"a\\cb"}},
           {"comment at the start", "#x a", {}},
           {"comment after a word", "A=1 #comment B=2", {"A=1"}},
           {"comment runs past newlines", "a #x\nb c", {"a"}},
           {"comment swallows a trailing backslash", "a #x\\", {"a"}},
           {"lone hash", "#", {}},
           {"hash inside a word", "A=1#x B=2", {"A=1#x", "B=2"}},
           {"quoted hash", "\"#x\" a", {"#x", "a"}},
           {"hash after empty quotes is text", "\"\"#x", {"#x"}},
           {"escaped hash", "a\\#b #c", {"a#b"}},
           {"hash after \\_ is a comment", "a\\_#b", {"a"}},
           {"expansion", "A=${HOME}", {"A=/root"}},
           {"expansion in double quotes", "A=\"${HOME}\"", {"A=/root"}},
           {"expansion twice", "A=${HOME}${HOME}", {"A=/root/root"}},
           {"expansion is not split", "A=${X} B=1", {"A=a b", "B=1"}},
           {"expansion is not re-read", "${Q}", {"\"'\\"}},
           {"underscore and digits in names", "A=${_a1}", {"A=u"}},
           {"unset expands to nothing", "A=${NOPE}x", {"A=x"}},
           {"unset makes no argument", "${NOPE} a", {"a"}},
           {"hash after unset is a comment", "${NOPE}#x", {}},
           {"set but empty makes an argument", "${E} a", {"", "a"}},
           {"set but empty at the end", "b ${E}", {"b", ""}},
           {"hash after empty-but-set is text", "${E}#x", {"#x"}},
           {"hash after an expansion is text", "${HOME}#x", {"/root#x"}},
           {"escaped dollar", "A=\\$HOME", {"A=$HOME"}},
           {"escaped dollar in double quotes", "\"\\$\"", {"$"}},
           {"options are just words", "-i A=1 B=2", {"-i", "A=1", "B=2"}},
       }) {
    absl::StatusOr<std::vector<std::string>> words = Split(c.input);
    ASSERT_TRUE(words.ok()) << c.name << ": " << words.status();
    EXPECT_THAT(*words, ElementsAreArray(c.words)) << c.name;
  }
}

struct Bad {
  const char* name;
  std::string input;
  std::string message;
};

TEST(SplitStringTest, Errors) {
  const std::string kNoQuote = "no terminating quote in -S string";
  const std::string kBackslashEnd = "invalid backslash at end of string in -S";
  const std::string kCInDouble = "'\\c' must not appear in double-quoted -S string";
  const std::string kOnly = "only ${VARNAME} expansion is supported, error at: ";
  for (const Bad& c : std::vector<Bad>{
           {"unterminated double quote", "\"abc", kNoQuote},
           {"unterminated single quote", "'abc", kNoQuote},
           {"unterminated after a word", "a 'b", kNoQuote},
           {"escaped closing double quote", "\"a\\\"", kNoQuote},
           {"escaped closing single quote", "'a\\'", kNoQuote},
           {"backslash at the end of single quotes", "'a\\", kNoQuote},
           {"\\c inside single quotes does not end", "'\\c", kNoQuote},
           {"expansion then open quote", "${HOME}\"", kNoQuote},
           {"backslash at the end", "a\\", kBackslashEnd},
           {"backslash at the end in double quotes", "\"a\\", kBackslashEnd},
           {"unknown escape", "a\\q", "invalid sequence '\\q' in -S"},
           {"unknown escape in double quotes", "\"\\q\"", "invalid sequence '\\q' in -S"},
           {"escaped space", "x\\ y", "invalid sequence '\\ ' in -S"},
           {"escaped control byte is raw", "A=\\\x01", "invalid sequence '\\\x01' in -S"},
           {"escaped high byte is raw", "A=\\\xe9", "invalid sequence '\\\xe9' in -S"},
           {"\\c in double quotes", "\"a\\cb\"", kCInDouble},
           {"\\c in double quotes before the end", "\"\\c", kCInDouble},
           {"\\c in double quotes in a later word", "a \"b\\_\\c c\"", kCInDouble},
           {"bare name", "A=$HOME", kOnly + "$HOME"},
           {"the rest of the string is shown", "A=$HOME more stuff", kOnly + "$HOME more stuff"},
           {"unclosed brace", "A=${HOME", kOnly + "${HOME"},
           {"unclosed brace in double quotes", "\"${X", kOnly + "${X"},
           {"empty name", "A=${}", kOnly + "${}"},
           {"name starts with a digit", "A=${1X}", kOnly + "${1X}"},
           {"operators", "A=${A-B}", kOnly + "${A-B}"},
           {"dollar at the end", "A=$", kOnly + "$"},
           {"dollar before a quote", "A=\"$\"", kOnly + "$\""},
       }) {
    EXPECT_THAT(Split(c.input), StatusIs(absl::StatusCode::kInvalidArgument, c.message)) << c.name;
  }
}

TEST(SplitStringTest, LooksUpEachNameInOrder) {
  std::vector<std::string> asked;
  auto lookup = [&](const std::string& name) -> const char* {
    asked.push_back(name);
    return name == "A" ? "1" : nullptr;
  };
  EXPECT_THAT(*SplitString("${A} ${B}x ${A}", lookup), ElementsAre("1", "x", "1"));
  EXPECT_THAT(asked, ElementsAre("A", "B", "A"));
}

TEST(SplitStringTest, LooksUpBeforeALaterErrorAsGnuTraces) {
  std::vector<std::string> asked;
  auto lookup = [&](const std::string& name) -> const char* {
    asked.push_back(name);
    return "v";
  };
  EXPECT_THAT(SplitString("${A} \"x", lookup), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(asked, ElementsAre("A"));
}

TEST(SplitStringTest, NothingIsLookedUpInsideSingleQuotesOrComments) {
  bool asked = false;
  auto lookup = [&](const std::string&) -> const char* {
    asked = true;
    return nullptr;
  };
  EXPECT_THAT(*SplitString("'${A}' #${B}", lookup), ElementsAre("${A}"));
  EXPECT_FALSE(asked);
  EXPECT_THAT(*SplitString("", lookup), IsEmpty());
}

}  // namespace
}  // namespace env
