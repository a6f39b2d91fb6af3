// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// A queue of `async` operations of which at most `maxConcurrent` run at once, started in the order they were
/// submitted: two downloads at a time, a pool of connections. ``SerialTaskQueue`` is the same with one at a time.
///
/// ```swift
/// final class Downloader: Sendable {
///     private let downloads = BoundedTaskQueue(maxConcurrent: 2, context: Exec.utility)
///
///     func download(_ url: URL) async throws -> Data {
///         try await downloads.perform { try await self.fetch(url) }  // waits while two others run
///     }
/// }
/// ```
///
/// - Ordering: operations are let start in the order of the `enqueue` (or `perform`) calls that submitted them,
///   whatever their form, as a lock orders those calls: one is let start when fewer than `maxConcurrent` are running
///   and every one submitted before it has been let start. So operation `k` starts only once `k - maxConcurrent + 1`
///   of those before it have finished. Never more than `maxConcurrent` run at once: an operation holds its place
///   until it returns or throws, its suspensions included. Operations let start together on a concurrent context may
///   reach their first line in either order. <!-- G-btq-bounded-fifo -->
/// - Context: each operation runs in a task that `context` starts (`context.task { }`), so its jobs run there (an
///   isolated operation's, on its actor): pass a `TestCoordinator` context and the operations run in virtual time,
///   and are explored. <!-- G-btq-virtual-time -->
/// - Cancellation: cancelling an operation's task does not take it out of the queue. It starts in its turn with its
///   task cancelled (check `Task.isCancelled` at its start to skip the work), and holds a place while it runs.
///   ``cancelAll()`` does that to every unfinished operation at once, in the order they were submitted.
///   <!-- G-btq-cancelall -->
/// - Deadlock: `perform` from inside an operation of the same queue waits for a place like any other; with every
///   place held by operations that do so, it waits forever. Nothing detects it.
/// - Thread-safety: submit from any thread or task. The queue calls `context.task { }` under its lock, so a launcher
///   of your own must not run the operation synchronously inside `task(priority:_:)` (ExecKit's contexts never do),
///   and must run every operation it is given: one that never runs holds up every operation after it.
///   <!-- G-btq-thread-safety -->
/// - Lifetime: releasing the queue cancels and drops nothing. Operations already submitted run on, in order: each keeps
///   what it needs, not the queue. An operation's task is released once it has finished, and so is whatever its
///   operation captured. <!-- G-btq-lifetime -->
/// - Cost: one task per operation, five allocations in all (`Benchmarks/ci-check.sh` holds the count); a wait for a
///   place (a continuation, no allocation) only when all are taken or an earlier operation has not started yet; three
///   short locks. About 1.5 times a hand-written actor limiter's time, which keeps no submission order
///   (Benchmarks/README.md, bounded concurrency). <!-- G-btq-cost -->
public final class BoundedTaskQueue: Sendable {
    private struct State: Sendable {
        /// The number the next submitted operation gets, and the number of the next to start.
        var nextNumber: UInt64 = 0
        var nextToStart: UInt64 = 0
        /// How many operations are running (started and not finished).
        var running = 0
        /// Operations whose task has come for its turn before it could start, by number.
        var waiting: [UInt64: UnsafeContinuation<Void, Never>] = [:]
        /// The tasks of the operations submitted and not finished, by number, for ``BoundedTaskQueue/cancelAll()``.
        var unfinished: [UInt64: any QueuedOperationTask] = [:]
    }

    /// Shared with the operations' tasks, which keep it (not the queue) alive until they have finished.
    private let state = LockedBox(State(), observed: false)
    private let launcher: any TaskLauncher
    /// How many operations may run at once.
    public let maxConcurrent: Int

    /// Makes a queue of which at most `maxConcurrent` operations run at once, in tasks that `context` starts.
    ///
    /// - Parameters:
    ///   - maxConcurrent: at least 1; 1 gives a ``SerialTaskQueue``'s order (one that costs more than that queue).
    ///   - context: where the operations run: any ``ExecutionContext`` (``Exec/default`` unless given) or another
    ///     ``TaskLauncher``.
    /// - Precondition: `maxConcurrent` is at least 1; otherwise the program stops with a message.
    public init(maxConcurrent: Int, context: any TaskLauncher = Exec.default) {
        precondition(
            maxConcurrent >= 1,
            "ExecKit: BoundedTaskQueue(maxConcurrent: \(maxConcurrent)) must let at least one operation run.")
        self.maxConcurrent = maxConcurrent
        launcher = context
    }

    /// Submits `operation`, which starts in its turn (see *Ordering*), and returns its task to await or cancel.
    /// <!-- G-btq-bounded-fifo -->
    @discardableResult
    public func enqueue<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        let operation = SentOperation(operation)
        return submit { state, number, limit in
            // Around an `Exec` that prefers an executor, a `Task` of its own (no conversion of the operation), as
            // SerialTaskQueue does.
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async throws -> Success in
                    try await Self.runInTurn(state, number: number, limit: limit, operation.body)
                }
            }
            return launcher.task(priority: priority) { () async throws -> Success in
                try await Self.runInTurn(state, number: number, limit: limit, operation.body)
            }
        }
    }

    /// Submits `operation`, which cannot throw, to start in its turn, and returns its task: `await
    /// queue.enqueue { 42 }.value` needs no `try`. <!-- G-btq-bounded-fifo -->
    @discardableResult
    public func enqueue<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        let operation = SentOperation(operation)
        return submit { state, number, limit in
            if let executor = (launcher as? Exec)?.preferredTaskExecutor {
                return Task(executorPreference: executor, priority: priority) { () async -> Success in
                    await Self.runInTurn(state, number: number, limit: limit, operation.body)
                }
            }
            return launcher.task(priority: priority) { () async -> Success in
                await Self.runInTurn(state, number: number, limit: limit, operation.body)
            }
        }
    }

    /// Submits `operation`, to run isolated to `actor` in its turn, and returns its task. The task starts in this
    /// queue's context and goes to `actor` at once, where it waits for its turn suspended (a wait holds the actor for
    /// no one); then the whole operation runs on `actor`, leaving it only at its own suspension points, as
    /// `SerialTaskQueue.enqueue(isolatedTo:priority:_:)` describes.
    /// <!-- G-btq-bounded-fifo -->
    @discardableResult
    public func enqueue<IsolatedTo: Actor, Success: Sendable>(
        isolatedTo actor: IsolatedTo,
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable (isolated IsolatedTo) async throws -> Success
    ) -> Task<Success, any Error> {
        submit { state, number, limit in
            launcher.task(priority: priority) { () async throws -> Success in
                try await Self.runInTurn(on: actor, state, number: number, limit: limit, operation)
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
        submit { state, number, limit in
            launcher.task(priority: priority) { () async -> Success in
                await Self.runInTurn(on: actor, state, number: number, limit: limit, operation)
            }
        }
    }

    /// Submits `operation`, to run on the main actor in its turn: the form for `@MainActor` code; see
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

    /// Submits `operation` and waits for its value: it starts in its turn. Cancelling the caller cancels the
    /// operation's task. <!-- G-btq-bounded-fifo -->
    public func perform<Success: Sendable>(
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) async throws -> Success {
        try await awaitPassingCancellation(enqueue(operation))
    }

    /// Submits `operation`, which cannot throw, and waits for its value; see `perform(_:)`.
    public func perform<Success: Sendable>(
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) async -> Success {
        await awaitPassingCancellation(enqueue(operation))
    }

    /// Submits `operation`, to run isolated to `actor` in its turn, and waits for its value; see
    /// `enqueue(isolatedTo:priority:_:)`.
    public func perform<IsolatedTo: Actor, Success: Sendable>(
        isolatedTo actor: IsolatedTo,
        _ operation: @escaping @Sendable (isolated IsolatedTo) async throws -> Success
    ) async throws -> Success {
        try await awaitPassingCancellation(enqueue(isolatedTo: actor, operation))
    }

    /// Submits `operation`, which cannot throw, to run isolated to `actor` in its turn, and waits for its value.
    public func perform<IsolatedTo: Actor, Success: Sendable>(
        isolatedTo actor: IsolatedTo,
        _ operation: @escaping @Sendable (isolated IsolatedTo) async -> Success
    ) async -> Success {
        await awaitPassingCancellation(enqueue(isolatedTo: actor, operation))
    }

    /// Submits `operation`, to run on the main actor in its turn, and waits for its value.
    public func perform<Success: Sendable>(
        isolatedTo mainActor: MainActor,
        _ operation: @escaping @MainActor @Sendable () async throws -> Success
    ) async throws -> Success {
        try await awaitPassingCancellation(enqueue(isolatedTo: mainActor, operation))
    }

    /// Submits `operation`, which cannot throw, to run on the main actor in its turn, and waits for its value.
    public func perform<Success: Sendable>(
        isolatedTo mainActor: MainActor,
        _ operation: @escaping @MainActor @Sendable () async -> Success
    ) async -> Success {
        await awaitPassingCancellation(enqueue(isolatedTo: mainActor, operation))
    }

    /// Cancels the task of every operation submitted before this call that has not finished, running or waiting, in
    /// the order they were submitted. A cancelled operation that was waiting still starts in its turn, with its task
    /// cancelled. <!-- G-btq-cancelall -->
    ///
    /// - Cost: one short lock, a copy of the unfinished tasks sorted by number, then one `cancel()` each.
    ///   <!-- G-btq-cancelall -->
    public func cancelAll() {
        let tasks = state.withLock { state in state.unfinished.sorted { $0.key < $1.key }.map(\.value) }
        for task in tasks { task.cancel() }
    }

    /// Numbers the operation being submitted and starts its task with `start`, under the queue's lock, so operations
    /// are numbered, and so start, in the order of their submissions.
    private func submit<Started: QueuedOperationTask>(
        _ start: (_ state: LockedBox<State>, _ number: UInt64, _ limit: Int) -> Started
    ) -> Started {
        state.withLock { queue in
            let number = queue.nextNumber
            queue.nextNumber &+= 1
            let task = start(state, number, maxConcurrent)
            queue.unfinished[number] = task
            return task
        }
    }

    /// An operation's task: waits for its turn, runs `body`, then gives its place to the next. Static, so that an
    /// operation keeps the queue's state alive but not the queue; `nonisolated(nonsending)`, so it runs where its task
    /// does (on the main actor for a main-queue context), and so does `body`.
    private nonisolated(nonsending) static func runInTurn<Success>(
        _ state: LockedBox<State>, number: UInt64, limit: Int,
        _ body: nonisolated(nonsending) () async throws -> Success
    ) async rethrows -> Success {
        await waitForTurn(state, number: number, limit: limit)
        defer { finish(state, number: number, limit: limit) }
        return try await body()
    }

    /// `runInTurn` for an operation isolated to `actor`: waits for its turn on the actor (suspended), then runs there.
    private static func runInTurn<IsolatedTo: Actor, Success>(
        on actor: isolated IsolatedTo, _ state: LockedBox<State>, number: UInt64, limit: Int,
        _ body: (isolated IsolatedTo) async throws -> Success
    ) async rethrows -> Success {
        await waitForTurn(state, number: number, limit: limit)
        defer { finish(state, number: number, limit: limit) }
        return try await body(actor)
    }

    /// Returns once operation `number` may start: fewer than `limit` run, and every operation before it has started.
    private nonisolated(nonsending) static func waitForTurn(
        _ state: LockedBox<State>, number: UInt64, limit: Int
    ) async {
        // Starting now, it may also let the operations after it start that came for their turn first.
        let (startsNow, alsoReady) = state.withLock { queue -> (Bool, Startable) in
            guard queue.nextToStart == number, queue.running < limit else { return (false, Startable()) }
            queue.nextToStart &+= 1
            queue.running += 1
            return (true, startable(&queue, limit: limit))
        }
        alsoReady.resumeAll()
        if startsNow { return }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let ready = state.withLock { queue in
                queue.waiting[number] = continuation
                return startable(&queue, limit: limit)
            }
            ready.resumeAll()
        }
    }

    /// Ends operation `number`: its place goes to the next operations that may start.
    private static func finish(_ state: LockedBox<State>, number: UInt64, limit: Int) {
        let ready = state.withLock { queue in
            queue.running -= 1
            queue.unfinished[number] = nil
            return startable(&queue, limit: limit)
        }
        ready.resumeAll()
    }

    /// Takes the operations that may start now, in order, counting them as running; they are resumed after unlocking.
    private static func startable(_ queue: inout State, limit: Int) -> Startable {
        var ready = Startable()
        while queue.running < limit, let next = queue.waiting.removeValue(forKey: queue.nextToStart) {
            queue.nextToStart &+= 1
            queue.running += 1
            ready.append(next)
        }
        return ready
    }

    /// The operations let start by one change, to resume after unlocking: usually one, kept inline (no allocation).
    private struct Startable {
        private var first: UnsafeContinuation<Void, Never>?
        private var others: [UnsafeContinuation<Void, Never>] = []

        mutating func append(_ continuation: UnsafeContinuation<Void, Never>) {
            if first == nil { first = continuation } else { others.append(continuation) }
        }

        func resumeAll() {
            first?.resume()
            for continuation in others { continuation.resume() }
        }
    }
}
