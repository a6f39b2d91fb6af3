// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The return addresses on the calling thread's stack, for ExecTesting's call-site records: Swift cannot read a frame
// pointer. It lives in this target, beside the other C code, because it must add no C compilation unit: valgrind 3.19
// (the callgrind counts of Benchmarks/InstructionCounts) gives up on a binary with two DWARF 5 units from clang.

#ifndef EXECKIT_CALLSTACK_H
#define EXECKIT_CALLSTACK_H

#include <stddef.h>
#include <stdint.h>

/// The calling thread's stack, as [low, high), once `execkit_find_stack_bounds` has run on it; both zero before.
extern _Thread_local uintptr_t execkit_stack_low;
extern _Thread_local uintptr_t execkit_stack_high;

/// Sets the calling thread's stack bounds (to an empty range when they cannot be found, so walks stop at once).
void execkit_find_stack_bounds(void);

/// Writes the return addresses of the calling thread's stack, innermost first, into `addresses` (at most `capacity`),
/// and the address of the frame record each was read from into `frames`, and returns how many it wrote. The function
/// that `addresses[i]` returns into owns the frame record at `frames[i + 1]`.
///
/// It follows the frame-pointer chain, which Swift code built by SwiftPM or Xcode keeps, and stops where the chain
/// leaves the thread's stack, stops rising or `capacity` is reached: it reads nothing but the thread's own stack,
/// allocates nothing and takes no lock. A frame of code built without frame pointers is skipped over, or ends the
/// walk, so the result is a key for "the same call path as before", not a complete backtrace.
///
/// Cost: a few nanoseconds per frame, plus finding the thread's stack bounds once per thread.
static inline size_t execkit_capture_return_addresses(uintptr_t *addresses, uintptr_t *frames, size_t capacity) {
    if (execkit_stack_high == 0) execkit_find_stack_bounds();
    uintptr_t const low = execkit_stack_low, high = execkit_stack_high;
    // Return addresses and saved frame pointers carry no tag worth keeping (arm64e signs them; Darwin marks async
    // frames in bit 60): user-space addresses fit in 48 bits.
    uintptr_t const mask = (uintptr_t)0x0000FFFFFFFFFFFFull;
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    size_t count = 0;
    while (count < capacity) {
        // A frame record is two words, [saved frame pointer, return address], aligned and inside the stack.
        if (frame < low || frame + 2 * sizeof(uintptr_t) > high || (frame & (sizeof(uintptr_t) - 1)) != 0) break;
        uintptr_t const *record = (uintptr_t const *)frame;
        uintptr_t const next = record[0] & mask;
        uintptr_t const returnAddress = record[1] & mask;
        if (returnAddress == 0) break;
        frames[count] = frame;
        addresses[count++] = returnAddress;
        if (next <= frame) break;  // the stack grows down: callers' records lie higher
        frame = next;
    }
    return count;
}

/// Writes the resume points of the asynchronous callers of the Swift async function whose frame record is at `frame`,
/// innermost first (at most `capacity`), and returns how many it wrote: the chain of async contexts that the Swift
/// ABI keeps at `frame - 8` (each context starts with its parent and the parent's resume function).
///
/// Only for a frame that Swift's own unwinder has found to be an async function's (ExecTesting checks that once per
/// call path): anywhere else the word at `frame - 8` is no context. Each pointer is checked to be non-null and
/// aligned, and the chain is cut at `capacity`.
static inline size_t execkit_async_resume_points(uintptr_t frame, uintptr_t *points, size_t capacity) {
    uintptr_t const mask = (uintptr_t)0x0000FFFFFFFFFFFFull;
    uintptr_t context = *(uintptr_t const *)(frame - sizeof(uintptr_t)) & mask;
    size_t count = 0;
    while (count < capacity && context != 0 && (context & (sizeof(uintptr_t) - 1)) == 0) {
        uintptr_t const *words = (uintptr_t const *)context;
        points[count++] = words[1] & mask;
        context = words[0] & mask;
    }
    return count;
}

#endif
