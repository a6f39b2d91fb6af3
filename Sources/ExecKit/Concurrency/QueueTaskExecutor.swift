// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch
import ExecDispatch

/// The `TaskExecutor` of a Dispatch queue: the main queue, a global queue, or a private queue (whose jobs are then
/// recorded as inside it, so re-entry is judged right inside them).
///
/// - Cost: on the main and global queues (``SharedExecutors``), no allocation per job: the job's own address is the
///   context pointer of `dispatch_async_f`, and a C function per shared executor knows the executor. On a private
///   queue, one allocation per job, a small box (a ``QueuedWork``) that carries the job and its executor (one per
///   `taskExecutor` access, which a C function cannot name), where a closure handed to `queue.async` would be a
///   closure context and a block.
/// - Priority: a job's own priority is not passed on: `dispatch_async_f` takes no QoS, and a block carrying one would
///   cost an allocation per job. The job runs at the QoS libdispatch gives the submission: a global queue's, a private
///   queue's own, or where it has none, on Apple platforms, the submitting thread's. (On Linux, QoS classes choose a
///   pool of workers, not the threads' scheduling priority.)
/// - Lifetime: a task keeps its executor, and the executor keeps the queue, so a task on `Exec.asyncQueue()` needs no
///   other reference to its context. Each box keeps the executor until its job has run.
final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue
    /// The queue's `dispatch_queue_t`, for the shared executors' jobs, which need no box; `nil` where
    /// ``RawQueueIdentity`` cannot find it. `nonisolated(unsafe)`: immutable, and it names a thread-safe libdispatch
    /// object.
    nonisolated(unsafe) private let rawQueue: UnsafeRawPointer?
    /// The way onto a serial queue (the main queue, a private serial queue), which records every job as inside it;
    /// `nil` for a concurrent queue, whose blocks do not count as inside it either.
    fileprivate let entry: SerialQueueEntry?
    /// The main actor's executor when `queue` is the main queue, whose isolation every job here holds; `nil` for
    /// other queues. See ``ExecutorJobs/run(_:on:isolatedTo:)``.
    private let isolation: UnownedSerialExecutor?
    /// For an executor that lives as long as the process (``SharedExecutors``): the C function that runs a job handed
    /// to `dispatch_async_f` as its own context pointer, and knows this executor without being told. Jobs then need no
    /// box. `nil` for a private queue's executor, which a box carries to its jobs.
    private let runsJobItself: execkit_dispatch_function_t?

    /// The executor of `queue`, a serial queue: its jobs run recorded as inside the queue.
    ///
    /// - Parameter runsJobItself: For a shared executor only: a C function that runs the job whose address it is given
    ///   on this executor (through ``runJob(at:)``).
    init(serial queue: DispatchQueue, runsJobItself: execkit_dispatch_function_t? = nil) {
        self.queue = queue
        rawQueue = RawQueueIdentity.queuePointer(of: queue)
        entry = SerialQueueEntry(queue)
        isolation = Self.isolation(of: queue)
        self.runsJobItself = runsJobItself
    }

    /// The executor of `queue` used as a concurrent queue (a global queue, a private concurrent queue, or the main
    /// queue given a concurrent type): its jobs do not count as inside it, as its blocks do not (`isCurrent` of a
    /// global queue given as `.queue` answers `false` there too).
    ///
    /// - Parameter runsJobItself: As for ``init(serial:runsJobItself:)``.
    init(concurrent queue: DispatchQueue, runsJobItself: execkit_dispatch_function_t? = nil) {
        self.queue = queue
        rawQueue = RawQueueIdentity.queuePointer(of: queue)
        entry = nil
        isolation = Self.isolation(of: queue)
        self.runsJobItself = runsJobItself
    }

    /// The main actor's executor for the main queue, whatever type it was given; `nil` for every other queue.
    private static func isolation(of queue: DispatchQueue) -> UnownedSerialExecutor? {
        EnteredContexts.Key(queue) == EnteredContexts.mainQueueKey ? MainActor.sharedUnownedExecutor : nil
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // An ExecutorJob cannot be captured (it is ~Copyable); its unowned form can.
        let job = UnownedJob(job)
        if let runsJobItself, let rawQueue {
            // The job is a runtime object that stays allocated until it has run: its address is the context.
            return execkit_dispatch_async_f(
                rawQueue, unsafeBitCast(job, to: UnsafeMutableRawPointer.self), runsJobItself)
        }
        let queued = QueuedTaskJob(job: job, executor: self)
        if let entry { return entry.async(queued) }
        guard let rawQueue else { return queue.async { queued.runRecorded() } }
        queued.submit(to: rawQueue)
    }

    /// Runs the job at `address`, handed to `dispatch_async_f` by ``enqueue(_:)`` with no box; for the C functions of
    /// ``SharedExecutors``.
    func runJob(at address: UnsafeMutableRawPointer?) {
        guard let address else { return }
        let job = unsafeBitCast(address, to: UnownedJob.self)
        guard let entry else { return run(job) }
        entry.run { run(job) }
    }

    /// Runs `job` on this executor, on the queue (recorded as inside it, if serial, by the caller).
    fileprivate func run(_ job: UnownedJob) {
        ExecutorJobs.run(job, on: asUnownedTaskExecutor(), isolatedTo: isolation)
    }
}

/// A job on its way through libdispatch, recorded as inside the executor's queue when it runs, if that is serial.
private final class QueuedTaskJob: QueuedWork, @unchecked Sendable {
    private let job: UnownedJob
    private let executor: QueueTaskExecutor

    init(job: UnownedJob, executor: QueueTaskExecutor) {
        self.job = job
        self.executor = executor
        super.init(entering: executor.entry)
    }

    override func run() { executor.run(job) }
}
