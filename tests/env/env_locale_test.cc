// env in the user's locale: quotes under C.UTF-8 as GNU 9.10's (‘…’ for operands, shell-escape for file names,
// printable UTF-8 kept), the locale env started with even after -i, -u or NAME=VALUE, and GNU's German catalog.
// Every expectation is GNU 9.10's output for the same arguments (except the printed environment's quoting, which
// 9.10 lacks).
#include <fstream>
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

TEST(EnvLocaleTest, Utf8Quotes) {
  const Options utf8 = InLocale({"LC_ALL=C.UTF-8"});
  for (const Case& c : std::vector<Case>{
           {"an operand in ‘…’", {"env", "nonexist"}, 127, "", "env: ‘nonexist’: No such file or directory\n"},
           {"the locale survives -i", {"env", "-i", "nonexist"}, 127, "",
            "env: ‘nonexist’: No such file or directory\n"},
           {"and -u LC_ALL", {"env", "-u", "LC_ALL", "nonexist"}, 127, "",
            "env: ‘nonexist’: No such file or directory\n"},
           {"and LC_ALL=C for the command", {"env", "LC_ALL=C", "nonexist"}, 127, "",
            "env: ‘nonexist’: No such file or directory\n"},
           {"a closing quote inside is escaped", {"env", "-i", "a\u2019b"}, 127, "",
            "env: ‘a\\\u2019b’: No such file or directory\n"},
           {"invalid UTF-8 in octal", {"env", "-i", "\xe9"}, 127, "", "env: ‘\\351’: No such file or directory\n"},
           {"-v traces", {"env", "-v", "-i", "-a", "\u00e9\tb", "true", "\u00e9'x"}, 0, "",
            "cleaning environ\nargv0:     '\u00e9'$'\\t''b'\nexecuting: true\n   arg[0]= ‘\u00e9\\tb’\n"
            "   arg[1]= ‘\u00e9'x’\n"},
           {"-C DIR keeps printable UTF-8", {"env", "-C", "/nonexist/\u00e9 x", "true"}, 125, "",
            "env: cannot change directory to '/nonexist/\u00e9 x': No such file or directory\n"},
           {"-C DIR with a ' and UTF-8 quotes in double quotes", {"env", "-C", "a'b\u201cc", "true"}, 125, "",
            "env: cannot change directory to \"a'b\u201cc\": No such file or directory\n"},
           {"an invalid signal", {"env", "--ignore-signal=FOO", "true"}, 125, "",
            "env: ‘FOO’: invalid signal\nTry 'env --help' for more information.\n"},
           {"-S traces", {"env", "-v", "-i", "-S", "A=\u00e9"}, 0, "A=\u00e9\n",
            "split -S:  ‘A=\u00e9’\n into:    ‘A=\u00e9’\ncleaning environ\nsetenv:   A=\u00e9\n"},
           // The printed environment (GNU's development branch): shell-escape keeps printable UTF-8.
           {"printed values keep printable UTF-8", {"env", "-i", "U=\u00e9", "V=\xe9", "W=\u00e9 x"}, 0,
            "U=\u00e9\nV=''$'\\351'\nW='\u00e9 x'\n", ""},
       }) {
    ExpectCase(c, utf8);
  }
  const Options locale_style = InLocale({"LC_ALL=C.UTF-8", "QUOTING_STYLE=locale"});
  ExpectCase({"QUOTING_STYLE=locale", {"env", "-i", "a b=it's\u2019"}, 0, "‘a b’=‘it's\\\u2019’\n", ""},
             locale_style);
  const Options clocale_style = InLocale({"LC_ALL=C.UTF-8", "QUOTING_STYLE=clocale"});
  ExpectCase({"QUOTING_STYLE=clocale", {"env", "-i", "A=\""}, 0, "‘A’=‘\"’\n", ""}, clocale_style);
}

// The printed environment under C.UTF-8, byte for byte as GNU's development branch prints it: printable UTF-8 kept,
// every other byte escaped in octal, an empty value bare. Each expectation is GNU master's env's (commit
// aa0c0de3508e) output for the same arguments; env_test.cc has the cases under C.
TEST(EnvLocaleTest, PrintsTheEnvironmentAsGnuMaster) {
  const Options utf8 = InLocale({"LC_ALL=C.UTF-8"});
  for (const Case& c : std::vector<Case>{
           {"an empty value is bare", {"env", "-i", "A="}, 0, "A=\n", ""},
           {"printable UTF-8 is kept", {"env", "-i", "U=\303\251"}, 0, "U=\303\251\n", ""},
           {"printable UTF-8 in a name is kept", {"env", "-i", "\303\251=1"}, 0, "\303\251=1\n", ""},
           {"printable UTF-8 and a ': double quotes", {"env", "-i", "Q=\303\251's"}, 0, "Q=\"\303\251's\"\n", ""},
           {"printable UTF-8 and a space", {"env", "-i", "A=\303\251 x"}, 0, "A='\303\251 x'\n", ""},
           {"a ', a space and UTF-8: double quotes", {"env", "-i", "A=it's \303\251"}, 0, "A=\"it's \303\251\"\n", ""},
           {"U+2019 is kept", {"env", "-i", "A=\342\200\231"}, 0, "A=\342\200\231\n", ""},
           {"U+2019 between letters is kept bare", {"env", "-i", "A=it\342\200\231s"}, 0, "A=it\342\200\231s\n", ""},
           {"a byte that is not UTF-8 in a value", {"env", "-i", "N=\240"}, 0, "N=''$'\\240'\n", ""},
           {"a byte that is not UTF-8 in a name", {"env", "-i", "N\240=1"}, 0, "'N'$'\\240'=1\n", ""},
           {"two bytes that are not UTF-8", {"env", "-i", "A=\351\240"}, 0, "A=''$'\\351\\240'\n", ""},
           {"a C1 control (U+0085) in octal", {"env", "-i", "C=\302\205"}, 0, "C=''$'\\302\\205'\n", ""},
           {"a sequence cut short at the end", {"env", "-i", "A=\342\202"}, 0, "A=''$'\\342\\202'\n", ""},
           {"a sequence cut short, then x", {"env", "-i", "A=\342\202x"}, 0, "A=''$'\\342\\202''x'\n", ""},
           {"a ' then a sequence cut short", {"env", "-i", "A=it's\342\202"}, 0, "A='it'\\''s'$'\\342\\202'\n", ""},
       }) {
    ExpectCase(c, utf8);
  }
}

// --env0-from's messages quote as GNU master's do: FILE as a file name; -u's NAME as a file name once the
// environment is a merged one (after -i and a file, or a file with entries), else as an operand.
TEST(EnvLocaleTest, Env0FromMessages) {
  const std::string dir = MakeTempDir();
  const std::string one = dir + "/one";
  std::ofstream(one, std::ios::binary) << std::string("A=1\0", 4);
  const std::string empty = dir + "/empty";
  std::ofstream(empty, std::ios::binary) << "";
  const std::string unterminated = dir + "/a b";
  std::ofstream(unterminated, std::ios::binary) << "A=1";
  const Options utf8 = InLocale({"LC_ALL=C.UTF-8"});
  for (const Case& c : std::vector<Case>{
           {"-u after a file with entries", {"env", "--env0-from=" + one, "-u", "A=B", "true"}, 125, "",
            "env: cannot unset 'A=B': Invalid argument\n"},
           {"-u after -i and an empty file", {"env", "-i", "--env0-from=" + empty, "-u", "A=B", "true"}, 125, "",
            "env: cannot unset 'A=B': Invalid argument\n"},
           {"-u after an empty file", {"env", "--env0-from=" + empty, "-u", "A=B", "true"}, 125, "",
            "env: cannot unset ‘A=B’: Invalid argument\n"},
           {"-u without a file", {"env", "-u", "A=B", "true"}, 125, "",
            "env: cannot unset ‘A=B’: Invalid argument\n"},
           {"a missing file", {"env", "--env0-from=/nonexist", "true"}, 125, "",
            "env: cannot read '/nonexist': No such file or directory\n"},
           {"no NUL at the end", {"env", "--env0-from=" + unterminated, "true"}, 125, "",
            "env: '" + unterminated + "': file must end with a NUL byte\n"},
       }) {
    ExpectCase(c, utf8);
  }
}

// GNU master reads QUOTING_STYLE before anything else, in the user's locale, also when a command runs.
TEST(EnvLocaleTest, QuotingStyleWarningWhenACommandRuns) {
  ExpectCase({"the warning", {"env", "-i", "true"}, 0, "",
              "env: ignoring invalid value of environment variable QUOTING_STYLE: ‘x’\n"},
             InLocale({"LC_ALL=C.UTF-8", "QUOTING_STYLE=x"}));
}

// The locale's own character set decides what is printable, as in GNU: a Latin-1 byte that isprint() accepts, a
// whole EUC-JP or GB18030 character (whose second byte may be a '\\'); messages stay English (LC_CTYPE only).
TEST(EnvLocaleTest, OtherCharacterSets) {
  struct Set {
    std::string source, charmap, arg, quoted;
  };
  for (const Set& set : std::vector<Set>{
           {"de_DE", "ISO-8859-1", "\xe9\x85", "'\xe9\\205'"},  // é kept; 0x85 is a C1 control.
           {"ja_JP", "EUC-JP", "x\xa4\xa2y\xa4", "'x\xa4\xa2y\\244'"},  // あ kept; a lone lead byte escaped.
           {"zh_CN", "GB18030", "x\x95\\y", "'x\x95\\y'"},             // One character, then "y".
       }) {
    const GeneratedLocale locale = MakeLocale(set.source, set.charmap);
    if (!locale.skip_reason.empty()) GTEST_SKIP() << locale.skip_reason;
    Options options;
    options.env = {locale.env[0], "LC_ALL=", "LC_CTYPE=" + locale.name};
    ExpectCase({set.charmap, {"env", "-i", set.arg}, 127, "", "env: " + set.quoted + ": No such file or directory\n"},
               options);
  }
}

// A run in LOCALE's character set (LC_CTYPE only, so that messages stay English), with EXTRA entries
// (QUOTING_STYLE=..., NAME=VALUE for printenv) after the runner's.
struct InCharset {
  std::vector<std::string> extra;
  Case c;
};

void ExpectInCharset(const GeneratedLocale& locale, const std::vector<InCharset>& cases) {
  for (const InCharset& in : cases) {
    Options options;
    options.env = {locale.env[0], "LC_ALL=", "LC_CTYPE=" + locale.name};
    options.env.insert(options.env.end(), in.extra.begin(), in.extra.end());
    ExpectCase(in.c, options);
  }
}

// printenv's listing of exactly LOCPATH, LC_CTYPE and ENTRY, whose last line is LINE (NAME=VALUE quoted).
void ExpectPrintenvListing(const GeneratedLocale& locale, const std::string& entry, const std::string& line) {
  const std::string locpath = locale.env[0];
  ASSERT_EQ(locpath.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-="),
            std::string::npos)
      << locpath << " would be quoted";
  Options options;
  options.clear_env = true;
  options.env = {locpath, "LC_CTYPE=" + locale.name, entry};
  ExpectCase({"printenv's listing", {"printenv"}, 0, locpath + "\nLC_CTYPE=" + locale.name + "\n" + line + "\n", ""},
             options);
}

// The printed environment, printenv's values and the operands in messages in single-byte and multibyte character
// sets, byte for byte as GNU master's env and printenv (aa0c0de3508e) print them in that locale; one test per
// locale, skipped with the reason where it cannot be made. In a single-byte set (ISO-8859-1, KOI8-R, ISO-8859-7)
// a printable byte beyond ASCII next to a ' goes between double quotes, as "it's" does.
TEST(EnvLocaleTest, Latin1AsGnuMaster) {
  const GeneratedLocale locale = MakeLocale("fr_FR", "ISO-8859-1");
  if (!locale.skip_reason.empty()) GTEST_SKIP() << locale.skip_reason;
  ExpectInCharset(locale, {
      {{}, {"a printable byte and a ': double quotes", {"env", "-i", "V=\351'"}, 0, "V=\"\351'\"\n", ""}},
      {{"QUOTING_STYLE=shell-always"}, {"in a name, shell-always", {"env", "-i", "l\351'=x"}, 0,
                                        "\"l\351'\"='x'\n", ""}},
      {{}, {"an unprintable byte (C1) and a '", {"env", "-i", "V=\205'"}, 0, "V=''$'\\205'\\'''\n", ""}},
      {{}, {"a file name in a message", {"env", "-C", "/nonexist/\351'", "true"}, 125, "",
            "env: cannot change directory to \"/nonexist/\351'\": No such file or directory\n"}},
      {{}, {"an operand in a message", {"env", "-i", "\351'"}, 127, "", "env: '\351\\'': No such file or directory\n"}},
      {{"QUOTING_STYLE=shell", "V=\351'"}, {"printenv NAME", {"printenv", "V"}, 0, "\"\351'\"\n", ""}},
  });
  ExpectPrintenvListing(locale, "V=\351'", "V=\"\351'\"");
}

TEST(EnvLocaleTest, Koi8RAsGnuMaster) {
  const GeneratedLocale locale = MakeLocale("ru_RU", "KOI8-R");
  if (!locale.skip_reason.empty()) GTEST_SKIP() << locale.skip_reason;
  ExpectInCharset(locale, {
      {{}, {"a printable byte and a ': double quotes", {"env", "-i", "V=it's \301"}, 0, "V=\"it's \301\"\n", ""}},
      {{}, {"a file name in a message", {"env", "-C", "/nonexist/\301'", "true"}, 125, "",
            "env: cannot change directory to \"/nonexist/\301'\": No such file or directory\n"}},
  });
}

TEST(EnvLocaleTest, GreekAsGnuMaster) {
  const GeneratedLocale locale = MakeLocale("el_GR", "ISO-8859-7");
  if (!locale.skip_reason.empty()) GTEST_SKIP() << locale.skip_reason;
  ExpectInCharset(locale, {
      {{}, {"a printable byte and a ': double quotes", {"env", "-i", "V=\362'"}, 0, "V=\"\362'\"\n", ""}},
      {{}, {"an unassigned byte and a '", {"env", "-i", "V=\256'"}, 0, "V=''$'\\256'\\'''\n", ""}},
  });
}

// BIG5 and GB18030: a character whose second byte is [ \ ^ ` or | is quoted (for shells that read bytes), its bytes
// kept as they are.
TEST(EnvLocaleTest, Big5AsGnuMaster) {
  const GeneratedLocale locale = MakeLocale("zh_TW", "BIG5");
  if (!locale.skip_reason.empty()) GTEST_SKIP() << locale.skip_reason;
  ExpectInCharset(locale, {
      {{}, {"a second byte \\ is quoted", {"env", "-i", "V=\244\\"}, 0, "V='\244\\'\n", ""}},
      {{"QUOTING_STYLE=shell"}, {"a second byte ` in the shell style", {"env", "-i", "V=\245`"}, 0, "V='\245`'\n",
                                 ""}},
      {{}, {"a second byte @ is not; | in a name is", {"env", "-i", "V=\244@", "\244|=x"}, 0,
            "V=\244@\n'\244|'=x\n", ""}},
      {{"QUOTING_STYLE=c"}, {"the c style keeps the character", {"env", "-i", "V=\244\\"}, 0,
                             "\"V\"=\"\244\\\"\n", ""}},
      {{}, {"a file name in a message", {"env", "-C", "/nonexist/\244\\'", "true"}, 125, "",
            "env: cannot change directory to \"/nonexist/\244\\'\": No such file or directory\n"}},
      {{}, {"an operand in a message", {"env", "-i", "\244\\"}, 127, "", "env: '\244\\': No such file or directory\n"}},
      {{"QUOTING_STYLE=shell-escape", "V=\244\\"}, {"printenv NAME", {"printenv", "V"}, 0, "'\244\\'\n", ""}},
  });
  ExpectPrintenvListing(locale, "V=\244\\", "V='\244\\'");
}

// GB18030 also: a character cut short by the end of the string is escaped to the end, each byte in octal, even
// where a byte already read could not continue it ("\201" "9" "x": a four-byte character needs a fourth byte).
TEST(EnvLocaleTest, Gb18030AsGnuMaster) {
  const GeneratedLocale locale = MakeLocale("zh_CN", "GB18030");
  if (!locale.skip_reason.empty()) GTEST_SKIP() << locale.skip_reason;
  ExpectInCharset(locale, {
      {{}, {"a second byte | in a name is quoted", {"env", "-i", "\244|=x"}, 0, "'\244|'=x\n", ""}},
      {{}, {"a second byte [ is quoted", {"env", "-i", "V=\244["}, 0, "V='\244['\n", ""}},
      {{}, {"cut short: both bytes in octal", {"env", "-i", "V=\3540"}, 0, "V=''$'\\354\\060'\n", ""}},
      {{"QUOTING_STYLE=c"}, {"cut short, c", {"env", "-i", "V=\2449\266"}, 0, "\"V\"=\"\\244\\071\\266\"\n", ""}},
      {{"QUOTING_STYLE=escape"}, {"cut short with a byte that cannot continue it", {"env", "-i", "V=a\2019x"}, 0,
                                  "V=a\\201\\071\\170\n", ""}},
      {{"QUOTING_STYLE=shell"}, {"cut short: nothing in it is looked at", {"env", "-i", "V=\2019|"}, 0,
                                 "V=\2019|\n", ""}},
      {{}, {"an operand in a message", {"env", "-i", "\2449\266"}, 127, "",
            "env: '\\244\\071\\266': No such file or directory\n"}},
      {{}, {"a file name in a message", {"env", "-C", "/nonexist/\3540", "true"}, 125, "",
            "env: cannot change directory to '/nonexist/'$'\\354\\060': No such file or directory\n"}},
  });
  ExpectPrintenvListing(locale, "V=\3540", "V=''$'\\354\\060'");
}

TEST(EnvLocaleTest, EucJpAsGnuMaster) {
  const GeneratedLocale locale = MakeLocale("ja_JP", "EUC-JP");
  if (!locale.skip_reason.empty()) GTEST_SKIP() << locale.skip_reason;
  ExpectInCharset(locale, {
      {{}, {"cut short; a character and a '", {"env", "-i", "V=x\217\260", "W=\244\242'"}, 0,
            "V='x'$'\\217\\260'\nW=\"\244\242'\"\n", ""}},
  });
}

// GNU's German catalog translates env's messages; the operand quotes stay ‘…’: GNU 9.10 looks them up in the
// "gnulib" text domain, which Debian does not install (coreutils.mo's „…“ is not used).
TEST(EnvLocaleTest, GermanMessages) {
  if (!HasGermanCatalog()) GTEST_SKIP() << "GNU coreutils' German catalog is not installed";
  const GeneratedLocale de = MakeLocale("de_DE", "UTF-8");
  if (!de.skip_reason.empty()) GTEST_SKIP() << de.skip_reason;
  Options german;
  german.env = de.env;
  german.env.push_back("LANGUAGE=de");
  for (const Case& c : std::vector<Case>{
           {"-S", {"env", "-S", "'a"}, 125, "",
            "env: fehlendes schlie\u00dfendes Anf\u00fchrungszeichen in Argument der Option -S\n"},
           {"-S ${}", {"env", "-S", "A=$HOME"}, 125, "",
            "env: nur die Expansion von ${VARNAME} wird unterst\u00fctzt, Fehler bei: $HOME\n"},
           {"-S sequence", {"env", "-S", "a\\q"}, 125, "", "env: unerlaubte Folge \u201e\\q\u201c in -S\n"},
           {"quotes in traces", {"env", "-v", "-i", "-a", "\u00e9", "true"}, 0, "",
            "cleaning environ\nargv0:     '\u00e9'\nexecuting: true\n   arg[0]= ‘\u00e9’\n"},
       }) {
    ExpectCase(c, german);
  }
  Options bad_style = german;
  bad_style.env.push_back("QUOTING_STYLE=x");
  ExpectCase({"QUOTING_STYLE warning", {"env", "-i", "A=1"}, 0, "A=1\n",
              "env: Ung\u00fcltiger Wert der Umgebungsvariable QUOTING_STYLE wird ignoriert: ‘x’\n"},
             bad_style);
}

}  // namespace
}  // namespace coreutils_testing
