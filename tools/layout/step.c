// tools/layout/step.c -- the code addresses a program runs natively, for tools/layout/symbol-order.
//
// Usage: step [--pid1] OUT PROGRAM [ARG...]
// Runs PROGRAM under ptrace, one instruction at a time, and writes to OUT (hex, one per line) the address of each
// instruction it runs, the first time, in order, until PROGRAM exits. A child PROGRAM starts with vfork (or
// clone with CLONE_VFORK) runs PROGRAM's own code in PROGRAM's memory until it execs: it is stepped too, until then;
// other children are not followed, nor any program exec'ed (by the child, or by PROGRAM itself). --pid1 first
// moves into a new PID namespace, so that PROGRAM runs as its PID 1 (as a container's init). x86-64 only.
// Native, unlike valgrind: glibc picks its string functions' variants for this CPU, and the vDSO is there.
// Signals PROGRAM receives are delivered to it as usual. Exit status: 0; 1 if PROGRAM could not be started.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "--pid1") == 0) {
    if (unshare(CLONE_NEWPID) != 0) return perror("step: unshare"), 1;
    ++first;
  }
  if (first + 1 >= argc) return fprintf(stderr, "usage: step [--pid1] OUT PROGRAM [ARG...]\n"), 1;
  // Its own file, closed at the exec: PROGRAM's output stays PROGRAM's.
  FILE* out = fopen(argv[first], "we");
  if (out == NULL) return perror(argv[first]), 1;
  ++first;
  const pid_t pid = fork();
  if (pid < 0) return perror("step: fork"), 1;
  if (pid == 0) {
    ptrace(PTRACE_TRACEME, 0, 0, 0);
    raise(SIGSTOP);  // Lets the tracer set its options before the exec.
    execv(argv[first], argv + first);
    _exit(127);
  }
  int status;
  if (waitpid(pid, &status, 0) != pid) return perror("step: waitpid"), 1;
  ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEEXEC | PTRACE_O_TRACEVFORK | PTRACE_O_EXITKILL);
  ptrace(PTRACE_CONT, pid, 0, 0);
  // The exec stop: the new image's first instruction is next.
  if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) || status >> 8 != (SIGTRAP | PTRACE_EVENT_EXEC << 8)) {
    fprintf(stderr, "step: %s did not start\n", argv[first]);
    return 1;
  }
  // Each address once: a bit per byte of the first 64 MiB (where a static binary is mapped), else when it changes.
  static unsigned char seen[(64 << 20) / 8];
  unsigned long long last = 0;
  pid_t stack[2] = {pid, 0};  // PROGRAM, and a vfork child while it runs (PROGRAM waits for its exec meanwhile).
  int depth = 0;
  int deliver = 0;
  for (;;) {
    const pid_t current = stack[depth];
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, current, 0, &regs) != 0) break;
    const unsigned long long rip = regs.rip;
    if (rip < (64ull << 20) ? !(seen[rip / 8] & 1 << rip % 8) : rip != last) fprintf(out, "%llx\n", rip);
    if (rip < (64ull << 20)) seen[rip / 8] |= 1 << rip % 8;
    last = rip;
    if (ptrace(PTRACE_SINGLESTEP, current, 0, deliver) != 0) break;
    deliver = 0;
    while (waitpid(current, &status, __WALL) < 0 && errno == EINTR) {
    }
    const int event = status >> 16;
    if (!WIFSTOPPED(status) || event == PTRACE_EVENT_EXEC) {
      // Exited, killed, or exec'ed another program (the child, or PROGRAM itself: env, nohup): its code is not
      // ours. PROGRAM's exec ends the trace; the detached program runs on and is waited for.
      if (WIFSTOPPED(status)) ptrace(PTRACE_DETACH, current, 0, 0);
      if (depth == 0) {
        if (WIFSTOPPED(status)) waitpid(current, &status, 0);
        break;
      }
      depth = 0;
      continue;
    }
    if (event == PTRACE_EVENT_VFORK && depth == 1) {
      fprintf(stderr, "step: a vfork child vforked again: not followed\n");
      return 1;
    }
    if (depth == 0 && event == PTRACE_EVENT_VFORK) {
      unsigned long child;
      ptrace(PTRACE_GETEVENTMSG, current, 0, &child);
      while (waitpid((pid_t)child, &status, __WALL) < 0 && errno == EINTR) {  // Its first stop, before it runs.
      }
      stack[depth = 1] = (pid_t)child;
      continue;
    }
    if (event == 0 && WSTOPSIG(status) != SIGTRAP) deliver = WSTOPSIG(status);  // A signal for it: pass it on.
  }
  return fclose(out) == 0 ? 0 : 1;
}
