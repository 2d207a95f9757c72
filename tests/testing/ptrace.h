// tests/testing/ptrace.h -- stop a program with ptrace at the system call that starts its command, and send it a
// signal exactly there.
//
// A signal that reaches `timeout` while it spawns its command (its signals blocked, the child not yet made) must be
// passed on to the command once it exists (issue 21). Timing cannot hit that window reliably; ptrace can: the
// program runs system call by system call up to the entry of the first one that makes a process (vfork, fork, or
// clone/clone3 without CLONE_THREAD), the signal is sent with kill() while it is stopped there, the call runs with
// the signal pending, and the program is detached as the call returns (with the new process's pid, or with an error
// if the signal got in first).
#ifndef TESTS_TESTING_PTRACE_H_
#define TESTS_TESTING_PTRACE_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace coreutils_testing {

// What the program's first process-creating system call was, and what it returned.
struct Spawned {
  std::string call;  // "vfork", "clone(flags 0x1200011)", "clone3(flags 0x200004000)"
  long result = 0;   // The new process's pid (in the program's PID namespace), or -errno: no process was made
                     // (-513, ERESTARTNOINTR: the signal got in first, and the call is made again once it is handled).
};

// `pid` is our tracee, stopped right after its exec (PTRACE_TRACEME then execve, or PTRACE_SEIZE with
// PTRACE_O_TRACEEXEC). Runs it to the entry of its first process-creating system call, sends it `sig` there, runs
// that call to its return and detaches. Signals it gets on the way are delivered to it as they come. "" or what went
// wrong (it ended first, no such call within 10 s); *spawned says which call it was and what it returned.
std::string SignalAtSpawn(pid_t pid, int sig, Spawned* spawned = nullptr);

// WaitForStateChange()
//
// Waits for the next state change of `pid` (our child or tracee: a stop, its exit; waitpid with __WALL) until
// `deadline` (on Now()'s clock, tests/testing/run.h). Polled, from 50 us doubling to 5 ms between looks, so that a
// program that never gets there cannot hang the test. True with *wstatus set; false once the deadline has passed or
// if waitpid fails (ECHILD). The one such wait of the tests that trace (SignalAtSpawn(), tests/container's stops).
bool WaitForStateChange(pid_t pid, double deadline, int* wstatus);

// How a traced run ended.
struct TracedResult {
  std::string error;  // The run could not be set up or traced: nothing below is meaningful.
  Spawned spawned;    // The system call the signal was sent at, and what it returned.
  int status = -1;    // Exit status; 128 + N when killed by N; -1 if it had not exited within the limit (then KILLed).
  int signal = 0;     // N when killed by signal N, else 0.
  double seconds = 0; // From the detach to its exit.
  std::string out, err;  // What it wrote (at most a pipe's worth each).
  bool left_behind = false;  // It exited without reaping a process it had made (the command, if still running, KILLed).
};

// Runs `path` with `argv` as its own process group's leader (default dispositions, empty mask, stdin /dev/null,
// LC_ALL=C and the caller's PATH), sends `sig` at its spawn (SignalAtSpawn), and waits up to `limit_seconds` for
// it to exit (else it and its group are KILLed: status -1). The caller is a child subreaper meanwhile, so that a
// process of the run that the program did not reap before it ended comes back to it: seen (left_behind), however it
// dies, and KILLed if it still runs. Every child of the caller that has ended by then is reaped: have no others.
TracedResult RunSignalledAtSpawn(const std::string& path, const std::vector<std::string>& argv, int sig,
                                 double limit_seconds = 5);

// Why this process cannot trace a child of its own ("" when it can): a seccomp filter, Yama's ptrace_scope 3, a
// sandbox without ptrace. Tried once per process.
std::string PtraceUnavailable();

}  // namespace coreutils_testing

#endif  // TESTS_TESTING_PTRACE_H_
