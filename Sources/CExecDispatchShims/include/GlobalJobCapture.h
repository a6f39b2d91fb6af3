// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// What ExecTesting's capture of Swift's global executor needs from C (issue #41): the runtime's hook variable, written
// atomically, and the coordinator whose work this thread is running, in a C thread-local for the reasons
// EnteredQueueRecord.h gives (read in the runtime's enqueue, where no Swift thread-local machinery may allocate).
#ifndef EXECKIT_GLOBAL_JOB_CAPTURE_H
#define EXECKIT_GLOBAL_JOB_CAPTURE_H

/// The capture target (an ExecTesting object, unretained) of the coordinator whose work this thread runs, or null.
extern _Thread_local void *execkit_job_capture_target;

/// This thread's capture target, or null.
static inline void *execkit_current_job_capture_target(void) {
    return execkit_job_capture_target;
}

/// Makes `target` this thread's capture target (null for none); returns the one it replaces.
static inline void *execkit_exchange_job_capture_target(void *target) {
    void *previous = execkit_job_capture_target;
    execkit_job_capture_target = target;
    return previous;
}

/// Reads the function pointer at `address` (the runtime's `swift_task_enqueueGlobal_hook`), atomically.
static inline void *execkit_load_hook(void *const *address) {
    return __atomic_load_n(address, __ATOMIC_ACQUIRE);
}

/// Writes `hook` at `address` if it still holds `expected`, atomically; returns whether it did.
static inline int execkit_replace_hook(void **address, void *expected, void *hook) {
    return __atomic_compare_exchange_n(address, &expected, hook, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

#endif
