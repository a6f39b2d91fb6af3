// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import Dispatch

#if canImport(Darwin)
import Darwin
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
    /// - Guarantee: no false positives: `true` means the main queue, or a queue that targets it, is running the caller,
    ///   so nothing else on the main queue runs until the caller returns. Code on the main thread inside a `sync` on
    ///   another queue answers `false`: the queue running it is that other queue.
    /// - Cost: a thread-local read and a comparison (a few nanoseconds) when the answer is yes; a queue-specific look-up
    ///   (tens of nanoseconds) more when it is no. No system call, unlike `Thread.isMainThread`.
    /// - Thread-safety: may be called from any thread.
    @inlinable
    public static var isMainQueueCurrent: Bool {
        MainQueueIdentity.isCurrentQueue() || MainQueueIdentity.isMarkedQueueCurrent()
    }
}

/// Answers "is the main queue running the caller?" cheaply.
///
/// libdispatch keeps the queue a thread is running in a thread-local, and exports a reader for it
/// (`dispatch_get_current_queue`, deprecated as an API for deciding *where* to run, but exact for *identity*), and the
/// main queue is the exported object `_dispatch_main_q`. Comparing the two is a thread-local read; both are looked up
/// once with `dlsym` because Swift's Dispatch module hides them. When either is missing, or the caller runs on a queue
/// that targets the main queue, the queue-specific marker on the main queue decides.
@usableFromInline
enum MainQueueIdentity {
    private typealias CurrentQueueFunction = @convention(c) () -> UnsafeMutableRawPointer?

    /// libdispatch's current-queue reader and the main queue's address.
    private struct Lookups: @unchecked Sendable {
        // Unchecked: an immutable C function pointer and an address, both constant for the life of the process.
        let currentQueue: CurrentQueueFunction
        let mainQueue: UnsafeMutableRawPointer
    }

    /// `nil` when either symbol cannot be found; the marker then answers alone.
    private static let lookups: Lookups? = {
        guard let reader = lookUp("dispatch_get_current_queue"), let mainQueue = lookUp("_dispatch_main_q") else {
            return nil
        }
        return Lookups(currentQueue: unsafeBitCast(reader, to: CurrentQueueFunction.self), mainQueue: mainQueue)
    }()

    private static func lookUp(_ symbol: String) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol)  // RTLD_DEFAULT
        #else
        return dlsym(nil, symbol)  // RTLD_DEFAULT
        #endif
    }

    /// Whether the queue this thread is running right now is the main queue.
    ///
    /// Declared read-only so that the optimizer may keep a caller's closure unretained across the call: it reads a
    /// thread-local and two constants set once.
    @usableFromInline @_effects(readonly)
    static func isCurrentQueue() -> Bool {
        guard let lookups else { return false }
        return lookups.currentQueue() == lookups.mainQueue
    }

    private static let marker = DispatchSpecificKey<UInt8>()
    private static let markerInstalled: Bool = {
        DispatchQueue.main.setSpecific(key: marker, value: 1)
        return true
    }()

    /// The slow, general answer: the main queue's queue-specific marker, found through the current queue's targets.
    @usableFromInline @inline(never)
    static func isMarkedQueueCurrent() -> Bool {
        _ = markerInstalled
        return DispatchQueue.getSpecific(key: marker) != nil
    }
}
