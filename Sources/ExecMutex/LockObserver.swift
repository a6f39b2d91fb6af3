// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

internal import CExecDispatchShims

/// Sees the lock acquisitions and releases of ``PThreadMutex`` (and so of ``LockedBox``) on the threads it is installed
/// on: ExecTesting's schedule exploration subclasses it to make each acquisition a point where another block may run.
/// Not for use outside ExecTesting.
///
/// Cost to everyone else: one thread-local load and a branch per lock and unlock, taken only on a thread with an
/// observer installed. A mutex made by ExecKit's own code (``PThreadMutex/init(type:observed:)`` with `false`) is never
/// observed.
@_spi(ExecTesting)
open class LockObserver: @unchecked Sendable {
    /// An observer that does nothing until a subclass overrides its methods.
    public init() {}

    /// Called on the locking thread before it takes `mutex`; returns when the thread may go ahead. `blocking` is
    /// `false` for a try-lock, which must not be made to wait for the lock.
    open func willLock(_ mutex: PThreadMutex, blocking: Bool) {}

    /// Called on the locking thread once it holds `mutex`.
    open func didLock(_ mutex: PThreadMutex) {}

    /// Called on the unlocking thread once it no longer holds `mutex`.
    open func didUnlock(_ mutex: PThreadMutex) {}

    /// Makes `observer` see the calling thread's acquisitions (`nil`: none) while `body` runs, then restores the one
    /// before: of observed mutexes only, or, with `seesEveryMutex`, of ExecKit's own too (``PThreadMutex/observed``
    /// tells them apart). The caller keeps `observer` alive meanwhile.
    public static func observing<Return>(
        with observer: LockObserver?, seesEveryMutex: Bool = false, _ body: () throws -> Return
    ) rethrows -> Return {
        let raw = observer.map { Unmanaged.passUnretained($0).toOpaque() + (seesEveryMutex ? 1 : 0) }
        let previous = execkit_exchange_lock_observer(raw)
        defer { _ = execkit_exchange_lock_observer(previous) }
        return try withExtendedLifetime(observer) { try body() }
    }

    /// The calling thread's observer, if any.
    public static var current: LockObserver? {
        guard let raw = execkit_current_lock_observer() else { return nil }
        let untagged = UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: raw) & ~1)!
        return Unmanaged<LockObserver>.fromOpaque(untagged).takeUnretainedValue()
    }
}
