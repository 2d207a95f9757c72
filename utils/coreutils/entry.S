// The multicall binary's first instruction: block every signal, then start the C library as usual.
//
// A container's init ignores every signal whose disposition is still the default (the kernel drops them for PID 1),
// so a `docker stop` TERM that lands between the runtime's execve and the moment timeout blocks its signals would
// be lost for good. A blocked signal is never dropped: it stays pending until timeout waits for it. So before the
// C library's start-up (tunables, IRELATIVE relocations, constructors, option parsing...) runs, this blocks all
// signals with one rt_sigprocmask and records the mask it replaced in coreutils_startup_mask (defined in
// uucore/signal_wait.cc, read through uucore::StartupSignalMask()); every utility but timeout restores that mask
// before its work, and timeout gives it to the command it runs. SIGKILL and SIGSTOP cannot be blocked; a fault
// (SIGSEGV...) raised while blocked still ends the process, as the kernel forces it.
//
// The registers the C library's _start reads are left as the kernel (or ld.so) set them: the stack pointer, and
// rdx (x86-64) / x0 (AArch64), the dynamic linker's exit hook.

#if defined(__x86_64__)
        .text
        .globl  coreutils_entry
        .type   coreutils_entry, @function
coreutils_entry:
        mov     %rdx, %r12                      // The exit hook; r12 is free at process entry.
        mov     $14, %eax                       // __NR_rt_sigprocmask
        xor     %edi, %edi                      // SIG_BLOCK
        lea     coreutils_all_signals(%rip), %rsi
        lea     coreutils_startup_mask(%rip), %rdx
        mov     $8, %r10d                       // The kernel's sigset size.
        syscall
        test    %rax, %rax
        jnz     1f                              // Cannot fail; if it did, the mask was never read: leave it unset.
        movl    $1, coreutils_startup_mask_saved(%rip)
1:      mov     %r12, %rdx
        jmp     _start
        .size   coreutils_entry, .-coreutils_entry

#elif defined(__aarch64__)
        .text
        .globl  coreutils_entry
        .type   coreutils_entry, %function
coreutils_entry:
        mov     x19, x0                         // The exit hook; x19 is free at process entry.
        mov     x0, #0                          // SIG_BLOCK
        adrp    x1, coreutils_all_signals
        add     x1, x1, :lo12:coreutils_all_signals
        adrp    x2, coreutils_startup_mask
        add     x2, x2, :lo12:coreutils_startup_mask
        mov     x3, #8                          // The kernel's sigset size.
        mov     x8, #135                        // __NR_rt_sigprocmask
        svc     #0
        cbnz    x0, 1f                          // Cannot fail; if it did, the mask was never read: leave it unset.
        adrp    x9, coreutils_startup_mask_saved
        mov     w10, #1
        str     w10, [x9, :lo12:coreutils_startup_mask_saved]
1:      mov     x0, x19
        b       _start
        .size   coreutils_entry, .-coreutils_entry

#else
#error "utils/coreutils/entry.S: no entry point for this architecture"
#endif

        .section .rodata
        .balign 8
coreutils_all_signals:
        .quad   -1                              // Every bit; the kernel leaves out KILL and STOP.

        .section .note.GNU-stack, "", %progbits
