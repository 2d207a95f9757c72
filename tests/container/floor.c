// floor -- the best any init can do in the start-up window (tests/container's reference, not a real init): its
// first instruction is the entry point, which blocks every signal with a direct rt_sigprocmask system call, before
// any C library runs; it then waits for one signal and exits 128 + N. Whatever it loses was sent before the new
// image ran its first instruction: the kernel's part of the window, the same for every init.
#define SYS_RT_SIGPROCMASK 14
#define SYS_RT_SIGTIMEDWAIT 128
#define SYS_EXIT 60
#define SIG_BLOCK 0

const unsigned long kAllSignals = ~0UL;  // The kernel leaves KILL and STOP out by itself.

static long Syscall4(long number, long a, long b, long c, long d) {
  register long r10 __asm__("r10") = d;
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
                   : "rcx", "r11", "memory");
  return result;
}

void FloorMain(void) {
  const long signal = Syscall4(SYS_RT_SIGTIMEDWAIT, (long)&kAllSignals, 0, 0, sizeof kAllSignals);
  Syscall4(SYS_EXIT, signal > 0 ? 128 + signal : 1, 0, 0, 0);
}

__asm__(
    ".globl _start\n"
    "_start:\n"
    "  mov $14, %eax\n"  // SYS_RT_SIGPROCMASK
    "  xor %edi, %edi\n"  // SIG_BLOCK
    "  lea kAllSignals(%rip), %rsi\n"
    "  xor %edx, %edx\n"
    "  mov $8, %r10d\n"
    "  syscall\n"
    "  and $-16, %rsp\n"
    "  call FloorMain\n"
    "  hlt\n");
