// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch

extension ExecutionContext {
    /// Runs `body` in this context, suspending the caller until it has run, and returns its value or throws its error.
    ///
    /// ```swift
    /// let count = try await database.perform { try store.count() }
    /// ```
    ///
    /// The block goes through ``invokeAsync(_:)``: it never runs inside the caller's frame, so a mutex context does
    /// not block the caller's thread while waiting for its lock. <!-- G-perform-mutex-no-block -->
    ///
    /// - Cancellation: `perform` does not react to the awaiting task's cancellation. Once submitted, the block runs, and
    ///   the caller resumes when it has run; check `Task.isCancelled` before calling if the work is optional.
    ///   <!-- G-perform-ignores-cancellation -->
    /// - Dropped blocks: if the context lets go of the block without running it (a `TestCoordinator` in
    ///   `discardPendingWork()` or gone, a context of your own that drops blocks), the block runs on a global queue
    ///   instead, so that the caller still resumes. <!-- G-perform-dropped-block-runs -->
    /// - Cost: the context's `invokeAsync` of one small block, and the caller's suspension and resumption (measured on
    ///   `.utility`: three allocations per call, all of them those). `body` is not escaping, so the caller's closure
    ///   literal is not allocated. <!-- G-perform-no-closure-alloc -->
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
    ///   through ``invokeAsync(_:)``. <!-- G-perform-inline -->
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
        if case .main = self, Exec.isInsideMainQueue { return try body() }
        if case .mainOrdered = self, MainOrderedQueue.runsImmediately { return try body() }
        return try await performAsynchronously(body) { invokeAsync($0) }
    }
}

/// Runs `body` through `submit` and suspends until it has run.
///
/// Why `withoutActuallyEscaping` is sound: the caller stays suspended until the submitted block has run `body`, in
/// every case (cancellation does not end the wait), so `body` never outlives this call. The escape check runs as soon
/// as the caller resumes, possibly on another thread while the worker that ran the block still holds the block; so
/// the block reaches `body` only through a ``PendingPerform``, which lets go of it before resuming the caller.
func performAsynchronously<Return: Sendable, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: @Sendable () throws(Failure) -> Return,
    submit: @Sendable (@escaping @Sendable () -> Void) -> Void
) async throws(Failure) -> Return {
    let outcome = await withoutActuallyEscaping(body) { escapable in
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<Return, Failure>, Never>) in
            let pending = PendingPerform(escapable, continuation)
            submit { pending.run() }
        }
    }
    return try outcome.get()
}

/// One ``performAsynchronously(isolation:_:submit:)`` call on its way through a context: the body, and the caller's
/// continuation.
///
/// The body is released before the continuation is resumed, so that when the caller's `withoutActuallyEscaping`
/// checks that the body did not escape, nothing but the caller refers to it, wherever the submitted block is by then.
private final class PendingPerform<Return: Sendable, Failure: Error>: @unchecked Sendable {
    // Unchecked: `body` is written by `init` and then only by `run()`, which the context calls once; the submission
    // orders the two.
    private var body: (@Sendable () throws(Failure) -> Return)?
    private let continuation: UnsafeContinuation<Result<Return, Failure>, Never>

    init(
        _ body: @escaping @Sendable () throws(Failure) -> Return,
        _ continuation: UnsafeContinuation<Result<Return, Failure>, Never>
    ) {
        self.body = body
        self.continuation = continuation
    }

    /// Runs the body, lets go of it, then resumes the caller.
    func run() {
        continuation.resume(returning: takeAndRunBody())
    }

    /// A context let go of the block without running it (a `TestCoordinator` discarding its work, or gone): the caller
    /// must still resume, so the body runs on a global queue instead, carried by a new pending perform.
    deinit {
        guard let body else { return }
        let rescued = PendingPerform(body, continuation)
        DispatchQueue.global().async { rescued.run() }
    }

    /// Runs the body and returns its outcome; the body's last reference here dies before this returns.
    @inline(never)
    private func takeAndRunBody() -> Result<Return, Failure> {
        guard let body = body.take() else {
            preconditionFailure("ExecKit: a perform block was run twice by its context")
        }
        return Result(catching: body)
    }
}
