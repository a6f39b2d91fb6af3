// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Public: `isMainQueueCurrent` is inlined into callers, and its fast path is a static inline C function.
public import CExecDispatchShims
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
    /// all of those cases. <!-- G-dispatch-main-not-thread-one -->
    ///
    /// - Guarantee: no false positives: `true` means the main queue, or a queue that targets it, is running the caller,
    ///   so nothing else on the main queue runs until the caller returns. Code on the main thread inside a `sync` on
    ///   another queue answers `false`: the queue running it is that other queue.
    ///   <!-- G-dispatch-main-no-false-positives -->
    /// - Cost: a thread-local read and a comparison (a few nanoseconds) when the answer is yes; a queue-specific look-up
    ///   (tens of nanoseconds) more when it is no. No system call, unlike `Thread.isMainThread`.
    ///   <!-- G-dispatch-main-cost -->
    /// - Thread-safety: may be called from any thread. <!-- G-dispatch-identity-any-thread -->
    @inlinable
    public static var isMainQueueCurrent: Bool {
        MainQueueIdentity.isCurrentQueue() || MainQueueIdentity.isMarkedQueueCurrent()
    }
}

/// Answers "is the main queue running the caller?" cheaply.
///
/// libdispatch keeps the queue a thread is running in a thread-local, and exports a reader for it
/// (`dispatch_get_current_queue`, deprecated as an API for deciding *where* to run, but exact for *identity*), and the
/// main queue is the exported object `_dispatch_main_q`. Comparing the two is a thread-local read. Both are linked
/// directly through the `CExecDispatchShims` target, so the same code works in statically linked binaries (where
/// `dlsym` would find neither).
///
/// The fast path is validated once, by the first slow-path call, against the queue-specific marker: a private queue's
/// `sync` must read as that queue (not the main queue, and not another queue), and the reader may only name the main
/// queue where the marker is visible. Until then, or for good if validation fails (with one line on standard error),
/// the marker decides; so does it when the caller runs on a queue that targets the main queue.
@usableFromInline
package enum MainQueueIdentity {
    /// Whether the queue this thread is running right now is the main queue; `false` until the fast path is validated.
    ///
    /// Inlined, with the C function it calls, into every caller (so that the check costs the reader's call and two
    /// compares, callgrind in `Benchmarks/README.md`). The validation flag is a C global for the same reason: a
    /// relaxed load, no lazy-initialisation check.
    @inlinable @inline(__always)
    static func isCurrentQueue() -> Bool {
        execkit_is_main_queue_current()
    }

    /// Whether `isMainQueueCurrent` uses the fast path in this process; validates it first if that has not happened.
    package static var isFastPathActive: Bool {
        _ = setUp
        return execkit_main_queue_reader_is_validated()
    }

    private static let marker = DispatchSpecificKey<UInt8>()
    private static let setUp: Bool = {
        DispatchQueue.main.setSpecific(key: marker, value: 1)
        // Missing, the reader is no fault to report: the marker answers, a little slower.
        guard execkit_current_queue_reader_is_present() else { return true }
        if let problem = fastPathProblem() {
            let line =
                "ExecKit: the fast main-queue check is unavailable (\(problem)); DispatchQueue.isMainQueueCurrent and "
                + "Exec.main fall back to a slower queue-specific look-up.\n"
            StandardError.write(line)
        } else {
            execkit_set_main_queue_reader_validated()
        }
        return true
    }()

    /// Why the fast path cannot be trusted in this process, or `nil` when it can.
    private static func fastPathProblem() -> String? {
        let mainQueue = execkit_main_queue()
        let first = DispatchQueue(label: "ExecKit.validation.first")
        let second = DispatchQueue(label: "ExecKit.validation.second")
        let inFirst = first.sync { execkit_current_queue() }
        let inSecond = second.sync { execkit_current_queue() }
        if inFirst == nil || inSecond == nil { return "a private queue reads as no queue" }
        if inFirst == mainQueue || inSecond == mainQueue { return "a private queue reads as the main queue" }
        if inFirst == inSecond { return "two private queues read alike" }
        // Never a false positive: naming the main queue here must mean the main-queue marker is visible.
        if execkit_current_queue() == mainQueue && DispatchQueue.getSpecific(key: marker) == nil {
            return "the reader names the main queue outside it"
        }
        return nil
    }

    /// The slow, general answer: the main queue's queue-specific marker, found through the current queue's targets.
    /// The first call also validates the fast path that lets ``isCurrentQueue()`` answer.
    @usableFromInline @inline(never)
    static func isMarkedQueueCurrent() -> Bool {
        _ = setUp
        return DispatchQueue.getSpecific(key: marker) != nil
    }
}
