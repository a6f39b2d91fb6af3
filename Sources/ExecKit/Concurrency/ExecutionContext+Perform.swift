// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension ExecutionContext {
    /// Runs `body` in this context, suspending the caller until it has run, and returns its value or throws its error.
    ///
    /// ```swift
    /// let count = try await database.perform { try store.count() }
    /// ```
    ///
    /// The block goes through ``invokeAsync(_:)``: it never runs inside the caller's frame, so a mutex context does
    /// not block the caller's thread while waiting for its lock.
    ///
    /// - Cancellation: `perform` does not react to the awaiting task's cancellation. Once submitted, the block runs, and
    ///   the caller resumes when it has run; check `Task.isCancelled` before calling if the work is optional.
    /// - Cost: a continuation and one closure allocation for the hop, plus the context's `invokeAsync`. `body` is not
    ///   escaping, so the caller's closure literal is not allocated.
    public func perform<Return: Sendable, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @Sendable () throws(Failure) -> Return
    ) async throws(Failure) -> Return {
        try await performAsynchronously(body) { invokeAsync($0) }
    }
}

extension Exec {
    /// Runs `body` in this context and returns its value or throws its error; see
    /// ``ExecutionContext/perform(isolation:_:)``.
    ///
    /// - ``direct`` runs `body` inline, without suspending; so does ``main`` (and ``mainOrdered`` with nothing of its
    ///   own pending) when the caller already runs on the main queue, as `@MainActor` code does. Every other case goes
    ///   through ``invokeAsync(_:)``.
    @inlinable
    public func perform<Return: Sendable, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @Sendable () throws(Failure) -> Return
    ) async throws(Failure) -> Return {
        // Fast paths first, inlined into the caller: no hop, no suspension.
        if case .direct = self { return try body() }
        if case .main = self, DispatchQueue.isMainQueueCurrent { return try body() }
        return try await performElsewhere(body)
    }

    /// Everything but the inlined fast paths of ``perform(isolation:_:)``.
    @usableFromInline
    func performElsewhere<Return: Sendable, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @Sendable () throws(Failure) -> Return
    ) async throws(Failure) -> Return {
        if case .mainOrdered = self, MainOrderedQueue.runsImmediately { return try body() }
        return try await performAsynchronously(body) { invokeAsync($0) }
    }
}

/// Runs `body` through `submit` and suspends until it has run.
///
/// Why `withoutActuallyEscaping` is sound: the caller stays suspended until the submitted block has run `body`, in
/// every case (cancellation does not end the wait), so `body` never outlives this call.
func performAsynchronously<Return: Sendable, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: @Sendable () throws(Failure) -> Return,
    submit: @Sendable (@escaping @Sendable () -> Void) -> Void
) async throws(Failure) -> Return {
    let outcome = await withoutActuallyEscaping(body) { escapable in
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Return, Failure>, Never>) in
            submit { continuation.resume(returning: Result(catching: escapable)) }
        }
    }
    return try outcome.get()
}
