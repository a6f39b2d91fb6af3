// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension TestCoordinator {
    /// A `TaskExecutor` whose jobs run in the simulated ``global`` queue, inside the test's ``runUntilIdle()`` and
    /// ``advance(by:)`` calls: `Task(executorPreference: coordinator.taskExecutor) { … }`.
    /// <!-- G-virtual-task-executor -->
    ///
    /// - Ordering: a job enqueued (a task started, a continuation resumed, a sleep woken) is due at once and runs
    ///   after the work already due, in the same `runUntilIdle` or `advance` call, with no
    ///   yielding. <!-- G-virtual-job-due-at-once --> The task's child tasks and `async let`s run here too; a call into
    ///   an actor runs on the actor's executor instead, outside the coordinator's
    ///   control. <!-- G-virtual-task-executor -->
    /// - Cost: three allocations per job, plus a scheduling (O(log n)). The same executor on every access.
    ///   <!-- G-virtual-task-executor-cost -->
    public var taskExecutor: any TaskExecutor { globalExecutor }

    /// Starts a task that runs on ``taskExecutor``, so its jobs run inside ``runUntilIdle()`` and ``advance(by:)``;
    /// pass the coordinator where code takes an `any TaskLauncher`.
    ///
    /// The task's first job is due at once: nothing of `operation` runs before the next `runUntilIdle()` or
    /// `advance`. <!-- G-virtual-task-first-job -->
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        // Explored, the task is tracked until it finishes, for the run's hang report.
        guard storage.explores else {
            return Task(executorPreference: taskExecutor, priority: priority, operation: operation)
        }
        let id = launchedTasks.started(at: storage.captureOrigin())
        return Task(executorPreference: taskExecutor, priority: priority) { [launchedTasks] in
            defer { launchedTasks.finished(id) }
            return try await operation()
        }
    }

    /// Starts a task that runs on ``taskExecutor``, for an operation that cannot throw: `await task.value` needs no
    /// `try`. Scheduled as the throwing form is.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        guard storage.explores else {
            return Task(executorPreference: taskExecutor, priority: priority, operation: operation)
        }
        let id = launchedTasks.started(at: storage.captureOrigin())
        return Task(executorPreference: taskExecutor, priority: priority) { [launchedTasks] in
            defer { launchedTasks.finished(id) }
            return await operation()
        }
    }
}
