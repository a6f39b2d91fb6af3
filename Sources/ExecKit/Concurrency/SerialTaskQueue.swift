// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

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
/// their suspension points. An operation can run on an actor, with the actor's state at hand and no hop back to the
/// context: `enqueue(isolatedTo: store) { store in … }`, or `enqueue(isolatedTo: MainActor.shared) { … }` for
/// `@MainActor` code. <!-- G-stq-one-at-a-time G-stq-isolated-throughout -->
///
/// - Ordering: operations start in the order of the `enqueue` (or `perform`) calls that submitted them, whatever their
///   form, as a lock orders those calls; each starts after the previous one has finished. Submissions from one thread
///   or one task are therefore run in the order made. <!-- G-stq-one-at-a-time -->
/// - Context: each operation runs in a task that `context` starts (`context.task { }`), so its jobs run there (an
///   isolated operation's, on its actor): pass a `TestCoordinator` context and the operations run in virtual time.
///   <!-- G-stq-virtual-time -->
/// - Cancellation: cancelling an operation's task does not take it out of the queue. It starts in its turn with its
///   task cancelled (check `Task.isCancelled`, or `try Task.checkCancellation()`, at its start to skip the work),
///   and the operations after it still wait for it to finish. ``cancelAll()`` does that to every unfinished
///   operation at once. <!-- G-task-cancelled-keeps-turn G-stq-cancelall -->
/// - Deadlock: an operation that awaits the queue it runs on would wait for itself. `perform` from inside an operation
///   of the same queue stops the program with a message saying so. Awaiting the `Task` that `enqueue` returned, or
///   calling `perform` from a child task of the operation, is not detected: it waits forever.
///   <!-- G-stq-perform-inside-stops -->
/// - Thread-safety: submit from any thread or task. The queue calls `context.task { }` under its lock, so a launcher
///   of your own must not run the operation synchronously inside `task(priority:_:)` (ExecKit's contexts never do).
///   It must also run every operation it is given: a task that ends without running its operation (a launcher that
///   checks cancellation first, say) lets the next operation start at once, without waiting for the one before.
///   <!-- G-stq-thread-safety -->
/// - Lifetime: releasing the queue cancels and drops nothing. Operations already submitted run on, in order: each keeps
///   what it needs, not the queue, so the queue itself is released as soon as its last reference goes. An operation's
///   task is released once it has finished (nothing waits for it then), and so is whatever its operation captured.
///   <!-- G-stq-release-runs-on G-stq-releases-finished -->
/// - Cost: one task per operation, which waits for the previous operation's task (looked up when it starts, so a
///   finished task is not kept), and four short locks. Measured in Benchmarks/README.md (ordered work), beside one task
///   draining an `AsyncStream` of operations, which starts no task per operation. <!-- G-stq-cost -->
public final class SerialTaskQueue: Sendable {
    private let launcher: any TaskLauncher
    /// Shared with the operations' tasks, which keep it (not the queue) alive until they have finished.
    private let state = LockedBox(State(), observed: false)

    private struct State: Sendable {
        /// The tasks of the operations submitted and not finished, oldest first: the next submission waits for the
        /// last; ``SerialTaskQueue/cancelAll()`` cancels them all. Each leaves when its operation has finished, so a
        /// finished operation's result is not kept.
        var unfinished = UnfinishedOperations()
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
    /// to await or cancel. <!-- G-stq-one-at-a-time -->
    @discardableResult
    public func enqueue<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        let operation = SentOperation(operation)
        return submit { state, number in
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async throws -> Success in
                    try await Self.runInTurn(state, number: number, operation.body)
                }
            }
            return launcher.task(priority: priority) { () async throws -> Success in
                try await Self.runInTurn(state, number: number, operation.body)
            }
        }
    }

    /// Submits `operation`, which cannot throw, to start after every operation submitted before it has finished, and
    /// returns its task: `await queue.enqueue { 42 }.value` needs no `try`. <!-- G-stq-one-at-a-time -->
    @discardableResult
    public func enqueue<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        let operation = SentOperation(operation)
        return submit { state, number in
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async -> Success in
                    await Self.runInTurn(state, number: number, operation.body)
                }
            }
            return launcher.task(priority: priority) { () async -> Success in
                await Self.runInTurn(state, number: number, operation.body)
            }
        }
    }

    /// Submits `operation`, to run isolated to `actor` after every operation submitted before it has finished, and
    /// returns its task:
    ///
    /// ```swift
    /// let saves = SerialTaskQueue()
    /// saves.enqueue(isolatedTo: store) { store in
    ///     store.pending += 1                     // the store's state, with no `await`
    ///     try await store.write(to: disk)        // the next save starts only once this one has returned
    ///     store.pending -= 1
    /// }
    /// ```
    ///
    /// The operation's task starts in this queue's context and waits there for its turn; then the whole operation runs
    /// on `actor`, as any code of the actor's does: it leaves the actor only at its own suspension points, where other
    /// code may use the actor. Its task goes back to the context once the operation has returned. Calls the operation
    /// makes to `nonisolated` `async` functions run in the context (the task prefers its executor, where the context is
    /// an ``ExecutionContext``). <!-- G-stq-one-at-a-time G-stq-isolated-throughout -->
    ///
    /// - Note: `operation` is `@Sendable`, where the plain forms take a `sending` closure: Swift 6.3 cannot check a
    ///   `sending` closure with an isolated parameter when the actor is the main actor ("pattern that the region-based
    ///   isolation checker does not understand"), which would reject `{ main in … }` here.
    @discardableResult
    public func enqueue<IsolatedTo: Actor, Success: Sendable>(
        isolatedTo actor: IsolatedTo,
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable (isolated IsolatedTo) async throws -> Success
    ) -> Task<Success, any Error> {
        submit { state, number in
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async throws -> Success in
                    try await Self.runInTurn(on: actor, state, number: number, operation)
                }
            }
            return launcher.task(priority: priority) { () async throws -> Success in
                try await Self.runInTurn(on: actor, state, number: number, operation)
            }
        }
    }

    /// Submits `operation`, which cannot throw, to run isolated to `actor` in its turn; see
    /// `enqueue(isolatedTo:priority:_:)`.
    @discardableResult
    public func enqueue<IsolatedTo: Actor, Success: Sendable>(
        isolatedTo actor: IsolatedTo,
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable (isolated IsolatedTo) async -> Success
    ) -> Task<Success, Never> {
        submit { state, number in
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async -> Success in
                    await Self.runInTurn(on: actor, state, number: number, operation)
                }
            }
            return launcher.task(priority: priority) { () async -> Success in
                await Self.runInTurn(on: actor, state, number: number, operation)
            }
        }
    }

    /// Submits `operation`, to run on the main actor after every operation submitted before it has finished, and
    /// returns its task: `queue.enqueue(isolatedTo: MainActor.shared) { model.title = "Saving" … }`. The form for
    /// `@MainActor` code, which an operation isolated to the `MainActor` instance cannot call synchronously; see
    /// `enqueue(isolatedTo:priority:_:)`.
    @discardableResult
    public func enqueue<Success: Sendable>(
        isolatedTo mainActor: MainActor,
        priority: TaskPriority? = nil,
        _ operation: @escaping @MainActor @Sendable () async throws -> Success
    ) -> Task<Success, any Error> {
        enqueue(isolatedTo: mainActor, priority: priority) { (_: isolated MainActor) async throws in
            try await operation()
        }
    }

    /// Submits `operation`, which cannot throw, to run on the main actor in its turn; see
    /// `enqueue(isolatedTo:priority:_:)`.
    @discardableResult
    public func enqueue<Success: Sendable>(
        isolatedTo mainActor: MainActor,
        priority: TaskPriority? = nil,
        _ operation: @escaping @MainActor @Sendable () async -> Success
    ) -> Task<Success, Never> {
        enqueue(isolatedTo: mainActor, priority: priority) { (_: isolated MainActor) async in await operation() }
    }

    /// Submits `operation` and waits for its value: it runs after every operation submitted before it has finished.
    /// Cancelling the caller cancels the operation's task.
    /// <!-- G-stq-one-at-a-time G-stq-perform-passes-cancellation -->
    ///
    /// - Precondition: the caller is not an operation of this queue (it would wait for itself); that stops the
    ///   program with a message. <!-- G-stq-perform-inside-stops -->
    public func perform<Success: Sendable>(
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) async throws -> Success {
        checkNotInsideOwnOperation()
        return try await awaitPassingCancellation(enqueue(operation))
    }

    /// Submits `operation`, which cannot throw, and waits for its value; see `perform(_:)`.
    public func perform<Success: Sendable>(
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) async -> Success {
        checkNotInsideOwnOperation()
        return await awaitPassingCancellation(enqueue(operation))
    }

    /// Submits `operation`, to run isolated to `actor` in its turn, and waits for its value; see
    /// `enqueue(isolatedTo:priority:_:)` and `perform(_:)`.
    public func perform<IsolatedTo: Actor, Success: Sendable>(
        isolatedTo actor: IsolatedTo,
        _ operation: @escaping @Sendable (isolated IsolatedTo) async throws -> Success
    ) async throws -> Success {
        checkNotInsideOwnOperation()
        return try await awaitPassingCancellation(enqueue(isolatedTo: actor, operation))
    }

    /// Submits `operation`, which cannot throw, to run isolated to `actor` in its turn, and waits for its value; see
    /// `perform(isolatedTo:_:)`.
    public func perform<IsolatedTo: Actor, Success: Sendable>(
        isolatedTo actor: IsolatedTo,
        _ operation: @escaping @Sendable (isolated IsolatedTo) async -> Success
    ) async -> Success {
        checkNotInsideOwnOperation()
        return await awaitPassingCancellation(enqueue(isolatedTo: actor, operation))
    }

    /// Submits `operation`, to run on the main actor in its turn, and waits for its value; see
    /// `enqueue(isolatedTo:priority:_:)`.
    public func perform<Success: Sendable>(
        isolatedTo mainActor: MainActor,
        _ operation: @escaping @MainActor @Sendable () async throws -> Success
    ) async throws -> Success {
        checkNotInsideOwnOperation()
        return try await awaitPassingCancellation(enqueue(isolatedTo: mainActor, operation))
    }

    /// Submits `operation`, which cannot throw, to run on the main actor in its turn, and waits for its value; see
    /// `enqueue(isolatedTo:priority:_:)`.
    public func perform<Success: Sendable>(
        isolatedTo mainActor: MainActor,
        _ operation: @escaping @MainActor @Sendable () async -> Success
    ) async -> Success {
        checkNotInsideOwnOperation()
        return await awaitPassingCancellation(enqueue(isolatedTo: mainActor, operation))
    }

    /// Cancels the task of every operation submitted before this call that has not finished: the one running, and
    /// every one waiting for its turn. Operations that have finished, and operations submitted after this call, are
    /// left alone. <!-- G-stq-cancelall -->
    ///
    /// A cancelled operation that was waiting still starts in its turn, with its task cancelled (see *Cancellation*
    /// above): the order of the queue stays as it was, and an operation decides what cancelled means for it (`try
    /// Task.checkCancellation()` at its start skips the work). Awaiting its task gives whatever it returned or threw.
    /// <!-- G-task-cancelled-keeps-turn -->
    ///
    /// - Cost: one short lock and a copy of the unfinished tasks (one allocation), then one `cancel()` each.
    ///   <!-- G-stq-cancelall-cost -->
    public func cancelAll() {
        let tasks = state.withLock { $0.unfinished.tasks }
        for task in tasks { task.cancel() }
    }

    /// Numbers the operation being submitted, starts its task with `start`, given the queue's shared state and that
    /// number, and records the new task as unfinished. Every `enqueue` form submits through this, under the queue's
    /// lock, so operations start in the order of their submissions.
    private func submit<Started: QueuedOperationTask>(
        _ start: (_ state: LockedBox<State>, _ number: UInt64) -> Started
    ) -> Started {
        state.withLock { queue in
            let number = queue.nextNumber
            queue.nextNumber &+= 1
            let task = start(state, number)
            queue.unfinished.append(task, number: number)
            return task
        }
    }

    /// An operation's task: waits for its turn, then runs `body` as the queue's running operation until it returns
    /// or throws. Static, so that an operation keeps the queue's state alive but not the queue. `nonisolated(nonsending)`:
    /// it runs where its task does (on the main actor for a main-queue context), and so does `body`.
    private nonisolated(nonsending) static func runInTurn<Success>(
        _ state: LockedBox<State>,
        number: UInt64,
        _ body: nonisolated(nonsending) () async throws -> Success
    ) async rethrows -> Success {
        // The previous operation's task is looked up now, not captured at submission, and let go of once it has
        // finished: a finished operation's task, and its result, are not kept while this one runs. (Inline rather
        // than a function of its own, whose frame outgrew the task's first slab: an allocation per operation.)
        var previous = state.withLock { $0.unfinished.task(numbered: number &- 1) }
        await previous?.awaitCompletion()
        previous = nil
        begin(state, number: number)
        defer { end(state, number: number) }
        return try await body()
    }

    /// `runInTurn` for an operation isolated to `actor`: the bookkeeping and the operation run on the actor, with no hop
    /// between them. (The wait for the turn resumes in the task's context, `Task.result` being nonisolated, and hops
    /// here; the task goes back to the context when this returns.)
    private static func runInTurn<IsolatedTo: Actor, Success>(
        on actor: isolated IsolatedTo,
        _ state: LockedBox<State>,
        number: UInt64,
        _ body: (isolated IsolatedTo) async throws -> Success
    ) async rethrows -> Success {
        var previous = state.withLock { $0.unfinished.task(numbered: number &- 1) }  // as in the other `runInTurn`
        await previous?.awaitCompletion()
        previous = nil
        begin(state, number: number)
        defer { end(state, number: number) }
        return try await body(actor)
    }

    /// Records the current task as the running operation's (operations run one at a time, so one slot is enough), and
    /// forgets every operation before it: all have finished, including any whose task ended without running its
    /// operation (a launcher of your own that skipped it), which would otherwise stay listed.
    private static func begin(_ state: LockedBox<State>, number: UInt64) {
        let current = TaskIdentity.current
        state.withLock { queue in
            queue.running = current
            queue.unfinished.removeAll(before: number)
        }
    }

    /// Forgets the running operation's task (and the reference its identity holds), and the finished operation's task,
    /// which nothing waits for any more and whose result need not be kept.
    private static func end(_ state: LockedBox<State>, number: UInt64) {
        state.withLock { queue in
            queue.running = nil
            queue.unfinished.removeAll(before: number &+ 1)
        }
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

/// A task's identity, for equality only: its `UnsafeCurrentTask`, kept only while the operation that recorded it runs
/// (it holds a reference to the task) and never used to act on the task, which is what makes `@unchecked Sendable`
/// safe here.
private struct TaskIdentity: Equatable, @unchecked Sendable {
    private let task: UnsafeCurrentTask

    static var current: TaskIdentity? {
        withUnsafeCurrentTask { task in task.map { TaskIdentity(task: $0) } }
    }
}
