#include "utils/timeout/ending.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "uucore/cgroup.h"
#include "uucore/cli.h"
#include "uucore/i18n.h"
#include "uucore/process.h"
#include "uucore/quote.h"
#include "uucore/signal_wait.h"
#include "utils/timeout/report.h"
#include "utils/timeout/supervisor.h"
#include "utils/timeout/tree.h"

namespace timeout {
Exit ExitFor(int wait_status, const Supervisor& supervisor) {
  bool preserve = supervisor.options().preserve_status;
  Exit exit{uucore::ExitStatusOf(wait_status)};
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    if (WCOREDUMP(wait_status)) uucore::Error(uucore::Format("the monitored command dumped core"));
    // Pass the command's death on to our caller; PID 1 cannot be killed by its own signal, so it exits instead.
    if (!supervisor.timed_out() && !supervisor.command().pid1) exit.die_of = sig;
    if (supervisor.timed_out() && sig == SIGKILL) preserve = true;  // 137 tells the caller that KILL was needed.
  }
  if (supervisor.timed_out() && !preserve) exit.status = uucore::kExitTimedOut;
  return exit;
}

void DieOf(int sig) {
  const rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);  // The command's core file, if any, is the one that matters.
  signal(sig, SIG_DFL);
  sigset_t just;
  sigemptyset(&just);
  uucore::AddSignal(&just, sig);
  // Blocked for waiting: let it act now (the raw call, so that glibc's own 32 and 33 are unblocked too).
  syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &just, nullptr, 8);
  raise(sig);
}

bool Ending::OpenReport(TreeBackend backend) {
  if (options_.report != nullptr) {
    absl::StatusOr<timeout_report::ReportFile> opened = timeout_report::ReportFile::Open(options_.report);
    if (!opened.ok()) {
      uucore::Error(opened.status());
      return false;
    }
    report_.emplace(*std::move(opened));
  }
  // outcome.signal (the expiry's signal) stays null unless the command timed out: not when it could not even run.
  backend_ = backend;
  return true;
}

int Ending::Finish(int status) {
  outcome_.status = status;
  if (report_.has_value() && !reported_) {
    reported_ = true;
    if (const char* name = BackendName(backend_); name != nullptr) outcome_.backend = name;
    absl::Status written = report_->Write(outcome_);
    if (!written.ok()) {
      uucore::Error(written);
      return uucore::kExitCanceled;
    }
  }
  return status;
}

int Ending::Fail(const absl::Status& error) {
  uucore::Error(error);
  return Finish(uucore::kExitCanceled);
}

int Ending::CouldNotRun(const absl::Status& error) {
  const int status = uucore::ExecFailureStatus(error);
  std::string message;
  if (status == uucore::kExitCanceled) {
    message = std::string(error.message());  // "fork system call failed: ..."
  } else {
    message = absl::StrCat(uucore::Format("failed to run command %s", uucore::Quote(options_.command[0])), ": ",
                           error.message());
  }
  uucore::Error(message);
  outcome_.error = message;
  return Finish(status);
}

void Ending::Started(Supervisor& supervisor) {
  outcome_.command.pid = supervisor.command().pid;
  if (!report_.has_value()) return;
  supervisor.ReportTo(&outcome_, started_,
                      [this, &supervisor](int kills) { BeforeKillingOurselves(supervisor, kills); });
}

void Ending::Account(const Supervisor& supervisor, int more_signalled) {
  outcome_.killed = supervisor.killed();
  outcome_.signalled = supervisor.signalled() + more_signalled;
  rusage children;
  if (getrusage(RUSAGE_CHILDREN, &children) == 0) {
    outcome_.cpu_user = absl::DurationFromTimeval(children.ru_utime);
    outcome_.cpu_sys = absl::DurationFromTimeval(children.ru_stime);
    outcome_.max_rss_kib = children.ru_maxrss;
  }
}

void Ending::BeforeKillingOurselves(const Supervisor& supervisor, int kills) {
  const pid_t child = supervisor.command().pid;
  Account(supervisor, kills);
  (void)timeout_report::AddLiveUsage(child, &outcome_);
  timeout_report::CommandEnded(child, SIGKILL, &outcome_);  // The wait status of a process killed by KILL.
  (void)Finish(ExitFor(SIGKILL, supervisor).status);
}

int Ending::End(const Supervisor& supervisor, Tree& tree) {
  const Exit exit = ExitFor(*supervisor.command_status(), supervisor);
  const uucore::CgroupLeaf* leaf = std::as_const(tree).leaf();  // Only read here: the tree removes it.
  // What the report says once the command has ended, before the leaf goes (its cpu.stat) and before we die of the
  // command's signal.
  if (report_.has_value()) {  // Without one, none of this is read: no system call for it.
    Account(supervisor, 0);
    backend_ = tree.backend();
    timeout_report::CommandEnded(supervisor.command().pid, *supervisor.command_status(), &outcome_);
    if (leaf != nullptr) {
      // The group's own account: every process that ran in it, also those reaped by others than us.
      if (absl::StatusOr<uucore::CgroupCpu> cpu = leaf->ReadCpu(); cpu.ok()) {
        outcome_.cpu_user = cpu->user;
        outcome_.cpu_sys = cpu->system;
      }
      if (absl::StatusOr<int64_t> peak = leaf->ReadMemoryPeak(); peak.ok()) outcome_.max_rss_kib = *peak / 1024;
    }
  }
  tree.RemoveLeaf();  // Before we may die of the command's signal, which runs no destructor.
  const int status = Finish(exit.status);
  if (exit.die_of != 0 && status == exit.status) DieOf(exit.die_of);
  return status;
}

}  // namespace timeout
