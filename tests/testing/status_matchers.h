// tests/testing/status_matchers.h -- StatusIs(code[, message]) and IsOk() for absl::Status and absl::StatusOr<T>,
// IsOkAndHolds(matcher) for absl::StatusOr<T>.
// Neither GoogleTest 1.12 nor Abseil 20220623 ships them.
#ifndef TESTS_TESTING_STATUS_MATCHERS_H_
#define TESTS_TESTING_STATUS_MATCHERS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace coreutils_testing {

inline const absl::Status& GetStatus(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

MATCHER_P(StatusIs, code, "has status code " + testing::PrintToString(code)) {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "whose status is " << status.ToString();
  return status.code() == code;
}

MATCHER_P2(StatusIs, code, message, "has status code " + testing::PrintToString(code) + " and message " +
                                        testing::PrintToString(std::string(message))) {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "whose status is " << status.ToString();
  return status.code() == code && status.message() == message;
}

MATCHER(IsOk, "is OK") {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "whose status is " << status.ToString();
  return status.ok();
}

// IsOkAndHolds(matcher): an OK absl::StatusOr<T> whose value matches.
MATCHER_P(IsOkAndHolds, inner, "is OK and holds a value that matches") {
  if (!arg.ok()) {
    *result_listener << "whose status is " << arg.status().ToString();
    return false;
  }
  return testing::ExplainMatchResult(inner, *arg, result_listener);
}

}  // namespace coreutils_testing

#endif  // TESTS_TESTING_STATUS_MATCHERS_H_
