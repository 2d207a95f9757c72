// tools/helpgen -- one text per utility: its --help and its man page (roff, section 1) are both made from
// utils/NAME/NAME.help at build time (help_text() in tools/helpgen/help.bzl), so they cannot disagree.
//
// Why a file of its own beside the utility, not a constexpr in the .cc that the generator reads: the man page says
// more than --help (timeout's signals, PID 1, --tree, -i), and that text has to sit next to the --help lines it
// extends, where a C++ raw string cannot hold it without also printing it. The .cc keeps its contract in its first
// lines as before and names its .help file; the text itself is read as the user sees it.
//
// NAME.help, line by line:
//   # ...                 comments, only at the top
//   NAME - SUMMARY        the man page's NAME line: the utility and what it does, in a few words
//   (one blank line)
//   the --help text       verbatim, to the end of the file: what `NAME --help` prints ("%s" stands for argv[0],
//                         uucore::Help()); lines of at most 80 columns, no tabs, no trailing blanks
//   | TEXT                interleaved anywhere in it: a line for the man page only ("|" alone: a blank one)
//
// The man page reads the --help lines and the "|" lines, in order, as --help's layout says:
//   "Usage: ..." and "  or:  ..."       SYNOPSIS (%s and the first word NAME in bold, CAPITALS in italics);
//                                       what follows is DESCRIPTION
//   "  -x, --long=ARG  text" / "      --long  text"
//                                       an option (indented at most 8 columns; its text may start on the next
//                                       line): .TP, options in bold, CAPITALS in italics. More-indented lines go
//                                       on with its text; after a blank line they start a new paragraph of it
//   "Exit status:" [TEXT]               the EXIT STATUS section; "  124  TEXT" lines in it are a table
//   "| # TITLE", "| ## Title"           a section (.SH) or subsection (.SS) of the man page only
//   any other indented line             a literal block (.nf), e.g. an example
//   other lines                         running text; a blank line ends a paragraph
// In running text, --options and -x are set in bold and the CAPITALS that SYNOPSIS or an option uses (COMMAND,
// DURATION) in italics; a '-' between two letters stays a hyphen, any other is a minus (\-), as typed.
#ifndef TOOLS_HELPGEN_HELPGEN_H_
#define TOOLS_HELPGEN_HELPGEN_H_

#include <string>
#include <vector>

namespace helpgen {

struct Line {
  std::string text;       // Without the "| " of a man-only line.
  bool man_only = false;
  int number = 0;         // In NAME.help, for messages.
};

struct HelpSource {
  std::string path;     // "utils/timeout/timeout.help"
  std::string name;     // "timeout"
  std::string summary;  // "run a command with a time limit"
  std::vector<Line> lines;
};

// Parse()
//
// Reads NAME.help (its text, and its path for messages). False, with "PATH:LINE: what is wrong" in *error, if the
// file breaks the format above.
bool Parse(const std::string& path, const std::string& text, HelpSource* out, std::string* error);

// HelpText()
//
// What --help prints: the lines that are not man-only, each ended by '\n'.
std::string HelpText(const HelpSource& source);

// CppHeader()
//
// A C++ header defining `inline constexpr char help::kName[]` (kTimeout, kTrue) as HelpText(), with an include
// guard made from the source's path ("utils/timeout/timeout.help" -> UTILS_TIMEOUT_TIMEOUT_HELP_H_).
std::string CppHeader(const HelpSource& source);

// ManPage()
//
// The man page, section 1, in roff (man macros), as the format above says; version goes into its footer.
std::string ManPage(const HelpSource& source, const std::string& version);

// VersionFromHeader()
//
// The string of `kVersion[] = "..."` in uucore/cli.h's text (the version every utility reports), or "" if there is
// none.
std::string VersionFromHeader(const std::string& text);

}  // namespace helpgen

#endif  // TOOLS_HELPGEN_HELPGEN_H_
