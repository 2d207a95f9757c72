// utils/env/environment.h -- the environment env gives COMMAND (or prints), built aside from environ in GNU's
// development branch's order: -i, the --env0-from file's entries, every -u, then the NAME=VALUE operands.
#ifndef UTILS_ENV_ENVIRONMENT_H_
#define UTILS_ENV_ENVIRONMENT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace env {

// What env's command line asks of the environment.
struct Edits {
  bool ignore_environment = false;  // -i (or a mere -): start from nothing, not from environ.
  const char* file = nullptr;       // The last --env0-from FILE ("-": standard input), or none.
  absl::Span<const char* const> unset;  // -u NAME, in order.
  char** assignments = nullptr;     // Required: the operands, null-terminated; NAME=VALUE up to the first without '='.
  bool trace = false;               // -v: each step on stderr, as GNU's --debug words it.
};

// The entries built, and the file contents they point into.
class Environment {
 public:
  // Null-terminated, for environ; valid as long as this object is.
  char** entries() { return entries_.data(); }

 private:
  friend absl::Status BuildEnvironment(const Edits& edits, Environment* out);
  std::string file_;  // FILE's content, which entries point into.
  std::vector<char*> entries_;
};

// BuildEnvironment()
//
// Builds the environment EDITS ask for, leaving environ and the array it points to as they are (so that a message
// still speaks the caller's locale, and env can put environ back to take it), in GNU master's order:
//   1. -i: nothing ("cleaning environ"); else environ's entries, as they are.
//   2. FILE's NUL-terminated entries. After -i each is added exactly as read (duplicates, entries without '=',
//      empty ones), so `env -0 >f; env -i --env0-from=f env -0` reproduces f byte for byte.
//      Without -i an entry with '=' replaces the first entry of its NAME, or is added ("setenv:   ENTRY"), and one
//      without '=' is added as it is ("append:   ENTRY").
//   3. Each -u NAME ("unset:    NAME") removes every entry of NAME; after -i only if a FILE was read.
//   4. Each NAME=VALUE replaces the first entry of NAME, or is added ("setenv:   NAME=VALUE").
// Errors, each worded as GNU master's (the caller adds "env: " and exits 125):
//   "cannot read FILE: REASON" (FILE quoted as a file name), "FILE: file must end with a NUL byte" (FILE quoted
//   only if needed, or if it holds a ':'), "cannot unset NAME: Invalid argument" for an empty NAME or one with
//   '=' (NAME quoted as a file name once FILE entries were merged or read after -i, else as an operand).
absl::Status BuildEnvironment(const Edits& edits, Environment* out);

}  // namespace env

#endif  // UTILS_ENV_ENVIRONMENT_H_
