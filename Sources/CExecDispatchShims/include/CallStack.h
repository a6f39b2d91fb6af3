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
/// and returns how many it wrote.
///
/// It follows the frame-pointer chain, which Swift code built by SwiftPM or Xcode keeps, and stops where the chain
/// leaves the thread's stack, stops rising or `capacity` is reached: it reads nothing but the thread's own stack,
/// allocates nothing and takes no lock. A frame of code built without frame pointers is skipped over, or ends the
/// walk, so the result is a key for "the same call path as before", not a complete backtrace.
///
/// Cost: a few nanoseconds per frame, plus finding the thread's stack bounds once per thread.
static inline size_t execkit_capture_return_addresses(uintptr_t *addresses, size_t capacity) {
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
        addresses[count++] = returnAddress;
        if (next <= frame) break;  // the stack grows down: callers' records lie higher
        frame = next;
    }
    return count;
}

#endif
