// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch
import ExecDispatch

// Submitting to the shared queues through `dispatch_async_f`. `DispatchQueue.async(execute:)` takes a block; given a
// closure *value* (not a literal), Swift builds a block whose invoke function is a reabstraction thunk, and the block
// copy retains the closure's context, which the dispose helper releases later. Here the closure goes into a one-field
// box (one allocation, as the block copy was) whose pointer libdispatch hands back to a C function.

/// The raw libdispatch queues behind ExecKit's shared contexts: the main queue and the global queues by QoS.
///
/// `nonisolated(unsafe)`: the pointers are immutable, and the queue objects they name live as long as the process and
/// are thread-safe. The identifiers are the QoS classes' values (`QOS_CLASS_UTILITY` is 0x11 and so on).
enum RawQueues {
    static var main: UnsafeRawPointer { execkit_main_queue() }
    nonisolated(unsafe) static let userInteractive = execkit_dispatch_get_global_queue(0x21, 0)!
    nonisolated(unsafe) static let userInitiated = execkit_dispatch_get_global_queue(0x19, 0)!
    nonisolated(unsafe) static let `default` = execkit_dispatch_get_global_queue(0x15, 0)!
    nonisolated(unsafe) static let utility = execkit_dispatch_get_global_queue(0x11, 0)!
    nonisolated(unsafe) static let background = execkit_dispatch_get_global_queue(0x09, 0)!
}

/// A closure on its way through libdispatch: the context pointer that `dispatch_async_f` hands back.
private final class SubmittedWork {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Runs `body` asynchronously on `queue` (one of ``RawQueues``), like `DispatchQueue.async`, with one allocation.
///
/// - Ordering and QoS: as `dispatch_async`, which `DispatchQueue.async` calls.
func submit(_ body: @escaping @Sendable () -> Void, to queue: UnsafeRawPointer) {
    let context = Unmanaged.passRetained(SubmittedWork(body)).toOpaque()
    execkit_dispatch_async_f(queue, context, runSubmittedWork)
}

/// The C function libdispatch calls: runs the work, then releases it (and what its closure captured).
private func runSubmittedWork(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<SubmittedWork>.fromOpaque(context).takeRetainedValue().body()
}

/// Runs `body` asynchronously on `queue` (a `dispatch_queue_t`: the main queue, or a private serial queue), recorded in
/// ``EnteredContexts`` as inside that queue: a block that enters a queue this way and then waits on another queue's
/// `sync` still counts as inside it, as one that entered through `invokeSync` does.
///
/// - Ordering and QoS: as `dispatch_async`. Cost: one allocation, as ``submit(_:to:)``; the record is a thread-local
///   load and two stores.
func submit(_ body: @escaping @Sendable () -> Void, enteringQueue queue: UnsafeRawPointer) {
    let context = Unmanaged.passRetained(SubmittedEntry(body, key: EnteredContexts.Key(raw: queue))).toOpaque()
    execkit_dispatch_async_f(queue, context, runSubmittedEntry)
}

/// Runs `body` asynchronously on `queue`, recorded as inside it; see ``submit(_:enteringQueue:)``.
func submit(_ body: @escaping @Sendable () -> Void, entering queue: DispatchQueue) {
    guard let rawQueue = RawQueueIdentity.queuePointer(of: queue) else {
        return queue.async { EnteredContexts.entering(queue, body) }
    }
    submit(body, enteringQueue: rawQueue)
}

/// A closure on its way through libdispatch, with the key of the queue it enters.
private final class SubmittedEntry {
    let body: @Sendable () -> Void
    let key: EnteredContexts.Key
    init(_ body: @escaping @Sendable () -> Void, key: EnteredContexts.Key) {
        self.body = body
        self.key = key
    }
}

/// The C function libdispatch calls for ``submit(_:enteringQueue:)``, on the queue, which libdispatch keeps alive
/// until this returns.
private func runSubmittedEntry(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    let work = Unmanaged<SubmittedEntry>.fromOpaque(context).takeRetainedValue()
    EnteredContexts.entering(work.key, work.body)
}

/// Runs `body` on `queue` with `queue` recorded in ``EnteredContexts``, and waits for it: `DispatchQueue.sync` without
/// the block. The closure and the queue's key travel in a frame of this function, whose address libdispatch
/// hands back to a C function, so no block is copied and the queue is not retained (the caller's reference keeps it
/// alive until the wait returns); the one allocation is the context that `withoutActuallyEscaping` builds to
/// check, when this returns, that `body` did not escape.
///
/// - Ordering: as `dispatch_sync`, which `DispatchQueue.sync` calls (on a serial queue: after every block submitted
///   before it, and exclusively). On a `DispatchWorkloop` (Apple platforms), whose `dispatch_sync` crashes inside
///   libdispatch, the wait is `dispatch_async_and_wait`, which a workloop accepts and which orders the same way.
func syncRecordingEntry(on queue: DispatchQueue, _ body: () -> Void) {
    syncRecordingEntry(on: queue, waitingWith: QueueWait.accepted(by: queue), body)
}

/// ``syncRecordingEntry(on:_:)`` with the libdispatch wait chosen by the caller (tests reach the workloop's wait
/// on Linux through this).
package func syncRecordingEntry(on queue: DispatchQueue, waitingWith wait: QueueWait, _ body: () -> Void) {
    // The caller's record, which the block continues: the caller waits until it has run, so its entries stay valid,
    // and the block may run on another thread (the main queue's, for one).
    let callerRecord = EnteredContexts.currentRecord
    guard let rawQueue = RawQueueIdentity.queuePointer(of: queue) else {
        // Only where ExecKit could not find libdispatch's queues (a line on standard error said so at the start);
        // Swift's Linux overlay has no `asyncAndWait`, and Linux has no workloops to need it.
        precondition(wait == .sync, "ExecKit: a DispatchWorkloop needs dispatch_async_and_wait, which needs its queue")
        return queue.sync { EnteredContexts.entering(EnteredContexts.Key(queue), after: callerRecord, body) }
    }
    // libdispatch calls the function before the wait returns, so `body` never outlives this call.
    withoutActuallyEscaping(body) { body in
        var work = SyncWork(key: EnteredContexts.Key(raw: rawQueue), callerRecord: callerRecord, body: body)
        withUnsafeMutablePointer(to: &work) {
            switch wait {
            case .sync: execkit_dispatch_sync_f(rawQueue, $0, runSyncWork)
            case .asyncAndWait: execkit_dispatch_async_and_wait_f(rawQueue, $0, runSyncWork)
            }
        }
    }
}

/// How ExecKit waits for a block on a queue.
package enum QueueWait: Sendable {
    /// `dispatch_sync`: the wait for every queue but a workloop.
    case sync
    /// `dispatch_async_and_wait`: the wait a `DispatchWorkloop` accepts.
    case asyncAndWait

    /// The wait `queue` accepts: `asyncAndWait` for a `DispatchWorkloop` (Apple platforms only; a queue that merely
    /// targets a workloop accepts `sync`), `sync` for every other queue.
    ///
    /// - Cost: nothing on Linux; a class check on Apple platforms.
    @inline(__always)
    package static func accepted(by queue: DispatchQueue) -> QueueWait {
        #if canImport(Darwin)
        return queue is DispatchWorkloop ? .asyncAndWait : .sync
        #else
        return .sync
        #endif
    }
}

/// What ``syncRecordingEntry(on:_:)`` hands libdispatch.
private struct SyncWork {
    /// The queue's key, not the queue: the caller holds the queue, and a reference here would be retained.
    let key: EnteredContexts.Key
    /// The entered-queue record of the thread that waits for the block.
    let callerRecord: EnteredContexts.Record
    let body: () -> Void
}

/// The C function libdispatch calls for ``syncRecordingEntry(on:_:)``, on the queue.
private func runSyncWork(_ context: UnsafeMutableRawPointer?) {
    guard let work = context?.assumingMemoryBound(to: SyncWork.self) else { return }
    EnteredContexts.entering(work.pointee.key, after: work.pointee.callerRecord, work.pointee.body)
}
