// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch
import ExecDispatch

/// The `TaskExecutor` of a Dispatch queue: the main queue, a global queue, or a private queue (whose jobs are then
/// recorded as inside it, so re-entry is judged right inside them).
///
/// - Cost: on the main and global queues (``SharedExecutors``), no allocation per job: the job's own address is the
///   context pointer of `dispatch_async_f`, and a C function per shared executor knows the executor. On a private
///   queue, one allocation per job, a two-word box that carries the job and its executor (one per `taskExecutor`
///   access, which a C function cannot name), where a closure handed to `queue.async` would be a closure context and a
///   block (the fallback when ``RawQueueIdentity`` cannot find the queue's `dispatch_queue_t`).
/// - Priority: a job's own priority is not passed on: `dispatch_async_f` takes no QoS, and a block carrying one would
///   cost an allocation per job. The job runs at the QoS libdispatch gives the submission: a global queue's, a private
///   queue's own, or where it has none, on Apple platforms, the submitting thread's. (On Linux, QoS classes choose a
///   pool of workers, not the threads' scheduling priority.)
/// - Lifetime: a task keeps its executor, and the executor keeps the queue, so a task on `Exec.asyncQueue()` needs no
///   other reference to its context. Each box keeps the executor until its job has run.
final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue
    /// The queue's `dispatch_queue_t`, or `nil` where ``RawQueueIdentity`` cannot find it (jobs then go through
    /// `queue.async`). `nonisolated(unsafe)`: immutable, and it names a thread-safe libdispatch object.
    nonisolated(unsafe) private let rawQueue: UnsafeRawPointer?
    /// The queue's key in the entered-queue record, for a private queue; `nil` for the main and global queues.
    private let entryKey: EnteredContexts.Key?
    /// The main actor's executor when `queue` is the main queue, whose isolation every job here holds; `nil` for
    /// other queues. See ``ExecutorJobs/run(_:on:isolatedTo:)``.
    private let isolation: UnownedSerialExecutor?
    /// For an executor that lives as long as the process (``SharedExecutors``): the C function that runs a job handed
    /// to `dispatch_async_f` as its own context pointer, and knows this executor without being told. Jobs then need no
    /// box. `nil` for a private queue's executor, which a box carries to its jobs.
    private let runsJobItself: execkit_dispatch_function_t?

    /// - Parameters:
    ///   - recordsEntry: Whether jobs run recorded as inside `queue` (for private queues).
    ///   - runsJobItself: For a shared executor only: a C function that runs the job whose address it is given on
    ///     this executor (through ``runJob(at:)``).
    init(queue: DispatchQueue, recordsEntry: Bool, runsJobItself: execkit_dispatch_function_t? = nil) {
        self.queue = queue
        rawQueue = RawQueueIdentity.queuePointer(of: queue)
        entryKey = recordsEntry ? EnteredContexts.Key(queue) : nil
        isolation = EnteredContexts.Key(queue) == EnteredContexts.mainQueueKey ? MainActor.sharedUnownedExecutor : nil
        self.runsJobItself = runsJobItself
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // An ExecutorJob cannot be captured (it is ~Copyable); its unowned form can.
        let job = UnownedJob(job)
        guard let rawQueue else {
            return queue.async { self.run(job) }
        }
        if let runsJobItself {
            // The job is a runtime object that stays allocated until it has run: its address is the context.
            return execkit_dispatch_async_f(
                rawQueue, unsafeBitCast(job, to: UnsafeMutableRawPointer.self), runsJobItself)
        }
        let box = Unmanaged.passRetained(QueuedTaskJob(job: job, executor: self)).toOpaque()
        execkit_dispatch_async_f(rawQueue, box, runQueuedTaskJob)
    }

    /// Runs the job at `address`, handed to `dispatch_async_f` by ``enqueue(_:)`` with no box; for the C functions of
    /// ``SharedExecutors``.
    func runJob(at address: UnsafeMutableRawPointer?) {
        guard let address else { return }
        run(unsafeBitCast(address, to: UnownedJob.self))
    }

    /// Runs `job` on this executor, on the queue.
    fileprivate func run(_ job: UnownedJob) {
        guard let entryKey else {
            return ExecutorJobs.run(job, on: asUnownedTaskExecutor(), isolatedTo: isolation)
        }
        EnteredContexts.entering(entryKey) { ExecutorJobs.run(job, on: asUnownedTaskExecutor(), isolatedTo: isolation) }
    }
}

/// A job on its way through libdispatch: the context pointer that `dispatch_async_f` hands back.
private final class QueuedTaskJob {
    let job: UnownedJob
    let executor: QueueTaskExecutor

    init(job: UnownedJob, executor: QueueTaskExecutor) {
        self.job = job
        self.executor = executor
    }
}

/// The C function libdispatch calls on the queue: runs the job, then frees its box.
private func runQueuedTaskJob(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    let queued = Unmanaged<QueuedTaskJob>.fromOpaque(context).takeRetainedValue()
    queued.executor.run(queued.job)
}
