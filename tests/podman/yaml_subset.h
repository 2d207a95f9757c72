// tests/podman/yaml_subset.h -- reads the YAML that examples/kubernetes/pod.yaml is written in, and nothing more, so
// that kube_test reads the spec's values by their path (spec.containers[0].command), and a change of the file's
// layout either reads the same or fails the test with the line it cannot read, never a wrong value.
//
// The subset: block mappings ("key: value", "key:" with a more indented block under it), block sequences ("- value",
// "- key: value" opening a mapping), indentation by spaces, comments ("#" at a line's start or after a space),
// plain scalars, double-quoted scalars without escapes, and flow sequences of those ("[\"a\", \"b\"]"). Anything
// else (tabs, flow mappings, single quotes, escapes, anchors, tags, block scalars "|" ">", documents "---",
// duplicate keys, a sequence at its key's own indentation) is an error: "line N: what".
#ifndef TESTS_PODMAN_YAML_SUBSET_H_
#define TESTS_PODMAN_YAML_SUBSET_H_

#include <string>
#include <utility>
#include <vector>

namespace podman_testing {

struct YamlNode {
  enum class Kind { kScalar, kMapping, kSequence } kind = Kind::kScalar;
  std::string scalar;                                     // kScalar: its text, unquoted
  std::vector<std::pair<std::string, YamlNode>> mapping;  // kMapping: in the file's order
  std::vector<YamlNode> sequence;                         // kSequence

  // The value under `key` of a mapping, nullptr if there is none (or this is no mapping).
  const YamlNode* Get(const std::string& key) const;
};

// Parses `text` into *root (a mapping, a sequence, or an empty scalar for an empty text). "" or "line N: what".
std::string ParseYamlSubset(const std::string& text, YamlNode* root);

}  // namespace podman_testing

#endif  // TESTS_PODMAN_YAML_SUBSET_H_
