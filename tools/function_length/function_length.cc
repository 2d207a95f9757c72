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
    } else if (c == '"' || (c == '\'' && !(i > 0 && std::isdigit(static_cast<unsigned char>(source[i - 1]))))) {
      // A literal, escapes included; a quote after a digit is a digit separator (1'000).
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

// Whether the header initialises something: an '=' outside parentheses and brackets that is no operator's name
// ("operator=", "operator==") nor part of a comparison.
bool IsInitializer(const std::string& header) {
  int depth = 0;
  for (size_t i = 0; i < header.size(); ++i) {
    const char c = header[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c != '=' || depth != 0) continue;
    const size_t op = header.rfind("operator", i);
    if (op != std::string::npos && header.find_first_not_of("=!<>+-*/%^&|~ ", op + 8) >= i) continue;
    return true;
  }
  return false;
}

enum class Scope { kNamespace, kClass, kFunction, kOther };

Scope KindOf(const std::string& header) {
  const std::string word = FirstWord(header);
  if (word == "namespace" || header.find(" namespace ") != std::string::npos) return Scope::kNamespace;
  if (word == "extern" && header.find('(') == std::string::npos) return Scope::kNamespace;  // extern "C" {
  if (word == "class" || word == "struct" || word == "union" || word == "enum") return Scope::kClass;
  for (const char* control : {"if", "else", "for", "while", "do", "switch", "try", "catch", "return"}) {
    if (word == control) return Scope::kOther;
  }
  if (header.empty() || header[0] == '[' || header.find('(') == std::string::npos || !Balanced(header) ||
      IsInitializer(header)) {
    return Scope::kOther;
  }
  return Scope::kFunction;
}

}  // namespace

std::vector<Function> FindFunctions(const std::string& source) {
  const std::string code = Blank(source);
  std::vector<int> line_of(code.size() + 1, 1);
  for (size_t i = 0, line = 1; i < code.size(); ++i) {
    line_of[i] = static_cast<int>(line);
    if (code[i] == '\n') ++line;
  }
  std::vector<std::string> lines;
  for (size_t start = 0; start <= source.size();) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    lines.push_back(source.substr(start, end - start));
    start = end + 1;
  }
  struct Open {
    Scope scope;
    size_t function;  // Index in `found` for kFunction.
  };
  std::vector<Open> stack;
  std::vector<Function> found;
  size_t boundary = 0;  // Where the current header began: after the last ';', '{' or '}'.
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (c == ';') {
      boundary = i + 1;
    } else if (c == '{') {
      Scope scope = Scope::kOther;
      const bool at_top = stack.empty() || stack.back().scope == Scope::kNamespace ||
                          stack.back().scope == Scope::kClass;
      size_t skipped = 0;
      const std::string header = StripPrefixes(code.substr(boundary, i - boundary), &skipped);
      if (at_top) scope = KindOf(header);
      if (scope == Scope::kFunction && NameOf(header).empty()) scope = Scope::kOther;  // A pointer's (*)() type.
      Open open = {scope, 0};
      if (scope == Scope::kFunction) {
        Function f;
        f.name = NameOf(header);
        f.first_line = line_of[boundary + skipped];
        // The marker, with a reason after it, on the line before.
        if (f.first_line >= 2) {
          const std::string before = Trim(lines[f.first_line - 2]);
          f.marked = before.compare(0, strlen(kMarker), kMarker) == 0 && !Trim(before.substr(strlen(kMarker))).empty();
        }
        open.function = found.size();
        found.push_back(f);
      }
      stack.push_back(open);
      boundary = i + 1;
    } else if (c == '}') {
      if (!stack.empty()) {
        if (stack.back().scope == Scope::kFunction) found[stack.back().function].last_line = line_of[i];
        stack.pop_back();
      }
      boundary = i + 1;
    }
  }
  return found;
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
