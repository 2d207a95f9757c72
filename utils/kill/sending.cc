// utils/kill/sending.cc -- one signal to each PID operand, as GNU sends it, or with util-linux's options.
#include "utils/kill/sending.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "utils/kill/options.h"
#include "utils/kill/pidfds.h"
#include "utils/kill/targets.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/pidfd.h"
#include "uucore/proc_status.h"
#include "uucore/process.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"

namespace kill_utility {
namespace {

enum class Outcome { kSent, kSkipped, kFailed };

constexpr char kNeedsPidfs[] = "PID:PIDFD_INODE needs Linux 6.9 or later";

void Report(const char* arg, absl::string_view message) {
  uucore::Error(absl::StrCat(uucore::Quote(arg), ": ", message));
}

void ReportInvalid(const char* arg) { uucore::Error(uucore::Format("%s: invalid process id", uucore::Quote(arg))); }

// The pidfd a target is signalled through: one for PID:PIDFD_INODE, for --timeout and --wait (which need it; opened
// for every target before the first signal, OpenEveryPidfd()), and for -r (which then knows that the masks it read
// were the target's); else none.
TargetPidfd PidfdFor(const Options& options, const Target& target) {
  if (target.inode == 0 && !options.follows_targets() && !options.require_handler) return TargetPidfd();
  return OpenTargetPidfd(target.pid);
}

// Why a target must be a process, not a thread: what its pidfd is for.
const char* WhyAProcess(const Options& options, const Target& target) {
  if (target.inode != 0) return "PID:PIDFD_INODE names processes";
  return options.wait ? "--wait follows processes" : "--timeout follows processes";
}

// False, reported, when a target that needs a pidfd has none.
bool HasItsPidfd(const Options& options, const char* arg, const Target& target, const TargetPidfd& pidfd) {
  if (pidfd.fd >= 0 || pidfd.err == 0) return true;
  if (pidfd.err == ESRCH) {
    ReportError(arg, pidfd.err);
    return false;
  }
  const bool needed = target.inode != 0 || options.follows_targets();
  if (!needed) return true;  // -r alone: by pid, as util-linux looks it up.
  if (pidfd.is_a_thread()) {  // kill(2) would signal its process; pidfd_open refuses it.
    Report(arg, uucore::Format("a thread, not a process (%s)", WhyAProcess(options, target)));
  } else if (pidfd.err != ENOSYS && pidfd.err != EPERM) {
    ReportError(arg, pidfd.err);
  } else if (target.inode != 0) {
    Report(arg, kNeedsPidfs);
  } else {  // No pidfd_open (Linux < 5.3, or a seccomp profile): waiting would mean polling.
    Report(arg, uucore::Format("%s needs pidfd_open (Linux 5.3 or later): %s", options.wait ? "--wait" : "--timeout",
                               uucore::ErrnoText(pidfd.err)));
  }
  return false;
}

// PID:PIDFD_INODE: the pidfd of PID must have that inode, or nothing is sent.
bool IsTheProcessOfItsInode(const char* arg, const Target& target, int pidfd) {
  absl::StatusOr<uint64_t> inode = uucore::PidfdInode(pidfd);
  if (!inode.ok()) {
    Report(arg, inode.status().code() == absl::StatusCode::kUnimplemented ? kNeedsPidfs : inode.status().message());
    return false;
  }
  if (*inode == target.inode) return true;
  Report(arg, uucore::Format("pid %d is another process (pidfd inode %s): nothing sent", target.pid, *inode));
  return false;
}

// Whether the process of `pidfd` has exited (a zombie, or reaped).
bool HasExited(int pidfd) {
  absl::StatusOr<std::vector<bool>> exited = uucore::WaitForExits({pidfd}, uucore::Deadline::In(absl::ZeroDuration()));
  return exited.ok() && (*exited)[0];
}

// -r: whether the target catches the signal, from /proc/PID/status. With a pidfd, a target still running after the
// read is the one whose masks were read (its pid cannot have been reused meanwhile); one that has exited catches
// nothing, as a zombie's masks say too.
Outcome CheckHandler(const Options& options, const char* arg, pid_t pid, int pidfd) {
  absl::StatusOr<uucore::SignalMasks> masks = uucore::ReadSignalMasks(pid);
  if (pidfd >= 0 && HasExited(pidfd)) masks = uucore::SignalMasks();
  if (!masks.ok()) {
    const bool gone = kill(pid, 0) != 0 && errno == ESRCH;  // Else /proc is missing, or says why in the message.
    Report(arg, gone ? uucore::ErrnoText(ESRCH) : masks.status().message());
    return Outcome::kFailed;
  }
  if (uucore::MaskHasSignal(masks->caught, options.signal)) return Outcome::kSent;
  if (options.verbose) {
    printf("not signalling pid %d, it has no userspace handler for signal %d\n", static_cast<int>(pid), options.signal);
  }
  return Outcome::kSkipped;
}

void SayVerbose(const Options& options, pid_t pid) {
  if (options.verbose) printf("sending signal %d to pid %d\n", options.signal, static_cast<int>(pid));
}

Outcome Signal(const Options& options, const char* arg, pid_t pid, int pidfd) {
  if (Deliver(options, pid, pidfd, options.signal) == 0) return Outcome::kSent;
  ReportError(arg, errno);
  return Outcome::kFailed;
}

Outcome SendOne(const Options& options, const char* arg, const Target& target, TargetPidfd opened,
                Following* following) {
  // --verbose names the signal before it is sent, as util-linux does; after the checks of PID:PIDFD_INODE and -r,
  // which send nothing to a target they refuse.
  const bool checked = target.inode != 0 || options.require_handler;
  if (!checked) SayVerbose(options, target.pid);
  if (!HasItsPidfd(options, arg, target, opened)) return Outcome::kFailed;
  const int pidfd = opened.fd;
  Outcome outcome = Outcome::kSent;
  if (target.inode != 0 && !IsTheProcessOfItsInode(arg, target, pidfd)) outcome = Outcome::kFailed;
  if (outcome == Outcome::kSent && options.require_handler) outcome = CheckHandler(options, arg, target.pid, pidfd);
  if (outcome == Outcome::kSent && checked) SayVerbose(options, target.pid);
  if (outcome == Outcome::kSent) outcome = Signal(options, arg, target.pid, pidfd);
  if (outcome == Outcome::kSent && options.follows_targets()) {
    following->targets.push_back({arg, target.pid, pidfd});
  } else if (pidfd >= 0) {
    close(pidfd);
  }
  return outcome;
}

}  // namespace

void ReportError(const char* arg, int err) { Report(arg, uucore::ErrnoText(err)); }

int Deliver(const Options& options, pid_t pid, int pidfd, int signal) {
  if (options.queue) return uucore::QueueVia(pid, pidfd, signal, options.queue_value);
  return uucore::SignalVia(pid, pidfd, signal);
}

int SendSignals(const Options& options, Following* following) {
  const bool plain = options.plain();
  // The pidfds of the targets --timeout and --wait follow, one per operand, all opened before the first signal.
  std::vector<TargetPidfd> opened;
  if (options.follows_targets() && !OpenEveryPidfd(options, &opened, &following->timer)) return uucore::kExitFailure;
  bool failed = false, sent = false;
  for (size_t i = 0; options.operands[i] != nullptr; ++i) {
    const char* arg = options.operands[i];
    Target target;
    Outcome outcome = Outcome::kFailed;
    if (!ParseTarget(arg, &target)) {
      ReportInvalid(arg);
    } else if (plain && target.inode == 0) {  // GNU's kill: nothing more to pay for.
      outcome = kill(target.pid, options.signal) == 0 ? Outcome::kSent : Outcome::kFailed;
      if (outcome == Outcome::kFailed) ReportError(arg, errno);
    } else {
      const TargetPidfd pidfd = options.follows_targets() ? opened[i] : PidfdFor(options, target);
      outcome = SendOne(options, arg, target, pidfd, following);
    }
    failed = failed || outcome == Outcome::kFailed;
    sent = sent || outcome == Outcome::kSent;
  }
  // As util-linux: -r that left every target alone is a failure too.
  return failed || !sent ? uucore::kExitFailure : uucore::kExitSuccess;
}

}  // namespace kill_utility
