// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch

extension Exec {
    /// Starts a task in this context and returns it; see ``ExecutionContext``'s `task(priority:_:)`.
    ///
    /// - Main queue: on ``main``, ``mainAsync``, ``mainOrdered`` and a ``queue(_:_:)`` made from the main queue, the
    ///   task runs on the main actor, as `Task { @MainActor in … }` does, and prefers no executor: `operation` runs on
    ///   the main queue, while the default actors and the `nonisolated` `async` functions it calls run off it, on the
    ///   global executor. Preferring the main queue's ``taskExecutor`` instead would pull every default actor the task
    ///   calls onto the main queue (a task executor preference takes default actors with it). Tasks started from one
    ///   thread still start in the order they were started, in FIFO order with the main queue's blocks; on
    ///   ``mainOrdered``, a block invoked after the task started does not overtake its start.
    ///   <!-- G-task-main-default-actors-off-main G-task-ordered-start G-main-ordered-no-overtake -->
    /// - Elsewhere: the task prefers ``taskExecutor``, so it runs in this context, and so do the default actors it
    ///   calls, at the context's QoS and in its order (Benchmarks/README.md has what such a call costs).
    ///   <!-- G-task-launcher-prefers-executor G-task-default-actors-in-context -->
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        switch taskStart {
        case .preferringExecutor:
            return Task(executorPreference: taskExecutor, priority: priority, operation: operation)
        case .onTheMainActor:
            return Task(priority: priority) { @MainActor in try await operation() }
        case .onTheMainActorInOrder:
            MainOrderedQueue.holdTurn()
            return Task(priority: priority) { @MainActor in
                MainOrderedQueue.turnTaken()
                return try await operation()
            }
        case .custom(let context):
            return context.task(priority: priority, operation)
        }
    }

    /// Starts a task in this context, for an operation that cannot throw; see `task(priority:_:)`.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        switch taskStart {
        case .preferringExecutor:
            return Task(executorPreference: taskExecutor, priority: priority, operation: operation)
        case .onTheMainActor:
            return Task(priority: priority) { @MainActor in await operation() }
        case .onTheMainActorInOrder:
            MainOrderedQueue.holdTurn()
            return Task(priority: priority) { @MainActor in
                MainOrderedQueue.turnTaken()
                return await operation()
            }
        case .custom(let context):
            return context.task(priority: priority, operation)
        }
    }

    /// The executor a task started here prefers, or `nil` where `task(priority:_:)` starts it
    /// otherwise (on the main actor, or through a custom context's own `task`). For ExecKit's own launchers
    /// (`SerialTaskQueue`, `CancellableLauncher`), which then start the task with a closure of their own: converting a
    /// `nonisolated(nonsending)` operation into a `Task`'s costs an allocation per task, and deeper frames.
    var preferredTaskExecutor: (any TaskExecutor)? {
        if case .preferringExecutor = taskStart { return taskExecutor }
        return nil
    }

    /// How this context starts a task.
    private enum TaskStart {
        /// Preferring ``taskExecutor``.
        case preferringExecutor
        /// On the main actor, preferring no executor.
        case onTheMainActor
        /// On the main actor, holding a turn among ``mainOrdered``'s blocks until it starts.
        case onTheMainActorInOrder
        /// Through the context's own `task`.
        case custom(any ExecutionContext)
    }

    private var taskStart: TaskStart {
        // A TestCoordinator's replacement (a `.custom` context) starts the task itself, tracked for its hang reports.
        if let replacement = overridden, case .custom(let context) = replacement { return .custom(context) }
        if overridden != nil { return .preferringExecutor }
        switch self {
        case .main, .mainAsync: return .onTheMainActor
        case .mainOrdered: return .onTheMainActorInOrder
        case .custom(let context): return .custom(context)
        case .queue(let queue, _):
            return RawQueueIdentity.queuePointer(of: queue) == RawQueues.main ? .onTheMainActor : .preferringExecutor
        case .direct, .interactive, .user, .default, .utility, .background: return .preferringExecutor
        }
    }
}
