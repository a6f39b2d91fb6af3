// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The one thread-local ExecMutex's lock paths read: which lock observer (an ExecTesting object, unretained) sees this
// thread's lock acquisitions, or null. A C thread-local, not a Swift one: the inlined fast path of every lock reads it,
// and a C `_Thread_local` costs one load there, with no lazy initialization. It lives in this module, not in one of
// ExecMutex's own: valgrind 3.19 (the instruction counts' callgrind) cannot read a binary with two DWARF 5 C units.
#ifndef EXECKIT_LOCK_OBSERVER_H
#define EXECKIT_LOCK_OBSERVER_H

/// The lock observer of this thread, or null (the only value outside ExecTesting's schedule exploration).
extern _Thread_local void *execkit_lock_observer;

/// This thread's lock observer, or null.
static inline void *execkit_current_lock_observer(void) {
    return execkit_lock_observer;
}

/// Makes `observer` this thread's lock observer (null for none); returns the one it replaces.
static inline void *execkit_exchange_lock_observer(void *observer) {
    void *previous = execkit_lock_observer;
    execkit_lock_observer = observer;
    return previous;
}

#endif
