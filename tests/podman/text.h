// tests/podman/text.h -- reading what podman, skopeo and the containers print: lines, JSON strings.
#ifndef TESTS_PODMAN_TEXT_H_
#define TESTS_PODMAN_TEXT_H_

#include <string>
#include <vector>

namespace podman_testing {

// The non-empty lines of `text`, without their newlines.
std::vector<std::string> Lines(const std::string& text);

// The "..." strings of `text` in order (a JSON array's items; no escapes).
std::vector<std::string> QuotedStrings(const std::string& text);

// The string value of the first "key": "..." in a JSON text, "" if there is none.
std::string JsonValue(const std::string& json, const std::string& key);

}  // namespace podman_testing

#endif  // TESTS_PODMAN_TEXT_H_
