// tests/testing/environment_skip.h -- a test that needs something of the machine (root, a program, namespaces,
// cgroups, a container engine that can run) skips without it, with the reason; where CI says the machine has it,
// the same reason fails the test instead, so that a broken setup cannot pass as a row of skips.
//
// SKIP_FOR_ENVIRONMENT(VARIABLE, why): FAIL() << why where the environment variable VARIABLE is "1" (.ci/run sets
// COREUTILS_REQUIRE_PODMAN and COREUTILS_REQUIRE_RUNC where it runs as root with cgroups), else GTEST_SKIP() << why.
// Returns from the function, as both do. Only for what the machine lacks: a skip that belongs to the build (a
// sanitizer build's dynamic binary, a foreign binary under tools/qemu-test) stays a GTEST_SKIP.
#ifndef TESTS_TESTING_ENVIRONMENT_SKIP_H_
#define TESTS_TESTING_ENVIRONMENT_SKIP_H_

#include <stdlib.h>
#include <string.h>

#include "gtest/gtest.h"

namespace coreutils_testing {

// The variables .ci/run sets: the podman suite (tests/podman) and the runc suites (tests/container) must run.
constexpr char kRequirePodman[] = "COREUTILS_REQUIRE_PODMAN";
constexpr char kRequireRunc[] = "COREUTILS_REQUIRE_RUNC";

// Whether $VARIABLE is "1".
inline bool Required(const char* variable) {
  const char* value = getenv(variable);
  return value != nullptr && strcmp(value, "1") == 0;
}

}  // namespace coreutils_testing

#define SKIP_FOR_ENVIRONMENT(VARIABLE, why)                                                            \
  do {                                                                                                 \
    if (::coreutils_testing::Required(VARIABLE)) FAIL() << "$" << (VARIABLE) << "=1, but: " << (why); \
    GTEST_SKIP() << (why);                                                                             \
  } while (0)

#endif  // TESTS_TESTING_ENVIRONMENT_SKIP_H_
