// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The slot of ExecKit's per-thread timer-engine cache (`TimerEngineCache`): the entry for the private queue this
// thread scheduled a timer on last. A C thread-local, read in a few instructions (see EnteredQueueRecord.h for why
// not `pthread_getspecific`); the cache also registers each entry under a POSIX thread-specific key, whose destructor
// releases it when the thread exits, which a C thread-local cannot do.

#ifndef EXECKIT_TIMER_ENGINE_CACHE_H
#define EXECKIT_TIMER_ENGINE_CACHE_H

/// This thread's cache entry (a retained Swift object), or null; only ExecKit's `TimerEngineCache` reads or writes it.
extern _Thread_local void *execkit_timer_engine_cache_entry;

/// This thread's cache entry, or null.
static inline void *execkit_timer_engine_cache(void) {
    return execkit_timer_engine_cache_entry;
}

/// Makes `entry` this thread's cache entry.
static inline void execkit_set_timer_engine_cache(void *entry) {
    execkit_timer_engine_cache_entry = entry;
}

#endif
