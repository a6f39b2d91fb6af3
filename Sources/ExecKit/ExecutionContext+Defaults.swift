// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension ExecutionContext {
    /// Runs `execute` through ``invokeAndWait(_:)`` and hands back its value or error.
    /// <!-- G-custom-invokesync-default -->
    ///
    /// - Precondition: ``invokeAndWait(_:)`` runs its block before returning, as the protocol requires; a context that
    ///   breaks that stops the program with a message instead of returning garbage.
    ///   <!-- G-custom-invokesync-early-stops -->
    public func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return {
        try waitForResult(of: execute) { block in invokeAndWait(block) }
    }

    /// Calls `handler(value)` in this context: the same as `invoke { handler(value) }`.
    /// <!-- G-custom-invoke-with-default -->
    ///
    /// ``Exec`` overrides it so that its immediate paths form no closure; see ``Exec/invoke(_:with:)``.
    public func invoke<Value: Sendable>(_ handler: @escaping @Sendable (Value) -> Void, with value: Value) {
        invoke { handler(value) }
    }

    /// `false`: a context that does not say otherwise cannot know whether it runs the caller, and "unknown" must
    /// answer `false`. Implement it when your context can tell (a queue you own, a thread you own, a lock you hold).
    /// <!-- G-custom-iscurrent-default-false -->
    public var isCurrent: Bool { false }

    /// `type.isReentrant`: the answer that is safe for every context of this type. <!-- G-exec-isreentrant -->
    public var isReentrant: Bool { type.isReentrant }

    /// The current time: `DispatchTime.now()`. <!-- G-custom-timestamp-default -->
    public func timestamp() -> DispatchTime {
        DispatchTime.now()
    }

    /// The global-queue case of `qos`, ``Exec/default`` for `nil`. <!-- G-exec-relativeasync -->
    public func relativeAsync(qos: DispatchQoS.QoSClass?) -> Exec {
        .globalCase(qos: qos ?? .default)
    }
}

/// Runs a non-escaping, non-`Sendable` closure through an API that takes an escaping `@Sendable` block and waits for
/// it, then returns the closure's value or rethrows its error.
func waitForResult<Return>(
    of execute: () throws -> Return,
    using runAndWait: (@escaping @Sendable () -> Void) -> Void
) rethrows -> Return {
    let outcome: Result<Return, any Error> = withoutActuallyEscaping(execute) { escapable in
        let box = WaitingCall(escapable)
        runAndWait { box.run() }
        guard let outcome = box.outcome else {
            fatalError("ExecKit: invokeAndWait returned before running its block; the context breaks its contract.")
        }
        return outcome
    }
    return try rethrowing(execute, outcome)
}

/// Throws `outcome`'s error in a way the `rethrows` checker accepts: the error can only be one `execute` threw.
private func rethrowing<Return>(_ execute: () throws -> Return, _ outcome: Result<Return, any Error>) rethrows
    -> Return
{
    try rethrowHelper(execute, rescue: { try outcome.get() })
}

private func rethrowHelper<Return>(_ execute: () throws -> Return, rescue: () throws -> Return) rethrows -> Return {
    try rescue()
}

/// Carries a closure and its outcome across an `@Sendable` boundary.
private final class WaitingCall<Return>: @unchecked Sendable {
    // Unchecked: the caller blocks until the block has run, so the closure and its outcome are only ever touched by
    // one thread at a time, with the wait providing the happens-before edge.
    private var execute: (() throws -> Return)?
    var outcome: Result<Return, any Error>?

    init(_ execute: @escaping () throws -> Return) { self.execute = execute }

    /// Runs the closure and lets go of it at once: the context may keep its block (and so this box) alive after the
    /// waiter resumes, but the non-escaping closure must not outlive the wait.
    func run() {
        guard let execute else { return }
        self.execute = nil
        outcome = Result { try execute() }
    }
}
