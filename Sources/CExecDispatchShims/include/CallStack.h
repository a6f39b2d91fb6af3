// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The return addresses on the calling thread's stack, for ExecTesting's call-site records: Swift cannot read a frame
// pointer. It lives in this target, beside the other C code, because it must add no C compilation unit: valgrind 3.19
// (the callgrind counts of Benchmarks/InstructionCounts) gives up on a binary with two DWARF 5 units from clang.

#ifndef EXECKIT_CALLSTACK_H
#define EXECKIT_CALLSTACK_H

#include <stdbool.h>
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

/// Copies `size` bytes at `address` of this process's memory into `buffer` and returns true, or returns false, without
/// faulting, where any of those bytes cannot be read (unmapped, or not an address at all). A system call (Linux:
/// `process_vm_readv` on this process; Apple platforms: `vm_read_overwrite` on this task), about a microsecond. Where the
/// system refuses the call (a seccomp filter, say) it returns false from then on, at the cost of a load.
bool execkit_read_memory(uintptr_t address, void *buffer, size_t size);

/// How many bytes below an address `execkit_read_memory_below` reads at most: the rest of the address's page and
/// the page before it.
#define EXECKIT_READ_BELOW 8192

/// Like `execkit_read_memory` for the 16 bytes at `address`, and in the same system call as much of the page holding
/// `address` and the page before it as can be read, below `address`. `window` receives the bytes from `address -
/// EXECKIT_READ_BELOW` on (it has room for `EXECKIT_READ_BELOW + 16` bytes; only the part read is written). Returns
/// how many bytes below `address` were read, or -1 when the 16 bytes at `address` cannot be.
long execkit_read_memory_below(uintptr_t address, unsigned char *window);

/// Writes the resume points of the asynchronous callers of the Swift async function whose frame record is at `frame`,
/// innermost first (at most `capacity`), and returns how many it wrote: the chain of async contexts that the Swift
/// ABI keeps at `frame - 8` (each context starts with its parent and the parent's resume function).
///
/// Meant for a frame that ExecTesting has found to be an async function's, by the name of the function its return
/// address enters. It never faults wherever `frame` points: the context's slot is read only inside the calling thread's
/// stack, and contexts only through `execkit_read_memory_below`, so a frame that holds no context gives a short or
/// empty chain, never a crash. The chain is cut at a null, misaligned or unreadable context, or at `capacity`.
///
/// Cost: a task's contexts are allocated one after another, callers first, so a context's callers mostly lie just
/// below it: one read (a system call, about a microsecond, and a copy of up to 8 KB) usually covers the chain, and
/// each caller outside it costs another.
static inline size_t execkit_async_resume_points(uintptr_t frame, uintptr_t *points, size_t capacity) {
    uintptr_t const mask = (uintptr_t)0x0000FFFFFFFFFFFFull;
    if (execkit_stack_high == 0) execkit_find_stack_bounds();
    if (frame < execkit_stack_low + sizeof(uintptr_t) || frame >= execkit_stack_high) return 0;
    uintptr_t context = *(uintptr_t const *)(frame - sizeof(uintptr_t)) & mask;
    _Alignas(16) unsigned char window[EXECKIT_READ_BELOW + 16];
    uintptr_t base = 0, low = 0, high = 0;  // window[0] holds the byte at `base`; [low, high) was read
    size_t count = 0;
    while (count < capacity && context != 0 && (context & (sizeof(uintptr_t) - 1)) == 0) {
        if (context < low || context > high - 2 * sizeof(uintptr_t) || high == 0) {
            long const below = execkit_read_memory_below(context, window);
            if (below < 0) break;
            base = context - EXECKIT_READ_BELOW;
            low = context - (uintptr_t)below;
            high = context + 2 * sizeof(uintptr_t);
        }
        uintptr_t words[2];
        __builtin_memcpy(words, window + (context - base), sizeof words);
        points[count++] = words[1] & mask;
        context = words[0] & mask;
    }
    return count;
}

#endif
