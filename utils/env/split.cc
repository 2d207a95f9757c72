#include "utils/env/split.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "uucore/i18n.h"

namespace env {
namespace {

bool IsSeparator(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool IsNameStart(char c) { return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9'); }

// The byte a backslash escape stands for in "..." or unquoted text, or 0 for \_, \c and invalid sequences.
char EscapedByte(char c) {
  switch (c) {
    case '\\':
    case '"':
    case '\'':
    case '#':
    case '$': return c;
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'v': return '\v';
    default: return 0;
  }
}

class Splitter {
 public:
  Splitter(absl::string_view s, LookupFn lookup) : s_(s), lookup_(lookup) {}

  absl::StatusOr<std::vector<std::string>> Split() {
    enum { kUnquoted, kSingle, kDouble } quote = kUnquoted;
    for (size_t i = 0; i < s_.size(); ++i) {
      const char c = s_[i];
      if (quote == kSingle) {
        if (c == '\'') {
          quote = kUnquoted;
        } else if (c == '\\' && i + 1 < s_.size() && (s_[i + 1] == '\\' || s_[i + 1] == '\'')) {
          word_ += s_[++i];
        } else {
          word_ += c;
        }
        continue;
      }
      if (quote == kDouble && c == '"') {
        quote = kUnquoted;
        continue;
      }
      if (quote == kUnquoted) {
        if (IsSeparator(c)) {
          EndWord();
          continue;
        }
        if (c == '#' && !in_word_) break;  // A comment runs to the end of the string, newlines included.
        if (c == '\'' || c == '"') {
          quote = c == '\'' ? kSingle : kDouble;
          in_word_ = true;  // "" is an empty argument.
          continue;
        }
      }
      if (c == '\\') {
        if (i + 1 == s_.size()) {
          return absl::InvalidArgumentError(uucore::Format("invalid backslash at end of string in -S"));
        }
        const char e = s_[++i];
        if (e == 'c') {
          if (quote == kDouble) {
            return absl::InvalidArgumentError(uucore::Format("'\\c' must not appear in double-quoted -S string"));
          }
          break;  // \c: ignore the rest of the string.
        }
        if (e == '_') {
          if (quote == kDouble) {
            word_ += ' ';
          } else {
            EndWord();
          }
          continue;
        }
        const char byte = EscapedByte(e);
        if (byte == 0)
          return absl::InvalidArgumentError(uucore::Format("invalid sequence '\\%c' in -S", s_.substr(i, 1)));
        word_ += byte;
        in_word_ = true;
        continue;
      }
      if (c == '$') {
        absl::Status expanded = Expand(&i);
        if (!expanded.ok()) return expanded;
        continue;
      }
      word_ += c;
      in_word_ = true;
    }
    if (quote != kUnquoted) {
      return absl::InvalidArgumentError(uucore::Format("no terminating quote in -S string"));
    }
    EndWord();
    return std::move(words_);
  }

 private:
  void EndWord() {
    if (in_word_) words_.push_back(std::move(word_));
    word_.clear();
    in_word_ = false;
  }

  // Expands the ${NAME} at *i and leaves *i on its closing brace.
  absl::Status Expand(size_t* i) {
    const size_t start = *i;
    size_t end = start + 2;
    if (end < s_.size() && s_[start + 1] == '{' && IsNameStart(s_[end])) {
      while (end < s_.size() && IsNameChar(s_[end])) ++end;
    }
    if (end == start + 2 || end >= s_.size() || s_[end] != '}') {
      return absl::InvalidArgumentError(
          uucore::Format("only ${VARNAME} expansion is supported, error at: %s", s_.substr(start)));
    }
    const std::string name(s_.substr(start + 2, end - start - 2));
    if (const char* value = lookup_(name)) {
      word_ += value;
      in_word_ = true;  // Set but empty still makes an argument; unset makes none.
    }
    *i = end;
    return absl::OkStatus();
  }

  absl::string_view s_;
  LookupFn lookup_;
  std::vector<std::string> words_;
  std::string word_;
  bool in_word_ = false;
};

}  // namespace

absl::StatusOr<std::vector<std::string>> SplitString(absl::string_view s, LookupFn lookup) {
  return Splitter(s, lookup).Split();
}

}  // namespace env
