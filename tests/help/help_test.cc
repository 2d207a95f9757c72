// --help and the man pages: one text per utility (utils/NAME/NAME.help, tools/helpgen). Every utility that
// `coreutils --list` names, and the dispatcher, has a page that man-db's `man -l` renders and that says everything
// its --help says; --help and --version are answered the same way everywhere (uucore::GetoptLong).
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

// Every name the dispatcher answers to: its utilities, and itself.
std::vector<std::string> Names() {
  std::vector<std::string> names;
  const std::string list = Invoke({"coreutils", "--list"}).out;
  for (size_t at = 0, end; (end = list.find('\n', at)) != std::string::npos; at = end + 1) {
    names.push_back(list.substr(at, end - at));
  }
  EXPECT_GE(names.size(), 8u) << list;
  names.push_back("coreutils");
  return names;
}

// utils/*/NAME.1 in the runfiles (false's is beside true's), or "" if there is none.
std::string ManPage(const std::string& name) {
  const std::string utils = RunfilePath("utils/");
  DIR* dir = opendir(utils.c_str());
  if (dir == nullptr) return "";
  std::string found;
  while (dirent* entry = readdir(dir)) {
    const std::string page = utils + entry->d_name + "/" + name + ".1";
    if (entry->d_name[0] != '.' && access(page.c_str(), R_OK) == 0) found = page;
  }
  closedir(dir);
  return found;
}

// The page as man-db shows it, under LC_ALL=C (plain ASCII, no fonts when not on a terminal), 80 columns and no
// hyphenation, so that words are whole.
Result Render(const std::string& page) {
  Options options;
  options.env = {"MANWIDTH=80", "MANROFFOPT=-rHY=0", "MANPAGER=cat", "PAGER=cat"};
  return RunProgram("/usr/bin/man", {"man", "-l", page}, options);
}

// Runs of blanks and line breaks as one space; a line broken after a '-' (--long-option) joined again.
std::string Words(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' && !out.empty() && out.back() == '-') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      continue;
    }
    if (c == ' ' || c == '\n') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The options that --help's option lines name: "  -k, --kill-after=DURATION" gives -k and --kill-after.
std::vector<std::string> ListedOptions(const std::string& help) {
  std::vector<std::string> options;
  for (size_t at = 0, end; (end = help.find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string line = help.substr(at, end - at);
    const size_t start = line.find_first_not_of(' ');
    if (start == 0 || start == std::string::npos || start > 8 || line[start] != '-') continue;
    const std::string tag = line.substr(start, line.find("  ", start) - start);
    for (size_t i = 0; i < tag.size();) {
      if (tag[i] != '-' || (i > 0 && tag[i - 1] != ' ' && tag[i - 1] != '[' && tag[i - 1] != '|')) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < tag.size() && (isalnum(static_cast<unsigned char>(tag[j])) || tag[j] == '-')) ++j;
      options.push_back(tag.substr(i, j - i));
      i = j;
    }
  }
  return options;
}

// `NAME` or `--x` stands alone in text: not a piece of a longer option or word.
bool HasWord(const std::string& text, const std::string& word) {
  auto part_of_word = [](char c) { return isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !part_of_word(text[at - 1])) && (end == text.size() || !part_of_word(text[end]))) return true;
  }
  return false;
}

TEST(ManPageTest, EveryUtilityHasOneThatManRenders) {
  for (const std::string& name : Names()) {
    const std::string page = ManPage(name);
    ASSERT_NE(page, "") << name << ": no utils/*/" << name << ".1 (add it to //utils/coreutils:man_pages)";
    const Result man = Render(page);
    EXPECT_EQ(man.status, 0) << name;
    EXPECT_EQ(man.err, "") << name;
    std::string title;
    for (char c : name) title += static_cast<char>(toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(man.out.rfind(title + "(1)", 0), 0u) << name << ":\n" << man.out;
    EXPECT_NE(man.out.find("\nNAME\n       " + name + " - "), std::string::npos) << name << ":\n" << man.out;
    EXPECT_NE(man.out.find("\nSYNOPSIS\n"), std::string::npos) << name;
  }
}

TEST(ManPageTest, NamesEveryOptionItsHelpLists) {
  for (const std::string& name : Names()) {
    const std::string man = Words(Render(ManPage(name)).out);
    const std::vector<std::string> options = ListedOptions(Invoke({name, "--help"}).out);
    EXPECT_GE(options.size(), 2u) << name << ": --help and --version at least";
    for (const std::string& option : options) {
      EXPECT_TRUE(HasWord(man, option)) << name << ": " << option;
    }
  }
}

// Each line of --help, whitespace aside, stands in the rendered page: the usage lines in SYNOPSIS, options with
// their text, "Exit status:" as the section's title.
TEST(ManPageTest, SaysEverythingItsHelpSays) {
  for (const std::string& name : Names()) {
    const std::string man = Words(Render(ManPage(name)).out);
    const std::string help = Invoke({name, "--help"}).out;
    ASSERT_NE(help, "") << name;
    for (size_t at = 0, end; (end = help.find('\n', at)) != std::string::npos; at = end + 1) {
      std::string line = Words(help.substr(at, end - at));
      for (const std::string prefix : {"Usage: ", "or: ", "Exit status:"}) {
        if (line.rfind(prefix, 0) == 0) line = Words(line.substr(prefix.size()));
      }
      if (line.empty()) continue;
      EXPECT_NE(man.find(line), std::string::npos) << name << ": " << line;
    }
  }
}

// uucore::GetoptLong answers --help and --version for every utility that has options: abbreviated as getopt allows,
// first come first served, and written with the signal mask the program started with, so that a reader that has
// gone away ends it with SIGPIPE (timeout, too, which keeps every signal blocked while it starts).
TEST(HelpTest, AnsweredTheSameWayEverywhere) {
  Options no_reader;
  no_reader.before_exec = [] {
    int fds[2];
    if (pipe(fds) != 0 || dup2(fds[1], 1) < 0) _exit(200);
    close(fds[0]);
  };
  for (const std::string& name : Names()) {
    const Result help = Invoke({name, "--help"});
    const Result version = Invoke({name, "--version"});
    EXPECT_EQ(help.status, name == "false" ? 1 : 0) << name;
    EXPECT_EQ(help.out.rfind("Usage: ", 0), 0u) << name;
    EXPECT_EQ(version.out.rfind(name + " (coreutils) ", 0), 0u) << name << ": " << version.out;
    const Result lost = Invoke({name, "--help"}, no_reader);
    EXPECT_EQ(lost.signal, SIGPIPE) << name << ": " << lost.status << " " << lost.err;
    if (name == "true" || name == "false") continue;  // A lone, whole --help only, as GNU.
    ExpectCase({name + " --he", {name, "--he"}, 0, help.out, ""});
    ExpectCase({name + " --help --version", {name, "--help", "--version"}, 0, help.out, ""});
    ExpectCase({name + " --version --help", {name, "--version", "--help"}, 0, version.out, ""});
  }
  // --help and --version come after a utility's own options, as in GNU's tables: getopt names the candidates of an
  // ambiguous abbreviation in that order.
  ExpectCase({"--ver", {"timeout", "--ver", "1", "true"}, 125, "",
              "timeout: option '--ver' is ambiguous; possibilities: '--verbose' '--version'\n"
              "Try 'timeout --help' for more information.\n"});
}

}  // namespace
}  // namespace coreutils_testing
