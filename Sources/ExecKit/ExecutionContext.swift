// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A place where blocks run: immediately, under a lock, on a queue, on a thread of your own.
///
/// An asynchronous API takes a context so its caller decides where the callback runs. Implement the four required
/// members (``type``, ``invoke(_:)``, ``invokeAsync(_:)``, ``invokeAndWait(_:)``) and everything else, the
/// value-returning ``invokeSync(_:)``, timers, ``timestamp()`` and ``isCurrent`` (`false` unless you know better),
/// comes from default implementations.
///
/// Conforming types must be safe to use from any thread. Every context is also a ``TaskLauncher`` whose tasks run in it.
/// <!-- G-task-launcher-prefers-executor -->
public protocol ExecutionContext: TaskLauncher {
    /// What this context promises, as seen from the current caller; see ``ExecutionType``.
    var type: ExecutionType { get }

    /// Whether code running now is inside this context: it runs one of the context's blocks (for a serial context,
    /// holding its exclusion), possibly through calls into other contexts since. A block that runs for a caller parked
    /// in a `sync` counts as inside every context the caller is inside, on whichever thread it runs (see *Choosing a
    /// context*).
    ///
    /// The default implementation answers `false`. "Unknown" must answer `false`, never `true`: callers rely on `true`
    /// to run work inline instead of hopping (and the Swift Concurrency bridge builds actor isolation checks on it), so
    /// a false positive breaks mutual exclusion, while a false negative only costs a hop.
    /// <!-- G-custom-iscurrent-default-false -->
    var isCurrent: Bool { get }

    /// Whether code running in this context may call ``invokeSync(_:)`` (or `invoke`) into it again and be sure not to
    /// deadlock: CwlUtils' meaning, answered for this context rather than for its ``type``.
    ///
    /// The default implementation answers `type.isReentrant`, the answer that is safe for every context of the type.
    /// ExecKit's own contexts answer what they do: its serial asynchronous contexts (`Exec.mainAsync`,
    /// `Exec.asyncQueue()`, `serialized()` contexts) run a nested `invokeSync` inline, so they answer `true`, where the
    /// type `.serialAsync` answers `false`; a mutex queue (`Exec.syncQueue()`) answers `false`.
    /// <!-- G-exec-isreentrant -->
    var isReentrant: Bool { get }

    /// Runs `execute` the way this context prefers: immediately or asynchronously, as ``type`` says.
    func invoke(_ execute: @escaping @Sendable () -> Void)

    /// Calls `handler(value)` the way ``invoke(_:)`` would run `{ handler(value) }`.
    ///
    /// A requirement (with a default implementation) so that ``Exec`` can deliver a value on its immediate paths without
    /// forming a closure, even when called through `some ExecutionContext` or `any ExecutionContext`.
    func invoke<Value: Sendable>(_ handler: @escaping @Sendable (Value) -> Void, with value: Value)

    /// Runs `execute` asynchronously, even where the context would run it immediately: `invokeAsync` never runs the
    /// block before returning, so a caller can use it to avoid re-entrancy. <!-- G-invokeasync-never-inline -->
    func invokeAsync(_ execute: @escaping @Sendable () -> Void)

    /// Runs `execute` in the context and returns only once it has finished.
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void)

    /// Runs `execute` in the context, waits for it, and returns its value or rethrows its error.
    ///
    /// The default implementation waits through ``invokeAndWait(_:)``. Waiting from inside a non-re-entrant context
    /// (see ``ExecutionType/isReentrant``) is a programming error.
    func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return

    /// Runs `execute` once in this context after `delay`, with nothing to keep: fire and forget.
    ///
    /// The default implementation starts a ``singleTimer(interval:leeway:handler:)`` that keeps itself alive until it
    /// has fired, so it works for any context that has timers (a virtual-time test context included). Implement it
    /// when your context has a cheaper way to run a block later. <!-- G-custom-invoke-after-self-keeping -->
    func invoke(after delay: Duration, _ execute: @escaping @Sendable () -> Void)

    /// Calls `handler` once in this context after `interval`; see the default implementation for the guarantees.
    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime

    /// Calls `handler(parameter)` once in this context after `interval`.
    func singleTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: Duration,
        leeway: Duration,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any Lifetime

    /// Calls `handler` in this context every `interval` until the returned lifetime is cancelled or released.
    func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime

    /// Calls `handler(parameter)` in this context every `interval` until the returned lifetime ends.
    func periodicTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: Duration,
        leeway: Duration,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any Lifetime

    /// The current time as this context sees it; a virtual-time test context answers with its virtual clock.
    func timestamp() -> DispatchTime

    /// A concurrent asynchronous context to move work to, away from this one (CwlUtils' `relativeAsync`): the default
    /// is the global-queue case of `qos` (``Exec/default`` for `nil`); a virtual-time test context answers with its
    /// coordinator's global queue, so work moved there stays in virtual time.
    /// <!-- G-exec-relativeasync G-virtual-relativeasync -->
    func relativeAsync(qos: DispatchQoS.QoSClass?) -> Exec

    /// A `TaskExecutor` that runs a task's jobs in this context, through ``invokeAsync(_:)``.
    ///
    /// The default implementation makes a new executor, which keeps this context alive, on every access. Implement it
    /// to hand out one shared executor instead. <!-- G-custom-task-executor-default -->
    var taskExecutor: any TaskExecutor { get }

    /// The `SerialExecutor` of this context, for an actor that should run in it; only serial contexts have one.
    ///
    /// The default implementation stops the program with a message: an `UnownedSerialExecutor` does not keep its
    /// executor alive, so only the context can own it. A context backed by a private queue can return
    /// `Exec.queue(queue, .serialAsync).unownedSerialExecutor`, which that queue keeps alive.
    /// <!-- G-custom-no-serial-executor G-actor-queue-executor -->
    var unownedSerialExecutor: UnownedSerialExecutor { get }
}
