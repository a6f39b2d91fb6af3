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
/// - Thread-safety: submit from any thread or task. The queue calls `context.task { }` under its lock, so a launcher
///   of your own must not run the operation synchronously inside `task(priority:_:)` (ExecKit's contexts never do).
/// - Release: the queue keeps the last submitted operation's task only until that operation has finished.
/// - Cost: one task per operation, which waits for the previous operation's task, and three short locks. Measured
///   against one task draining an `AsyncStream` of operations: 6 allocations per operation against 3, at 0.96 of its
///   time (`python3 Benchmarks/summary.py -- --filter 'SerialTaskQueue.*'`, 2026-11-26, Benchmarks/README.md).
public final class SerialTaskQueue: Sendable {
    private let launcher: any TaskLauncher
    private let state = LockedBox(State())

    private struct State: Sendable {
        /// The most recently submitted operation's task, which the next operation waits for; `nil` before the first,
        /// and again once that operation has finished (so its result is not kept). An existential of a one-word
        /// `Task`, stored inline: no allocation.
        var tail: (any CompletionAwaitable)?
        /// The number of the operation in ``tail``.
        var tailNumber: UInt64 = 0
        /// The number the next submitted operation gets.
        var nextNumber: UInt64 = 1
        /// The task of the operation that is running, for the deadlock check in `perform`.
        var running: TaskIdentity?
    }

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
        let operation = SentOperation(operation)
        return submit { previous, number in
            launcher.task(priority: priority) { () async throws -> Success in
                try await self.runInTurn(after: previous, number: number, operation.body)
            }
        }
    }

    /// Submits `operation`, which cannot throw, to start after every operation submitted before it has finished, and
    /// returns its task: `await queue.enqueue { 42 }.value` needs no `try`.
    @discardableResult
    public func enqueue<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending @escaping () async -> Success
    ) -> Task<Success, Never> {
        let operation = SentOperation(operation)
        return submit { previous, number in
            launcher.task(priority: priority) { () async -> Success in
                await self.runInTurn(after: previous, number: number, operation.body)
            }
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

    /// Numbers the operation being submitted, starts its task with `start`, given the task of the operation before it
    /// (`nil` if that one has finished), and makes the new task the one the next operation waits for. Both `enqueue`
    /// forms submit through this, under the queue's lock, so operations start in the order of their submissions.
    private func submit<Started: CompletionAwaitable>(
        _ start: (_ previous: (any CompletionAwaitable)?, _ number: UInt64) -> Started
    ) -> Started {
        state.withLock { state in
            let number = state.nextNumber
            state.nextNumber &+= 1
            let task = start(state.tail, number)
            state.tail = task
            state.tailNumber = number
            return task
        }
    }

    /// An operation's task: waits for `previous`, then runs `body` with the current task recorded as the running
    /// operation's (operations run one at a time, so one slot is enough) until it returns or throws. Then it forgets
    /// that task (and the reference the identity holds), and the tail too if this is the last operation submitted:
    /// nothing waits for it, and its result need not be kept.
    private func runInTurn<Success>(
        after previous: (any CompletionAwaitable)?,
        number: UInt64,
        _ body: () async throws -> Success
    ) async rethrows -> Success {
        await previous?.awaitCompletion()
        let current = TaskIdentity.current
        state.withLock { $0.running = current }
        defer {
            state.withLock { state in
                state.running = nil
                if state.tailNumber == number { state.tail = nil }
            }
        }
        return try await body()
    }

    /// Stops the program if the current task is running one of this queue's operations.
    private func checkNotInsideOwnOperation() {
        guard let current = TaskIdentity.current, state.withLock({ $0.running == current }) else { return }
        preconditionFailure(
            "ExecKit: SerialTaskQueue.perform was awaited inside an operation of the same queue, which would wait "
                + "forever: the new operation starts only after this one finishes. Use enqueue (without awaiting its "
                + "task), or call the work directly.")
    }
}

/// A task the next operation waits for, whatever its result type.
private protocol CompletionAwaitable: Sendable {
    /// Returns when the task has finished, however it finished.
    func awaitCompletion() async
}

extension Task: CompletionAwaitable {
    fileprivate func awaitCompletion() async { _ = await result }
}

/// An operation on its way into its task. `@unchecked Sendable`: the operation was passed as `sending`, so no other
/// code holds it, and only the task calls it.
private struct SentOperation<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }
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
