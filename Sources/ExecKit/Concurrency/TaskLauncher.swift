// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Something that starts unstructured tasks: take one as a dependency instead of calling `Task { }` directly, and a
/// test can substitute a launcher whose tasks it runs to completion deterministically.
///
/// ```swift
/// final class Refresher {
///     let launcher: any TaskLauncher
///     init(launcher: any TaskLauncher = Exec.utility) { self.launcher = launcher }
///     func refresh() { launcher.task { try await reload() } }
/// }
/// ```
///
/// Like `Task.init`, `task` comes in two forms: an operation that cannot throw gives a `Task<Success, Never>`, whose
/// `value` is read without `try`; one that can throw gives a `Task<Success, any Error>`.
///
/// Every ``ExecutionContext`` is a launcher whose tasks run in that context.
///
/// The operation is `nonisolated(nonsending)`: it runs where the launcher's task starts it (in the context, or on the
/// main actor for a main-queue context), not on the global executor, which a plain nonisolated `async` closure would
/// hop to first. A launcher of your own spells its `task` requirements with that type, and wraps the operation when
/// it starts a task: `Task(priority: priority) { try await operation() }`. <!-- G-task-main-default-actors-off-main -->
public protocol TaskLauncher: Sendable {
    /// Starts a task that runs `operation` and returns it, so the caller can await its value or cancel it.
    @discardableResult
    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error>

    /// Starts a task that runs `operation`, which cannot throw, and returns it: `await launcher.task { 42 }.value`
    /// needs no `try`.
    @discardableResult
    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never>
}

extension TaskLauncher {
    /// Starts a task with no explicit priority; see `task(priority:_:)`.
    @discardableResult
    public func task<Success: Sendable>(
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        task(priority: nil, operation)
    }

    /// Starts a task with no explicit priority, for an operation that cannot throw.
    @discardableResult
    public func task<Success: Sendable>(
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        task(priority: nil, operation)
    }

    /// The non-throwing form for a launcher that implements only the throwing one (as launchers written before it
    /// existed do): `operation` runs through the throwing form, and the returned task waits for it and passes its
    /// cancellation on. <!-- G-task-launcher-nonthrowing-default -->
    ///
    /// - Precondition: the launcher's throwing form throws only what its operation throws. One that throws by itself
    ///   (checking cancellation before it starts the operation, say) stops the program with a message here, since
    ///   this task has no value to return; such a launcher must implement this requirement itself.
    ///   <!-- G-task-launcher-throwing-stops -->
    /// - Cost: a second task, and the closures that join the two: 8 allocations for a task started and awaited
    ///   through a launcher around ``Exec/default`` that implements only the throwing form, against 2 for a task that
    ///   prefers `.default`'s executor directly.
    ///   A launcher of your own should implement this requirement itself. <!-- G-task-launcher-nonthrowing-cost -->
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        let inner = task(priority: priority) { () async throws -> Success in await operation() }
        return Task(priority: priority) {
            await withTaskCancellationHandler {
                do {
                    return try await inner.value
                } catch {
                    preconditionFailure(
                        "ExecKit: \(Self.self).task(priority:_:) threw \(error) for an operation that cannot throw. "
                            + "Implement the non-throwing task(priority:_:) requirement in \(Self.self).")
                }
            } onCancel: {
                inner.cancel()
            }
        }
    }
}

extension ExecutionContext {
    /// Starts a task whose jobs run in this context (it prefers ``taskExecutor``), and returns it.
    /// <!-- G-task-launcher-prefers-executor -->
    ///
    /// The task runs here before and after each suspension, and so do its child tasks and `async let`s, unless they
    /// call into an actor (which runs on the actor's executor) or set another preference.
    /// <!-- G-task-executor-runs-in-context -->
    ///
    /// - Ordering: on a serial context, tasks started from one thread begin in the order they were started: each
    ///   first job takes its turn in the context's FIFO, and so does a first step that calls an actor whose executor
    ///   is this context's (the shape of an `Uploader` whose `nonisolated func upload(_:)` starts a task that calls
    ///   the actor). After their first suspension, tasks interleave: this orders starts, not completions.
    ///   <!-- G-task-ordered-start -->
    /// - Actors: tasks started here that wait for each other through an actor on this context (one waits on a
    ///   continuation the actor keeps, another resumes it) never hang: the actor's executor runs their jobs with their
    ///   executor preference, so an `await` on the actor's own isolation inside the actor continues inline. Tasks
    ///   of other contexts reach the main actor through the runtime's own executor, without their preference: start
    ///   tasks that wait through main-actor state only on a main-queue context. <!-- G-task-actor-never-hangs -->
    /// - Main queue: ``Exec``'s main-queue contexts start their tasks on the main actor instead, with no preference,
    ///   as `Task { @MainActor in }` does: `@MainActor` calls start inline, and default actors and `nonisolated`
    ///   `async` functions run off the main queue (see `Exec`'s `task(priority:_:)`).
    ///   <!-- G-task-main-isolated G-task-main-default-actors-off-main -->
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        Task(executorPreference: taskExecutor, priority: priority, operation: operation)
    }

    /// Starts a task whose jobs run in this context, for an operation that cannot throw; see
    /// `task(priority:_:)`.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending nonisolated(nonsending) @escaping () async -> Success
    ) -> Task<Success, Never> {
        Task(executorPreference: taskExecutor, priority: priority, operation: operation)
    }
}
