// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import Dispatch
import Synchronization

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
/// once with `dlsym` (by the first slow-path call) because Swift's Dispatch module hides them. Until then, when either
/// is missing, or when the caller runs on a queue that targets the main queue, the queue-specific marker on the main
/// queue decides.
@usableFromInline
enum MainQueueIdentity {
    private typealias CurrentQueueFunction = @convention(c) () -> UnsafeMutableRawPointer?

    /// The address of libdispatch's `dispatch_get_current_queue`, zero until the first slow-path call has looked it up
    /// (and for good when it cannot be found). A constant-initialised atomic, so reading it costs a plain load: no
    /// lazy-initialisation check on the fast path.
    private static let currentQueueReader = Atomic<UInt>(0)
    /// The address of the main queue object, `_dispatch_main_q`; published before `currentQueueReader`.
    private static let mainQueueAddress = Atomic<UInt>(0)

    /// Whether the queue this thread is running right now is the main queue; `false` until the look-ups are done.
    ///
    /// Declared read-only so that the optimizer may keep a caller's closure unretained across the call: it reads two
    /// words set once and libdispatch's thread-local current queue.
    @usableFromInline @_effects(readonly)
    static func isCurrentQueue() -> Bool {
        let reader = currentQueueReader.load(ordering: .acquiring)
        guard reader != 0 else { return false }
        let currentQueue = unsafeBitCast(reader, to: CurrentQueueFunction.self)()
        return UInt(bitPattern: currentQueue) == mainQueueAddress.load(ordering: .relaxed)
    }

    private static let marker = DispatchSpecificKey<UInt8>()
    private static let setUp: Bool = {
        DispatchQueue.main.setSpecific(key: marker, value: 1)
        let mainQueue = UInt(bitPattern: lookUp("_dispatch_main_q"))
        let reader = UInt(bitPattern: lookUp("dispatch_get_current_queue"))
        if mainQueue != 0 && reader != 0 {
            mainQueueAddress.store(mainQueue, ordering: .relaxed)
            currentQueueReader.store(reader, ordering: .releasing)
        }
        return true
    }()

    private static func lookUp(_ symbol: String) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol)  // RTLD_DEFAULT
        #else
        return dlsym(nil, symbol)  // RTLD_DEFAULT
        #endif
    }

    /// The slow, general answer: the main queue's queue-specific marker, found through the current queue's targets.
    /// The first call also does the look-ups that let ``isCurrentQueue()`` answer.
    @usableFromInline @inline(never)
    static func isMarkedQueueCurrent() -> Bool {
        _ = setUp
        return DispatchQueue.getSpecific(key: marker) != nil
    }
}
