// function_length [--list] FILE...: prints each function of the FILEs over 100 lines without the marker
// (function_length.h) and exits 1 if there is one; --list prints every function instead, longest first, as
// "LENGTH PATH:LINE NAME".
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tools/function_length/function_length.h"

int main(int argc, char* argv[]) {
  // `tools/bazel run` starts us in the runfiles: FILEs are named from where it was run.
  if (const char* dir = getenv("BUILD_WORKING_DIRECTORY"); dir != nullptr && chdir(dir) != 0) {
    fprintf(stderr, "function_length: cannot change to %s\n", dir);
    return 2;
  }
  const bool list = argc > 1 && strcmp(argv[1], "--list") == 0;
  std::vector<std::tuple<int, std::string, std::string>> all;
  int problems = 0;
  for (int i = list ? 2 : 1; i < argc; ++i) {
    std::ifstream in(argv[i]);
    if (!in) {
      fprintf(stderr, "function_length: cannot read %s\n", argv[i]);
      return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    if (list) {
      for (const function_length::Function& f : function_length::FindFunctions(text.str())) {
        all.emplace_back(f.length(), std::string(argv[i]) + ":" + std::to_string(f.first_line), f.name);
      }
      continue;
    }
    for (const std::string& problem : function_length::TooLong(argv[i], text.str())) {
      printf("%s\n", problem.c_str());
      ++problems;
    }
  }
  std::sort(all.rbegin(), all.rend());
  for (const auto& [length, where, name] : all) printf("%d %s %s\n", length, where.c_str(), name.c_str());
  return problems == 0 ? 0 : 1;
}
