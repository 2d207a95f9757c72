#include "tests/testing/ls_quoting.h"

#include <fcntl.h>
#include <unistd.h>

#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/testing/run.h"
#include "uucore/quote.h"

namespace coreutils_testing {

bool LsIsGnu91() {
  const Result version = RunProgram("/usr/bin/ls", {"ls", "--version"});
  return version.out.rfind("ls (GNU coreutils) 9.1\n", 0) == 0;
}

std::vector<std::string> NamesOfPieces(const std::vector<std::string>& pieces) {
  std::vector<std::string> names;
  for (const std::string& a : pieces) {
    if (a != ".") names.push_back(a);
    for (const std::string& b : pieces) {
      if (a + b != "..") names.push_back(a + b);
    }
  }
  return names;
}

void ExpectLsAgrees(const std::vector<std::string>& names, const std::vector<std::string>& env,
                    const std::function<bool(uucore::QuotingStyle)>& compared) {
  const std::string dir = MakeTempDir();
  for (const std::string& name : names) {
    const int fd = open((dir + "/" + name).c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0) << name;
    close(fd);
  }
  Options options;
  options.cwd = dir;
  options.env = env;
  for (const char* style_name : {"literal", "shell", "shell-always", "shell-escape", "shell-escape-always", "c",
                                 "c-maybe", "escape", "locale", "clocale"}) {
    const uucore::QuotingStyle style = *uucore::ParseQuotingStyle(style_name);
    if (!compared(style)) continue;
    std::vector<std::string> argv = {"ls", "-d", "-U", "--zero", std::string("--quoting-style=") + style_name, "--"};
    argv.insert(argv.end(), names.begin(), names.end());
    const Result ls = RunProgram("/usr/bin/ls", argv, options);
    const std::vector<std::string> theirs = absl::StrSplit(ls.out, absl::string_view("\0", 1));
    ASSERT_EQ(theirs.size(), names.size() + 1) << style_name;  // Each name ends with a NUL.
    size_t agreeing = 0;
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string ours = uucore::QuoteAs(names[i], style);
      const bool shell_escape =
          style == uucore::QuotingStyle::kShellEscape || style == uucore::QuotingStyle::kShellEscapeAlways;
      const bool quirk = shell_escape &&
                         names[i].find('\'') != std::string::npos && ours[0] == '\'' && theirs[i] != ours;
      if (quirk) continue;
      ++agreeing;
      EXPECT_EQ(ours, theirs[i]) << "style " << style_name << ", name " << names[i];
    }
    EXPECT_GT(agreeing, names.size() * 9 / 10) << style_name;
  }
}

}  // namespace coreutils_testing
