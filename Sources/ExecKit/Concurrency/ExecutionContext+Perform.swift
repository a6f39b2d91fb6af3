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
    /// - Cost: a continuation and a closure allocation, plus the context's `invokeAsync`.
    public func perform<Return: Sendable, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable () throws(Failure) -> Return
    ) async throws(Failure) -> Return {
        let outcome = await withUnsafeContinuation {
            (continuation: UnsafeContinuation<Result<Return, Failure>, Never>) in
            invokeAsync { continuation.resume(returning: Result(catching: body)) }
        }
        return try outcome.get()
    }
}

extension Exec {
    /// Runs `body` in this context and returns its value or throws its error; see
    /// ``ExecutionContext/perform(isolation:_:)``.
    ///
    /// - ``direct`` runs `body` inline, without suspending; so does ``main`` (and ``mainOrdered`` with nothing of its
    ///   own pending) when the caller already runs on the main queue, as `@MainActor` code does. Every other case goes
    ///   through ``invokeAsync(_:)``.
    public func perform<Return: Sendable, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable () throws(Failure) -> Return
    ) async throws(Failure) -> Return {
        switch self {
        case .direct:
            return try body()
        case .main where DispatchQueue.isMainQueueCurrent:
            return try body()
        case .mainOrdered where MainOrderedQueue.runsImmediately:
            return try body()
        default:
            let outcome = await withUnsafeContinuation {
                (continuation: UnsafeContinuation<Result<Return, Failure>, Never>) in
                invokeAsync { continuation.resume(returning: Result(catching: body)) }
            }
            return try outcome.get()
        }
    }
}
