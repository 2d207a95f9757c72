// tools/function_length/function_length.h -- finds the function definitions of a C++ source and how long each is,
// so that a test can keep every function of utils/ and uucore/ at 100 lines or less (STYLE.md: past ~60 lines a
// function usually holds two concerns; past 100 it needs a reason in its comment).
//
//   for (const Function& f : FindFunctions(text))
//     if (f.length() > kMaxLines && !f.marked) ... report f.name, f.first_line, f.length() ...
//
// A scanner, not a parser: comments, string and character literals and preprocessor lines are blanked out (numbers
// are skipped whole, so a digit separator, 0xFF'FF, is no quote), braces are matched, and at namespace or class scope
// each '{' is read against its header (the text since the last ';', '{' or '}' outside it):
// - a '{' inside the header's parentheses or brackets (a default argument "= {}", a lambda passed to a member
//   initialiser) or right after a name in a constructor's initialiser list (": a_{a}, Base<T>{}") is part of the
//   header;
// - any other '{' opens a block: a function if the header has a parameter list, is no initializer ('=' outside
//   brackets and braces, operator= aside) and opens no class, struct, union, enum or namespace; also a function if
//   the header is a variable whose initializer is a lambda ("const auto kF = [&](int x) {"), named after the
//   variable.
// Blocks inside a function (lambdas, loops, local classes) count as part of it.
//
// What it does not see, and why that is acceptable:
// - a function defined inside a #define: a directive is blanked whole, because a macro's braces need not balance
//   ("#define OPEN {") and its body becomes a function only where it is expanded. utils/ and uucore/ define no
//   function in a macro (theirs are one table row, UUCORE_SIG, or one statement, UUCORE_DEADLINE_TRACE_SPAN), and a
//   macro long enough to matter is a line of backslashes any review sees;
// - a lambda at namespace or class scope that is not a variable's whole initializer (one inside a call's parentheses
//   or a braced list: "= Wrap([] {...})", "= {{"a", [] {...}}}"): it is read as part of that initializer, which has
//   no name to report. Every lambda of utils/ and uucore/ is inside a function found (checked when this was
//   written), so none escapes today;
// - a macro invoked at namespace scope without a ';' ("DEFINE_F(g)") joins the header after it: that function is
//   named after the macro and measured from the macro's line, so it can only be found too long, never too short;
// - both branches of an #if are read as code: each branch must balance its braces.
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
  std::string name;    // Before its parameter list: "Run", "CgroupLeaf::Signal", "operator="; or a lambda's variable.
  int first_line = 0;  // 1-based: the header's first line.
  int last_line = 0;   // The closing brace's line.
  bool marked = false;  // The line before first_line is kMarker followed by a reason.
  int length() const { return last_line - first_line + 1; }
};

// FindFunctions()
//
// Every function defined in `source` (free functions, member functions in and out of their class, constructors, and
// the lambda a namespace- or class-scope variable is initialised with, named after the variable), in order of their
// opening brace; nested blocks are never functions of their own.
std::vector<Function> FindFunctions(const std::string& source);

// TooLong()
//
// The functions of `source` longer than kMaxLines without the marker, as "PATH:LINE: NAME is N lines (at most 100;
// or put '// Long function: WHY' on the line before it)".
std::vector<std::string> TooLong(const std::string& path, const std::string& source);

}  // namespace function_length

#endif  // TOOLS_FUNCTION_LENGTH_FUNCTION_LENGTH_H_
