// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Public because the inlined lock paths read its thread-local (see LockObserver); it declares nothing else.
public import CExecDispatchShims

#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#else
#error("PThreadMutex needs Darwin, Glibc or Musl.")
#endif

/// A POSIX mutex, for the cases where `Synchronization.Mutex` is too rigid: a lock that is recursive, that must be
/// taken and released in different scopes, or that is shared between several values.
///
/// Prefer ``sync(execute:)`` and ``trySync(execute:)``: they cannot leave the lock held. The `unbalanced…` methods
/// exist for patterns that cannot be scoped, and their names say what they risk.
///
/// - Thread-safety: every method may be called from any thread. <!-- G-thread-safety-any-thread -->
/// - Cost: an uncontended ``sync(execute:)`` is one `pthread_mutex_lock` and one `pthread_mutex_unlock`, and one
///   thread-local load and branch (whether ExecTesting's exploration watches this thread's locks); the closure is
///   inlined into the caller. <!-- G-mutex-sync-cost -->
public final class PThreadMutex: ScopedMutex {
    /// What happens when the thread that holds the lock asks for it again.
    public enum Kind: Sendable, Hashable {
        /// The fastest kind. Taking the lock again from the thread that holds it is a programming error: in debug
        /// builds it stops the program with a message (the mutex is created error-checking), in release builds it
        /// deadlocks. <!-- G-mutex-normal-debug-stops -->
        case normal
        /// The holding thread may take the lock again; it is released when every `sync` (or lock) has been balanced.
        /// <!-- G-mutex-recursive -->
        case recursive
        /// Like ``normal``, but a blocking lock (``sync(execute:)``, ``unbalancedLock()``) from the holding thread
        /// stops the program with a message instead of deadlocking, in every build; ``trySync(execute:)`` there returns
        /// `nil`. Slightly slower than ``normal``.
        /// <!-- G-mutex-errorchecking-stops G-mutex-errorchecking-trysync-nil -->
        case errorChecking
    }

    // Why a separate allocation: pthread_mutex_t must not move while in use, and Swift does not promise a stable
    // address for a stored property (`&storedProperty` may be a temporary and triggers exclusivity checks).
    // Allocating it once gives it a fixed address for the object's whole life.
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// The kind this mutex was created with.
    public let kind: Kind

    /// Creates an unlocked mutex.
    ///
    /// - Parameter type: What happens when the holding thread asks for the lock again; see ``Kind``.
    public convenience init(type: Kind = .normal) {
        self.init(type: type, observed: true)
    }

    /// Whether a ``LockObserver`` sees this mutex: `false` for the locks of ExecKit's own machinery, whose
    /// acquisitions are no point at which a test's blocks may interleave.
    @usableFromInline
    let isObserved: Bool

    /// Whether this mutex is one a ``LockObserver`` sees (``init(type:observed:)``); an observer installed with
    /// `seesEveryMutex` is told of the others too.
    @_spi(ExecTesting)
    public var observed: Bool { isObserved }

    /// Creates an unlocked mutex that a ``LockObserver`` sees (`observed`) or not: ExecKit's own code passes `false`.
    @_spi(ExecTesting)
    public init(type: Kind, observed: Bool) {
        isObserved = observed
        kind = type
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { Self.check(pthread_mutexattr_destroy(&attributes), "pthread_mutexattr_destroy") }
        Self.check(pthread_mutexattr_settype(&attributes, Self.posixType(type)), "pthread_mutexattr_settype")
        Self.check(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
    }

    deinit {
        Self.check(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        mutex.deallocate()
    }

    /// Runs `work` while holding the lock, blocking until the lock is available.
    ///
    /// - Returns: The value `work` returns.
    /// - Throws: Rethrows what `work` throws; the lock is released either way. <!-- G-mutex-sync-rethrow-unlocks -->
    @inlinable @inline(__always)
    public func sync<R>(execute work: () throws -> R) rethrows -> R {
        // One look at the thread's lock observer for the pair: a thread's observer stays while it holds a lock. (The
        // mutex's own flag is read only on a thread that has an observer.)
        if _slowPath(observes) { return try observedSync(execute: work) }
        lockUnobserved()
        defer { unlockUnobserved() }
        return try work()
    }

    /// Runs `work` while holding the lock if it can be taken without waiting.
    ///
    /// - Returns: The value `work` returns, or `nil` (without running `work`) when another thread holds the lock.
    ///   <!-- G-mutex-try-fails-when-held -->
    /// - Throws: Rethrows what `work` throws; the lock is released either way. <!-- G-mutex-trysync-rethrow-unlocks -->
    @inlinable
    public func trySync<R>(execute work: () throws -> R) rethrows -> R? {
        if _slowPath(observes) { return try observedTrySync(execute: work) }
        let result = pthread_mutex_trylock(mutex)
        if result != 0 {
            if _fastPath(result == EBUSY) { return nil }
            PThreadMutex.lockFailed(result, "pthread_mutex_trylock")
        }
        defer { unlockUnobserved() }
        return try work()
    }

    /// Takes the lock, blocking until it is available. Every call must be balanced by ``unbalancedUnlock()`` on the
    /// same thread.
    @inlinable @inline(__always)
    public func unbalancedLock() {
        // The failure paths here name `PThreadMutex`, not `Self`: Swift 6.3 does not inline a method that uses the
        // dynamic `Self` type where the receiver is a stored property or a local, which had made every `sync` an
        // outlined `defer` and every lock in ExecKit's timer engine a call (callgrind: `sync` 81 → 70 instructions).
        if _slowPath(observes) { return observedLock() }
        lockUnobserved()
    }

    /// Takes the lock if it is free.
    ///
    /// - Returns: `true` when the lock was taken (balance it with ``unbalancedUnlock()``), `false` when another thread
    ///   holds it. <!-- G-mutex-try-fails-when-held -->
    @inlinable
    public func unbalancedTryLock() -> Bool {
        if _slowPath(observes) { return observedTryLock() }
        let result = pthread_mutex_trylock(mutex)
        if result == 0 { return true }
        if _fastPath(result == EBUSY) { return false }
        PThreadMutex.lockFailed(result, "pthread_mutex_trylock")
    }

    /// Releases a lock taken with ``unbalancedLock()`` or ``unbalancedTryLock()`` on this thread.
    @inlinable @inline(__always)
    public func unbalancedUnlock() {
        unlockUnobserved()
        if _slowPath(observes) { observedUnlock() }
    }

    @inlinable @inline(__always)
    func lockUnobserved() {
        let result = pthread_mutex_lock(mutex)
        if _slowPath(result != 0) { PThreadMutex.lockFailed(result, "pthread_mutex_lock") }
    }

    /// Whether the calling thread's lock observer sees this mutex: one that sees every mutex (its pointer is tagged), or
    /// one that sees the observed ones and this is one. False at once on a thread with no observer.
    @inlinable @inline(__always)
    var observes: Bool {
        let raw = UInt(bitPattern: execkit_current_lock_observer())
        return raw != 0 && (isObserved || raw & 1 != 0)
    }

    @inlinable @inline(__always)
    func unlockUnobserved() {
        let result = pthread_mutex_unlock(mutex)
        if _slowPath(result != 0) { PThreadMutex.lockFailed(result, "pthread_mutex_unlock") }
    }

    // The observed paths (a thread of ExecTesting's exploration; see LockObserver): out of line, so that the inlined
    // fast paths are only a thread-local load and a branch longer.

    @inlinable @inline(never)
    func observedSync<R>(execute work: () throws -> R) rethrows -> R {
        observedLock()
        defer {
            unlockUnobserved()
            observedUnlock()
        }
        return try work()
    }

    @inlinable @inline(never)
    func observedTrySync<R>(execute work: () throws -> R) rethrows -> R? {
        guard observedTryLock() else { return nil }
        defer {
            unlockUnobserved()
            observedUnlock()
        }
        return try work()
    }

    @usableFromInline @inline(never)
    func observedLock() {
        let observer = LockObserver.current
        observer?.willLock(self, blocking: true)
        let result = pthread_mutex_lock(mutex)
        if result != 0 { PThreadMutex.lockFailed(result, "pthread_mutex_lock") }
        observer?.didLock(self)
    }

    @usableFromInline @inline(never)
    func observedTryLock() -> Bool {
        let observer = LockObserver.current
        observer?.willLock(self, blocking: false)
        let result = pthread_mutex_trylock(mutex)
        if result == 0 {
            observer?.didLock(self)
            return true
        }
        if result == EBUSY { return false }
        PThreadMutex.lockFailed(result, "pthread_mutex_trylock")
    }

    @usableFromInline @inline(never)
    func observedUnlock() {
        LockObserver.current?.didUnlock(self)
    }

    @usableFromInline
    static func lockFailed(_ result: Int32, _ call: StaticString) -> Never {
        switch result {
        case EDEADLK:
            fatalError(
                "ExecMutex: \(call) failed with EDEADLK: this thread already holds the non-recursive mutex, "
                    + "so waiting for it would deadlock. Use PThreadMutex(type: .recursive) or restructure the code.")
        case EPERM:
            fatalError("ExecMutex: \(call) failed with EPERM: this thread does not hold the mutex it is unlocking.")
        default:
            fatalError("ExecMutex: \(call) failed with error \(result).")
        }
    }

    private static func check(_ result: Int32, _ call: StaticString) {
        if result != 0 { lockFailed(result, call) }
    }

    private static func posixType(_ kind: Kind) -> Int32 {
        switch kind {
        case .recursive:
            return Int32(PTHREAD_MUTEX_RECURSIVE)
        case .errorChecking:
            return Int32(PTHREAD_MUTEX_ERRORCHECK)
        case .normal:
            #if DEBUG
            return Int32(PTHREAD_MUTEX_ERRORCHECK)
            #else
            return Int32(PTHREAD_MUTEX_NORMAL)
            #endif
        }
    }
}

// The mutex is only reached through pthread calls, which are thread-safe; `kind` is immutable.
extension PThreadMutex: @unchecked Sendable {}
