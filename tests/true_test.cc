// true and false: GNU's semantics, one behaviour per case.
#include <string>

#include "gtest/gtest.h"
#include "tests/testing/run.h"

namespace coreutils_testing {
namespace {

const char kTrueHelp[] = R"(Usage: true [ignored command line arguments]
  or:  true OPTION
Do nothing and report success (exit status 0).  Arguments are ignored,
unless the only one is --help or --version.

      --help        show this help text, then exit
      --version     show version information, then exit
)";

TEST(TrueTest, Cases) {
  for (const Case& c : std::vector<Case>{
           {"no arguments", {"true"}, 0, "", ""},
           {"ignores operands", {"true", "a", "b"}, 0, "", ""},
           {"ignores unknown options", {"true", "--bogus", "-x"}, 0, "", ""},
           {"help alone prints help", {"true", "--help"}, 0, kTrueHelp, ""},
           {"help with company is ignored", {"true", "--help", "x"}, 0, "", ""},
           {"abbreviated help is ignored", {"true", "--hel"}, 0, "", ""},
           {"version alone prints version", {"true", "--version"}, 0,
            "true (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n", ""},
           {"help names argv[0] as given", {"/some/where/true", "--help"}, 0,
            R"(Usage: /some/where/true [ignored command line arguments]
  or:  /some/where/true OPTION
Do nothing and report success (exit status 0).  Arguments are ignored,
unless the only one is --help or --version.

      --help        show this help text, then exit
      --version     show version information, then exit
)",
            ""},
       }) {
    ExpectCase(c);
  }
}

TEST(FalseTest, Cases) {
  for (const Case& c : std::vector<Case>{
           {"no arguments", {"false"}, 1, "", ""},
           {"ignores operands", {"false", "a"}, 1, "", ""},
           {"version still fails", {"false", "--version"}, 1,
            "false (coreutils) 0.1.0\nWritten from GNU coreutils' documented behaviour; shares no code with it.\n",
            ""},
           {"help with company is ignored", {"false", "--help", "--help"}, 1, "", ""},
       }) {
    ExpectCase(c);
  }
  Result help = Invoke({"false", "--help"});
  EXPECT_EQ(help.status, 1);
  EXPECT_NE(help.out.find("Do nothing and report failure (exit status 1)."), std::string::npos);
}

TEST(TrueTest, WriteErrorOnFullDevice) {
  Options full;
  full.stdout_path = "/dev/full";
  for (const char* name : {"true", "false"}) {
    for (const char* option : {"--help", "--version"}) {
      Result r = Invoke({name, option}, full);
      EXPECT_EQ(r.status, 1) << name << option;
      EXPECT_EQ(r.err, std::string(name) + ": write error: No space left on device\n") << name << option;
    }
  }
}

TEST(TrueTest, ClosedStdoutIsFineWhenNothingIsWritten) {
  Options closed;
  closed.close_stdout = true;
  Result r = Invoke({"true"}, closed);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
}

TEST(TrueTest, HelpToClosedStdoutIsAWriteError) {
  Options closed;
  closed.close_stdout = true;
  Result r = Invoke({"true", "--help"}, closed);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "true: write error: Bad file descriptor\n");
}

}  // namespace
}  // namespace coreutils_testing
