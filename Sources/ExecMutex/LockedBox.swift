// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A value that can only be read or changed while holding a ``PThreadMutex``.
///
/// Callers never touch the lock: ``withLock(_:)`` takes it, hands the value over as `inout`, and releases it.
///
/// - Thread-safety: `Sendable` when `Value` is; every access is serialized by the mutex.
///   <!-- G-mutex-lockedbox-serialized -->
public final class LockedBox<Value> {
    @usableFromInline
    let mutex: PThreadMutex

    /// Only touched inside `mutex.sync`, so the runtime's exclusivity check on each access (a `swift_beginAccess`
    /// call, about 60 instructions) is redundant: the mutex already rules out overlapping access from two threads,
    /// and a nested `withLock` on the same box stops at the mutex (error-checking in debug builds).
    @exclusivity(unchecked) @usableFromInline
    var value: Value

    /// Creates a box holding `value`.
    ///
    /// The mutex is never recursive: a nested `withLock` on one box would hand out two `inout` accesses to the same
    /// value at once, which Swift forbids. In debug builds a nested call stops with a message.
    /// <!-- G-mutex-lockedbox-nested-stops -->
    public init(_ value: Value) {
        self.value = value
        self.mutex = PThreadMutex(type: .normal)
    }

    /// Creates a box holding `value` whose lock a ``LockObserver`` sees (`observed`) or not: ExecKit's own code
    /// passes `false`.
    @_spi(ExecTesting)
    public init(_ value: Value, observed: Bool) {
        self.value = value
        self.mutex = PThreadMutex(type: .normal, observed: observed)
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Returns: What `body` returns. Do not return references that let the value escape the lock.
    /// - Throws: Rethrows what `body` throws; the lock is released either way.
    ///   <!-- G-mutex-lockedbox-rethrow-unlocks -->
    @inlinable @inline(__always)
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try mutex.sync { try body(&value) }
    }

    /// Runs `body` with exclusive access to the value if the lock is free.
    ///
    /// - Returns: What `body` returns, or `nil` (without running it) when another thread holds the lock.
    ///   <!-- G-mutex-try-fails-when-held -->
    @inlinable
    public func tryWithLock<R>(_ body: (inout Value) throws -> R) rethrows -> R? {
        try mutex.trySync { try body(&value) }
    }
}

// Every access to `value` happens inside `mutex.sync`, so sharing the box is safe when the value itself is.
extension LockedBox: @unchecked Sendable where Value: Sendable {}
