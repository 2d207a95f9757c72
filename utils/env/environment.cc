#include "utils/env/environment.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "uucore/i18n.h"
#include "uucore/quote.h"

extern char** environ;

namespace env {
namespace {

// Whether ENTRY is NAME=...: an entry without '=' has no name to match.
bool HasName(const char* entry, std::string_view name) {
  return strncmp(entry, name.data(), name.size()) == 0 && entry[name.size()] == '=';
}

// NAME=VALUE's NAME, as a key of the index of names.
std::string_view NameOf(const char* assignment) { return std::string_view(assignment, strcspn(assignment, "=")); }

// "REASON" worded in the user's language, after MESSAGE.
absl::Status Failure(const std::string& message, int err) {
  return absl::FailedPreconditionError(absl::StrCat(message, ": ", uucore::ErrnoText(err)));
}

// GNU's quotef(): FILE as a file name, quoted only if a shell needs it or it holds a ':' (the message's separator).
std::string QuoteFileNameBeforeColon(absl::string_view file) {
  return uucore::QuoteAs(file, file.find(':') == absl::string_view::npos ? uucore::QuotingStyle::kShellEscape
                                                                        : uucore::QuotingStyle::kShellEscapeAlways);
}

// FILE ("-": standard input) whole; its last byte must be a NUL, as each entry ends in one.
absl::StatusOr<std::string> ReadEntries(const char* file) {
  const bool stdin_file = strcmp(file, "-") == 0;
  const int fd = stdin_file ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;  // Before quoting and wording the message, which may take the locale (setlocale).
    return Failure(uucore::Format("cannot read %s", uucore::QuoteFileName(file)), err);
  }
  std::string content;
  char buffer[8192];
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) != 0) {
    if (n > 0) {
      content.append(buffer, static_cast<size_t>(n));
    } else if (errno != EINTR) {  // EINTR: a signal's handler ran (none of ours); read on.
      const int err = errno;
      if (!stdin_file) close(fd);
      return Failure(uucore::Format("cannot read %s", uucore::QuoteFileName(file)), err);
    }
  }
  if (!stdin_file) close(fd);
  if (!content.empty() && content.back() != '\0') {
    return absl::FailedPreconditionError(
        uucore::Format("%s: file must end with a NUL byte", QuoteFileNameBeforeColon(file)));
  }
  return content;
}

// Where each NAME's first entry is, so that merging a large file costs one look-up per entry, not a scan.
class NameIndex {
 public:
  explicit NameIndex(const std::vector<char*>& entries) {
    for (size_t i = 0; i < entries.size(); ++i) {
      if (strchr(entries[i], '=') != nullptr) first_.emplace(NameOf(entries[i]), i);  // Keeps the first.
    }
  }
  // Replaces ASSIGNMENT's NAME's first entry with it, or adds it.
  void Set(char* assignment, std::vector<char*>& entries) {
    const auto [at, added] = first_.emplace(NameOf(assignment), entries.size());
    if (added) {
      entries.push_back(assignment);
    } else {
      entries[at->second] = assignment;
    }
  }

 private:
  std::unordered_map<std::string_view, size_t> first_;
};

// Step 1: environ's entries (none after -i), with room made for the operands and the null at once: without a FILE
// that is the one allocation (as glibc's putenv makes one for GNU), not one per doubling of a growing array.
void Inherit(const Edits& edits, std::vector<char*>& entries) {
  if (edits.ignore_environment && edits.trace) fputs("cleaning environ\n", stderr);
  size_t inherited = 0;
  while (!edits.ignore_environment && environ != nullptr && environ[inherited] != nullptr) ++inherited;
  size_t operands = 0;
  while (edits.assignments[operands] != nullptr && strchr(edits.assignments[operands], '=') != nullptr) ++operands;
  entries.reserve(inherited + operands + 1);  // A FILE's entries may still grow it.
  entries.assign(environ, environ + inherited);
}

// Step 2: FILE's entries. *merged: whether the environment is now one GNU master builds itself (after -i, any
// FILE; without -i, a FILE that had entries), which decides how -u's complaint quotes NAME.
absl::Status MergeFile(const Edits& edits, std::string& content, std::vector<char*>& entries, bool* merged) {
  *merged = edits.ignore_environment && edits.file != nullptr;
  if (edits.file == nullptr) return absl::OkStatus();
  absl::StatusOr<std::string> read = ReadEntries(edits.file);
  if (!read.ok()) return read.status();
  content = std::move(*read);
  absl::optional<NameIndex> index;  // Built once, for the first entry that needs it.
  for (size_t at = 0; at < content.size(); at += strlen(&content[at]) + 1) {
    char* const entry = &content[at];
    *merged = true;
    if (edits.ignore_environment) {  // Exactly as read.
      entries.push_back(entry);
    } else if (strchr(entry, '=') == nullptr) {
      if (edits.trace) fprintf(stderr, "append:   %s\n", entry);
      entries.push_back(entry);
    } else {
      if (edits.trace) fprintf(stderr, "setenv:   %s\n", entry);
      if (!index.has_value()) index.emplace(entries);
      index->Set(entry, entries);
    }
  }
  return absl::OkStatus();
}

// Step 3: each -u NAME removes every entry of NAME.
absl::Status Unset(const Edits& edits, bool merged, std::vector<char*>& entries) {
  for (const char* name : edits.unset) {
    if (edits.trace) fprintf(stderr, "unset:    %s\n", name);
    if (*name == '\0' || strchr(name, '=') != nullptr) {  // As unsetenv() refuses them.
      // GNU master words this twice: quoteaf() on the environment it merged itself, quote() after unsetenv().
      const std::string quoted = merged ? uucore::QuoteFileName(name) : uucore::Quote(name);
      return Failure(uucore::Format("cannot unset %s", quoted), EINVAL);
    }
    const std::string_view unset(name);
    entries.erase(std::remove_if(entries.begin(), entries.end(), [unset](char* e) { return HasName(e, unset); }),
                  entries.end());
  }
  return absl::OkStatus();
}

// Step 4: each NAME=VALUE replaces NAME's first entry, or is added, as putenv() would.
void Assign(const Edits& edits, std::vector<char*>& entries) {
  for (char** operand = edits.assignments; *operand != nullptr && strchr(*operand, '=') != nullptr; ++operand) {
    if (edits.trace) fprintf(stderr, "setenv:   %s\n", *operand);
    const std::string_view name = NameOf(*operand);
    const auto same = std::find_if(entries.begin(), entries.end(), [name](char* e) { return HasName(e, name); });
    if (same != entries.end()) {
      *same = *operand;
    } else {
      entries.push_back(*operand);
    }
  }
}

}  // namespace

absl::Status BuildEnvironment(const Edits& edits, Environment* out) {
  std::vector<char*>& entries = out->entries_;
  Inherit(edits, entries);
  bool merged = false;
  absl::Status status = MergeFile(edits, out->file_, entries, &merged);
  if (status.ok() && (!edits.ignore_environment || edits.file != nullptr)) status = Unset(edits, merged, entries);
  if (!status.ok()) return status;
  Assign(edits, entries);
  entries.push_back(nullptr);
  return absl::OkStatus();
}

}  // namespace env
