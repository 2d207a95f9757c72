// tests/testing/pid_namespace.h -- whether this machine lets a test make a PID namespace (root, and no sandbox that
// forbids it): the container suites' bare-namespace scenarios and kill's cases that must not reach outside need one.
#ifndef TESTS_TESTING_PID_NAMESPACE_H_
#define TESTS_TESTING_PID_NAMESPACE_H_

#include <string>

namespace coreutils_testing {

// Why a new PID namespace cannot be made here ("" when it can): not root, or clone(CLONE_NEWPID) refused (its
// error). Probed once per process, in a child that exits at once, so the caller's own namespace stays as it is.
std::string PidNamespaceUnavailable();

}  // namespace coreutils_testing

#endif  // TESTS_TESTING_PID_NAMESPACE_H_
