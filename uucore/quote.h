// uucore/quote.h -- GNU's quote() under LC_ALL=C: 'ARG' with C-style escapes.
#ifndef UUCORE_QUOTE_H_
#define UUCORE_QUOTE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace uucore {

// Quote()
//
// Returns ARG between ASCII single quotes, escaping as GNU coreutils does in the C locale: `'` -> `\'`,
// `\` -> `\\`, the C escapes \a \b \t \n \v \f \r, and any other byte outside printable ASCII as three octal
// digits (`\351`). Used for operands in messages: "invalid time interval 'a\'b'".
std::string Quote(absl::string_view arg);

}  // namespace uucore

#endif  // UUCORE_QUOTE_H_
