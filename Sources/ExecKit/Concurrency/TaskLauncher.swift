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
/// Every ``ExecutionContext`` is a launcher whose tasks run in that context.
public protocol TaskLauncher: Sendable {
    /// Starts a task that runs `operation` and returns it, so the caller can await its value or cancel it.
    @discardableResult
    func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error>
}

extension TaskLauncher {
    /// Starts a task with no explicit priority; see ``task(priority:_:)``.
    @discardableResult
    public func task<Success: Sendable>(_ operation: sending @escaping () async throws -> Success) -> Task<
        Success, any Error
    > {
        task(priority: nil, operation)
    }
}

extension ExecutionContext {
    /// Starts a task whose jobs run in this context (it prefers ``taskExecutor``), and returns it.
    ///
    /// The task runs here before and after each suspension, and so do its child tasks and `async let`s, unless they
    /// call into an actor (which runs on the actor's executor) or set another preference.
    @discardableResult
    public func task<Success: Sendable>(
        priority: TaskPriority?,
        _ operation: sending @escaping () async throws -> Success
    ) -> Task<Success, any Error> {
        Task(executorPreference: taskExecutor, priority: priority, operation: operation)
    }
}
