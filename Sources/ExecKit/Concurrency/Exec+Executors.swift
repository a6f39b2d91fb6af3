// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch

extension Exec {
    /// A `TaskExecutor` that runs a task's jobs in this context:
    /// `Task(executorPreference: Exec.utility.taskExecutor) { … }` runs the task on the utility queue, before and after
    /// every suspension, and so do its child tasks and `async let`s. <!-- G-task-executor-runs-in-context -->
    ///
    /// Jobs always go through the asynchronous path (``invokeAsync(_:)``), never inline: on ``direct`` they run on a
    /// default-QoS global queue, on ``main`` on the main queue (queued), on a ``queue(_:_:)`` on that queue.
    /// <!-- G-task-jobs-never-inline -->
    ///
    /// - Identity and lifetime: the global and main cases return one shared executor each, with no allocation per
    ///   access. A `.queue` returns a new executor (one allocation) that keeps the queue alive for as long as a task
    ///   uses it, so `Exec.asyncQueue().task { … }` is safe with no other reference to the context. A ``custom(_:)``
    ///   context answers for itself. <!-- G-task-executor-shared G-task-executor-keeps-queue -->
    /// - Cost per job: on the main and global cases, no allocation (`dispatch_async_f` carries the job itself); on the
    ///   `.queue` cases, one (a small box handed to `dispatch_async_f`); on ``mainOrdered`` and ``custom(_:)``, two
    ///   (the job on its way, which still runs if the context drops it, and its closure) plus the context's
    ///   `invokeAsync`. <!-- G-task-job-allocations -->
    /// - Priority: a job's own priority is not passed on; it runs at the QoS libdispatch gives the submission (the
    ///   queue's, or on Apple platforms the submitting thread's where a private queue has none).
    /// - Isolation: on ``main``, ``mainAsync``, ``mainOrdered`` and a `.queue` made from the main queue, every job runs
    ///   isolated to the main actor (it runs on the main queue), so the task calls `@MainActor` code with no hop. A task
    ///   that calls an actor on an ExecKit serial context takes its preference with it into the actor's executor; see
    ///   *Bridging to Swift Concurrency*. <!-- G-task-main-isolated G-task-actor-never-hangs --> A task that prefers
    ///   the main queue's executor also runs the default actors it calls there; the main-queue cases' `task` does not
    ///   use this executor for that reason (it starts its task on the main actor, preferring nothing).
    public var taskExecutor: any TaskExecutor {
        if let replacement = overridden { return replacement.taskExecutor }
        switch self {
        case .direct, .default: return SharedExecutors.default
        case .main, .mainAsync: return SharedExecutors.main
        case .mainOrdered: return SharedExecutors.mainOrdered
        case .interactive: return SharedExecutors.userInteractive
        case .user: return SharedExecutors.userInitiated
        case .utility: return SharedExecutors.utility
        case .background: return SharedExecutors.background
        case .custom(let context): return context.taskExecutor
        case .queue(let queue, let type):
            return QueueExecutors.taskExecutor(for: queue, serial: type.isSerial)
        }
    }

    /// The `SerialExecutor` of a serial context, for an actor that should run in it:
    ///
    /// ```swift
    /// actor Store {
    ///     let context = Exec.asyncQueue()
    ///     nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    /// }
    /// ```
    ///
    /// - ``main``, ``mainAsync``, ``mainOrdered``, and a serial ``queue(_:_:)`` made from the main queue: the main
    ///   actor's own executor, so an actor on `.main` is isolated with `MainActor`. <!-- G-actor-main-executor -->
    /// - A serial ``queue(_:_:)`` (``asyncQueue(label:qos:)``, ``syncQueue(label:qos:)``, a `.serialAsync` or
    ///   `.conditionallyAsync` queue): an executor kept by the queue, the same on every access. Jobs run on the queue
    ///   through `dispatch_async_f`, one allocation each where ExecKit finds the queue's `dispatch_queue_t` (always on
    ///   Apple platforms, and on Linux unless its layout check failed; otherwise through `async`, two);
    ///   `assumeIsolated` succeeds in any block the queue runs, not only in the actor's own jobs.
    ///   <!-- G-actor-queue-executor G-actor-assume-isolated-callbacks -->
    /// - ``custom(_:)``: the context's own (serialized contexts made by ``serialized()`` have one).
    ///   <!-- G-actor-serial-executor -->
    ///
    /// - Task executor preference: a job of a task that prefers an ExecKit context's ``taskExecutor``, and hops in from
    ///   that executor, runs with that preference (the Swift runtime drops it for custom executors), so tasks that wait
    ///   for each other through the actor do not hang. A task preferring another `TaskExecutor` runs without it, and so
    ///   does every task on the main-queue cases, whose executor is the runtime's main actor's (tasks started with
    ///   ``main``'s `task` reach it inline instead; see *Bridging to Swift Concurrency*).
    ///   <!-- G-task-actor-never-hangs -->
    /// - Priority: a job's own priority is not passed on (it runs at the QoS libdispatch gives the submission), because
    ///   `dispatch_async_f` takes none and a block carrying one would cost an allocation per job. A high-priority task
    ///   waiting on the actor does not speed up the queue's jobs either (no priority escalation).
    /// - Lifetime: the executor lives as long as the queue or context object it belongs to. Keep the context (as the
    ///   example does) for as long as the actor lives; an `UnownedSerialExecutor` does not keep anything alive.
    /// - Precondition: the context is serial. A concurrent context (``direct``, the global-queue cases, a
    ///   `.concurrentAsync` or `.immediate` queue) stops the program with a message suggesting ``serialized()``.
    ///   <!-- G-actor-concurrent-no-executor -->
    public var unownedSerialExecutor: UnownedSerialExecutor {
        switch self {
        case .main, .mainAsync, .mainOrdered:
            return MainActor.sharedUnownedExecutor
        case .custom(let context):
            return context.unownedSerialExecutor
        case .queue(let queue, let type) where type.isSerial:
            if queue.isGlobalQueue { Self.globalQueueMisuse(queue, type) }
            // The main queue's executor is the main actor's. (Its Swift wrapper cannot key an executor of its own: on
            // Linux every `DispatchQueue.main` is a new wrapper, which an executor would outlive.)
            if RawQueueIdentity.queuePointer(of: queue) == RawQueues.main { return MainActor.sharedUnownedExecutor }
            return QueueExecutors.of(queue).serialExecutor.asUnownedSerialExecutor()
        case .direct, .interactive, .user, .default, .utility, .background, .queue:
            fatalError(
                "ExecKit: \(self) is concurrent, so it cannot be an actor's executor (an actor runs one job at a "
                    + "time). Use a serial context: .\(self).serialized(), Exec.asyncQueue() or .main.")
        }
    }
}
