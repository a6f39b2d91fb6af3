// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Hands a job to a context: always through its asynchronous path, so a job never runs inside the caller's frame.
package typealias JobSubmission = @Sendable (_ run: @escaping @Sendable () -> Void) -> Void

/// A `TaskExecutor` that runs each job in a context, through the context's asynchronous path.
///
/// - Cost: one closure allocation per job (it carries the job into the context), besides what the context's
///   `invokeAsync` costs.
/// - Priority: the context's `invokeAsync` takes none, so a job's priority is not passed on.
final class ContextTaskExecutor: TaskExecutor {
    private let submit: JobSubmission
    /// The serial executor whose isolation every job of this executor holds (the main actor's, for a context that runs
    /// its blocks on the main queue), or `nil`; see ``ExecutorJobs/run(_:on:isolatedTo:)``.
    private let isolation: UnownedSerialExecutor?

    init(isolatedTo isolation: UnownedSerialExecutor? = nil, submit: @escaping JobSubmission) {
        self.isolation = isolation
        self.submit = submit
    }

    /// A task executor for `context`, which it keeps alive.
    convenience init(context: some ExecutionContext) {
        self.init { run in context.invokeAsync(run) }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // An ExecutorJob cannot be captured (it is ~Copyable); its unowned form can.
        let job = UnownedJob(job)
        submit { ExecutorJobs.run(job, on: self.asUnownedTaskExecutor(), isolatedTo: self.isolation) }
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
package final class ContextSerialExecutor: SerialExecutor {
    private let submit: JobSubmission
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
        submit { ExecutorJobs.run(job, isolatedTo: self.asUnownedSerialExecutor(), preferring: preference) }
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
