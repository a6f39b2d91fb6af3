// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if !defined(__APPLE__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // pthread_getattr_np, before any system header
#endif
#include <pthread.h>

#include "CExecTestingShims.h"

/// The calling thread's stack, as [low, high): found once per thread.
static _Thread_local uintptr_t stackLow;
static _Thread_local uintptr_t stackHigh;

static void findStackBounds(void) {
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t high = (uintptr_t)pthread_get_stackaddr_np(self);
    stackHigh = high;
    stackLow = high - (uintptr_t)pthread_get_stacksize_np(self);
#else
    pthread_attr_t attributes;
    void *low = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        if (pthread_attr_getstack(&attributes, &low, &size) != 0) { low = NULL; size = 0; }
        pthread_attr_destroy(&attributes);
    }
    stackLow = (uintptr_t)low;
    stackHigh = (uintptr_t)low + size;
#endif
    if (stackHigh == 0) { stackLow = 0; stackHigh = 1; }  // unknown: the walk below stops at once
}

/// Return addresses carry no tag on the platforms ExecKit runs on, except pointer authentication on arm64e; keep the
/// low 48 bits of user-space addresses.
static inline uintptr_t stripTag(uintptr_t address) {
#if UINTPTR_MAX > 0xFFFFFFFFu
    return address & 0x0000FFFFFFFFFFFFull;
#else
    return address;
#endif
}

__attribute__((noinline)) size_t exectesting_capture_return_addresses(uintptr_t *addresses, size_t capacity,
                                                                      size_t skip) {
    if (stackHigh == 0) findStackBounds();
    uintptr_t frame = (uintptr_t)__builtin_frame_address(0);
    size_t count = 0;
    while (count < capacity) {
        // A frame record is two words, [saved frame pointer, return address], inside the stack and aligned.
        if (frame < stackLow || frame > stackHigh - 2 * sizeof(uintptr_t) || (frame & (sizeof(uintptr_t) - 1)) != 0) {
            break;
        }
        uintptr_t const *record = (uintptr_t const *)frame;
        uintptr_t next = stripTag(record[0]);
        uintptr_t returnAddress = stripTag(record[1]);
        if (returnAddress == 0) break;
        if (skip > 0) {
            skip -= 1;
        } else {
            addresses[count++] = returnAddress;
        }
        if (next <= frame) break;  // the stack grows down: callers' records lie higher
        frame = next;
    }
    return count;
}
