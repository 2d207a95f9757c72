#include "tests/podman/yaml_subset.h"

#include <string.h>

#include <cctype>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace podman_testing {
namespace {

struct Line {
  int number;
  int indent;
  std::string text;  // Without its indentation, its comment and trailing spaces.
};

std::string At(const Line& line, const std::string& what) {
  return "line " + std::to_string(line.number) + ": " + what;
}

// The line without its comment: "#" at its start or after a space, outside double quotes.
std::string WithoutComment(const std::string& text) {
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (text[i] == '#' && !quoted && (i == 0 || text[i - 1] == ' ')) return text.substr(0, i);
  }
  return text;
}

// The non-blank lines, split into indentation and text; "" or the first line that cannot be one of the subset's.
std::string SplitLines(const std::string& text, std::vector<Line>* lines) {
  std::istringstream in(text);
  int number = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++number;
    std::string body = WithoutComment(raw);
    body.erase(body.find_last_not_of(' ') + 1);
    const size_t indent = body.find_first_not_of(' ');
    if (indent == std::string::npos) continue;
    const Line line = {number, static_cast<int>(indent), body.substr(indent)};
    if (body.find('\t') != std::string::npos) return At(line, "a tab");
    if (line.text == "---" || line.text == "...") return At(line, "a document marker");
    lines->push_back(line);
  }
  return "";
}

// "key: rest" or "key:": true, with the key and the rest ("" for none).
bool SplitKey(const std::string& text, std::string* key, std::string* rest) {
  size_t end = 0;
  while (end < text.size() && (isalnum(static_cast<unsigned char>(text[end])) || strchr("_.-/", text[end]))) ++end;
  if (end == 0 || end >= text.size() || text[end] != ':') return false;
  if (end + 1 < text.size() && text[end + 1] != ' ') return false;
  *key = text.substr(0, end);
  *rest = end + 1 < text.size() ? text.substr(text.find_first_not_of(' ', end + 1)) : "";
  return true;
}

// A scalar: plain, or double-quoted without escapes. "" or what is wrong.
std::string ParseScalar(const std::string& text, std::string* value) {
  if (text.empty()) return "an empty value";
  if (text[0] == '"') {
    if (text.size() < 2 || text.back() != '"' || text.find('"', 1) != text.size() - 1) return "a quoted string";
    if (text.find('\\') != std::string::npos) return "an escape in a quoted string";
    *value = text.substr(1, text.size() - 2);
    return "";
  }
  if (strchr("[]{}'|>&*!%@`,?", text[0]) != nullptr) return "'" + text.substr(0, 1) + "' (not in the subset)";
  if (text.find(": ") != std::string::npos) return "': ' in a plain scalar";
  *value = text;
  return "";
}

// A value on its key's line: a scalar, or a flow sequence of scalars.
std::string ParseInline(const Line& line, const std::string& text, YamlNode* node) {
  if (text[0] != '[') {
    node->kind = YamlNode::Kind::kScalar;
    const std::string error = ParseScalar(text, &node->scalar);
    return error.empty() ? "" : At(line, error);
  }
  if (text.back() != ']') return At(line, "a flow sequence not closed on its line");
  node->kind = YamlNode::Kind::kSequence;
  std::string items = text.substr(1, text.size() - 2);
  if (items.find_first_not_of(' ') == std::string::npos) return "";
  for (size_t start = 0; start <= items.size();) {
    size_t comma = start;  // The next comma outside quotes.
    for (bool quoted = false; comma < items.size() && (quoted || items[comma] != ','); ++comma) {
      if (items[comma] == '"') quoted = !quoted;
    }
    std::string item = items.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    YamlNode element;
    if (const std::string error = ParseScalar(item, &element.scalar); !error.empty()) return At(line, error);
    node->sequence.push_back(element);
    start = comma + 1;
  }
  return "";
}

class Parser {
 public:
  explicit Parser(std::vector<Line> lines) : lines_(std::move(lines)) {}

  // The block at lines_[at_]'s indentation: a sequence if it opens with "- ", else a mapping.
  std::string Block(YamlNode* node) {
    const Line& first = lines_[at_];
    return first.text == "-" || first.text.compare(0, 2, "- ") == 0 ? Sequence(first.indent, node)
                                                                      : Mapping(first.indent, node);
  }
  bool Done() const { return at_ == lines_.size(); }
  const Line& Current() const { return lines_[at_]; }

 private:
  // The value after "key:" or "-" with nothing after it: the more indented block under it.
  std::string Nested(const Line& owner, YamlNode* node) {
    if (Done() || lines_[at_].indent <= owner.indent) return At(owner, "no value");
    return Block(node);
  }

  std::string Mapping(int indent, YamlNode* node) {
    node->kind = YamlNode::Kind::kMapping;
    while (!Done() && lines_[at_].indent == indent) {
      const Line line = lines_[at_++];
      std::string key, rest;
      if (!SplitKey(line.text, &key, &rest)) return At(line, "not \"key: value\": " + line.text);
      if (node->Get(key) != nullptr) return At(line, "a second '" + key + "'");
      YamlNode value;
      const std::string error = rest.empty() ? Nested(line, &value) : ParseInline(line, rest, &value);
      if (!error.empty()) return error;
      node->mapping.emplace_back(key, std::move(value));
    }
    if (!Done() && lines_[at_].indent > indent) return At(lines_[at_], "indented more than its mapping");
    return "";
  }

  std::string Sequence(int indent, YamlNode* node) {
    node->kind = YamlNode::Kind::kSequence;
    while (!Done() && lines_[at_].indent == indent) {
      Line& line = lines_[at_];
      if (line.text != "-" && line.text.compare(0, 2, "- ") != 0) return At(line, "not \"- item\" in a sequence");
      YamlNode item;
      std::string error, key, rest;
      if (line.text == "-") {
        const Line owner = lines_[at_++];
        error = Nested(owner, &item);
      } else if (const std::string text = line.text.substr(line.text.find_first_not_of(' ', 1));
                 SplitKey(text, &key, &rest)) {
        line.indent += static_cast<int>(line.text.size() - text.size());  // "- key: v": a mapping at key's column.
        line.text = text;
        error = Mapping(line.indent, &item);
      } else {
        const Line owner = lines_[at_++];
        error = ParseInline(owner, text, &item);
      }
      if (!error.empty()) return error;
      node->sequence.push_back(std::move(item));
    }
    if (!Done() && lines_[at_].indent > indent) return At(lines_[at_], "indented more than its sequence");
    return "";
  }

  std::vector<Line> lines_;
  size_t at_ = 0;
};

}  // namespace

const YamlNode* YamlNode::Get(const std::string& key) const {
  for (const auto& entry : mapping) {
    if (entry.first == key) return &entry.second;
  }
  return nullptr;
}

std::string ParseYamlSubset(const std::string& text, YamlNode* root) {
  *root = YamlNode();
  std::vector<Line> lines;
  if (std::string error = SplitLines(text, &lines); !error.empty()) return error;
  if (lines.empty()) return "";
  if (lines[0].indent != 0) return At(lines[0], "the top level is indented");
  Parser parser(std::move(lines));
  if (std::string error = parser.Block(root); !error.empty()) return error;
  return parser.Done() ? "" : At(parser.Current(), "less indented than the top level");
}

}  // namespace podman_testing
