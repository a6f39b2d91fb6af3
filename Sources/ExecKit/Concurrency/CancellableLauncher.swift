// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// A ``TaskLauncher`` that starts its tasks through another one and can cancel every one of them that has not finished.
///
/// Tasks started in a serial context start in order; wrapping that context cancels them together, the running ones
/// and those still waiting for their turn, as when a screen closes:
/// <!-- G-task-ordered-start -->
///
/// ```swift
/// let work = CancellableLauncher(Exec.main)
/// work.task { await model.load() }       // starts first
/// work.task { await model.refresh() }    // starts second
/// work.cancelAll()                       // both tasks are cancelled, wherever they are
/// ```
///
/// - Cancellation: ``cancelAll()`` cancels the tasks started before it that have not finished. Tasks started after it
///   are not affected, and finished tasks are not touched. Cancelling is cooperative: each task sees
///   `Task.isCancelled`, and a task that has not started yet starts in its turn, cancelled.
///   <!-- G-task-cancellable-launcher -->
/// - Release: a task is forgotten (its result is not kept) as soon as its operation has returned or thrown. Releasing
///   the launcher cancels nothing; its tasks run on. A wrapped launcher of your own that ends a task without running
///   its operation (one that checks cancellation first, say) leaves that task listed until this launcher is released;
///   ExecKit's contexts always run the operation.
///   <!-- G-task-cancellable-forgets G-task-cancellable-release-cancels-nothing -->
/// - Thread-safety: start and cancel from any thread or task. The wrapped launcher is called under a lock, so it must
///   not run the operation synchronously inside `task(priority:_:)` (ExecKit's contexts never do).
///   <!-- G-task-cancellable-thread-safety -->
/// - Cost: per task, two allocations (the closure around the operation among them) and two short locks, besides the
///   wrapped launcher's own cost: a task started and awaited through one around ``Exec/default`` makes 4 allocations,
///   against 2 for a task that prefers `.default`'s executor directly. Its table of unfinished tasks grows to the
///   largest number unfinished at once, and stays that size. <!-- G-task-cancellable-cost -->
public final class CancellableLauncher: TaskLauncher {
    private let launcher: any TaskLauncher
    /// Shared with the tasks, which remove themselves when their operation has finished.
    private let tracked = LockedBox(Tracked(), observed: false)

    private struct Tracked: Sendable {
        var nextNumber: UInt64 = 0
        /// The tasks started and not finished, by number.
        var unfinished: [UInt64: any CancellableTask] = [:]
    }

    /// Makes a launcher whose tasks `launcher` starts: any ``ExecutionContext`` (the tasks then run in it), or another
    /// ``TaskLauncher``.
    public init(_ launcher: any TaskLauncher) {
        self.launcher = launcher
    }

    /// Starts a task through the wrapped launcher that runs `operation`, and remembers it for ``cancelAll()`` until
    /// `operation` has finished. <!-- G-task-cancellable-forgets -->
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        let operation = SentOperation(operation)
        return start { tracked, number in
            // Straight into a `Task` where the wrapped launcher is an `Exec` that prefers an executor (see
            // `Exec.preferredTaskExecutor`: no conversion of the operation), else through the wrapped launcher.
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async throws -> Success in
                    defer { Self.finish(number, in: tracked) }
                    return try await operation.body()
                }
            }
            return launcher.task(priority: priority) { () async throws -> Success in
                defer { Self.finish(number, in: tracked) }
                return try await operation.body()
            }
        }
    }

    /// Starts a task through the wrapped launcher that runs `operation`, which cannot throw; see
    /// `task(priority:_:)`.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        let operation = SentOperation(operation)
        return start { tracked, number in
            // Straight into a `Task` where the wrapped launcher is an `Exec` that prefers an executor (see
            // `Exec.preferredTaskExecutor`: no conversion of the operation), else through the wrapped launcher.
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async -> Success in
                    defer { Self.finish(number, in: tracked) }
                    return await operation.body()
                }
            }
            return launcher.task(priority: priority) { () async -> Success in
                defer { Self.finish(number, in: tracked) }
                return await operation.body()
            }
        }
    }

    /// Cancels every task this launcher started before this call whose operation has not finished: running,
    /// suspended, or not started yet. Tasks started afterwards are not affected. <!-- G-task-cancellable-launcher -->
    ///
    /// - Ordering: the tasks are cancelled in the order they were started, in every process, so cancellation handlers
    ///   with side effects run in an order a test (and an exploration's replay) can rely on.
    ///   <!-- G-task-cancellable-order -->
    public func cancelAll() {
        let tasks = tracked.withLock { state in
            state.unfinished.sorted { $0.key < $1.key }.map(\.value)
        }
        for task in tasks { task.cancel() }
    }

    /// Numbers the task being started, starts it with `launch` and records it, under the lock: a task whose operation
    /// finishes at once waits for that lock to remove itself, so it is never recorded after it has finished.
    private func start<Started: CancellableTask>(
        _ launch: (_ tracked: LockedBox<Tracked>, _ number: UInt64) -> Started
    ) -> Started {
        tracked.withLock { state in
            let number = state.nextNumber
            state.nextNumber &+= 1
            let task = launch(tracked, number)
            state.unfinished[number] = task
            return task
        }
    }

    /// Forgets the task numbered `number`, whose operation has finished.
    private static func finish(_ number: UInt64, in tracked: LockedBox<Tracked>) {
        tracked.withLock { _ = $0.unfinished.removeValue(forKey: number) }
    }
}

/// A task, whatever its result type, as far as cancelling it goes.
private protocol CancellableTask: Sendable {
    func cancel()
}

extension Task: CancellableTask {}
