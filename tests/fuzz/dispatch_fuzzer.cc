// Fuzzes the multicall binary's argv handling (coreutils::ParseMulticall, Basename) with NUL-separated argv.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "utils/coreutils/dispatch.h"

#define FUZZ_CHECK(cond) \
  if (!(cond)) abort()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args = {"coreutils"};
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  args.push_back(current);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(args.size());

  opterr = 0;  // getopt's complaints are not under test here.
  absl::StatusOr<coreutils::MulticallRequest> r = coreutils::ParseMulticall(argc, argv.data());
  if (r.ok() && r->action == coreutils::MulticallRequest::kRun) {
    FUZZ_CHECK(r->utility != nullptr);
    FUZZ_CHECK(r->name_index > 0 && r->name_index < argc);
    FUZZ_CHECK(strcmp(argv[r->name_index], r->utility->name) == 0);
  }
  if (r.ok() && r->action == coreutils::MulticallRequest::kInstall) FUZZ_CHECK(r->install_dir != nullptr);
  for (const std::string& a : args) {
    absl::string_view base = coreutils::Basename(a);
    FUZZ_CHECK(base.size() <= a.size());
    FUZZ_CHECK(base == "/" || base.find('/') == absl::string_view::npos);
  }
  return 0;
}
