// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import Dispatch
import Synchronization

#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension DispatchQueue {
    /// Whether the calling code runs on the main queue (and so is isolated to `MainActor`).
    ///
    /// "On the main queue" is not "on thread 1": a process that called `dispatchMain()`, an async `@main` after its
    /// first suspension and every Swift Testing test drain the main queue on a worker thread. This test is right in
    /// all of those cases.
    ///
    /// - Guarantee: no false positives. `true` means nothing else on the main queue can run until the caller returns.
    ///   On the main thread inside a `sync` on another queue it answers `true`: the main queue is bound to that
    ///   thread and cannot run anything else meanwhile.
    /// - Cost: on the main thread, a thread-identity comparison (a few nanoseconds); elsewhere a queue-specific
    ///   look-up (tens of nanoseconds). Unlike `Thread.isMainThread` it makes no system call after the first.
    /// - Thread-safety: may be called from any thread.
    @inlinable
    public static var isMainQueueCurrent: Bool {
        MainQueueIdentity.isCurrent()
    }
}

/// Answers "is the main queue running the caller?" cheaply.
///
/// While the process's initial thread lives, the main queue runs only on it, so comparing `pthread_self()` with that
/// thread settles the common case. Once the initial thread has called `dispatchMain()` it exits, its identity is
/// never handed out again, and the main queue runs on workers: then the queue-specific marker decides.
@usableFromInline
enum MainQueueIdentity {
    /// The initial thread's `pthread_t` once seen on the main queue; `unknown` before, `gone` when the main queue was
    /// first seen on another thread (so the initial thread has exited).
    private static let initialThread = Atomic<UInt>(0)
    private static let unknown: UInt = 0
    private static let gone: UInt = .max

    private static let marker = DispatchSpecificKey<UInt8>()
    private static let markerInstalled: Bool = {
        DispatchQueue.main.setSpecific(key: marker, value: 1)
        return true
    }()

    @inlinable
    static func isCurrent() -> Bool {
        #if canImport(Darwin)
        if pthread_main_np() != 0 { return true }
        return isMarkedQueueCurrent()
        #else
        let me = ThreadIdentity.current
        let known = knownInitialThread()
        if me == known { return true }  // fast path: the initial thread owns the main queue while it lives
        return slowIsCurrent(me: me, known: known)
        #endif
    }

    #if !canImport(Darwin)
    /// Declared read-only so that the optimizer may keep a caller's closure unretained across the call. The value
    /// only ever changes once, from `unknown`, and a stale `unknown` merely takes the slow path.
    @usableFromInline @_effects(readonly)
    static func knownInitialThread() -> UInt {
        initialThread.load(ordering: .relaxed)
    }

    @usableFromInline @inline(never)
    static func slowIsCurrent(me: UInt, known: UInt) -> Bool {
        guard isMarkedQueueCurrent() else { return false }
        if known == unknown {
            initialThread.store(isInitialThread() ? me : gone, ordering: .relaxed)
        }
        return true
    }

    /// `gettid() == getpid()`, looked up dynamically because Swift's Glibc module does not export `gettid`.
    private static func isInitialThread() -> Bool {
        typealias GetTID = @convention(c) () -> pid_t
        guard let symbol = dlsym(nil, "gettid") else { return false }
        return unsafeBitCast(symbol, to: GetTID.self)() == getpid()
    }
    #endif

    @usableFromInline
    static func isMarkedQueueCurrent() -> Bool {
        _ = markerInstalled
        return DispatchQueue.getSpecific(key: marker) != nil
    }
}
