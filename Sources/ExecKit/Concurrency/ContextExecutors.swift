// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
@_spi(ExecTesting) import ExecMutex

/// Hands a job to a context: always through its asynchronous path, so a job never runs inside the caller's frame.
package typealias JobSubmission = @Sendable (_ run: @escaping @Sendable () -> Void) -> Void

/// A `TaskExecutor` that runs each job in a context, through the context's asynchronous path.
///
/// - Dropped jobs: a job the context lets go of without running it (a `TestCoordinator` discarding its work, or gone)
///   goes to Swift's global executor instead, so that its task still finishes.
/// - Cost: two allocations per job (a ``DropAwareBlock`` and the closure that carries it into the context), besides
///   what the context's `invokeAsync` costs.
/// - Priority: the context's `invokeAsync` takes none, so a job's priority is not passed on.
final class ContextTaskExecutor: TaskExecutor {
    private let submit: JobSubmission
    /// Runs a block in the context and waits for it, from a thread of its own: for a job that the context's
    /// asynchronous path would have run inside `enqueue` (an immediate context, a mutex around one); `nil` where that
    /// path never runs a block at once.
    private let submitWaiting: JobSubmission?
    /// The serial executor whose isolation every job of this executor holds (the main actor's, for a context that runs
    /// its blocks on the main queue), or `nil`; see ``ExecutorJobs/run(_:on:isolatedTo:)``.
    private let isolation: UnownedSerialExecutor?

    init(
        isolatedTo isolation: UnownedSerialExecutor? = nil, submitWaiting: JobSubmission? = nil,
        submit: @escaping JobSubmission
    ) {
        self.isolation = isolation
        self.submitWaiting = submitWaiting
        self.submit = submit
    }

    /// A task executor for `context`, which it keeps alive.
    convenience init(context: some ExecutionContext) {
        self.init(submitWaiting: { run in context.invokeAndWait(run) }) { run in context.invokeAsync(run) }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // An ExecutorJob cannot be captured (it is ~Copyable); its unowned form can.
        let job = UnownedJob(job)
        let block = DropAwareBlock {
            ExecutorJobs.run(job, on: self.asUnownedTaskExecutor(), isolatedTo: self.isolation)
        } whenDropped: {
            globalConcurrentExecutor.enqueue(job)
        }
        // Never inside `enqueue`: a context that would run the job at once gets it from a global thread instead.
        block.submit(through: submit) { block in
            let submitWaiting = self.submitWaiting
            DispatchQueue.global().async {
                if let submitWaiting { submitWaiting { block.run() } } else { block.run() }
            }
        }
    }
}

/// A `SerialExecutor` that runs each job in a serial context, through the context's asynchronous path, and answers
/// isolation checks with the context's `isCurrent`.
///
/// Whoever hands out its `UnownedSerialExecutor` must keep it alive for as long as an actor may use it: the context
/// object that owns it. (A private queue's executor is ``QueueSerialExecutor``, which the queue keeps.) ExecTesting's
/// simulated queues use it too, with the coordinator's scheduling as `submit`.
///
/// - Priority: the context's `invokeAsync` takes none, so a job's priority is not passed on.
/// - Dropped jobs: a job the context lets go of without running it (a `TestCoordinator` discarding its work, or gone)
///   runs on a private serial queue of this executor's instead, one at a time with the others dropped, so that its task
///   still finishes; it is not isolated from work the context runs later.
/// - Cost: two allocations per job (a ``DropAwareBlock`` and the closure that carries it into the context).
package final class ContextSerialExecutor: SerialExecutor {
    private let submit: JobSubmission
    /// The queue behind ``elsewhere``, made on first use.
    private let elsewhereQueue = LockedBox<DispatchQueue?>(nil, observed: false)
    private let isCurrent: @Sendable () -> Bool
    /// How the context is named in a failed isolation check.
    private let name: @Sendable () -> String

    package init(
        submit: @escaping JobSubmission, isCurrent: @escaping @Sendable () -> Bool,
        name: @escaping @Sendable () -> String
    ) {
        self.submit = submit
        self.isCurrent = isCurrent
        self.name = name
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let preference = ExecutorJobs.preference(of: job)
        let runJob: @Sendable () -> Void = {
            ExecutorJobs.run(job, isolatedTo: self.asUnownedSerialExecutor(), preferring: preference)
        }
        let block = DropAwareBlock(runJob) { self.elsewhere.async(execute: runJob) }
        // Never inside `enqueue`: a context that would run the job at once gets it from this executor's own serial
        // queue instead (in order, one at a time).
        block.submit(through: submit) { block in self.elsewhere.async { block.run() } }
    }

    /// The queue where jobs that the context dropped, or would have run inside `enqueue`, run instead.
    private var elsewhere: DispatchQueue {
        elsewhereQueue.withLock { queue in
            if let queue { return queue }
            let made = DispatchQueue(label: "ExecKit.ContextSerialExecutor.elsewhere")
            queue = made
            return made
        }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Called by `assumeIsolated` and `preconditionIsolated` when the runtime cannot tell by itself, for example in a
    /// callback that the context ran outside any task.
    package func checkIsolated() {
        if !isCurrent() {
            fatalError(
                "ExecKit: code that expected to be isolated to an actor whose executor is \(name()) is not running "
                    + "in that context.")
        }
    }

    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    package func isIsolatingCurrentContext() -> Bool? {
        isCurrent()
    }
}
