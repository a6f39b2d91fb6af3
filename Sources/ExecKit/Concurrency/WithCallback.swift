// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// Calls a callback-based API and suspends until it calls back: the bridge from a `(context, completion)` API to
/// `async`.
///
/// ```swift
/// let data = try await withCallback { context, completion in
///     load(url, context: context, completion: completion)  // completion: (Result<Data, any Error>) -> Void
/// }.get()  // withCallback returns what the completion received; `.get()` unwraps a Result
/// ```
///
/// `start` receives ``Exec/direct`` as the context, so the completion resumes the caller from wherever the API
/// delivers it, without an extra hop. <!-- G-withcallback-direct -->
///
/// - Exactly once: the caller resumes once. A completion called again is ignored; one called after the caller was
///   cancelled is ignored too. <!-- G-withcallback-once -->
/// - Cancellation: if the awaiting task is cancelled before the completion arrives (or was already cancelled), this
///   throws `CancellationError` at once; the API's work is not stopped, and its completion, when it comes, is dropped.
///   Pass the task's cancellation on to the API yourself (through its own cancel handle) if the work should stop.
///   <!-- G-withcallback-cancel -->
/// - A completion that is never called leaves the caller suspended until its task is cancelled; give a timeout
///   (``withCallback(isolation:timeout:timerContext:_:)``) where the API may never call back.
///   <!-- G-withcallback-cancel -->
///
/// Typed throws: this throws `any Error` (only `CancellationError`), so a wrapper that throws its own error type
/// converts in a `do`/`catch` of its own rather than writing `try await withCallback { … }` in a
/// `throws(MyError)` function, which does not compile:
///
/// ```swift
/// func fetch() async throws(FetchError) -> Data {
///     let result: Result<Data, FetchError>
///     do {
///         result = try await withCallback { context, completion in api.fetch(completion: completion) }
///     } catch {
///         throw .cancelled  // withCallback throws only CancellationError (and, with a timeout, .timedOut)
///     }
///     return try result.get()
/// }
/// ```
public func withCallback<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ start: (_ context: Exec, _ completion: @escaping @Sendable (Value) -> Void) -> Void
) async throws -> Value {
    try await resumingOnce(CallbackResumption<Value>(), start)
}

/// Calls a callback-based API and suspends until it calls back or `timeout` passes, whichever comes first; see
/// ``withCallback(isolation:_:)``.
///
/// ```swift
/// let reply = try await withCallback(timeout: .seconds(5)) { context, completion in
///     device.ping(context: context, completion: completion)
/// }
/// ```
///
/// - Timeout: when `timeout` passes first, this throws ``CompletionFailure/timedOut``; the API's work is not stopped,
///   and its completion, when it comes, is dropped. When the completion (or the task's cancellation) comes first,
///   the timer is cancelled before this returns. <!-- G-withcallback-timeout -->
/// - Virtual time: the timeout is a ``Exec/singleTimer(interval:handler:)`` on `timerContext`. The default,
///   ``Exec/direct``, times out on a global queue, or in virtual time inside a `TestCoordinator`'s
///   `overridingSharedContexts`; pass a coordinator's context to time out in its virtual time anywhere.
///   <!-- G-withcallback-virtual-time -->
/// - Cost: ``withCallback(isolation:_:)`` plus one timer. <!-- G-withcallback-timeout-cost -->
public func withCallback<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    timeout: Duration,
    timerContext: Exec = .direct,
    _ start: (_ context: Exec, _ completion: @escaping @Sendable (Value) -> Void) -> Void
) async throws -> Value {
    let resumption = CallbackResumption<Value>()
    let timer = timerContext.singleTimer(interval: timeout) {
        resumption.resume(with: .failure(CompletionFailure.timedOut))
    }
    defer { timer.cancel() }
    return try await resumingOnce(resumption, start)
}

/// The body of both `withCallback` forms: installs the continuation that `resumption` resumes, starts the API, and
/// resumes with `CancellationError` if the task is cancelled first.
private func resumingOnce<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ resumption: CallbackResumption<Value>,
    _ start: (_ context: Exec, _ completion: @escaping @Sendable (Value) -> Void) -> Void
) async throws -> Value {
    try await withTaskCancellationHandler {
        try await withUnsafeThrowingContinuation { continuation in
            resumption.install(continuation)
            start(.direct) { value in resumption.resume(with: .success(value)) }
        }
    } onCancel: {
        resumption.resume(with: .failure(CancellationError()))
    }
}

/// Resumes one continuation with the first outcome offered, whether it arrives before or after the continuation is
/// installed; later outcomes are dropped.
final class CallbackResumption<Value: Sendable>: Sendable {
    private enum State: Sendable {
        case waiting
        case installed(UnsafeContinuation<Value, any Error>)
        case arrivedEarly(Result<Value, any Error>)
        case finished
    }

    private let state = LockedBox(State.waiting, observed: false)

    func install(_ continuation: UnsafeContinuation<Value, any Error>) {
        let early: Result<Value, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .installed(continuation)
                return nil
            case .arrivedEarly(let outcome):
                state = .finished
                return outcome
            case .installed, .finished:
                preconditionFailure("ExecKit: a callback continuation was installed twice")
            }
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with outcome: Result<Value, any Error>) {
        let continuation: UnsafeContinuation<Value, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .arrivedEarly(outcome)
                return nil
            case .installed(let continuation):
                state = .finished
                return continuation
            case .arrivedEarly, .finished:
                return nil  // exactly once: later outcomes are dropped
            }
        }
        continuation?.resume(with: outcome)
    }
}
