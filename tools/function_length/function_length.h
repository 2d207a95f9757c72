// tools/function_length/function_length.h -- finds the function definitions of a C++ source and how long each is,
// so that a test can keep every function of utils/ and uucore/ at 100 lines or less (STYLE.md: past ~60 lines a
// function usually holds two concerns; past 100 it needs a reason in its comment).
//
//   for (const Function& f : FindFunctions(text))
//     if (f.length() > kMaxLines && !f.marked) ... report f.name, f.first_line, f.length() ...
//
// A scanner, not a parser: comments, string and character literals and preprocessor lines are blanked out, braces
// are matched, and a brace-enclosed block at namespace or class scope whose header (the text since the last ';',
// '{' or '}') has a parameter list, is no initializer ('=' outside brackets, operator= aside) and opens no class,
// struct, union, enum or namespace is a function. Blocks inside a function (lambdas, loops) count as part of it.
// Standard C++ only: no Abseil, so that the check builds as fast as the tools around it.
#ifndef TOOLS_FUNCTION_LENGTH_FUNCTION_LENGTH_H_
#define TOOLS_FUNCTION_LENGTH_FUNCTION_LENGTH_H_

#include <string>
#include <vector>

namespace function_length {

// The longest a function may be, in lines from its header's first line to its closing brace.
constexpr int kMaxLines = 100;

// The comment that lets a function be longer: on the line right before its first line (its template<...> line, if
// any), the marker followed by the reason, e.g. "// Long function: one table row per signal, read top to bottom".
constexpr char kMarker[] = "// Long function:";

struct Function {
  std::string name;    // As written before its parameter list: "Run", "CgroupLeaf::Signal", "operator=".
  int first_line = 0;  // 1-based: the header's first line.
  int last_line = 0;   // The closing brace's line.
  bool marked = false;  // The line before first_line is kMarker followed by a reason.
  int length() const { return last_line - first_line + 1; }
};

// FindFunctions()
//
// Every function defined in `source` (free functions, member functions in and out of their class, constructors),
// in order of their opening brace; nested blocks are never functions of their own.
std::vector<Function> FindFunctions(const std::string& source);

// TooLong()
//
// The functions of `source` longer than kMaxLines without the marker, as "PATH:LINE: NAME is N lines (at most 100;
// or put '// Long function: WHY' on the line before it)".
std::vector<std::string> TooLong(const std::string& path, const std::string& source);

}  // namespace function_length

#endif  // TOOLS_FUNCTION_LENGTH_FUNCTION_LENGTH_H_
