// FindFunctions() on small sources, one behaviour a case; then the rule itself over every non-test source of
// utils/ and uucore/ that the binary and uucore/deadline are built from (the files come as arguments, from
// :sources in BUILD.bazel).
#include "tools/function_length/function_length.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace function_length {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;

std::vector<std::string> g_files;  // The sources to check, from the command line.

// "NAME first-last" for each function found.
std::vector<std::string> Found(const std::string& source) {
  std::vector<std::string> out;
  for (const Function& f : FindFunctions(source)) {
    out.push_back(f.name + " " + std::to_string(f.first_line) + "-" + std::to_string(f.last_line));
  }
  return out;
}

// A function of `body_lines` statements, so `body_lines + 2` lines with its header and closing brace, after
// `before` (which ends with a newline if not empty).
std::string FunctionOf(int body_lines, const std::string& before = "") {
  std::string text = before + "int Long(int x) {\n";
  for (int i = 0; i < body_lines; ++i) text += "  x += " + std::to_string(i) + ";\n";
  return text + "}\n";
}

TEST(FindFunctionsTest, FindsFreeAndMemberFunctionsWithTheirLines) {
  EXPECT_THAT(Found("int f(int a) {\n  return a;\n}\n"
                    "namespace n {\n"
                    "class C {\n"
                    " public:\n"
                    "  C(int a) : a_(a), b_(a) {}\n"
                    "  int get() const { return a_; }\n"
                    "};\n"
                    "void C::Set(int a) noexcept {\n  a_ = a;\n}\n"
                    "}  // namespace n\n"),
              ElementsAre("f 1-3", "C 7-7", "get 8-8", "C::Set 10-12"));
}

TEST(FindFunctionsTest, AMultiLineHeaderStartsAtItsFirstLine) {
  EXPECT_THAT(Found("template <typename T>\n"
                    "absl::StatusOr<int> Parse(const T& t,\n"
                    "                          int base) {\n"
                    "  return 0;\n"
                    "}\n"),
              ElementsAre("Parse 1-5"));
}

TEST(FindFunctionsTest, BlocksInsideAFunctionAreItsOwn) {
  EXPECT_THAT(Found("void f() {\n"
                    "  auto g = [](int x) { return x; };\n"
                    "  for (int i = 0; i < 3; ++i) {\n"
                    "    if (i) { g(i); }\n"
                    "  }\n"
                    "  struct Local { void m() {} } local;\n"
                    "}\n"),
              ElementsAre("f 1-7"));
}

TEST(FindFunctionsTest, InitializersAndTypesAreNotFunctions) {
  EXPECT_THAT(Found("constexpr int kTable[] = {1, 2, 3};\n"
                    "enum class E { kA, kB };\n"
                    "struct S { int a = 0; };\n"
                    "std::atomic<void (*)()> hook{nullptr};\n"
                    "extern \"C\" {\n"
                    "int c_function(void) { return 0; }\n"
                    "}\n"),
              ElementsAre("c_function 6-6"));
}

TEST(FindFunctionsTest, AComparisonInTheHeaderIsNoInitializer) {
  EXPECT_THAT(Found("std::enable_if_t<N == 1 && M != 2, int> F() {\n  return 1;\n}\n"), ElementsAre("F 1-3"));
}

TEST(FindFunctionsTest, BracesInADefaultArgumentAreTheHeaders) {
  EXPECT_THAT(Found("void WriteStderr(absl::string_view a, absl::string_view b = {},\n"
                    "                 std::vector<int> v = std::vector<int>{1, 2}) {\n"
                    "  Write(a, b);\n"
                    "}\n"
                    "int g() {\n  return 0;\n}\n"),
              ElementsAre("WriteStderr 1-4", "g 5-7"));
}

TEST(FindFunctionsTest, BraceMemberInitialisersAreTheHeaders) {
  EXPECT_THAT(Found("class C : public Base<int> {\n"
                    " public:\n"
                    "  C(int a) : Base<int>{a}, a_{a}, b_{} {\n"
                    "    a_ += b_;\n"
                    "  }\n"
                    "};\n"
                    "C::C() noexcept : a_{1}, b_(2) {\n  Set();\n}\n"),
              ElementsAre("C 3-5", "C::C 7-9"));
}

TEST(FindFunctionsTest, ALambdaInAConstructorsInitialisersIsTheHeaders) {
  EXPECT_THAT(Found("C::C()\n"
                    "    : f_([] { return 1; }), g_{[](int x) { return x; }} {\n"
                    "  f_();\n"
                    "}\n"
                    "int h() {\n  return 0;\n}\n"),
              ElementsAre("C::C 1-4", "h 5-7"));
}

TEST(FindFunctionsTest, DigitSeparatorsAreNoCharacterLiterals) {
  EXPECT_THAT(Found("int h() { return 0xFF'FF; }\n"
                    "int g() { return 0b1010'1010 + 1'000.0'5e+1'0 + 0x1'Ap-1'0; }\n"
                    "int f() {\n"
                    "  return u8'}' + L'}';\n"
                    "}\n"),
              ElementsAre("h 1-1", "g 2-2", "f 3-5"));
}

TEST(FindFunctionsTest, NamespaceAndClassScopeLambdasAreFunctionsNamedAfterTheirVariable) {
  EXPECT_THAT(Found("const auto kLambda = [](int x) { return x; };\n"
                    "const auto n::kApply = [&](int x) -> int {\n"
                    "  return x;\n"
                    "};\n"
                    "const int kTable = [] {\n"
                    "  return 1;\n"
                    "}();\n"
                    "struct S {\n"
                    "  std::function<int(int)> f = [](int x) mutable {\n"
                    "    return x;\n"
                    "  };\n"
                    "};\n"),
              ElementsAre("kLambda 1-1", "n::kApply 2-4", "kTable 5-7", "f 9-11"));
}

// A limit stated in function_length.h: a directive is blanked whole, so a function a macro defines is not seen.
TEST(FindFunctionsTest, FunctionsInsideADefineAreNotSeen) {
  EXPECT_THAT(Found("#define DEFINE_F(name) \\\n"
                    "  int name() { \\\n"
                    "    return 0; \\\n"
                    "  }\n"
                    "DEFINE_F(g);\n"
                    "int h() {\n  return 0;\n}\n"),
              ElementsAre("h 6-8"));
}

TEST(FindFunctionsTest, OperatorsAreFunctions) {
  EXPECT_THAT(Found("C& C::operator=(C&& other) noexcept {\n  return *this;\n}\n"
                    "bool operator==(C a, C b) { return true; }\n"),
              ElementsAre("C::operator= 1-3", "operator== 4-4"));
}

TEST(FindFunctionsTest, BracesInCommentsStringsAndDirectivesDoNotCount) {
  EXPECT_THAT(Found("// void commented() {\n"
                    "/* } */\n"
                    "#define OPEN {\n"
                    "void f() {\n"
                    "  const char* s = \"}{\";\n"
                    "  char c = '}';\n"
                    "  const char* raw = R\"x(})x\";\n"
                    "  int n = 1'000;\n"
                    "}\n"),
              ElementsAre("f 4-9"));
}

TEST(TooLongTest, AtMostAHundredLinesPasses) {
  EXPECT_THAT(TooLong("a.cc", FunctionOf(98)), IsEmpty());
}

TEST(TooLongTest, AHundredAndOneLinesFailsNamingTheFunction) {
  EXPECT_THAT(TooLong("a.cc", FunctionOf(99, "// Doubles.\n")),
              ElementsAre("a.cc:2: Long is 101 lines (at most 100; or put '// Long function: WHY' on the line "
                          "before it)"));
}

TEST(TooLongTest, TheMarkerWithAReasonOnTheLineBeforeLetsItBeLonger) {
  EXPECT_THAT(TooLong("a.cc", FunctionOf(200, "// Long function: one row per signal.\n")), IsEmpty());
}

TEST(TooLongTest, TheMarkerWithoutAReasonOrFartherUpDoesNot) {
  EXPECT_THAT(TooLong("a.cc", FunctionOf(200, "// Long function:\n")), SizeIs(1));
  EXPECT_THAT(TooLong("a.cc", FunctionOf(200, "// Long function: a table.\n// Doubles.\n")), SizeIs(1));
}

TEST(RepositoryTest, NoFunctionOfUtilsOrUucoreIsOverAHundredLines) {
  ASSERT_GT(g_files.size(), 20u) << "the sources did not come as arguments";
  std::vector<std::string> problems;
  for (const std::string& path : g_files) {
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    for (std::string& problem : TooLong(path, text.str())) problems.push_back(std::move(problem));
  }
  EXPECT_THAT(problems, IsEmpty());
}

}  // namespace
}  // namespace function_length

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) function_length::g_files.push_back(argv[i]);
  return RUN_ALL_TESTS();
}
