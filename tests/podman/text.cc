#include "tests/podman/text.h"

#include <sstream>
#include <string>
#include <vector>

namespace podman_testing {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> QuotedStrings(const std::string& text) {
  std::vector<std::string> strings;
  for (size_t at = text.find('"'); at != std::string::npos; at = text.find('"', text.find('"', at + 1) + 1)) {
    strings.push_back(text.substr(at + 1, text.find('"', at + 1) - at - 1));
  }
  return strings;
}

std::string JsonValue(const std::string& json, const std::string& key) {
  size_t at = json.find("\"" + key + "\"");
  if (at == std::string::npos) return "";
  at = json.find('"', json.find(':', at) + 1);
  return at == std::string::npos ? "" : json.substr(at + 1, json.find('"', at + 1) - at - 1);
}

}  // namespace podman_testing
