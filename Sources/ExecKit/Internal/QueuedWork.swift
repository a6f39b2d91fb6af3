// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims

/// Work on its way through libdispatch's `dispatch_async_f`: the one box ExecKit hands libdispatch as a context
/// pointer, and the one C function libdispatch calls back with it.
///
/// A subclass carries what its work needs (a closure, an executor job, a timer engine) and overrides ``run()``.
/// Whether the work runs recorded as inside a serial queue is fixed when the box is made, by the queue's
/// ``SerialQueueEntry`` (``EnteredContexts``), and carried out here, in one place, for every kind of work.
///
/// - Cost: one allocation per box where a closure handed to `queue.async` costs a closure context and a block; a
///   box that lives on (a timer engine) is retained per submission instead. Running it is one indirect call.
class QueuedWork: @unchecked Sendable {
    // Unchecked: a box is immutable once made, and a one-off box runs on one thread; a box submitted many times at
    // once (a timer engine) guards its own state (the engine, with its lock).

    /// The serial queue this work runs inside, or `nil` for work on a concurrent queue.
    let entered: EnteredContexts.Key?

    init(entering entry: SerialQueueEntry?) { entered = entry?.key }

    /// Runs the work, on the queue. Every subclass overrides this.
    func run() { preconditionFailure("ExecKit: QueuedWork.run() is not overridden") }

    /// Queues this work on `queue` (a `dispatch_queue_t`), retained until it has run.
    ///
    /// - Ordering and QoS: as `dispatch_async`, which `DispatchQueue.async` calls.
    final func submit(to queue: UnsafeRawPointer) {
        execkit_dispatch_async_f(queue, Unmanaged.passRetained(self).toOpaque(), runQueuedWork)
    }

    /// Runs the work recorded as inside its queue, if it has one; for the C function and for fallbacks that submit
    /// through `DispatchQueue.async`.
    final func runRecorded() {
        guard let entered else { return run() }
        EnteredContexts.entering(entered) { run() }
    }
}

/// The C function libdispatch calls with a ``QueuedWork``, on its queue (which libdispatch keeps alive until this
/// returns): runs the work, then releases the submission's retain (and, for a one-off box, what it carries).
private func runQueuedWork(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<QueuedWork>.fromOpaque(context).takeRetainedValue().runRecorded()
}

/// A closure on its way through libdispatch.
final class QueuedBlock: QueuedWork, @unchecked Sendable {
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void, entering entry: SerialQueueEntry?) {
        self.body = body
        super.init(entering: entry)
    }

    override func run() { body() }
}
