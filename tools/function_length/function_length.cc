#include "tools/function_length/function_length.h"

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace function_length {
namespace {

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// `source` with every comment, string and character literal and preprocessor line turned into spaces (newlines
// kept), so that only code's own braces, parentheses and semicolons are left to count.
std::string Blank(const std::string& source) {
  std::string out = source;
  const size_t n = source.size();
  bool line_start = true;  // Only spaces so far on this line: a '#' here begins a preprocessor line.
  for (size_t i = 0; i < n;) {
    const char c = source[i];
    const auto blank_to = [&](size_t end) {  // [i, end) becomes spaces, newlines kept.
      for (; i < end && i < n; ++i) {
        if (out[i] != '\n') out[i] = ' ';
      }
    };
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (line_start && c == '#') {  // To the end of the line, and of every line a backslash continues.
      size_t end = i;
      while (end < n && (source[end] != '\n' || (end > 0 && source[end - 1] == '\\'))) ++end;
      blank_to(end);
      continue;
    }
    if (c != ' ' && c != '\t') line_start = false;
    if (c == '/' && i + 1 < n && source[i + 1] == '/') {
      blank_to(source.find('\n', i) == std::string::npos ? n : source.find('\n', i));
    } else if (c == '/' && i + 1 < n && source[i + 1] == '*') {
      const size_t close = source.find("*/", i + 2);
      blank_to(close == std::string::npos ? n : close + 2);
    } else if (c == '"' && i > 0 && source[i - 1] == 'R' && (i < 2 || !IsIdentChar(source[i - 2]) ||
                                                             source[i - 2] == '8' || source[i - 2] == 'u' ||
                                                             source[i - 2] == 'U' || source[i - 2] == 'L')) {
      // R"delim( ... )delim"
      const size_t paren = source.find('(', i);
      const std::string close = ")" + source.substr(i + 1, paren - i - 1) + "\"";
      const size_t end = paren == std::string::npos ? n : source.find(close, paren);
      blank_to(end == std::string::npos ? n : end + close.size());
    } else if (std::isdigit(static_cast<unsigned char>(c)) && (i == 0 || !IsIdentChar(source[i - 1]))) {
      // A number (a pp-number: 0xFF'FF, 1'000.0'5e+1'0) is skipped whole, so that a digit separator in it is not
      // taken for a character literal; u8'x' is no number, as its token begins with a letter.
      for (++i; i < n; ++i) {
        const char d = source[i];
        const bool sign = (d == '+' || d == '-') && std::strchr("eEpP", source[i - 1]) != nullptr;
        const bool separator = d == '\'' && i + 1 < n && IsIdentChar(source[i + 1]);
        if (!IsIdentChar(d) && d != '.' && !sign && !separator) break;
      }
    } else if (c == '"' || c == '\'') {
      // A literal, escapes included.
      size_t end = i + 1;
      while (end < n && source[end] != c && source[end] != '\n') end += source[end] == '\\' ? 2 : 1;
      blank_to(end + 1);
    } else {
      ++i;
    }
  }
  return out;
}

std::string Trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\n") - first + 1);
}

std::string FirstWord(const std::string& s) {
  size_t end = 0;
  while (end < s.size() && IsIdentChar(s[end])) ++end;
  return s.substr(0, end);
}

// Drops what may come before a declaration and says nothing of its kind: access specifiers ("public:"), a
// template<...> head and [[attributes]]. `skipped` counts the characters before the declaration's first line: the
// access specifiers and the blanks after them (a template head is the declaration's own).
std::string StripPrefixes(const std::string& header, size_t* skipped) {
  std::string h = header;
  size_t dropped = 0;
  bool declaration_seen = false;  // Past the access specifiers.
  *skipped = 0;
  for (bool again = true; again;) {
    again = false;
    const size_t lead = h.find_first_not_of(" \t\n");
    if (lead == std::string::npos) break;
    const std::string word = FirstWord(h.substr(lead));
    size_t cut = 0;
    if (!declaration_seen && word != "public" && word != "private" && word != "protected") {
      declaration_seen = true;
      *skipped = dropped + lead;
    }
    if (word == "public" || word == "private" || word == "protected") {
      const size_t colon = h.find(':', lead);
      if (colon != std::string::npos && (colon + 1 >= h.size() || h[colon + 1] != ':')) cut = colon + 1;
    } else if (word == "template") {
      size_t at = h.find('<', lead);
      for (int depth = 0; at != std::string::npos && at < h.size(); ++at) {
        if (h[at] == '<') ++depth;
        if (h[at] == '>' && --depth == 0) break;
      }
      if (at != std::string::npos && at < h.size()) cut = at + 1;
    } else if (h.compare(lead, 2, "[[") == 0) {
      const size_t close = h.find("]]", lead);
      if (close != std::string::npos) cut = close + 2;
    }
    if (cut > 0) {
      h = h.substr(cut);
      dropped += cut;
      again = true;
    }
  }
  if (!declaration_seen) {
    const size_t lead = h.find_first_not_of(" \t\n");
    *skipped = dropped + (lead == std::string::npos ? h.size() : lead);
  }
  return Trim(h);
}

// The name written before the parameter list: the identifier (with its qualifiers, '~', or operator symbols) right
// before the first '(' outside template arguments. Empty when the header has no parameter list.
std::string NameOf(const std::string& header) {
  int angle = 0;
  for (size_t i = 0; i < header.size(); ++i) {
    const char c = header[i];
    if (header.compare(i, 8, "operator") == 0 && (i == 0 || !IsIdentChar(header[i - 1]))) {
      size_t end = header.find('(', i + 8);
      if (header.compare(i + 8, 2, "()") == 0) end = i + 10;  // operator()(...)
      if (end == std::string::npos) return "";
      size_t start = i;
      while (start > 0 && (IsIdentChar(header[start - 1]) || header[start - 1] == ':')) --start;
      return Trim(header.substr(start, end - start));
    }
    if (c == '<' && i > 0 && IsIdentChar(header[i - 1])) ++angle;
    if (c == '>' && angle > 0) --angle;
    if (c == '(' && angle == 0) {
      size_t end = i;
      while (end > 0 && (header[end - 1] == ' ' || header[end - 1] == '\t' || header[end - 1] == '\n')) --end;
      size_t start = end;
      while (start > 0 && (IsIdentChar(header[start - 1]) || header[start - 1] == ':' || header[start - 1] == '~')) {
        --start;
      }
      return header.substr(start, end - start);
    }
  }
  return "";
}

// Whether the header's parentheses and brackets balance (a function's header is complete; a lambda passed as an
// argument leaves the call's '(' open).
bool Balanced(const std::string& header) {
  int depth = 0;
  for (char c : header) {
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (depth < 0) return false;
  }
  return depth == 0;
}

// Where the header initialises something: the first '=' outside parentheses, brackets and braces that is no
// operator's name ("operator=", "operator==") nor part of a comparison; npos if there is none.
size_t InitializerAt(const std::string& header) {
  int depth = 0;
  for (size_t i = 0; i < header.size(); ++i) {
    const char c = header[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c != '=' || depth != 0) continue;
    const size_t op = header.rfind("operator", i);
    if (op != std::string::npos && header.find_first_not_of("=!<>+-*/%^&|~ ", op + 8) >= i) continue;
    if (i + 1 < header.size() && header[i + 1] == '=') {  // ==, a comparison.
      ++i;
      continue;
    }
    if (i > 0 && std::strchr("!<>", header[i - 1]) != nullptr) continue;  // !=, <=, >=.
    return i;
  }
  return std::string::npos;
}

// The variable a lambda initialises ("kApply" in "const auto kApply = [&](int x) -> int"), with its qualifiers;
// empty unless the header is a variable whose initializer is a lambda, up to its body.
std::string LambdaVariable(const std::string& header) {
  const size_t equals = InitializerAt(header);
  if (equals == std::string::npos || !Balanced(header)) return "";
  const std::string value = Trim(header.substr(equals + 1));
  if (value.empty() || value[0] != '[' || value.compare(0, 2, "[[") == 0) return "";
  size_t end = equals;
  while (end > 0 && (header[end - 1] == ' ' || header[end - 1] == '\t' || header[end - 1] == '\n')) --end;
  size_t start = end;
  while (start > 0 && (IsIdentChar(header[start - 1]) || header[start - 1] == ':')) --start;
  return header.substr(start, end - start);
}

// Whether the header is a constructor's, up to and into its member initialiser list: a ':' (no '::', no '?' before
// it) after a closed parameter list, outside brackets, before any '='.
bool InInitialiserList(const std::string& header) {
  const std::string word = FirstWord(header);
  if (word == "class" || word == "struct" || word == "union" || word == "enum") return false;
  int depth = 0;
  bool parameters_closed = false;
  for (size_t i = 0; i < header.size(); ++i) {
    const char c = header[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') parameters_closed = --depth == 0 || parameters_closed;
    if (depth != 0) continue;
    if (c == '=' || c == '?') return false;
    const bool scope_operator = (i + 1 < header.size() && header[i + 1] == ':') || (i > 0 && header[i - 1] == ':');
    if (c == ':' && !scope_operator) return parameters_closed;
  }
  return false;
}

enum class Scope { kNamespace, kClass, kFunction, kOther };

// What a block opens, from its header; `name` is set for a function: as written before its parameter list, or a
// lambda's variable.
Scope KindOf(const std::string& header, std::string* name) {
  const std::string word = FirstWord(header);
  if (word == "namespace" || header.find(" namespace ") != std::string::npos) return Scope::kNamespace;
  if (word == "extern" && header.find('(') == std::string::npos) return Scope::kNamespace;  // extern "C" {
  if (word == "class" || word == "struct" || word == "union" || word == "enum") return Scope::kClass;
  for (const char* control : {"if", "else", "for", "while", "do", "switch", "try", "catch", "return"}) {
    if (word == control) return Scope::kOther;
  }
  *name = LambdaVariable(header);
  if (!name->empty()) return Scope::kFunction;
  if (header.empty() || header[0] == '[' || header.find('(') == std::string::npos || !Balanced(header) ||
      InitializerAt(header) != std::string::npos) {
    return Scope::kOther;
  }
  *name = NameOf(header);
  return name->empty() ? Scope::kOther : Scope::kFunction;  // No name: a pointer's (*)() type.
}

// One pass over blanked code. At namespace and class scope it reads headers: the text since the last ';', '{' or '}'
// that is no part of a header. Braces inside a header's parentheses or brackets (a default argument "= {}", a lambda
// passed to a member initialiser) and a member initialiser's own braces ("a_{a}") belong to the header; the first
// other '{' opens the block the header is for. Inside a function every block is the function's.
class Scanner {
 public:
  Scanner(const std::string& source, const std::string& code) : code_(code) {
    line_of_.assign(code.size() + 1, 1);
    for (size_t i = 0, line = 1; i < code.size(); ++i) {
      line_of_[i] = static_cast<int>(line);
      if (code[i] == '\n') ++line;
    }
    for (size_t start = 0; start <= source.size();) {
      size_t end = source.find('\n', start);
      if (end == std::string::npos) end = source.size();
      lines_.push_back(source.substr(start, end - start));
      start = end + 1;
    }
  }

  std::vector<Function> Scan() {
    for (size_t i = 0; i < code_.size(); ++i) {
      const bool at_top = stack_.empty() || stack_.back().scope == Scope::kNamespace ||
                          stack_.back().scope == Scope::kClass;
      if (at_top) {
        AtTop(i);
      } else if (code_[i] == '{') {
        stack_.push_back({Scope::kOther, 0});
      } else if (code_[i] == '}') {
        Close(i);
      }
    }
    return found_;
  }

 private:
  struct Open {
    Scope scope;
    size_t function;  // Index in found_ for kFunction.
  };

  // code_[i] at namespace or class scope.
  void AtTop(size_t i) {
    const char c = code_[i];
    if (c == '(' || c == '[') ++parens_;
    if ((c == ')' || c == ']') && parens_ > 0) --parens_;
    if (c == ';' && header_braces_ == 0) NewHeader(i + 1);
    if (c == '{') {
      if (parens_ > 0 || header_braces_ > 0 || IsMemberInitialiser(i)) {
        ++header_braces_;
      } else {
        OpenBlock(i);
      }
    }
    if (c == '}') {
      if (header_braces_ > 0) {
        --header_braces_;
      } else {
        Close(i);
      }
    }
  }

  // A '{' right after a name ("a_{", "Base<T>{") in a constructor's initialiser list.
  bool IsMemberInitialiser(size_t i) const {
    size_t before = i;
    while (before > boundary_ && std::isspace(static_cast<unsigned char>(code_[before - 1]))) --before;
    if (before == boundary_ || (!IsIdentChar(code_[before - 1]) && code_[before - 1] != '>')) return false;
    size_t skipped = 0;
    return InInitialiserList(StripPrefixes(code_.substr(boundary_, i - boundary_), &skipped));
  }

  void OpenBlock(size_t i) {
    size_t skipped = 0;
    const std::string header = StripPrefixes(code_.substr(boundary_, i - boundary_), &skipped);
    Function f;
    Open open = {KindOf(header, &f.name), 0};
    if (open.scope == Scope::kFunction) {
      f.first_line = line_of_[boundary_ + skipped];
      // The marker, with a reason after it, on the line before.
      if (f.first_line >= 2) {
        const std::string before = Trim(lines_[f.first_line - 2]);
        f.marked = before.compare(0, strlen(kMarker), kMarker) == 0 && !Trim(before.substr(strlen(kMarker))).empty();
      }
      open.function = found_.size();
      found_.push_back(f);
    }
    stack_.push_back(open);
    NewHeader(i + 1);
  }

  void Close(size_t i) {
    if (!stack_.empty()) {
      if (stack_.back().scope == Scope::kFunction) found_[stack_.back().function].last_line = line_of_[i];
      stack_.pop_back();
    }
    NewHeader(i + 1);
  }

  void NewHeader(size_t at) {
    boundary_ = at;
    parens_ = 0;
    header_braces_ = 0;
  }

  const std::string& code_;
  std::vector<int> line_of_;
  std::vector<std::string> lines_;
  std::vector<Open> stack_;
  std::vector<Function> found_;
  size_t boundary_ = 0;     // Where the current header began.
  int parens_ = 0;          // '(' and '[' open in the current header.
  int header_braces_ = 0;   // '{' open in the current header.
};

}  // namespace

std::vector<Function> FindFunctions(const std::string& source) {
  const std::string code = Blank(source);
  return Scanner(source, code).Scan();
}

std::vector<std::string> TooLong(const std::string& path, const std::string& source) {
  std::vector<std::string> problems;
  for (const Function& f : FindFunctions(source)) {
    if (f.length() <= kMaxLines || f.marked) continue;
    problems.push_back(path + ":" + std::to_string(f.first_line) + ": " + f.name + " is " +
                       std::to_string(f.length()) + " lines (at most " + std::to_string(kMaxLines) + "; or put '" +
                       kMarker + " WHY' on the line before it)");
  }
  return problems;
}

}  // namespace function_length
