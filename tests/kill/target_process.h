// tests/kill/target_process.h -- processes for kill's tests to signal: tests/kill/signal_target, which says what it
// got, started as a child of the test.
#ifndef TESTS_KILL_TARGET_PROCESS_H_
#define TESTS_KILL_TARGET_PROCESS_H_

#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include "tests/testing/run.h"

namespace coreutils_testing {

struct TargetProcess {
  pid_t pid = -1;
  int out = -1;  // What it writes to stdout: a line per signal it catches.
};

// Starts signal_target with `args` ("--catch", "10", ...: see signal_target.cc) and returns once it is set up.
// pid is -1 if it could not be started.
TargetProcess StartTarget(const std::vector<std::string>& args = {});

// The next line the target wrote, without its newline: "10 SI_QUEUE 42". "" at end of file, or after 10 s
// without a line (a safety net, not a time bound: the case then fails).
std::string NextLine(const TargetProcess& target);

// Whether the target has ended; if so it is reaped, and *signal is the signal that killed it (0 if it exited).
bool HasEnded(TargetProcess* target, int* signal = nullptr);

// Waits until child `pid` has ended, on a pidfd (in a blocking waitpid where there is none), and reaps it into
// *status. False, and still running, if it has not ended within 10 s (a safety net, not a time bound).
bool AwaitEnd(pid_t pid, int* status);

// A pid that was just in use and is now free (its process exited and was reaped): an operand no process answers to.
// -1 if fork failed, so the caller asserts > 0 before the pid goes on a command line ("-1" is every process).
pid_t FreePid();

// FreePid() in decimal, for a PID operand that no case should ever signal; "no-free-pid" (an invalid PID, so the case
// fails and nothing is signalled) if fork failed.
std::string FreePidOperand();

// How the target ends: the signal that killed it, 0 if it exited, or -1 if it is still running 10 s from now (a
// safety net: it is then KILLed, and the case fails). Reaps it and closes its output.
int DeathSignal(TargetProcess* target);

// KILLs the target if it still runs, reaps it, and closes its output.
void Stop(TargetProcess* target);

// The inode of a pidfd of `pid` (what PID:PIDFD_INODE names); 0 where this kernel has none (before Linux 6.9).
unsigned long long PidfdInodeOf(pid_t pid);  // NOLINT(runtime/int): as %llu prints it.

// Options whose before_exec runs `ulimit -S -n soft -H -n hard` for the program the child execs (exits 125 if it
// cannot).
Options OpenFilesLimited(unsigned soft, unsigned hard);

// Options for a case whose operand is a group (0 or -1): should kill ever send where it must refuse, the signal stays
// inside what the child was put in, and the case fails on its status and stderr instead of signalling the machine.
// InAGroupOfItsOwn: before exec, the child leads a new session and group, so `0` is itself alone (exits 125 if not).
Options InAGroupOfItsOwn();
// InAPidNamespaceOfItsOwn: the child also runs as PID 1 of a new PID namespace, so `-1` reaches nothing; the forked
// process between reports its status as its own. Only where PidNamespaceUnavailable() is "" (pid_namespace.h).
Options InAPidNamespaceOfItsOwn();

// `count` targets started with `args` (StartTarget()); fewer if one could not be started.
std::vector<TargetProcess> StartTargets(int count, const std::vector<std::string>& args = {});

// `argv` with each target's pid appended, in order.
std::vector<std::string> WithPids(std::vector<std::string> argv, const std::vector<TargetProcess>& targets);

// For Options::before_exec: from then on pidfd_open fails with ENOSYS, as before Linux 5.3 (a seccomp filter,
// inherited by the program the child execs). Other system calls are untouched. Exits 125 if it cannot be installed.
void DenyPidfdOpen();

}  // namespace coreutils_testing

#endif  // TESTS_KILL_TARGET_PROCESS_H_
