// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// Everything but a few variables and one function lives in the headers as static inline functions.

#if !defined(__APPLE__)
#if !defined(_GNU_SOURCE)
#define _GNU_SOURCE  // pthread_getattr_np, defined before any system header is included
#endif
#include <pthread.h>
#endif

#include "CExecDispatchShims.h"

#if defined(__APPLE__)
// Declared under private names, as the header does for libdispatch, rather than through <pthread.h>: the shim then
// compiles with no SDK (CI cross-compiles it for Apple targets and checks the symbols it references).
extern void *execkit_pthread_self(void) EXECKIT_DISPATCH_SYMBOL(pthread_self);
extern void *execkit_pthread_get_stackaddr_np(void *thread) EXECKIT_DISPATCH_SYMBOL(pthread_get_stackaddr_np);
extern size_t execkit_pthread_get_stacksize_np(void *thread) EXECKIT_DISPATCH_SYMBOL(pthread_get_stacksize_np);
#endif

int execkit_main_queue_reader_validated = 0;
int execkit_current_queue_reader_disabled = 0;
int execkit_raw_queue_layout_state = 0;

_Thread_local void *execkit_entered_queue_record = 0;
_Thread_local void *execkit_timer_engine_cache_entry = 0;
_Thread_local void *execkit_running_job_record = 0;
_Thread_local void *execkit_submitting_block_record = 0;

_Thread_local uintptr_t execkit_stack_low = 0;
_Thread_local uintptr_t execkit_stack_high = 0;

void execkit_find_stack_bounds(void) {
    uintptr_t low = 0, high = 0;
#if defined(__APPLE__)
    void *self = execkit_pthread_self();
    high = (uintptr_t)execkit_pthread_get_stackaddr_np(self);
    low = high - (uintptr_t)execkit_pthread_get_stacksize_np(self);
#else
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
        void *base = NULL;
        size_t size = 0;
        if (pthread_attr_getstack(&attributes, &base, &size) == 0) {
            low = (uintptr_t)base;
            high = low + size;
        }
        pthread_attr_destroy(&attributes);
    }
#endif
    if (high == 0) low = high = 1;  // unknown: an empty range, so walks stop at once (and this runs once)
    execkit_stack_low = low;
    execkit_stack_high = high;
}
