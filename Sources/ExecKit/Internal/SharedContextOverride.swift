// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// Replacements for the contexts every module shares (the main-queue cases, the global-queue cases and the
/// asynchronous side of `.direct`), installed by a test harness for one task or one thread at a time.
///
/// ExecTesting's `TestCoordinator.overridingSharedContexts` installs one so that code hard-wired to `Exec.main` or
/// `Exec.utility` runs on the coordinator's simulated queues. Only `Exec`'s slow paths consult it; the inlined fast
/// paths (`.direct.invoke`, `.main.invoke` from the main queue, `perform` on either) never do, so they cost the same
/// whether or not an override was ever installed.
///
/// - Scope: a task-local value, so it covers the body it is installed around, tasks created there (not detached
///   ones) and, outside any task, the installing thread. Parallel tests do not see each other's overrides.
/// - Cost when never installed: one relaxed atomic load on each slow path (``mayBeInstalled``).
package struct SharedContextOverride: Sendable {
    /// Stands in for `.direct` where `.direct` leaves the caller's thread: `invokeAsync`, timers, its task executor.
    package let direct: Exec
    /// Stands in for `.main` and `.mainOrdered`.
    package let main: Exec
    /// Stands in for `.mainAsync`.
    package let mainAsync: Exec
    /// Stands in for the global-queue cases, `.interactive` through `.background`.
    package let global: Exec
    /// Makes the private serial queues that `Exec.asyncQueue()`, `Exec.syncQueue()` and `serialized()` of a
    /// global-queue case would make, given the label and the serial type.
    package let makeSerialQueue: @Sendable (_ label: String, _ type: ExecutionType) -> Exec

    /// Replacements for the shared contexts. Each should be a `.custom` context (a `.custom` is never overridden, so
    /// a replacement cannot redirect to itself).
    package init(
        direct: Exec, main: Exec, mainAsync: Exec, global: Exec,
        makeSerialQueue: @escaping @Sendable (_ label: String, _ type: ExecutionType) -> Exec
    ) {
        self.direct = direct
        self.main = main
        self.mainAsync = mainAsync
        self.global = global
        self.makeSerialQueue = makeSerialQueue
    }

    /// The serial queue an override in force makes in place of a new private one, or `nil` when none is in force.
    /// Consulted by the factories only, which are not hot paths.
    static func serialQueue(label: String, type: ExecutionType) -> Exec? {
        guard mayBeInstalled, let current else { return nil }
        return current.makeSerialQueue(label, type)
    }

    /// The context that stands in for `.direct` while an override is in force (unwrapped from its `.custom`), or `nil`.
    /// For `serialized()`, which is not a hot path.
    static var direct: (any ExecutionContext)? {
        guard mayBeInstalled, let current else { return nil }
        if case .custom(let context) = current.direct { return context }
        return current.direct
    }

    /// The override of the current task, or of this thread outside any task.
    @TaskLocal package static var current: SharedContextOverride?

    /// Set once the first override is installed, and never cleared: until then the slow paths skip the task-local
    /// look-up altogether.
    private static let everInstalled = Atomic<Bool>(false)

    /// Whether any override may be in force; `false` in every process that never installed one.
    static var mayBeInstalled: Bool { everInstalled.load(ordering: .relaxed) }

    /// Runs `body` with `replacement` in force for this task (or this thread, outside a task).
    package static func withOverride<Return>(_ replacement: SharedContextOverride, _ body: () throws -> Return)
        rethrows -> Return
    {
        everInstalled.store(true, ordering: .relaxed)
        return try $current.withValue(replacement, operation: body)
    }

    /// Runs the asynchronous `body` with `replacement` in force for this task and the tasks it creates.
    package static func withOverride<Return>(
        _ replacement: SharedContextOverride,
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Return
    ) async rethrows -> Return {
        everInstalled.store(true, ordering: .relaxed)
        return try await $current.withValue(replacement, operation: body, isolation: isolation)
    }

    /// The replacement for `context` under this override, or `nil` for the cases it leaves alone (`.queue`,
    /// `.custom`).
    func replacement(for context: Exec) -> Exec? {
        switch context {
        case .direct: return direct
        case .main, .mainOrdered: return main
        case .mainAsync: return mainAsync
        case .interactive, .user, .default, .utility, .background: return global
        case .queue, .custom: return nil
        }
    }
}

extension Exec {
    /// What a test's shared-context override puts in place of this case, or `nil` when none applies: no override
    /// installed (one relaxed load), none in force for this task or thread, or a case it leaves alone.
    ///
    /// Consulted on slow paths only; see ``SharedContextOverride``.
    @inline(__always)
    var overridden: Exec? {
        guard SharedContextOverride.mayBeInstalled else { return nil }
        return overrideInForce()
    }

    /// The task-local look-up behind ``overridden``, kept out of line so the check above stays a load and a branch.
    @inline(never)
    private func overrideInForce() -> Exec? {
        SharedContextOverride.current?.replacement(for: self)
    }
}
