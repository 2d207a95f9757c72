// printenv: GNU printenv 9.10's semantics, with names and values quoted per QUOTING_STYLE as GNU's development
// branch does (issue 14), a VARIABLE's value only on a terminal unless QUOTING_STYLE is set; one behaviour per case.
// The cases where quoting changes nothing (a VARIABLE's value into a pipe among them) also run through
// /usr/bin/printenv (GNU 9.1, which 9.10 matches there), under C and C.UTF-8.
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/pty.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

const char kTry[] = "Try 'printenv --help' for more information.\n";

template <size_t N>
std::string Bytes(const char (&s)[N]) {  // A literal with its NULs, without the terminating one.
  return std::string(s, N - 1);
}

// Exactly ENTRIES as the environment (duplicates and all), in LOCALE's quoting.
Options Environment(const std::vector<std::string>& entries) {
  Options options;
  options.clear_env = true;
  options.env = entries;
  return options;
}

TEST(PrintenvTest, Values) {
  const Options env = Environment({"A=1", "B=x y", "E=", "A=3", "=x", "NOEQ", "C=it's"});
  for (const Case& c : std::vector<Case>{
           {"one value, as it is into a pipe", {"printenv", "B"}, 0, "x y\n", ""},
           {"every entry of a name, in order", {"printenv", "A"}, 0, "1\n3\n", ""},
           {"operands in their order", {"printenv", "C", "A"}, 0, "it's\n1\n3\n", ""},
           {"an empty value", {"printenv", "E"}, 0, "\n", ""},
           {"a missing name: status 1, no message", {"printenv", "A", "NOPE", "C"}, 1, "1\n3\nit's\n", ""},
           {"NAME=VALUE is silently not found", {"printenv", "A=1"}, 1, "", ""},
           {"the empty name is not found", {"printenv", ""}, 1, "", ""},
           {"an entry without = is not found", {"printenv", "NOEQ"}, 1, "", ""},
           {"-0: exact values, NUL after each", {"printenv", "-0", "B", "E"}, 0, Bytes("x y\0\0"), ""},
           {"--null", {"printenv", "--null", "A"}, 0, Bytes("1\0003\0"), ""},
           {"--nu", {"printenv", "--nu", "A"}, 0, Bytes("1\0003\0"), ""},
           {"options stop at the first operand", {"printenv", "A", "-0"}, 1, "1\n3\n", ""},
           {"--", {"printenv", "--", "E"}, 0, "\n", ""},
           {"every entry, as env prints them", {"printenv"}, 0, "A=1\nB='x y'\nE=\nA=3\n''=x\nNOEQ\nC=\"it's\"\n",
            ""},
           {"every entry with -0, exactly", {"printenv", "-0"}, 0, Bytes("A=1\0B=x y\0E=\0A=3\0=x\0NOEQ\0C=it's\0"),
            ""},
       }) {
    ExpectCase(c, env);
  }
}

// The listing, byte for byte as GNU master's printenv prints it (the same function as env's): an empty value bare,
// each NAME and VALUE in quotearg's shell-escape style.
TEST(PrintenvTest, ListsTheEnvironmentAsGnuMaster) {
  ExpectCase({"corners", {"printenv"}, 0, "E=\n''=\na='=b'\nT='~x'\nN='a'$'\\n''b'\n'N'$'\\240'=1\n", ""},
             Environment({"E=", "=", "a==b", "T=~x", "N=a\nb", "N\240=1"}));
}

TEST(PrintenvTest, QuotingStyle) {
  for (const Case& c : std::vector<Case>{
           {"QUOTING_STYLE=c", {"printenv", "B"}, 0, "\"x y\"\n", ""},
           {"QUOTING_STYLE=literal", {"printenv", "B"}, 0, "x y\n", ""},
           {"QUOTING_STYLE=escape", {"printenv", "B"}, 0, "x y\n", ""},  // quotearg's own: a space stays.
           // Counts as unset once warned about: a value into a pipe as it is.
           {"QUOTING_STYLE=invalid", {"printenv", "B"}, 0, "x y\n",
            "printenv: ignoring invalid value of environment variable QUOTING_STYLE: 'invalid'\n"},
       }) {
    ExpectCase(c, Environment({"B=x y", c.name}));
  }
  ExpectCase({"-0 reads no QUOTING_STYLE", {"printenv", "-0", "B"}, 0, Bytes("x y\0"), ""},
             Environment({"B=x y", "QUOTING_STYLE=invalid"}));
  ExpectCase({"the listing is quoted too", {"printenv"}, 0, "\"B\"=\"x y\"\n\"QUOTING_STYLE\"=\"c\"\n", ""},
             Environment({"B=x y", "QUOTING_STYLE=c"}));
  ExpectCase({"an empty value in the listing stays bare", {"printenv"}, 0, "\"E\"=\n\"QUOTING_STYLE\"=\"c\"\n", ""},
             Environment({"E=", "QUOTING_STYLE=c"}));
  ExpectCase({"the listing in the escape style", {"printenv"}, 0, "B=x y\nQUOTING_STYLE=escape\n", ""},
             Environment({"B=x y", "QUOTING_STYLE=escape"}));
  ExpectCase({"an empty value asked for is quoted", {"printenv", "E"}, 0, "''\n", ""},
             Environment({"E=", "QUOTING_STYLE=shell-escape"}));
}

TEST(PrintenvTest, Locale) {
  ExpectCase({"C: UTF-8 in octal", {"printenv", "U", "V"}, 0, "''$'\\303\\251'\n''$'\\351'\n", ""},
             Environment({"LC_ALL=C", "U=\303\251", "V=\351", "QUOTING_STYLE=shell-escape"}));
  ExpectCase({"C.UTF-8: printable UTF-8 kept", {"printenv", "U", "V"}, 0, "\303\251\n''$'\\351'\n", ""},
             Environment({"LC_ALL=C.UTF-8", "U=\303\251", "V=\351", "QUOTING_STYLE=shell-escape"}));
  ExpectCase({"C: a value into a pipe, unquoted", {"printenv", "U", "V"}, 0, "\303\251\n\351\n", ""},
             Environment({"LC_ALL=C", "U=\303\251", "V=\351"}));
  ExpectCase({"C.UTF-8: locale style", {"printenv", "U"}, 0, "\u2018\303\251\u2019\n", ""},
             Environment({"LC_ALL=C.UTF-8", "U=\303\251", "QUOTING_STYLE=locale"}));
  ExpectCase({"C.UTF-8: the warning", {"printenv", "U"}, 0, "\303\251\n",
              "printenv: ignoring invalid value of environment variable QUOTING_STYLE: \u2018x\u2019\n"},
             Environment({"LC_ALL=C.UTF-8", "U=\303\251", "QUOTING_STYLE=x"}));
}

// A VARIABLE's value is quoted for a terminal (QUOTING_STYLE unset), as the listing always is.
TEST(PrintenvTest, AValueIsQuotedOnATerminal) {
  Pty pty;
  ASSERT_TRUE(pty.ok());
  Options options = Environment({"B=x y", "E="});
  options.before_exec = pty.OnFds({1});
  Result r = Invoke({"printenv", "B", "E"}, options);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(pty.Drain(), "'x y'\n''\n");
}

TEST(PrintenvTest, UsageErrors) {
  for (const Case& c : std::vector<Case>{
           // GNU master (255febf98, after 9.11) no longer gives getopt -i and -u: they are invalid options like any
           // other, where 9.10 and before took them and then printed only the Try line. Its printenv's output.
           {"-i is an invalid option", {"printenv", "-i"}, 2, "",
            "printenv: invalid option -- 'i'\n" + std::string(kTry)},
           {"-u NAME likewise", {"printenv", "-u", "A"}, 2, "",
            "printenv: invalid option -- 'u'\n" + std::string(kTry)},
           {"-u without NAME likewise", {"printenv", "-u"}, 2, "",
            "printenv: invalid option -- 'u'\n" + std::string(kTry)},
           {"-i among others", {"printenv", "-ix"}, 2, "", "printenv: invalid option -- 'i'\n" + std::string(kTry)},
           {"-i after -0", {"printenv", "-0i"}, 2, "", "printenv: invalid option -- 'i'\n" + std::string(kTry)},
           {"invalid option", {"printenv", "-a"}, 2, "", "printenv: invalid option -- 'a'\n" + std::string(kTry)},
           {"unrecognized option", {"printenv", "--bogus"}, 2, "",
            "printenv: unrecognized option '--bogus'\n" + std::string(kTry)},
           {"--null takes no argument", {"printenv", "--null=3"}, 2, "",
            "printenv: option '--null' doesn't allow an argument\n" + std::string(kTry)},
           {"the program name is argv[0]", {"/x/printenv", "-a"}, 2, "",
            "/x/printenv: invalid option -- 'a'\nTry '/x/printenv --help' for more information.\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(PrintenvTest, HelpVersionAndWriteErrors) {
  const Result help = Invoke({"printenv", "--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.err, "");
  // Our own words; GNU's synopsis and option names.
  EXPECT_EQ(help.out.substr(0, help.out.find('\n')), "Usage: printenv [OPTION] [VARIABLE]...");
  for (const char* option : {"\n  -0, --null ", "\n      --help ", "\n      --version "}) {
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
  }
  ExpectCase({"--version", {"printenv", "--version"}, 0,
              "printenv (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n",
              ""});
  Options full = Environment({"A=1"});
  full.stdout_path = "/dev/full";
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"printenv", "--help"}, {"printenv", "--version"}, {"printenv", "A"}, {"printenv"}}) {
    ExpectCase({argv.back() + " >/dev/full", argv, 2, "", "printenv: write error: No space left on device\n"}, full);
  }
}

// Ours and GNU's printenv (9.1 here; 9.10 agrees) on ENV, byte for byte, under C and C.UTF-8.
void ExpectSameAsGnu(const std::vector<std::vector<std::string>>& cases, const std::vector<std::string>& env) {
  for (const char* locale : {"LC_ALL=C", "LC_ALL=C.UTF-8"}) {
    std::vector<std::string> entries = {locale};
    entries.insert(entries.end(), env.begin(), env.end());
    const Options options = Environment(entries);
    for (const std::vector<std::string>& args : cases) {
      std::vector<std::string> argv = {"printenv"};
      argv.insert(argv.end(), args.begin(), args.end());
      std::string name = locale;
      for (const std::string& a : argv) name += " [" + a + "]";
      const Result gnu = RunProgram("/usr/bin/printenv", argv, options);
      const Result ours = Invoke(argv, options);
      EXPECT_EQ(ours.status, gnu.status) << name;
      EXPECT_EQ(ours.out, gnu.out) << name;
      EXPECT_EQ(ours.err, gnu.err) << name;
    }
  }
}

// Where quoting changes nothing.
TEST(PrintenvTest, SameAsGnu) {
  if (access("/usr/bin/printenv", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/printenv";
  ExpectSameAsGnu({{}, {"-0"}, {"A"}, {"A", "B"}, {"B", "A"}, {"A", "NOPE"}, {"A=1"}, {""}, {"-0", "A", "B"},
                   {"A", "-0"}, {"--", "A"}, {"--nu", "A"}, {"-a"}, {"--bogus"}, {"--null=3"}, {"--n", "A"},
                   {"PATH", "NOEQ"}},
                  {"A=1", "B=/x:y", "A=2", "NOEQ", "PATH=/usr/bin:/bin"});
}

// Values a listing would quote: a VARIABLE's value into a pipe is not (QUOTING_STYLE unset), so $(printenv VAR)
// gets what GNU gives.
TEST(PrintenvTest, AValueIntoAPipeIsAsGnuPrintsIt) {
  if (access("/usr/bin/printenv", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/printenv";
  ExpectSameAsGnu({{"S", "Q", "E", "U", "N"}, {"-0", "S", "Q"}},
                  {"S=x y", "Q=it's", "E=", "U=\303\251", "N=a\nb"});
}

}  // namespace
}  // namespace coreutils_testing
