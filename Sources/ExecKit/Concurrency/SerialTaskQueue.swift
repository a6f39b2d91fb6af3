// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A queue of `async` operations that run one at a time, each to completion, in the order they were submitted: what a
/// serial `DispatchQueue` is for blocks, for operations that suspend.
///
/// ```swift
/// final class Uploader: Sendable {
///     private let uploads = SerialTaskQueue(context: Exec.utility)
///
///     nonisolated func upload(_ file: File) {         // from synchronous code, in order
///         uploads.enqueue { try await self.send(file) }  // starts when the previous upload has finished
///     }
/// }
/// ```
///
/// A serial context's `task { }` orders only the *starts* of tasks: after its first suspension, the next task runs.
/// Here an operation starts only once the previous one has returned (or thrown), so operations never interleave at
/// their suspension points.
///
/// - Ordering: operations start in the order of the `enqueue(priority:_:)` (or
///   `perform(_:)`) calls that submitted them, as a lock orders those calls; each starts after the
///   previous one has finished. Submissions from one thread or one task are therefore run in the order made.
/// - Context: each operation runs in a task that `context` starts (`context.task { }`), so its jobs run there: pass a
///   `TestCoordinator` context and the operations run in virtual time.
/// - Cancellation: cancelling an operation's task does not take it out of the queue. It starts in its turn with its
///   task cancelled (check `Task.isCancelled`, or `try Task.checkCancellation()`, at its start to skip the work),
///   and the operations after it still wait for it to finish.
/// - Deadlock: an operation that awaits the queue it runs on would wait for itself. `perform(_:)`
///   from inside an operation of the same queue stops the program with a message saying so. Awaiting the `Task` that
///   `enqueue(priority:_:)` returned, or calling `perform` from a child task of the operation, is
///   not detected: it waits forever.
/// - Thread-safety: submit from any thread or task.
/// - Cost: one task per operation, plus a lock and a closure that waits for it.
public final class SerialTaskQueue: Sendable {
    private let launcher: any TaskLauncher
    /// A wait for the most recently submitted operation to finish; `nil` before the first.
    private let tail = LockedBox<(@Sendable () async -> Void)?>(nil)

    /// Makes a queue whose operations run in tasks that `context` starts.
    ///
    /// - Parameter context: where the operations run: any ``ExecutionContext`` (``Exec/default`` unless given) or
    ///   another ``TaskLauncher``.
    public init(context: any TaskLauncher = Exec.default) {
        self.launcher = context
    }

    /// Submits `operation`, which starts after every operation submitted before it has finished, and returns its task
    /// to await or cancel.
    @discardableResult
    public func enqueue<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        let marker = RunningOperation(queue: ObjectIdentifier(self))
        let operation = SentOperation(operation)
        return tail.withLock { tail in
            let previous = tail
            let task = launcher.task(priority: priority) { () async throws -> Success in
                await previous?()
                return try await marker.running(operation.body)
            }
            tail = { _ = await task.result }
            return task
        }
    }

    /// Submits `operation`, which cannot throw, to start after every operation submitted before it has finished, and
    /// returns its task: `await queue.enqueue { 42 }.value` needs no `try`.
    @discardableResult
    public func enqueue<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending @escaping () async -> Success
    ) -> Task<Success, Never> {
        let marker = RunningOperation(queue: ObjectIdentifier(self))
        let operation = SentOperation(operation)
        return tail.withLock { tail in
            let previous = tail
            let task = launcher.task(priority: priority) { () async -> Success in
                await previous?()
                return await marker.running(operation.body)
            }
            tail = { _ = await task.value }
            return task
        }
    }

    /// Submits `operation` and waits for its value: it runs after every operation submitted before it has finished.
    /// Cancelling the caller cancels the operation's task.
    ///
    /// - Precondition: the caller is not an operation of this queue (it would wait for itself); that stops the
    ///   program with a message.
    public func perform<Success: Sendable>(_ operation: sending @escaping () async throws -> Success) async throws
        -> Success
    {
        checkNotInsideOwnOperation()
        let task = enqueue(operation)
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Submits `operation`, which cannot throw, and waits for its value; see `perform(_:)`.
    public func perform<Success: Sendable>(_ operation: sending @escaping () async -> Success) async -> Success {
        checkNotInsideOwnOperation()
        let task = enqueue(operation)
        return await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Stops the program if the current task is running one of this queue's operations.
    private func checkNotInsideOwnOperation() {
        guard let running = RunningOperation.current, running.queue == ObjectIdentifier(self),
            running.isRunning(inCurrentTask: ())
        else { return }
        preconditionFailure(
            "ExecKit: SerialTaskQueue.perform was awaited inside an operation of the same queue, which would wait "
                + "forever: the new operation starts only after this one finishes. Use enqueue (without awaiting its "
                + "task), or call the work directly.")
    }
}

/// An operation on its way into its task. `@unchecked Sendable`: the operation was passed as `sending`, so no other
/// code holds it, and only the task calls it.
private struct SentOperation<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }
}

/// Which `SerialTaskQueue` operation the current task runs, for the deadlock check in `perform`: a task-local value
/// that tasks created inside the operation inherit, so it also names the operation's task and whether it still runs.
private final class RunningOperation: Sendable {
    @TaskLocal static var current: RunningOperation?

    let queue: ObjectIdentifier
    /// The operation's task while the operation runs; `nil` before and after. Compared, never used: a task created
    /// inside the operation inherits this object, and is told apart from the operation's own task by it.
    private let task = LockedBox<TaskIdentity?>(nil)

    init(queue: ObjectIdentifier) { self.queue = queue }

    /// Runs `operation` with this marker as ``current`` and the current task recorded.
    func running<Success>(_ operation: () async throws -> Success) async rethrows -> Success {
        task.withLock { $0 = TaskIdentity.current }
        defer { task.withLock { $0 = nil } }
        return try await Self.$current.withValue(self) { try await operation() }
    }

    /// Whether the operation is running and the current task is its own.
    func isRunning(inCurrentTask: Void) -> Bool {
        guard let current = TaskIdentity.current else { return false }
        return task.withLock { $0 == current }
    }
}

/// A task's identity, for equality only: its `UnsafeCurrentTask`, kept only while the operation that recorded it runs
/// (it holds a reference to the task) and never used to act on the task, which is what makes `@unchecked Sendable`
/// safe here.
private struct TaskIdentity: Equatable, @unchecked Sendable {
    private let task: UnsafeCurrentTask

    static var current: TaskIdentity? {
        withUnsafeCurrentTask { task in task.map { TaskIdentity(task: $0) } }
    }
}
