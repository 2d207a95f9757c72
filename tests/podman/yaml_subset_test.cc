// tests/podman/yaml_subset_test.cc -- the YAML subset reader of kube_test: what pod.yaml's layout can be, and every
// form outside the subset an error with its line.
#include "tests/podman/yaml_subset.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace podman_testing {
namespace {

// The scalars of a sequence node.
std::vector<std::string> Scalars(const YamlNode* node) {
  std::vector<std::string> scalars;
  if (node == nullptr) return {"(none)"};
  for (const YamlNode& item : node->sequence) scalars.push_back(item.scalar);
  return scalars;
}

TEST(YamlSubsetTest, ReadsAPodSpecsShape) {
  const std::string text = R"(# a comment
apiVersion: v1
metadata:
  name: job   # trailing comment
spec:
  grace: 10
  containers:
    - name: first
      image: registry.example/job:1.0
      command: ["/coreutils", "timeout", "-k", "5", "50m"]
      args: [ "/app" ]
    - name: "second # not a comment"
      list:
        - a
        -
          b: c
)";
  YamlNode root;
  ASSERT_EQ(ParseYamlSubset(text, &root), "");
  EXPECT_EQ(root.Get("apiVersion")->scalar, "v1");
  EXPECT_EQ(root.Get("metadata")->Get("name")->scalar, "job");
  EXPECT_EQ(root.Get("spec")->Get("grace")->scalar, "10");
  const YamlNode* containers = root.Get("spec")->Get("containers");
  ASSERT_EQ(containers->sequence.size(), 2u);
  EXPECT_EQ(containers->sequence[0].Get("image")->scalar, "registry.example/job:1.0");
  EXPECT_EQ(Scalars(containers->sequence[0].Get("command")),
            (std::vector<std::string>{"/coreutils", "timeout", "-k", "5", "50m"}));
  EXPECT_EQ(Scalars(containers->sequence[0].Get("args")), std::vector<std::string>{"/app"});
  EXPECT_EQ(containers->sequence[1].Get("name")->scalar, "second # not a comment");
  const YamlNode* list = containers->sequence[1].Get("list");
  ASSERT_EQ(list->sequence.size(), 2u);
  EXPECT_EQ(list->sequence[0].scalar, "a");
  EXPECT_EQ(list->sequence[1].Get("b")->scalar, "c");
  EXPECT_EQ(root.Get("missing"), nullptr);
}

TEST(YamlSubsetTest, RejectsWhatIsOutsideTheSubsetWithItsLine) {
  const struct {
    const char* text;
    const char* error;
  } cases[] = {
      {"a: 1\na: 2\n", "line 2: a second 'a'"},
      {"a:\n\tb: 1\n", "line 2: a tab"},
      {"---\na: 1\n", "line 1: a document marker"},
      {"a: {b: 1}\n", "line 1: '{' (not in the subset)"},
      {"a: 'x'\n", "line 1: ''' (not in the subset)"},
      {"a: |\n  text\n", "line 1: '|' (not in the subset)"},
      {"a: &anchor 1\n", "line 1: '&' (not in the subset)"},
      {"a: \"x\\ty\"\n", "line 1: an escape in a quoted string"},
      {"a: [\"x\",\n  \"y\"]\n", "line 1: a flow sequence not closed on its line"},
      {"a:\n- b\n", "line 1: no value"},
      {"a: 1\n  b: 2\n", "line 2: indented more than its mapping"},
      {"  a: 1\n", "line 1: the top level is indented"},
      {"a: 1\nplain text\n", "line 2: not \"key: value\": plain text"},
      {"a: b: c\n", "line 1: ': ' in a plain scalar"},
  };
  for (const auto& c : cases) {
    YamlNode root;
    EXPECT_EQ(ParseYamlSubset(c.text, &root), c.error) << c.text;
  }
}

}  // namespace
}  // namespace podman_testing
