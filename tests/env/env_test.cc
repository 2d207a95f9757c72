// env: GNU env 9.10's semantics (plus --env0-from and QUOTING_STYLE of GNU's development branch), one behaviour
// per case, and the cases where 9.10 behaves as 9.1 run through /usr/bin/env (GNU 9.1) under C and C.UTF-8.
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/pty.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

const char kTry[] = "Try 'env --help' for more information.\n";
std::string Usage(const std::string& message) { return "env: " + message + "\n" + kTry; }

TEST(EnvTest, Environment) {
  for (const Case& c : std::vector<Case>{
           {"-i prints nothing", {"env", "-i"}, 0, "", ""},
           {"assignments print in order", {"env", "-i", "B=2", "A=1"}, 0, "B=2\nA=1\n", ""},
           {"-0 ends lines with NUL", {"env", "-i", "-0", "A=1", "B=2"}, 0, std::string("A=1\0B=2\0", 8), ""},
           {"--null", {"env", "--null", "-i", "A=1"}, 0, std::string("A=1\0", 4), ""},
           {"--ignore-environment", {"env", "--ignore-environment", "A=1"}, 0, "A=1\n", ""},
           {"a mere - implies -i", {"env", "-", "A=1"}, 0, "A=1\n", ""},
           {"- after -- implies -i", {"env", "--", "-", "A=1"}, 0, "A=1\n", ""},
           {"- after an assignment is the command", {"env", "-i", "A=1", "-", "B=2"}, 127, "",
            "env: '-': No such file or directory\n"},
           {"an empty name is set (and printed quoted, as '')", {"env", "-i", "=x"}, 0, "''=x\n", ""},
           {"later assignment wins", {"env", "-i", "A=1", "A=2"}, 0, "A=2\n", ""},
           {"assignment reaches the command", {"env", "-i", "A=1", "printenv", "A"}, 0, "1\n", ""},
           {"-u removes", {"env", "-u", "PATH", "-u", "TEST_TMPDIR", "-u", "HOME", "-u", "LC_ALL"}, 0, "", ""},
           {"--unset removes", {"env", "--unset=LC_ALL", "printenv", "LC_ALL"}, 1, "", ""},
           {"-u of an unset name is fine", {"env", "-i", "-u", "NOPE", "A=1"}, 0, "A=1\n", ""},
           {"-u with = fails", {"env", "-u", "A=B", "true"}, 125, "", "env: cannot unset 'A=B': Invalid argument\n"},
           {"--unset with = fails", {"env", "--unset=A=", "true"}, 125, "",
            "env: cannot unset 'A=': Invalid argument\n"},
           {"-u with an empty name fails", {"env", "-u", "", "true"}, 125, "",
            "env: cannot unset '': Invalid argument\n"},
           {"-u is not checked after -i", {"env", "-i", "-u", "A=B"}, 0, "", ""},
           {"-u needs an argument", {"env", "-u"}, 125, "",
            "env: option requires an argument -- 'u'\n" + std::string(kTry)},
           {"--unset needs an argument", {"env", "--unset"}, 125, "",
            "env: option '--unset' requires an argument\n" + std::string(kTry)},
       }) {
    ExpectCase(c);
  }
}

// The printed environment, byte for byte as GNU's development branch prints it (its print_envvar(): NAME and VALUE
// each quoted in the shell-escape style of gnulib's quotearg, an empty VALUE left bare, an entry without '=' quoted
// whole), under LC_ALL=C. Each expectation is the output of GNU master's env (commit aa0c0de3508e) for the same
// arguments; env_locale_test.cc has the cases that differ under C.UTF-8.
TEST(EnvTest, PrintsTheEnvironmentAsGnuMaster) {
  for (const Case& c : std::vector<Case>{
           {"an empty value is bare (GNU master prefers NAME= to NAME='')", {"env", "-i", "A="}, 0, "A=\n", ""},
           {"an empty name and an empty value", {"env", "-i", "="}, 0, "''=\n", ""},
           {"an empty name is quoted", {"env", "-i", "=x"}, 0, "''=x\n", ""},
           {"a value that starts with = (env a==b)", {"env", "-i", "a==b"}, 0, "a='=b'\n", ""},
           {"a value that is =", {"env", "-i", "A=="}, 0, "A='='\n", ""},
           {"an = inside a value", {"env", "-i", "A=a=b"}, 0, "A='a=b'\n", ""},
           {"a newline in a value", {"env", "-i", "A=a\nb"}, 0, "A='a'$'\\n''b'\n", ""},
           {"a newline in a name", {"env", "-i", "a\nb=c"}, 0, "'a'$'\\n''b'=c\n", ""},
           {"a carriage return", {"env", "-i", "A=a\015b"}, 0, "A='a'$'\\r''b'\n", ""},
           {"a tab", {"env", "-i", "A=a\tb"}, 0, "A='a'$'\\t''b'\n", ""},
           {"a lone ' goes between double quotes", {"env", "-i", "Q='"}, 0, "Q=\"'\"\n", ""},
           {"a ' among harmless bytes: double quotes", {"env", "-i", "Q=it's"}, 0, "Q=\"it's\"\n", ""},
           {"a ' in a name", {"env", "-i", "it's=x"}, 0, "\"it's\"=x\n", ""},
           {"a ' with a shell special: '\\''", {"env", "-i", "Q=it's $x"}, 0, "Q='it'\\''s $x'\n", ""},
           {"a ' with a double quote", {"env", "-i", "A=it's\""}, 0, "A='it'\\''s\"'\n", ""},
           {"a ' with a ~ that is not first: single quotes", {"env", "-i", "Q=it's~"}, 0, "Q='it'\\''s~'\n", ""},
           {"a ' with a # that is not first: single quotes", {"env", "-i", "Q=it's#"}, 0, "Q='it'\\''s#'\n", ""},
           {"a ' with a # first: double quotes", {"env", "-i", "Q=#it's"}, 0, "Q=\"#it's\"\n", ""},
           {"a ' with a ~ first: double quotes", {"env", "-i", "Q=~it's"}, 0, "Q=\"~it's\"\n", ""},
           {"a ~ first is quoted", {"env", "-i", "T=~/x"}, 0, "T='~/x'\n", ""},
           {"a ~ later is not", {"env", "-i", "T=a~"}, 0, "T=a~\n", ""},
           {"a name that starts with ~", {"env", "-i", "~a=1"}, 0, "'~a'=1\n", ""},
           {"a # first is quoted", {"env", "-i", "H=#x"}, 0, "H='#x'\n", ""},
           {"a # later is not", {"env", "-i", "H=a#b"}, 0, "H=a#b\n", ""},
           {"a name that is #", {"env", "-i", "#=1"}, 0, "'#'=1\n", ""},
           {"a { alone is quoted", {"env", "-i", "B={"}, 0, "B='{'\n", ""},
           {"a } alone is quoted", {"env", "-i", "B=}"}, 0, "B='}'\n", ""},
           {"{} is not quoted", {"env", "-i", "B={}"}, 0, "B={}\n", ""},
           {"a name that is {", {"env", "-i", "{=1"}, 0, "'{'=1\n", ""},
           {"an @ is harmless", {"env", "-i", "A=a@b"}, 0, "A=a@b\n", ""},
           {"a ' with an @: double quotes", {"env", "-i", "A=it's@"}, 0, "A=\"it's@\"\n", ""},
           {"DEL in octal", {"env", "-i", "A=\177"}, 0, "A=''$'\\177'\n", ""},
           {"a control byte in octal", {"env", "-i", "A=\001"}, 0, "A=''$'\\001'\n", ""},
           {"BEL as \\a", {"env", "-i", "A=\007"}, 0, "A=''$'\\a'\n", ""},
           {"a backslash is quoted, not escaped", {"env", "-i", "A=a\\b"}, 0, "A='a\\b'\n", ""},
           {"a ? is quoted", {"env", "-i", "A=a?"}, 0, "A='a?'\n", ""},
           {"a space", {"env", "-i", "A=a b"}, 0, "A='a b'\n", ""},
           {"a $", {"env", "-i", "A=$x"}, 0, "A='$x'\n", ""},
           {"a double quote", {"env", "-i", "A=a\"b"}, 0, "A='a\"b'\n", ""},
           {"[ is quoted", {"env", "-i", "A=[a]"}, 0, "A='[a]'\n", ""},
           {"] alone is harmless", {"env", "-i", "A=a]"}, 0, "A=a]\n", ""},
           {"^ is quoted (old /bin/sh)", {"env", "-i", "A=^"}, 0, "A='^'\n", ""},
           {"! is quoted (bash)", {"env", "-i", "A=!"}, 0, "A='!'\n", ""},
           {"harmless punctuation is left bare", {"env", "-i", "A=%+,-./:@]_"}, 0, "A=%+,-./:@]_\n", ""},
           {"a tab then a '", {"env", "-i", "A=\t'"}, 0, "A=''$'\\t'\\'''\n", ""},
           {"a byte that is not UTF-8 in a value", {"env", "-i", "N=\240"}, 0, "N=''$'\\240'\n", ""},
           {"a byte that is not UTF-8 in a name", {"env", "-i", "N\240=1"}, 0, "'N'$'\\240'=1\n", ""},
           {"UTF-8 under C is octal", {"env", "-i", "U=\303\251"}, 0, "U=''$'\\303\\251'\n", ""},
           {"UTF-8 in a name under C", {"env", "-i", "\303\251=1"}, 0, "''$'\\303\\251'=1\n", ""},
           {"UTF-8 and a ' under C: single quotes", {"env", "-i", "Q=\303\251's"}, 0, "Q=''$'\\303\\251'\\''s'\n", ""},
           {"UTF-8 then a space under C", {"env", "-i", "A=\303\251 x"}, 0, "A=''$'\\303\\251'' x'\n", ""},
       }) {
    ExpectCase(c);
  }
}

TEST(EnvTest, CommandAndExitStatus) {
  const std::string tmp = MakeTempDir();
  std::ofstream(tmp + "/a b") << "not runnable\n";
  for (const Case& c : std::vector<Case>{
           {"runs the command", {"env", "sh", "-c", "exit 3"}, 3, "", ""},
           {"command options pass through", {"env", "printf", "%s|", "-i", "-u"}, 0, "-i|-u|", ""},
           {"-- ends env's options", {"env", "-i", "--", "printenv"}, 0, "", ""},
           {"not found is 127", {"env", "-i", "nonexist"}, 127, "", "env: 'nonexist': No such file or directory\n"},
           {"missing path is 127", {"env", "/nonexist"}, 127, "", "env: '/nonexist': No such file or directory\n"},
           {"empty command is 127", {"env", ""}, 127, "", "env: '': No such file or directory\n"},
           {"not executable is 126", {"env", "/etc/passwd"}, 126, "", "env: '/etc/passwd': Permission denied\n"},
           {"a directory is 126", {"env", "/"}, 126, "", "env: '/': Permission denied\n"},
           {"a name with blanks gets the shebang hint", {"env", "-i", "a b", "x"}, 127, "",
            "env: 'a b': No such file or directory\nenv: use -[v]S to pass options in shebang lines\n"},
           {"a tab counts as a blank", {"env", "a\tb"}, 127, "",
            "env: 'a\\tb': No such file or directory\nenv: use -[v]S to pass options in shebang lines\n"},
           {"no hint for a name with blanks that is not runnable", {"env", tmp + "/a b"}, 126, "",
            "env: '" + tmp + "/a b': Permission denied\n"},
           {"-0 with a command", {"env", "-0", "-i", "A=1", "true"}, 125, "",
            Usage("cannot specify --null (-0) with command")},
           {"-C runs in DIR", {"env", "-C", "/", "pwd"}, 0, "/\n", ""},
           {"--chdir", {"env", "--chdir=" + tmp, "pwd"}, 0, tmp + "\n", ""},
           {"-C needs a command", {"env", "-C", "/tmp"}, 125, "", Usage("must specify command with --chdir (-C)")},
           {"-C needs a command even with -0", {"env", "-0", "-C", "/tmp"}, 125, "",
            Usage("must specify command with --chdir (-C)")},
           {"-C to a missing directory", {"env", "-C", "/nonexist", "true"}, 125, "",
            "env: cannot change directory to '/nonexist': No such file or directory\n"},
           // GNU quotes DIR as a file name (shell-escape style), not as other operands.
           {"-C quotes DIR with a ' in double quotes", {"env", "-C", "a'b", "true"}, 125, "",
            "env: cannot change directory to \"a'b\": No such file or directory\n"},
           {"-C quotes a tab in DIR as $'\\t'", {"env", "-C", "a\tb", "true"}, 125, "",
            "env: cannot change directory to 'a'$'\\t''b': No such file or directory\n"},
           {"-C leaves a backslash in DIR alone", {"env", "-C", "a\\b", "true"}, 125, "",
            "env: cannot change directory to 'a\\b': No such file or directory\n"},
           {"-C quotes UTF-8 in DIR as octal bytes", {"env", "-C", "\303\274_x", "true"}, 125, "",
            "env: cannot change directory to ''$'\\303\\274''_x': No such file or directory\n"},
           {"-C needs an argument", {"env", "-C"}, 125, "",
            "env: option requires an argument -- 'C'\n" + std::string(kTry)},
           {"-C then a relative command path", {"env", "-C", "/usr", "bin/true"}, 0, "", ""},
       }) {
    ExpectCase(c);
  }
}

TEST(EnvTest, UsageErrors) {
  for (const Case& c : std::vector<Case>{
           {"invalid option", {"env", "-x"}, 125, "", "env: invalid option -- 'x'\n" + std::string(kTry)},
           {"unrecognized option", {"env", "--bogus", "a b"}, 125, "",
            "env: unrecognized option '--bogus'\n" + std::string(kTry)},
           {"shebang-style options get the hint", {"env", "-i A=1"}, 125, "",
            "env: invalid option -- ' '\nenv: use -[v]S to pass options in shebang lines\n" + std::string(kTry)},
           {"a tab in options gets the hint", {"env", "-i\tA=1"}, 125, "",
            "env: invalid option -- '\t'\nenv: use -[v]S to pass options in shebang lines\n" + std::string(kTry)},
           {"no hint for other letters", {"env", "-x y"}, 125, "", "env: invalid option -- 'x'\n" + std::string(kTry)},
           {"-S needs an argument", {"env", "-S"}, 125, "",
            "env: option requires an argument -- 'S'\n" + std::string(kTry)},
           // getopt lists the candidates in the long-option table's order, which is GNU's.
           {"--d is ambiguous", {"env", "--d", "true"}, 125, "",
            "env: option '--d' is ambiguous; possibilities: '--default-signal' '--debug'\n" + std::string(kTry)},
           {"--de= is ambiguous", {"env", "--de=x", "true"}, 125, "",
            "env: option '--de=x' is ambiguous; possibilities: '--default-signal' '--debug'\n" + std::string(kTry)},
           {"--i is ambiguous", {"env", "--i", "true"}, 125, "",
            "env: option '--i' is ambiguous; possibilities: '--ignore-environment' '--ignore-signal'\n" +
                std::string(kTry)},
           {"--deb is --debug", {"env", "--deb", "-i"}, 0, "", "cleaning environ\n"},
           {"the program name is argv[0]", {"/x/env", "-x"}, 125, "",
            "/x/env: invalid option -- 'x'\nTry '/x/env --help' for more information.\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(EnvTest, SplitString) {
  for (const Case& c : std::vector<Case>{
           {"-S splits", {"env", "-i", "-S", "A=1 B=2"}, 0, "A=1\nB=2\n", ""},
           {"-S attached", {"env", "-i", "-SA=1 B=2"}, 0, "A=1\nB=2\n", ""},
           {"--split-string", {"env", "-i", "--split-string=A=1 B=2"}, 0, "A=1\nB=2\n", ""},
           {"-S may hold options", {"env", "-S", "-i A=1"}, 0, "A=1\n", ""},
           {"-S in a cluster", {"env", "-iSA=1"}, 0, "A=1\n", ""},
           {"-S words come before later arguments", {"env", "-i", "-S", "printf %s|", "a", "b"}, 0, "a|b|", ""},
           {"options after -S words are operands", {"env", "-S", "A=1", "-i"}, 127, "",
            "env: '-i': No such file or directory\n"},
           {"empty -S", {"env", "-i", "-S", ""}, 0, "", ""},
           {"quotes", {"env", "-i", "-S", "A='x y' B=\"p q\""}, 0, "A='x y'\nB='p q'\n", ""},
           {"${VAR} uses env's own environment", {"env", "-i", "-S", "A=${LC_ALL}"}, 0, "A=C\n", ""},
           {"comment", {"env", "-i", "-S", "A=1 #B=2"}, 0, "A=1\n", ""},
           {"\\c", {"env", "-i", "-S", "A=1\\c B=2"}, 0, "A=1\n", ""},
           {"no terminating quote", {"env", "-S", "'a"}, 125, "", "env: no terminating quote in -S string\n"},
           {"invalid backslash", {"env", "-S", "a\\"}, 125, "", "env: invalid backslash at end of string in -S\n"},
           {"invalid sequence", {"env", "-S", "a\\q"}, 125, "", "env: invalid sequence '\\q' in -S\n"},
           {"\\c in double quotes", {"env", "-S", "\"\\c\""}, 125, "",
            "env: '\\c' must not appear in double-quoted -S string\n"},
           {"only ${VARNAME}", {"env", "-S", "A=$HOME x"}, 125, "",
            "env: only ${VARNAME} expansion is supported, error at: $HOME x\n"},
           {"a second -S inside -S words is an operand", {"env", "-i", "-S", "A=1", "-S", "B=2"}, 127, "",
            "env: '-S': No such file or directory\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(EnvTest, DebugTrace) {
  for (const Case& c : std::vector<Case>{
           {"-v traces -i, NAME=VALUE and exec", {"env", "-v", "-i", "A=1", "true", "x"}, 0, "",
            "cleaning environ\nsetenv:   A=1\nexecuting: true\n   arg[0]= 'true'\n   arg[1]= 'x'\n"},
           {"--debug traces -u and -C", {"env", "--debug", "-u", "X", "-C", "/", "A=1", "true"}, 0, "",
            "unset:    X\nsetenv:   A=1\nchdir:    '/'\nexecuting: true\n   arg[0]= 'true'\n"},
           {"-v traces the -S split", {"env", "-v", "-i", "-S", "A=${LC_ALL} ${NOPE}B=\"x  y\""}, 0,
            "A=C\nB='x  y'\n",
            "expanding ${LC_ALL} into 'C'\nreplacing ${NOPE} with null string\n"
            "split -S:  'A=${LC_ALL} ${NOPE}B=\"x  y\"'\n into:    'A=C'\n     &    'B=x  y'\n"
            "cleaning environ\nsetenv:   A=C\nsetenv:   B=x  y\n"},
           {"-v traces nothing for an empty split", {"env", "-v", "-i", "-S", "#x"}, 0, "", "cleaning environ\n"},
           {"-v after -S does not trace it", {"env", "-S", "-i A=1", "-v"}, 127, "",
            "env: '-v': No such file or directory\n"},
           {"-v quotes arguments", {"env", "-v", "-i", "printf", "%s", "a'b\\", ""}, 0, "a'b\\",
            "cleaning environ\nexecuting: printf\n   arg[0]= 'printf'\n   arg[1]= '%s'\n   arg[2]= 'a\\'b\\\\'\n"
            "   arg[3]= ''\n"},
           {"-v before a failing unset", {"env", "-v", "-u", "A", "-u", "B=C", "true"}, 125, "",
            "unset:    A\nunset:    B=C\nenv: cannot unset 'B=C': Invalid argument\n"},
           {"-v quotes -C DIR as a file name", {"env", "-v", "-C", "/nonexist/d'q", "true"}, 125, "",
            "chdir:    \"/nonexist/d'q\"\n"
            "env: cannot change directory to \"/nonexist/d'q\": No such file or directory\n"},
           {"-v quotes -C DIR with a tab", {"env", "-v", "-C", "/nonexist/a\tb", "true"}, 125, "",
            "chdir:    '/nonexist/a'$'\\t''b'\nenv: cannot change directory to '/nonexist/a'$'\\t''b': "
            "No such file or directory\n"},
           {"-v before -C without command", {"env", "-v", "-i", "-C", "/", "A=1"}, 125, "",
            "cleaning environ\nsetenv:   A=1\n" + Usage("must specify command with --chdir (-C)")},
       }) {
    ExpectCase(c);
  }
}

unsigned long long Bit(int sig) { return 1ULL << (sig - 1); }

// /proc/self/status shows the dispositions and mask the command really got.
std::string StatusLine(const std::string& field, unsigned long long bits) {
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", bits);  // The runner resets 32 and 33 too, so they show as 0.
  return field + ":\t" + hex + "\n";
}
unsigned long long AllSettable() {
  unsigned long long bits = 0;
  for (int sig = 1; sig <= SIGRTMAX; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP && (sig < 32 || sig >= SIGRTMIN)) bits |= Bit(sig);
  }
  return bits;
}

TEST(EnvTest, Signals) {
  // sed, not grep: GNU grep installs its own SIGSEGV handler.
  const std::vector<std::string> ign = {"sed", "-n", "/^SigIgn/p", "/proc/self/status"};
  const std::vector<std::string> blk = {"sed", "-n", "/^SigBlk/p", "/proc/self/status"};
  auto with = [](std::vector<std::string> head, const std::vector<std::string>& tail) {
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  for (const Case& c : std::vector<Case>{
           {"--ignore-signal=SIG", with({"env", "--ignore-signal=INT,TERM"}, ign), 0,
            StatusLine("SigIgn", Bit(SIGINT) | Bit(SIGTERM)), ""},
           {"--ignore-signal takes names as GNU", with({"env", "--ignore-signal=sigint,Hup,13,RTMIN+1"}, ign), 0,
            StatusLine("SigIgn", Bit(SIGINT) | Bit(SIGHUP) | Bit(SIGPIPE) | Bit(SIGRTMIN + 1)), ""},
           {"--ignore-signal= is no signal", with({"env", "--ignore-signal="}, ign), 0, StatusLine("SigIgn", 0), ""},
           {"empty items are skipped", with({"env", "--ignore-signal=,INT,,"}, ign), 0,
            StatusLine("SigIgn", Bit(SIGINT)), ""},
           {"--ignore-signal alone is every signal", with({"env", "--ignore-signal"}, ign), 0,
            StatusLine("SigIgn", AllSettable()), ""},
           {"--block-signal=SIG", with({"env", "--block-signal=USR1"}, blk), 0, StatusLine("SigBlk", Bit(SIGUSR1)), ""},
           {"--block-signal alone is every signal", with({"env", "--block-signal"}, blk), 0,
            StatusLine("SigBlk", AllSettable()), ""},
           {"--default-signal after --ignore-signal", with({"env", "--ignore-signal=INT", "--default-signal=INT"}, ign),
            0, StatusLine("SigIgn", 0), ""},
           {"--ignore-signal after --default-signal", with({"env", "--default-signal=INT", "--ignore-signal=INT"}, ign),
            0, StatusLine("SigIgn", Bit(SIGINT)), ""},
           {"--default-signal unblocks", with({"env", "--block-signal=INT", "--default-signal=INT"}, blk), 0,
            StatusLine("SigBlk", 0), ""},
           {"--block-signal after --default-signal", with({"env", "--default-signal=INT", "--block-signal=INT"}, blk),
            0, StatusLine("SigBlk", Bit(SIGINT)), ""},
           {"KILL cannot be ignored", {"env", "--ignore-signal=INT,KILL", "true"}, 125, "",
            "env: failed to set signal action for signal 9: Invalid argument\n"},
           {"STOP cannot be reset", {"env", "--default-signal=STOP", "true"}, 125, "",
            "env: failed to set signal action for signal 19: Invalid argument\n"},
           {"a named KILL after all still fails", {"env", "--ignore-signal", "--ignore-signal=KILL", "true"}, 125, "",
            "env: failed to set signal action for signal 9: Invalid argument\n"},
           {"all after a named KILL does not fail", {"env", "--ignore-signal=KILL", "--ignore-signal", "true"}, 0, "",
            ""},
           {"blocking KILL is accepted", {"env", "--block-signal=KILL", "true"}, 0, "", ""},
           {"invalid signal", {"env", "--ignore-signal=FOO", "true"}, 125, "", Usage("'FOO': invalid signal")},
           {"invalid item in a list", {"env", "--block-signal=INT,abc", "true"}, 125, "",
            Usage("'abc': invalid signal")},
           {"signal 0 is invalid", {"env", "--default-signal=0", "true"}, 125, "", Usage("'0': invalid signal")},
           {"EXIT is invalid", {"env", "--default-signal=EXIT", "true"}, 125, "", Usage("'EXIT': invalid signal")},
           {"glibc's signal 32 cannot be blocked", {"env", "--block-signal=32", "true"}, 125, "",
            "env: failed to block signal 32: Invalid argument\n"},
           {"beyond RTMAX is invalid", {"env", "--block-signal=65", "true"}, 125, "", Usage("'65': invalid signal")},
           {"--list-signal-handling",
            {"env", "--ignore-signal=INT,TERM", "--block-signal=HUP,INT", "--list-signal-handling", "true"},
            0, "", "HUP        ( 1): BLOCK\nINT        ( 2): BLOCK,IGNORE\nTERM       (15): IGNORE\n"},
           {"--list-signal-handling names real-time signals",
            {"env", "--block-signal=RTMIN+10,RTMAX", "--list-signal-handling", "true"}, 0, "",
            "RTMIN+10   (44): BLOCK\nRTMAX      (64): BLOCK\n"},
           {"signal options do nothing without a command",
            {"env", "-i", "--ignore-signal=KILL", "--list-signal-handling"}, 0, "", ""},
           {"-v traces signals in signal order",
            {"env", "-v", "--block-signal=TERM", "--ignore-signal=INT,HUP", "--default-signal=QUIT", "true"}, 0, "",
            "Reset signal HUP (1) to IGNORE\nReset signal INT (2) to IGNORE\nReset signal QUIT (3) to DEFAULT\n"
            "signal QUIT (3) mask set to UNBLOCK\nsignal TERM (15) mask set to BLOCK\n"
            "executing: true\n   arg[0]= 'true'\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(EnvTest, InheritedSignalHandling) {
  Options inherited;
  inherited.before_exec = [] {
    signal(SIGINT, SIG_IGN);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, nullptr);
  };
  ExpectCase({"--list-signal-handling shows what was inherited", {"env", "--list-signal-handling", "true"}, 0, "",
              "INT        ( 2): IGNORE\nUSR1       (10): BLOCK\n"},
             inherited);
  ExpectCase({"--default-signal restores and unblocks",
              {"env", "--default-signal=INT,USR1", "--list-signal-handling", "true"}, 0, "", ""},
             inherited);
  ExpectCase({"--default-signal alone resets everything", {"env", "--default-signal", "--list-signal-handling", "true"},
              0, "", ""},
             inherited);
}

// The same arguments through GNU's env 9.1 and ours, under C and C.UTF-8: status, stdout and stderr must match
// byte for byte. Only cases where GNU 9.10 behaves as 9.1; where it changed (an environment entry that quoting
// changes, signals 32 and 33 when SIG is left out, 9.1's shell-escape quirk) the cases state 9.10's output
// (Gnu910Changes).
TEST(EnvTest, SameAsGnu) {
  if (access("/usr/bin/env", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/env";
  const std::string tmp = MakeTempDir();
  const std::string script = tmp + "/noshebang";
  std::ofstream(script) << "echo from sh\n";
  chmod(script.c_str(), 0755);
  const std::vector<std::vector<std::string>> cases = {
      {"-i"}, {"-i", "A=1", "B=2"}, {"-i", "-0", "A=1", "B=2"}, {"-0", "-i", "A=1", "true"}, {"-u", "PATH"},
      {"-u", "A=B"}, {"-u"}, {"-u", ""}, {"-i", "-u", "A=B"}, {"-C"}, {"-C", "/nonexist", "true"}, {"-C", "/tmp"},
      {"-C", "/", "pwd"}, {"-x"}, {"--bogus"}, {"--unse=A", "-i"}, {"-i", "/nonexist"},
      {"-i", "/etc/passwd"}, {"-i", "/"}, {"-i", "nonexist"}, {"-", "A=1"}, {"-i", "-", "A=1"}, {"-i", "A=1", "-"},
      {"-i", "--", "-x"}, {"-i A=1"}, {"- x"}, {"-v -S"}, {"-i", "a b"}, {"-i", "/nonexist/a b"}, {"--unset"},
      {"-i", "ls", "/nonexist"}, {"-i", "PATH=/nonexist", "ls"}, {"-v", "-i", "A=1", "B=2", "true", "x"},
      {"-v", "-u", "X", "-u", "Y", "-C", "/tmp", "A=1", "true"}, {"-v", "-0", "-i", "A=1"}, {"-vi", "-u", "X", "Y"},
      {"-v", "-i", "-C", "/tmp", "A=1"}, {"-v", "-i", "--ignore-signal=KILL", "-C", "/nonexist", "true"},
      {"-v", "-i", "-0", "true"}, {"-v", "-S", "-i A=1", "-S", "B=2 -u C"}, {"-vS-i A=1"},
      {"-i", "-S", "A=1 #comment B=2"}, {"-i", "-S", "A=1#x B=2"}, {"-i", "-v", "-S", "echo \"a  b\" c\\_d"},
      {"-i", "-v", "-S", "a\\c b"}, {"-i", "-v", "-S", "\"a\\cb\""}, {"-i", "-v", "-S", "'a\\cb'"},
      {"-i", "-v", "-S", "\"a\\_b\""}, {"-i", "-v", "-S", "\\t\\n\\r\\f\\v"}, {"-i", "-v", "-S", "'\\\\ \\''"},
      {"-i", "-v", "-S", "\\\"\\#\\$"}, {"-i", "-v", "-S", "#x a"}, {"-i", "-v", "-S", "A=${HOME}", "-0"},
      {"-i", "-v", "-S", "A=${NOPE}x"}, {"-i", "-v", "-S", "A=$HOME"}, {"-i", "-v", "-S", "A=${1X}"},
      {"-i", "-v", "-S", "${NOPE} a"}, {"-i", "-v", "-S", "\"\" a"}, {"-i", "-v", "-S", "x\\ y"},
      {"-i", "-v", "-S", "A=\\\x01"}, {"-i", "-v", "-S", "a 'b"}, {"-i", "-v", "-S", "A=${HOME} \"x"},
      {"-v", "-i", "-S", "A=${LC_ALL}", "-S", "B=2"}, {"--ignore-signal=FOO", "true"},
      {"-v", "--ignore-signal=INT", "--block-signal=INT", "--list-signal-handling", "true"},
      {"-v", "--block-signal", "--list-signal-handling", "true"},
      {"-v", "--block-signal=INT", "--default-signal=INT", "true"},
      {"-v", "--ignore-signal=RTMIN+1,RTMAX-30,rtmin,SIGHUP,01", "true"}, {"-v", "--block-signal=RTMIN+31", "true"},
      {"-v", "--block-signal= 1", "true"}, {"-v", "--block-signal=+1", "true"}, {"-v", "--block-signal=1x", "true"},
      {"-v", "--default-signal=CLD,IOT,IO,POLL", "true"}, {"-v", "--default-signal=PIPE,9", "true"},
      {script}, {"-v", "-i", script},
      // -C DIR is quoted as a file name (GNU's quoteaf), everything else as an operand (quote).
      {"-C", "a'b", "true"}, {"-C", "a\tb", "true"}, {"-C", "a\\b", "true"}, {"-C", "\303\274_x", "true"},
      {"-C", "a'b\"c$", "true"}, {"-C", "#~'", "true"}, {"-C", "\303\274'", "true"}, {"-C", "\303\274 x", "true"},
      {"-C", "", "true"}, {"-v", "-C", "/nonexist/d'q", "true"}, {"-v", "-C", "/", "a'b\tc"}, {"a'b\tc"},
      {"-u", "a'b\t="}, {"-v", "-i", "-S", "a'b\\tc"},
      // Ambiguous abbreviations list GNU's table order.
      {"--d", "true"}, {"--de"}, {"--de=x", "true"}, {"--i", "true"}, {"--ig"}, {"--deb", "-i"}, {"--ignore-e"},
  };
  for (const char* locale : {"LC_ALL=C", "LC_ALL=C.UTF-8"}) {
    Options options;
    options.env = {locale};
    for (const std::vector<std::string>& args : cases) {
      std::vector<std::string> argv = {"env"};
      argv.insert(argv.end(), args.begin(), args.end());
      std::string name = locale;
      for (const std::string& a : argv) name += " [" + a + "]";
      Result gnu = RunProgram("/usr/bin/env", argv, options);
      Result ours = Invoke(argv, options);
      EXPECT_EQ(ours.status, gnu.status) << name;
      EXPECT_EQ(ours.out, gnu.out) << name;
      EXPECT_EQ(ours.err, gnu.err) << name;
    }
  }
}

std::string AbsoluteBinary() {
  char resolved[PATH_MAX];
  EXPECT_NE(realpath(BinaryPath().c_str(), resolved), nullptr);
  return resolved;
}

// A script whose #! line runs env: the kernel passes everything after the interpreter as ONE argument, then the
// script's path.
Result RunScript(const std::string& path, const std::string& interpreter, const std::string& shebang_rest,
                 const std::string& body) {
  std::ofstream(path) << "#!" << interpreter << " " << shebang_rest << "\n" << body;
  chmod(path.c_str(), 0755);
  return RunProgram(path, {path});
}

TEST(EnvTest, ShebangLine) {
  const std::string dir = MakeTempDir();
  const std::string env = dir + "/env";
  ASSERT_EQ(symlink(AbsoluteBinary().c_str(), env.c_str()), 0);
  const std::string script = dir + "/script";
  const std::string body = "printf '[%s]\\n' \"$X\" \"$#\"\n";

  Result split = RunScript(script, env, "-S -i X=\"a b\" /bin/sh", body);
  EXPECT_EQ(split.status, 0);
  EXPECT_EQ(split.out, "[a b]\n[0]\n");
  EXPECT_EQ(split.err, "");

  Result traced = RunScript(script, env, "-vS -i /bin/sh", "echo hi\n");
  EXPECT_EQ(traced.status, 0);
  EXPECT_EQ(traced.out, "hi\n");
  EXPECT_EQ(traced.err, "split -S:  ' -i /bin/sh'\n into:    '-i'\n     &    '/bin/sh'\n"
                        "cleaning environ\nexecuting: /bin/sh\n   arg[0]= '/bin/sh'\n   arg[1]= '" + script + "'\n");

  Result without_s = RunScript(script, env, "-i X=1 /bin/sh", body);
  EXPECT_EQ(without_s.status, 125);
  EXPECT_EQ(without_s.out, "");
  // GNU 9.10: env's own complaints name the program, the Try line argv[0].
  EXPECT_EQ(without_s.err, "env: invalid option -- ' '\nenv: use -[v]S to pass options in shebang lines\nTry '" + env +
                               " --help' for more information.\n");
}

TEST(EnvTest, ShebangLineSameAsGnu) {
  if (access("/usr/bin/env", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/env";
  const std::string dir = MakeTempDir();
  const std::string env = dir + "/env";
  ASSERT_EQ(symlink(AbsoluteBinary().c_str(), env.c_str()), 0);
  const std::string script = dir + "/script";
  for (const std::string rest : {"-S -i X=\"a b\" /bin/sh", "-vS -i /bin/sh", "-v -S -i X=${HOME} /bin/sh",
                                  "-S /bin/sh -c 'echo \"$0\" \"$1\"' zero", "-i X=1 /bin/sh",
                                  "-S -i /bin/sh #comment"}) {
    // (A line whose words leave no command would make env run the script itself, forever: none here does.)
    const std::string body = "printf '[%s]\\n' \"$X\" \"$#\"\n";
    Result gnu = RunScript(script, "/usr/bin/env", rest, body);
    Result ours = RunScript(script, env, rest, body);
    std::string gnu_err = gnu.err;
    // GNU 9.10 names the program in env's own messages (9.1 named argv[0] as given).
    for (const char* own : {"/usr/bin/env: use", "/usr/bin/env: invalid option -- ' '"}) {
      for (size_t at; (at = gnu_err.find(own)) != std::string::npos;) gnu_err.replace(at, 12, "env");
    }
    for (size_t at; (at = gnu_err.find("/usr/bin/env")) != std::string::npos;) gnu_err.replace(at, 12, env);
    EXPECT_EQ(ours.status, gnu.status) << rest;
    EXPECT_EQ(ours.out, gnu.out) << rest;
    EXPECT_EQ(ours.err, gnu_err) << rest;
  }
}

// What GNU 9.10 changed since 9.1, in cases the differential test above leaves out.
TEST(EnvTest, Gnu910Changes) {
  for (const Case& c : std::vector<Case>{
           // 9.1 wrote these as '''a'\'''$'\303\274' and '\001'\'''$'\001'.
           {"-C quotes a ' before UTF-8 without 9.1's quirk", {"env", "-C", "a'\303\274", "true"}, 125, "",
            "env: cannot change directory to 'a'\\'''$'\\303\\274': No such file or directory\n"},
           {"-C quotes a ' between controls without 9.1's quirk", {"env", "-C", "\001'\001", "true"}, 125, "",
            "env: cannot change directory to ''$'\\001'\\'''$'\\001': No such file or directory\n"},
       }) {
    ExpectCase(c);
  }
}

// Without SIG, GNU 9.10 also tries the actions of glibc's signals 32 and 33 (and ignores the failure); their mask
// bits stay as they were. Exact against GNU 9.1's own trace with 9.10's two lines put in.
TEST(EnvTest, Gnu910AllSignalsTraceIsGnu91sPlusSignals32And33) {
  if (access("/usr/bin/env", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/env";
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"env", "-v", "--ignore-signal", "--list-signal-handling", "true"},
           {"env", "-v", "--default-signal", "--list-signal-handling", "true"},
           {"env", "-v", "--ignore-signal=KILL", "--default-signal", "true"},
       }) {
    const Result gnu = RunProgram("/usr/bin/env", argv);
    const std::string action = argv[2] == "--ignore-signal" ? "IGNORE" : "DEFAULT";
    std::string expected = gnu.err;
    const std::string after = "Reset signal SYS (31) to " + action + "\n";
    const size_t at = expected.find(after);
    ASSERT_NE(at, std::string::npos) << gnu.err;
    expected.insert(at + after.size(), "Reset signal SIG32 (32) to " + action + " (failure ignored)\n" +
                                           "Reset signal SIG33 (33) to " + action + " (failure ignored)\n");
    const Result ours = Invoke(argv);
    EXPECT_EQ(ours.status, 0) << argv[2];
    EXPECT_EQ(ours.out, "") << argv[2];
    EXPECT_EQ(ours.err, expected) << argv[2];
  }
}

TEST(EnvTest, Gnu910AllSignalsTraceNames32And33) {  // The same, without GNU 9.1 at hand.
  const Result r = Invoke({"env", "-v", "--ignore-signal", "true"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.err.find("Reset signal SYS (31) to IGNORE\nReset signal SIG32 (32) to IGNORE (failure ignored)\n"
                       "Reset signal SIG33 (33) to IGNORE (failure ignored)\nReset signal RTMIN (34) to IGNORE\n"),
            std::string::npos)
      << r.err;
  const Result mask = Invoke({"env", "-v", "--block-signal", "true"});
  EXPECT_NE(mask.err.find("signal SYS (31) mask set to BLOCK\nsignal RTMIN (34) mask set to BLOCK\n"),
            std::string::npos)
      << mask.err;
}

TEST(EnvTest, UnnamedSignals) {
  const std::string block_32 = "env: failed to block signal 32: Invalid argument\n";
  for (const Case& c : std::vector<Case>{
           {"32 is taken, and cannot be blocked", {"env", "--block-signal=32", "true"}, 125, "", block_32},
           {"33 too", {"env", "--block-signal=33", "true"}, 125, "",
            "env: failed to block signal 33: Invalid argument\n"},
           {"SIG32", {"env", "--block-signal=SIG32", "true"}, 125, "", block_32},
           {"sig033", {"env", "--block-signal=sig033", "true"}, 125, "",
            "env: failed to block signal 33: Invalid argument\n"},
           {"0032", {"env", "--block-signal=0032", "true"}, 125, "", block_32},
           {"exit status 160 is 32", {"env", "--block-signal=160", "true"}, 125, "", block_32},
           {"exit status 288 is 32", {"env", "--block-signal=288", "true"}, 125, "", block_32},
           {"544 is 32 too", {"env", "--block-signal=544", "true"}, 125, "", block_32},
           {"the largest int that is 32", {"env", "--block-signal=2147483424", "true"}, 125, "", block_32},
           {"beyond an int is invalid", {"env", "--block-signal=2147483680", "true"}, 125, "",
            Usage("'2147483680': invalid signal")},
           {"SIG and an exit status is invalid", {"env", "--block-signal=SIG160", "true"}, 125, "",
            Usage("'SIG160': invalid signal")},
           {"a bare SIG is invalid", {"env", "--block-signal=SIG", "true"}, 125, "", Usage("'SIG': invalid signal")},
           {"blocking fails while parsing, even without a command", {"env", "--block-signal=32", "-i", "A=1"}, 125,
            "", block_32},
           {"an invalid signal before it is reported first", {"env", "--block-signal=x", "--block-signal=32", "true"},
            125, "", Usage("'x': invalid signal")},
           {"an invalid signal after it is never reached", {"env", "--block-signal=32", "--block-signal=x", "true"},
            125, "", block_32},
           {"its action cannot be read", {"env", "--default-signal=32", "true"}, 125, "",
            "env: failed to get signal action for signal 32: Invalid argument\n"},
           {"nor ignored", {"env", "--ignore-signal=33", "true"}, 125, "",
            "env: failed to get signal action for signal 33: Invalid argument\n"},
           {"actions fail in signal order", {"env", "-v", "--ignore-signal=HUP", "--default-signal=33", "true"}, 125,
            "", "Reset signal HUP (1) to IGNORE\nenv: failed to get signal action for signal 33: Invalid argument\n"},
           {"KILL fails before 33", {"env", "-v", "--ignore-signal=HUP,KILL,33", "true"}, 125, "",
            "Reset signal HUP (1) to IGNORE\nenv: failed to set signal action for signal 9: Invalid argument\n"},
           {"actions are not tried without a command", {"env", "-v", "--default-signal=32", "-i", "A=1"}, 0, "A=1\n",
            "cleaning environ\nsetenv:   A=1\n"},
           {"a later option without SIG makes it a failure ignored",
            {"env", "--ignore-signal=32", "--ignore-signal", "true"}, 0, "", ""},
           {"a later named 32 fails", {"env", "--ignore-signal", "--ignore-signal=32", "true"}, 125, "",
            "env: failed to get signal action for signal 32: Invalid argument\n"},
       }) {
    ExpectCase(c);
  }
}

TEST(EnvTest, Argv0) {
  for (const Case& c : std::vector<Case>{
           {"-a names the command", {"env", "-a", "zz", "sh", "-c", "echo $0"}, 0, "zz\n", ""},
           {"--argv0", {"env", "--argv0=zz", "sh", "-c", "echo $0"}, 0, "zz\n", ""},
           {"--a is --argv0", {"env", "--a=q", "sh", "-c", "echo $0"}, 0, "q\n", ""},
           {"attached", {"env", "-aq", "sh", "-c", "echo $0"}, 0, "q\n", ""},
           {"an empty name", {"env", "-a", "", "sh", "-c", "echo \"[$0]\""}, 0, "[]\n", ""},
           {"the last -a wins", {"env", "-v", "-a", "x", "-a", "y", "true"}, 0, "",
            "argv0:     'y'\nexecuting: true\n   arg[0]= 'y'\n"},
           {"-v traces it after chdir, quoted as a file name",
            {"env", "-v", "-a", "x", "-C", "/", "-u", "Q", "A=1", "true"}, 0, "",
            "unset:    Q\nsetenv:   A=1\nchdir:    '/'\nargv0:     'x'\nexecuting: true\n   arg[0]= 'x'\n"},
           {"-v with a '", {"env", "-v", "-a", "a'b", "true"}, 0, "",
            "argv0:     \"a'b\"\nexecuting: true\n   arg[0]= 'a\\'b'\n"},
           {"-v with a tab", {"env", "-v", "-a", "a\tb", "true"}, 0, "",
            "argv0:     'a'$'\\t''b'\nexecuting: true\n   arg[0]= 'a\\tb'\n"},
           {"inside -S", {"env", "-v", "-S", "-a x true"}, 0, "",
            "split -S:  '-a x true'\n into:    '-a'\n     &    'x'\n     &    'true'\nargv0:     'x'\n"
            "executing: true\n   arg[0]= 'x'\n"},
           {"the command is still found by its own name", {"env", "-a", "x", "/nonexist"}, 127, "",
            "env: '/nonexist': No such file or directory\n"},
           {"-a needs a command", {"env", "-a", "x"}, 125, "", Usage("must specify command with --argv0 (-a)")},
           {"-a needs a command, after the changes", {"env", "-v", "-i", "-a", "x", "A=1"}, 125, "",
            "cleaning environ\nsetenv:   A=1\n" + Usage("must specify command with --argv0 (-a)")},
           {"-C is checked first", {"env", "-a", "x", "-C", "/tmp"}, 125, "",
            Usage("must specify command with --chdir (-C)")},
           {"-a with -0 and no command", {"env", "-a", "x", "-0"}, 125, "",
            Usage("must specify command with --argv0 (-a)")},
           {"-a with -0 and a command", {"env", "-a", "x", "-0", "true"}, 125, "",
            Usage("cannot specify --null (-0) with command")},
           {"-a needs an argument", {"env", "-a"}, 125, "",
            "env: option requires an argument -- 'a'\n" + std::string(kTry)},
           {"--argv0 needs an argument", {"env", "--argv0"}, 125, "",
            "env: option '--argv0' requires an argument\n" + std::string(kTry)},
       }) {
    ExpectCase(c);
  }
}

// A string literal with its NULs, without the terminating one.
template <size_t N>
std::string Bytes(const char (&s)[N]) {
  return std::string(s, N - 1);
}

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& content) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

// --env0-from, of GNU's development branch (not in 9.10): our contract in utils/env/env.cc. In GNU master's order:
// -i, the files' entries, every -u, then the NAME=VALUE operands.
TEST(EnvTest, Env0From) {
  const std::string dir = MakeTempDir();
  const std::string all = Bytes("A=1\0B=x y\0A=2\0NOEQ\0\0C=\0");
  const std::string f = WriteFile(dir, "all", all);
  const std::string g = WriteFile(dir, "g", Bytes("A=1\0A=2\0B=3\0"));
  const std::string h = WriteFile(dir, "h", Bytes("NOEQ\0A=1\0X=2\0"));
  const std::string empty = WriteFile(dir, "empty", "");
  const std::string self = AbsoluteBinary();
  for (const Case& c : std::vector<Case>{
           {"after -i, reproduces env -0 byte for byte", {"env", "-i", "--env0-from=" + f, self, "env", "-0"}, 0, all,
            ""},
           {"after -i, printed quoted", {"env", "-i", "--env0-from=" + f}, 0, "A=1\nB='x y'\nA=2\nNOEQ\n''\nC=\n", ""},
           {"NAME=VALUE operands come after, and replace", {"env", "-i", "--env0-from=" + f, "A=3", "D=4"}, 0,
            "A=3\nB='x y'\nA=2\nNOEQ\n''\nC=\nD=4\n", ""},
           {"the last --env0-from is read, the others not", {"env", "-i", "--env0-from=" + g, "--env0-from=" + h, "-0"},
            0, Bytes("NOEQ\0A=1\0X=2\0"), ""},
           {"not even an earlier missing one", {"env", "-i", "--env0-from=/nonexist", "--env0-from=" + g, "-0"}, 0,
            Bytes("A=1\0A=2\0B=3\0"), ""},
           {"a missing last one fails", {"env", "--env0-from=" + g, "--env0-from=/nonexist", "true"}, 125, "",
            "env: cannot read '/nonexist': No such file or directory\n"},
           {"without -i entries are set as NAME=VALUE is", {"env", "--env0-from=" + g, "sh", "-c", "echo $A $B"}, 0,
            "2 3\n", ""},
           {"without -i, then the operands", {"env", "--env0-from=" + g, "A=4", "sh", "-c", "echo $A $B"}, 0, "4 3\n",
            ""},
           {"without -i an entry without = is added", {"env", "-i", "X=1", self, "env", "--env0-from=" + h}, 0,
            "X=2\nNOEQ\nA=1\n", ""},
           {"-u comes after the entries", {"env", "--env0-from=" + g, "-u", "A", "sh", "-c", "echo \"[$A]\""}, 0,
            "[]\n", ""},
           {"-u after -i applies to the entries", {"env", "-i", "--env0-from=" + h, "-u", "X"}, 0, "NOEQ\nA=1\n", ""},
           {"an empty file adds nothing", {"env", "-i", "--env0-from=" + empty}, 0, "", ""},
           {"-v after -i traces the operands only", {"env", "-v", "-i", "--env0-from=" + g, "C=4"}, 0,
            "A=1\nA=2\nB=3\nC=4\n", "cleaning environ\nsetenv:   C=4\n"},
           {"-v without -i traces each entry, then -u", {"env", "-i", self, "env", "-v", "--env0-from=" + h, "-u", "A",
                                                         "C=4", "true"},
            0, "", "append:   NOEQ\nsetenv:   A=1\nsetenv:   X=2\nunset:    A\nsetenv:   C=4\nexecuting: true\n"
                   "   arg[0]= 'true'\n"},
           {"a missing file", {"env", "--env0-from=/nonexist", "true"}, 125, "",
            "env: cannot read '/nonexist': No such file or directory\n"},
           {"a directory", {"env", "--env0-from=/", "true"}, 125, "", "env: cannot read '/': Is a directory\n"},
           {"--env0-from needs an argument", {"env", "--env0-from"}, 125, "",
            "env: option '--env0-from' requires an argument\n" + std::string(kTry)},
       }) {
    ExpectCase(c);
  }
  // On a terminal, where input goes on after an end of file: V=9 would be read by a second read of standard input.
  Pty pty;
  ASSERT_TRUE(pty.ok());
  ASSERT_TRUE(pty.Type(Bytes("X=1\0Y=2\0\x04\x04V=9\0\x04\x04")));
  Options terminal;
  terminal.before_exec = pty.OnFds({0});
  ExpectCase({"- is standard input, read once", {"env", "-i", "--env0-from=-", "--env0-from=-", "Z=3"}, 0,
              "X=1\nY=2\nZ=3\n", ""},
             terminal);
  // The reason is the open's, not what taking the locale for the message left in errno (setlocale fails, ENOENT,
  // for a locale that is not installed).
  Options unknown_locale;
  unknown_locale.env = {"LC_ALL=xx_XX.UTF-8"};
  const std::string not_dir = WriteFile(dir, "not-a-dir", "") + "/x";
  ExpectCase({"an error's reason survives the locale being taken", {"env", "--env0-from=" + not_dir, "true"}, 125, "",
              "env: cannot read '" + not_dir + "': Not a directory\n"},
             unknown_locale);
  Options closed;
  closed.close_stdin = true;
  ExpectCase({"standard input closed", {"env", "--env0-from=-", "true"}, 125, "",
              "env: cannot read '-': Bad file descriptor\n"},
             closed);
}

// Every check of GNU master's tests/env/env0-from.sh, one case each, with the exact output GNU master's env gives.
TEST(EnvTest, Env0FromAsGnuMastersTests) {
  const std::string dir = MakeTempDir();
  WriteFile(dir, "vars", Bytes("CU_REPLACE=file\0CU_NEW=new\0CU_REMOVE=file\0"));
  WriteFile(dir, "values", Bytes("A=line 1\nline 2\0"));
  WriteFile(dir, "empty-name", Bytes("=value\0"));
  WriteFile(dir, "duplicates", Bytes("DUP=first\0DUP=last\0"));
  WriteFile(dir, "base", Bytes("A=old1\0opaque\0A=old2\0B=old\0"));
  WriteFile(dir, "merge", Bytes("A=new1\0C=new\0A=new2\0"));
  WriteFile(dir, "base-grow", Bytes("A=one\0"));
  WriteFile(dir, "merge-grow", Bytes("B=two\0"));
  const std::string raw = Bytes("A=first\0opaque\0A=last\0\0=value\0B=\0");
  WriteFile(dir, "raw", raw);
  WriteFile(dir, "one", Bytes("A=one\0"));
  WriteFile(dir, "empty", "");
  WriteFile(dir, "mixed", Bytes("A=file1\0opaque\0\0A=file2\0B=new\0"));
  WriteFile(dir, "unterminated", "A=unterminated");
  WriteFile(dir, "a b", "A=unterminated");
  WriteFile(dir, "a:b", "A=unterminated");
  mkdir((dir + "/bin").c_str(), 0755);
  WriteFile(dir, "bin/env0-from-command", "#!/bin/sh\necho found\n");
  chmod((dir + "/bin/env0-from-command").c_str(), 0755);
  WriteFile(dir, "path", "PATH=" + dir + "/bin" + std::string(1, '\0'));
  const std::string self = AbsoluteBinary();
  Options in_dir;
  in_dir.cwd = dir;
  in_dir.clear_env = true;
  in_dir.env = {"CU_PARENT=parent", "CU_REPLACE=parent", "CU_REMOVE=parent"};
  for (const Case& c : std::vector<Case>{
           {"without -i: the file merged, then -u, then the operands win",
            {"env", "--env0-from=vars", "-u", "CU_REMOVE", "CU_REPLACE=operand"}, 0,
            "CU_PARENT=parent\nCU_REPLACE=operand\nCU_NEW=new\n", ""},
           {"with -i only the file's entries", {"env", "--env0-from=vars", "-i"}, 0,
            "CU_REPLACE=file\nCU_NEW=new\nCU_REMOVE=file\n", ""},
           {"a mere - likewise", {"env", "--env0-from=vars", "-"}, 0, "CU_REPLACE=file\nCU_NEW=new\nCU_REMOVE=file\n",
            ""},
           {"a value with a newline", {"env", "-i", "--env0-from=values", "-0"}, 0, Bytes("A=line 1\nline 2\0"), ""},
           {"an empty name", {"env", "-i", "--env0-from=empty-name", "-0"}, 0, Bytes("=value\0"), ""},
           {"without -i a name twice: the last", {"env", "-i", "X=1", self, "env", "--env0-from=duplicates"}, 0,
            "X=1\nDUP=last\n", ""},
           {"merged into duplicates and an entry without =",
            {"env", "-i", "--env0-from=base", self, "env", "--env0-from=merge"}, 0,
            "A=new2\nopaque\nA=old2\nB=old\nC=new\n", ""},
           {"merged, -u removes every entry of the name, the operands last",
            {"env", "-i", "--env0-from=base", self, "env", "--env0-from=merge", "-u", "A", "C=operand", "D=new"}, 0,
            "opaque\nB=old\nC=operand\nD=new\n", ""},
           {"merged beyond the inherited entries",
            {"env", "-i", "--env0-from=base-grow", self, "env", "--env0-from=merge-grow", "C=three"}, 0,
            "A=one\nB=two\nC=three\n", ""},
           {"after -i every entry byte for byte", {"env", "-i", "--env0-from=raw", "-0"}, 0, raw, ""},
           {"after - likewise", {"env", "-0", "--env0-from=raw", "-"}, 0, raw, ""},
           {"-u and operands without normalizing the rest",
            {"env", "-i", "--env0-from=raw", "-u", "A", "-0", "B=changed", "C=new"}, 0,
            Bytes("opaque\0\0=value\0B=changed\0C=new\0"), ""},
           {"an operand appended after the file's entries", {"env", "-i", "--env0-from=one", "-0", "B=two"}, 0,
            Bytes("A=one\0B=two\0"), ""},
           {"PATH from the file finds the command", {"env", "-i", "--env0-from=path", "env0-from-command"}, 0,
            "found\n", ""},
           {"an empty file after -i: nothing", {"env", "-i", "--env0-from=empty", "-0"}, 0, "", ""},
           {"without -i entries without a name are appended",
            {"env", "-i", "A=old", self, "env", "--env0-from=mixed"}, 0, "A=file2\nopaque\n''\nB=new\n", ""},
           {"a file must end in NUL", {"env", "--env0-from=unterminated", "true"}, 125, "",
            "env: unterminated: file must end with a NUL byte\n"},
           {"its name quoted as a file name", {"env", "--env0-from=a b", "true"}, 125, "",
            "env: 'a b': file must end with a NUL byte\n"},
           {"a : in its name is quoted too", {"env", "--env0-from=a:b", "true"}, 125, "",
            "env: 'a:b': file must end with a NUL byte\n"},
           {"a missing file", {"env", "--env0-from=does-not-exist", "true"}, 125, "",
            "env: cannot read 'does-not-exist': No such file or directory\n"},
           {"-u '' after a file", {"env", "--env0-from=empty", "-u", "", "true"}, 125, "",
            "env: cannot unset '': Invalid argument\n"},
           {"-u A=B after a file", {"env", "--env0-from=empty", "-u", "A=B", "true"}, 125, "",
            "env: cannot unset 'A=B': Invalid argument\n"},
           {"-u '' after -i and a file", {"env", "-i", "--env0-from=empty", "-u", "", "true"}, 125, "",
            "env: cannot unset '': Invalid argument\n"},
           {"-u A=B after -i and a file", {"env", "-i", "--env0-from=empty", "-u", "A=B", "true"}, 125, "",
            "env: cannot unset 'A=B': Invalid argument\n"},
       }) {
    ExpectCase(c, in_dir);
  }
  Options input = in_dir;
  input.input = Bytes("A=stdin\0");
  ExpectCase({"- reads standard input", {"env", "-i", "--env0-from=-", "-0"}, 0, Bytes("A=stdin\0"), ""}, input);
}

// The printed environment, quoted per QUOTING_STYLE (GNU's development branch; GNU 9.1's ls --quoting-style is
// the reference for each style: uucore/quote_test.cc).
TEST(EnvTest, QuotingStyle) {
  const std::vector<std::string> argv = {"env",    "-i",         "a b=c d",  "X=it's",
                                         "E=",     "T=a\tb",     "U=\303\251", "P=/bin:/x"};
  const std::string shell_escape = "'a b'='c d'\nX=\"it's\"\nE=\nT='a'$'\\t''b'\nU=''$'\\303\\251'\nP=/bin:/x\n";
  struct StyleCase {
    std::string style, out;
  };
  for (const StyleCase& c : std::vector<StyleCase>{
           {"shell-escape", shell_escape},
           {"literal", "a b=c d\nX=it's\nE=\nT=a\tb\nU=\303\251\nP=/bin:/x\n"},
           {"shell", "'a b'='c d'\nX=\"it's\"\nE=\nT='a\tb'\nU=\303\251\nP=/bin:/x\n"},
           {"shell-always", "'a b'='c d'\n'X'=\"it's\"\n'E'=\n'T'='a\tb'\n'U'='\303\251'\n'P'='/bin:/x'\n"},
           {"shell-escape-always",
            "'a b'='c d'\n'X'=\"it's\"\n'E'=\n'T'='a'$'\\t''b'\n'U'=''$'\\303\\251'\n'P'='/bin:/x'\n"},
           {"c", "\"a b\"=\"c d\"\n\"X\"=\"it's\"\n\"E\"=\n\"T\"=\"a\\tb\"\n\"U\"=\"\\303\\251\"\n\"P\"=\"/bin:/x\"\n"},
           {"c-maybe", "a b=c d\nX=it's\nE=\nT=\"a\\tb\"\nU=\"\\303\\251\"\nP=/bin:/x\n"},
           // quotearg's escape style itself: a space stays (ls alone asks for "\ ").
           {"escape", "a b=c d\nX=it's\nE=\nT=a\\tb\nU=\\303\\251\nP=/bin:/x\n"},
           {"locale", "'a b'='c d'\n'X'='it\\'s'\n'E'=\n'T'='a\\tb'\n'U'='\\303\\251'\n'P'='/bin:/x'\n"},
           {"clocale", "\"a b\"=\"c d\"\n\"X\"=\"it's\"\n\"E\"=\n\"T\"=\"a\\tb\"\n\"U\"=\"\\303\\251\"\n\"P\"=\"/bin:/x\"\n"},
           {"lit", "a b=c d\nX=it's\nE=\nT=a\tb\nU=\303\251\nP=/bin:/x\n"},  // As ls: an unambiguous abbreviation.
       }) {
    Options options;
    options.env = {"QUOTING_STYLE=" + c.style};
    ExpectCase({"QUOTING_STYLE=" + c.style, argv, 0, c.out, ""}, options);
  }
  ExpectCase({"shell-escape when unset", argv, 0, shell_escape, ""});
  for (const std::string bad : {"invalid", "", "sh", "C"}) {
    Options options;
    options.env = {"QUOTING_STYLE=" + bad};
    ExpectCase({"QUOTING_STYLE=" + bad, argv, 0, shell_escape,
                "env: ignoring invalid value of environment variable QUOTING_STYLE: '" + bad + "'\n"},
               options);
  }
  Options invalid;
  invalid.env = {"QUOTING_STYLE=invalid"};
  ExpectCase({"-0 quotes nothing and reads no QUOTING_STYLE", {"env", "-0", "-i", "a b=c\td", "E="}, 0,
              Bytes("a b=c\td\0E=\0"), ""},
             invalid);
  // GNU master reads QUOTING_STYLE whenever -0 is not given, before anything else is done: so it warns about an
  // invalid value even when a command runs, and before any other complaint.
  ExpectCase({"the warning also when a command runs", {"env", "true"}, 0, "",
              "env: ignoring invalid value of environment variable QUOTING_STYLE: 'invalid'\n"},
             invalid);
  ExpectCase({"the warning, then -u's error", {"env", "-u", "", "true"}, 125, "",
              "env: ignoring invalid value of environment variable QUOTING_STYLE: 'invalid'\n"
              "env: cannot unset '': Invalid argument\n"},
             invalid);
  ExpectCase({"the warning, then -C's usage error", {"env", "-C", "/"}, 125, "",
              "env: ignoring invalid value of environment variable QUOTING_STYLE: 'invalid'\n" +
                  Usage("must specify command with --chdir (-C)")},
             invalid);
  ExpectCase({"no warning with -0 and a command", {"env", "-0", "true"}, 125, "",
              Usage("cannot specify --null (-0) with command")},
             invalid);
  ExpectCase({"the caller's QUOTING_STYLE, not the printed one", {"env", "-i", "QUOTING_STYLE=c", "a b=c"}, 0,
              "QUOTING_STYLE=c\n'a b'=c\n", ""});
  Options c_style;
  c_style.env = {"QUOTING_STYLE=c"};
  ExpectCase({"the caller's QUOTING_STYLE after -i", {"env", "-i", "a b=c"}, 0, "\"a b\"=\"c\"\n", ""}, c_style);
}

// Splits TEXT into lines, without their newlines.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end; start < text.size(); start = end + 1) {
    end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

// Deliberate differences from GNU, each pinned here.
TEST(EnvTest, DifferencesFromGnu) {
  Result help = Invoke({"env", "--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.err, "");
  // The help text is our own: only the synopsis and the options' spellings are GNU's, for scripts and readers.
  const std::vector<std::string> ours = Lines(help.out);
  ASSERT_FALSE(ours.empty());
  EXPECT_EQ(ours[0], "Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]");
  auto has_line_starting = [&ours](const std::string& prefix) {
    for (const std::string& line : ours) {
      if (line.compare(0, prefix.size(), prefix) == 0) return true;
    }
    return false;
  };
  for (const char* option :
       {"  -a, --argv0=ARG", "  -i, --ignore-environment", "  -0, --null", "      --env0-from=FILE",
        "  -u, --unset=NAME", "  -C, --chdir=DIR", "  -S, --split-string=S", "      --block-signal[=SIG]",
        "      --default-signal[=SIG]", "      --ignore-signal[=SIG]", "      --list-signal-handling", "  -v, --debug",
        "      --help", "      --version"}) {
    EXPECT_TRUE(has_line_starting(std::string(option) + " ")) << option;
  }
  // Against GNU's own help, when installed: every option it lists is listed, spelled as GNU spells it; none of
  // its prose lines is ours.
  Result gnu = RunProgram("/usr/bin/env", {"/usr/bin/env", "--help"});
  if (gnu.out.find("GNU coreutils") != std::string::npos) {
    const std::vector<std::string> theirs = Lines(gnu.out);
    for (size_t i = 1; i < theirs.size(); ++i) {
      const std::string& line = theirs[i];
      const size_t first = line.find_first_not_of(' ');
      if (first == std::string::npos) continue;
      if (line[first] == '-') {
        const std::string flags = line.substr(0, line.find("  ", first));
        EXPECT_TRUE(has_line_starting(flags + " ")) << flags;
      } else {
        for (const std::string& mine : ours) EXPECT_NE(mine, line);
      }
    }
  }
  ExpectCase({"version names this project", {"env", "--version"}, 0,
              "env (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n",
              ""});
}

TEST(EnvTest, HelpAndVersionAreOptions) {
  Result help = Invoke({"env", "-i", "--hel", "x"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out.substr(0, 10), "Usage: env");
  ExpectCase({"--help after the command is the command's", {"env", "printf", "%s", "--help"}, 0, "--help", ""});
  Options full;
  full.stdout_path = "/dev/full";
  Result r = Invoke({"env", "--help"}, full);
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err, "env: write error: No space left on device\n");
  Result printed = Invoke({"env", "-i", "A=1"}, full);
  EXPECT_EQ(printed.status, 125);
  EXPECT_EQ(printed.err, "env: write error: No space left on device\n");
}

}  // namespace
}  // namespace coreutils_testing
