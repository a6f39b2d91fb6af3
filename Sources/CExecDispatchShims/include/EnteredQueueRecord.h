// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The head of ExecKit's per-thread record of the serial queues a thread has entered (ExecKit's `EnteredContexts`),
// kept in a C thread-local: Swift has no thread-local storage of its own, and on Linux x86-64 `pthread_getspecific`
// and `pthread_setspecific` cost about 13 and 35 instructions with their calls, where reading or writing a C
// thread-local costs a few (a `%fs`-relative access once the linker has resolved it in an executable,
// `__tls_get_addr` in a shared library). On Apple platforms each access goes through dyld's `_tlv_get_addr`, and a
// thread's first access allocates its thread-local block. Swift does not import thread-local variables, so it
// reaches this one through the functions below.

#ifndef EXECKIT_ENTERED_QUEUE_RECORD_H
#define EXECKIT_ENTERED_QUEUE_RECORD_H

/// The innermost entry of this thread's record, or null; only ExecKit's `EnteredContexts` reads or writes it.
extern _Thread_local void *execkit_entered_queue_record;

/// This thread's innermost entry, or null.
static inline void *execkit_entered_queue_record_head(void) {
    return execkit_entered_queue_record;
}

/// Makes `head` this thread's innermost entry (null for none).
static inline void execkit_set_entered_queue_record_head(void *head) {
    execkit_entered_queue_record = head;
}

#endif
