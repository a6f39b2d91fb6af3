// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// Direct links to libdispatch symbols that Swift's Dispatch module hides (the reader of the queue a thread is running,
// `dispatch_get_current_queue`, and the main queue object, `_dispatch_main_q`) or reaches only through costlier code
// (the function-pointer forms of async and sync, the queue-specific look-ups). Linking them directly, rather than
// finding them with dlsym, works in statically linked binaries too, where dlsym finds nothing.
//
// They are declared under private names through asm labels, without including <dispatch/dispatch.h>, so that these
// declarations never clash with the real ones in a module that imports both.
//
// The target also keeps the few C variables that ExecDispatch and ExecKit read on their hot paths (validation flags,
// and the thread-local head of `EnteredQueueRecord.h`): a C global is a plain load where a Swift lazy global is a
// `swift_once` call, and Swift has no thread-local storage.

#ifndef CEXECDISPATCHSHIMS_H
#define CEXECDISPATCHSHIMS_H

#if defined(__APPLE__)
#define EXECKIT_DISPATCH_SYMBOL(name) __asm__("_" #name)
#else
#define EXECKIT_DISPATCH_SYMBOL(name) __asm__(#name)
#endif

#if defined(__APPLE__)
// Weak: Apple marks it deprecated and "will be removed in a future release". Where it is missing, its address is null
// and ExecDispatch keeps to the queue-specific path (see `execkit_current_queue_reader_is_present`).
extern void *execkit_dispatch_get_current_queue(void) __attribute__((weak_import))
    EXECKIT_DISPATCH_SYMBOL(dispatch_get_current_queue);
#else
extern void *execkit_dispatch_get_current_queue(void) EXECKIT_DISPATCH_SYMBOL(dispatch_get_current_queue);
#endif
extern char execkit_dispatch_main_q EXECKIT_DISPATCH_SYMBOL(_dispatch_main_q);

/// The queue the calling thread is running now (libdispatch's thread-local), as an address.
static inline const void *execkit_current_queue(void) {
    return execkit_dispatch_get_current_queue();
}

/// Nonzero when the package's own tests ask ExecDispatch to behave as if `dispatch_get_current_queue` were missing, as
/// it may be on a future Apple OS; set before anything checks the main queue (ExecKitMainQueueProbe's `noreader`).
extern int execkit_current_queue_reader_disabled;

/// Makes ExecDispatch behave as if `dispatch_get_current_queue` were missing; for the package's own tests.
static inline void execkit_disable_current_queue_reader(void) {
    __atomic_store_n(&execkit_current_queue_reader_disabled, 1, __ATOMIC_RELAXED);
}

/// Whether `dispatch_get_current_queue` can be called: linked (it is weak on Apple platforms) and not disabled.
static inline _Bool execkit_current_queue_reader_is_present(void) {
#if defined(__APPLE__)
    if (execkit_dispatch_get_current_queue == 0) return 0;
#endif
    return __atomic_load_n(&execkit_current_queue_reader_disabled, __ATOMIC_RELAXED) == 0;
}

/// The address of the main queue object.
static inline const void *execkit_main_queue(void) {
    return &execkit_dispatch_main_q;
}

/// Nonzero once ExecDispatch has validated the current-queue reader in this process (see `MainQueueIdentity`); only
/// ExecDispatch writes it.
extern int execkit_main_queue_reader_validated;

/// Whether the reader is validated (a relaxed load).
static inline _Bool execkit_main_queue_reader_is_validated(void) {
    return __atomic_load_n(&execkit_main_queue_reader_validated, __ATOMIC_RELAXED) != 0;
}

/// Records that the reader is validated. Relaxed: the flag publishes no other data, and a thread that still reads 0
/// takes the slow path, which is right too.
static inline void execkit_set_main_queue_reader_validated(void) {
    __atomic_store_n(&execkit_main_queue_reader_validated, 1, __ATOMIC_RELAXED);
}

/// Whether the calling thread runs the main queue now, by libdispatch's thread-local; `false` until validated.
/// Inlined into every caller of `DispatchQueue.isMainQueueCurrent`: a relaxed load, the reader's call and a compare.
static inline _Bool execkit_is_main_queue_current(void) {
    return execkit_main_queue_reader_is_validated() && execkit_current_queue() == execkit_main_queue();
}

/// Whether ExecDispatch found the `dispatch_queue_t` inside Swift's `DispatchQueue` (see `RawQueueIdentity`):
/// 0 until checked, 1 when found, 2 when not. Only ExecDispatch writes it; a C global, so that reading it is a relaxed
/// load rather than a lazy-initialisation check.
extern int execkit_raw_queue_layout_state;

/// The layout check's result: 0 unchecked, 1 found, 2 not found (a relaxed load).
static inline int execkit_raw_queue_layout(void) {
    return __atomic_load_n(&execkit_raw_queue_layout_state, __ATOMIC_RELAXED);
}

/// Records the layout check's result. Relaxed: the flag publishes no other data, and a thread that still reads 0 runs
/// the check itself, which gives the same answer.
static inline void execkit_set_raw_queue_layout(int state) {
    __atomic_store_n(&execkit_raw_queue_layout_state, state, __ATOMIC_RELAXED);
}

/// `dispatch_async_f` and `dispatch_get_global_queue`: submitting a function and a context pointer skips the block
/// that Swift's `DispatchQueue.async` wraps around a closure value (see ExecKit's `submit(_:to:)` and
/// `QueueSerialExecutor`).
typedef void (*execkit_dispatch_function_t)(void *context);
extern void execkit_dispatch_async_f(const void *queue, void *context, execkit_dispatch_function_t work)
    EXECKIT_DISPATCH_SYMBOL(dispatch_async_f);
extern const void *execkit_dispatch_get_global_queue(long identifier, unsigned long flags)
    EXECKIT_DISPATCH_SYMBOL(dispatch_get_global_queue);

/// `dispatch_sync_f`: waiting for a function and a context pointer skips the block (its heap copy and release) that
/// Swift's `DispatchQueue.sync` builds around a closure (see ExecKit's `invokeSync`).
extern void execkit_dispatch_sync_f(const void *queue, void *context, execkit_dispatch_function_t work)
    EXECKIT_DISPATCH_SYMBOL(dispatch_sync_f);

/// `dispatch_async_and_wait_f`: the wait that a `DispatchWorkloop` accepts (libdispatch rejects `dispatch_sync` on a
/// workloop with a crash); on a serial queue it orders and excludes as `dispatch_sync_f` does.
extern void execkit_dispatch_async_and_wait_f(const void *queue, void *context, execkit_dispatch_function_t work)
    EXECKIT_DISPATCH_SYMBOL(dispatch_async_and_wait_f);

/// libdispatch's queue-specific functions, which Swift's `DispatchQueue.getSpecific` wraps in generic code that is
/// never specialized for the caller (about 170 instructions a look-up, against 60 to 80 here, most of it the lock
/// that libdispatch takes; see ExecDispatch's `RawQueueIdentity`).
extern void *execkit_dispatch_get_specific(const void *key) EXECKIT_DISPATCH_SYMBOL(dispatch_get_specific);
extern void *execkit_dispatch_queue_get_specific(const void *queue, const void *key)
    EXECKIT_DISPATCH_SYMBOL(dispatch_queue_get_specific);
extern void execkit_dispatch_queue_set_specific(const void *queue, const void *key, void *context,
                                                execkit_dispatch_function_t destructor)
    EXECKIT_DISPATCH_SYMBOL(dispatch_queue_set_specific);

#include "EnteredQueueRecord.h"
#include "TimerEngineCache.h"
#include "RunningJobRecord.h"
#include "CallStack.h"
#include "GlobalJobCapture.h"
#include "LockObserver.h"

#endif
