// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#include "CExecTestSupport.h"

#if defined(__APPLE__)
#define EXECKIT_TEST_SYMBOL(name) "_" #name
#else
#define EXECKIT_TEST_SYMBOL(name) #name
#endif

#if defined(__x86_64__) || defined(__aarch64__) || defined(__arm64__)
// void execkit_test_trampoline(uintptr_t framePointer, void (*body)(void *), void *context)
// Saves the frame-pointer register as a normal prologue does, loads it with `framePointer`, calls `body(context)` and
// restores it: `body`'s own prologue then saves `framePointer` as its caller's frame pointer.
void execkit_test_trampoline(uintptr_t framePointer, void (*body)(void *), void *context);
#if defined(__x86_64__)
__asm__(".text\n"
        ".globl " EXECKIT_TEST_SYMBOL(execkit_test_trampoline) "\n"
        EXECKIT_TEST_SYMBOL(execkit_test_trampoline) ":\n"
        "    pushq %rbp\n"
        "    movq %rdi, %rbp\n"
        "    movq %rdx, %rdi\n"
        "    callq *%rsi\n"
        "    popq %rbp\n"
        "    retq\n");
#else
__asm__(".text\n"
        ".globl " EXECKIT_TEST_SYMBOL(execkit_test_trampoline) "\n"
        ".p2align 2\n"
        EXECKIT_TEST_SYMBOL(execkit_test_trampoline) ":\n"
        "    stp x29, x30, [sp, #-16]!\n"
        "    mov x29, x0\n"
        "    mov x16, x1\n"
        "    mov x0, x2\n"
        "    blr x16\n"
        "    ldp x29, x30, [sp], #16\n"
        "    ret\n");
#endif

int execkit_test_call_with_frame_pointer(uintptr_t framePointer, void (*body)(void *), void *context) {
    execkit_test_trampoline(framePointer, body, context);
    return 1;
}
#else
int execkit_test_call_with_frame_pointer(uintptr_t framePointer, void (*body)(void *), void *context) {
    (void)framePointer;
    body(context);
    return 0;
}
#endif
