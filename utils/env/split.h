// utils/env/split.h -- env -S: split one string into arguments, as GNU env 9.1 does.
#ifndef UTILS_ENV_SPLIT_H_
#define UTILS_ENV_SPLIT_H_

#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace env {

// Looks up NAME for "${NAME}": the value, or nullptr when NAME is unset. An unset variable expands to nothing
// and starts no word; a set but empty one starts a word (`${E}` alone gives one empty argument), as in GNU.
using LookupFn = absl::FunctionRef<const char*(const std::string& name)>;

// SplitString()
//
// Splits S into words the way GNU `env -S` does (a pure function: it reads the environment only through lookup):
//   - words are separated by runs of space, \t, \n, \v, \f or \r;
//   - '...' keeps everything literally except \\ and \' (any other backslash stays as it is);
//   - "..." and unquoted text understand \\ \" \' \# \$ \f \n \r \t \v and ${NAME} (NAME matching
//     [A-Za-z_][A-Za-z0-9_]*); unquoted \_ separates words and "\_" is a space; unquoted \c ends the string
//     (the rest is ignored, even an open quote); quotes may join parts of one word (A="x y"z is `A=x yz`);
//   - '#' where a word could start comments out the rest of the string.
//
// Errors (InvalidArgument, GNU's messages through uucore::Format, so translated as GNU's are; the caller adds
// "env: "):
//   "no terminating quote in -S string"
//   "invalid backslash at end of string in -S"               (a trailing '\' outside single quotes)
//   "invalid sequence '\X' in -S"                           (X the raw byte)
//   "'\c' must not appear in double-quoted -S string"
//   "only ${VARNAME} expansion is supported, error at: REST" (REST: the input from the '$' on, raw)
// Lookups happen in order as the string is read, so a lookup may run even though a later error fails the split.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> SplitString(absl::string_view s, LookupFn lookup);

}  // namespace env

#endif  // UTILS_ENV_SPLIT_H_
