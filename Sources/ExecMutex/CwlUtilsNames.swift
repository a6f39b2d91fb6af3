// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// CwlUtils' mutex names that ExecMutex does not keep, each a compile error naming the replacement.

extension PThreadMutex {
    /// CwlUtils' name for ``Kind``.
    @available(*, unavailable, renamed: "Kind")
    public typealias PThreadMutexType = Kind
}

/// CwlUtils' protocol for a mutex with unbalanced lock and unlock.
@available(*, unavailable, message: "use ScopedMutex; PThreadMutex keeps unbalancedLock() and unbalancedUnlock()")
public protocol RawMutex {}

/// CwlUtils' `os_unfair_lock` wrapper (Apple platforms only).
@available(*, unavailable, message: "use PThreadMutex, LockedBox or Synchronization.Mutex")
public final class UnfairLock {}
