// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch
import ExecDispatch

/// The `SerialExecutor` of one private `DispatchQueue`: runs each job on the queue, recorded as inside it (so re-entry
/// is judged right inside the job), and answers isolation checks with the queue's `isCurrent`.
///
/// - Cost: one allocation per job, a small box (a ``QueuedWork``) that carries the job (and its task's preference)
///   through `dispatch_async_f`, where a closure handed to `queue.async` would be a closure context and a block.
///   Measured in `Benchmarks/README.md` (actor calls).
/// - Priority: a job's own priority is not passed on (`dispatch_async_f` takes none, and a block carrying one would
///   cost an allocation per job): it runs at the QoS libdispatch gives the submission, the queue's own, or where the
///   queue has none, on Apple platforms, the submitting thread's.
/// - Lifetime: the queue keeps this executor (``QueueExecutors`` is a queue-specific value), so the executor holds
///   the queue unowned. Whoever hands out its `UnownedSerialExecutor` must keep the queue alive for as long as an actor
///   may use it, as `Exec.unownedSerialExecutor` documents; a job can only be submitted through a live executor, and
///   so to a live queue. libdispatch keeps the `dispatch_queue_t` alive until the job has run, but not the Swift
///   `DispatchQueue` wrapper on Linux: a job may outlive it (an isolated `deinit` that drops the last reference), so
///   a job reads only the queue's key (its box enters the queue), and jobs go to the `dispatch_queue_t` (which
///   libdispatch keeps alive while a job is queued); the wrapper is read only in ``SerialQueueEntry``'s fallback,
///   while the job is submitted, and that block keeps it. The executor's own reference is `unowned`, not
///   `unowned(unsafe)`: on Linux that keeps the wrapper's memory from being reused while this executor lives; on Apple
///   platforms, where the `DispatchQueue` is the `dispatch_queue_t` itself, an Objective-C object, an unowned reference
///   traps if read after the queue is gone instead of reading freed memory.
final class QueueSerialExecutor: SerialExecutor {
    private unowned let queue: DispatchQueue
    /// The way onto the queue, which records every job as inside it.
    fileprivate let entry: SerialQueueEntry

    init(queue: DispatchQueue) {
        self.queue = queue
        entry = SerialQueueEntry(queue)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // An ExecutorJob cannot be captured (it is ~Copyable); its unowned form can.
        let job = UnownedJob(job)
        entry.async(QueuedJob(job: job, preference: ExecutorJobs.preference(of: job), executor: self))
    }

    /// Runs `job` on this executor; called on the queue, recorded as inside it. Must not read `queue`, whose wrapper
    /// may be gone (see the type's lifetime note).
    ///
    /// - Parameter preference: the task executor the job's task prefers, where ``ExecutorJobs`` knew it at `enqueue`.
    fileprivate func run(_ job: UnownedJob, preferring preference: UnownedTaskExecutor?) {
        ExecutorJobs.run(job, isolatedTo: asUnownedSerialExecutor(), preferring: preference)
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Called by `assumeIsolated` and `preconditionIsolated` when the runtime cannot tell by itself, for example in a
    /// callback that the queue ran outside any task. Runtimes that call ``isIsolatingCurrentContext()`` (Swift 6.2 on
    /// Linux, OS 26 on Apple platforms) call this only when that answers `nil`, which it never does here, and stop
    /// with their own message.
    ///
    /// Isolation means the queue's exclusion, as ``Exec/isCurrent`` answers it: a block that runs for a caller parked in
    /// a `sync` inside the queue passes, on whichever thread it runs.
    func checkIsolated() {
        if !Exec.isKnownInside(queue) {
            fatalError(
                "ExecKit: code that expected to be isolated to an actor whose executor is the DispatchQueue "
                    + "\"\(queue.label)\" is not running in that context.")
        }
    }

    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    func isIsolatingCurrentContext() -> Bool? {
        Exec.isKnownInside(queue)
    }
}

/// A job on its way through libdispatch, recorded as inside the executor's queue when it runs.
///
/// The executor is not retained: the queue keeps it, and libdispatch keeps the queue (its `dispatch_queue_t`, which
/// holds the executor as a queue-specific value) alive until its blocks have run.
private final class QueuedJob: QueuedWork, @unchecked Sendable {
    private let job: UnownedJob
    /// The task executor the job's task prefers, where known (see ``ExecutorJobs``).
    private let preference: UnownedTaskExecutor?
    unowned(unsafe) private let executor: QueueSerialExecutor

    init(job: UnownedJob, preference: UnownedTaskExecutor?, executor: QueueSerialExecutor) {
        self.job = job
        self.preference = preference
        self.executor = executor
        super.init(entering: executor.entry)
    }

    override func run() { executor.run(job, preferring: preference) }
}
