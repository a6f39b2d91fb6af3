// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// Why a ``OnceCompletion`` finished without a value, or why `withCallback(timeout:timerContext:_:)` threw.
public enum CompletionFailure: Error, Sendable, Hashable {
    /// The timeout passed before a value arrived.
    case timedOut
    /// ``OnceCompletion/cancel()`` was called, or the completion was released, before a value arrived.
    case cancelled
}

/// A completion handler that runs exactly once, with the first of: a value (``complete(_:)``), the timeout, or a
/// cancellation (``cancel()``). The request timeout of callback code, without a hand-written finish-once flag:
///
/// ```swift
/// let completion = OnceCompletion<Data>(context: .main, timeout: .seconds(30)) { result in
///     switch result {
///     case .success(let data): show(data)
///     case .failure(.timedOut): showTimeoutMessage()
///     case .failure(.cancelled): break
///     }
/// }
/// api.load(url) { data in completion.complete(data) }  // a late answer, after the timeout, is dropped
/// ```
///
/// - Exactly once: the handler runs once, in `context`, with the winner; every later outcome is dropped and its
///   call returns `false`. <!-- G-once-exactly-once -->
/// - Release: when one outcome wins, the handler is released as soon as it has run, and the timeout's timer is
///   cancelled at once (which releases its closure). A value that loses is dropped before ``complete(_:)`` returns.
///   <!-- G-once-release -->
/// - Lifetime: while the timeout is pending, its timer keeps the completion alive, so the timeout is delivered even
///   when nothing else holds the completion. A completion released with no outcome (possible only without a timeout)
///   delivers ``CompletionFailure/cancelled`` through `context.invoke` on the thread that released it (inline there
///   on ``Exec/direct``): no handler is silently lost. <!-- G-once-lifetime -->
/// - Virtual time: the timeout is a ``Exec/singleTimer(interval:handler:)`` on `context`, so a `TestCoordinator`
///   context (or `.direct` inside `overridingSharedContexts`) times out when virtual time reaches it. On a context
///   whose timers fire at once (`Exec.immediate(clock:)` of ExecTesting), the timeout wins during `init`.
///   <!-- G-once-virtual-time G-once-immediate-clock-timeout -->
/// - Thread-safety: ``complete(_:)`` and ``cancel()`` may be called from any thread, any number of times.
///   <!-- G-once-thread-safety -->
/// - Cost: one lock-protected state and, with a timeout, one timer. Made and completed without a timeout on
///   ``Exec/direct``, with a closure value as the handler: 8 allocations. <!-- G-once-cost -->
public final class OnceCompletion<Value: Sendable>: Sendable {
    /// The handler's argument: the value, or why there is none.
    public typealias Outcome = Result<Value, CompletionFailure>

    private enum State: Sendable {
        case pending(handler: @Sendable (Outcome) -> Void, timer: (any Lifetime)?)
        case finished
    }

    private let context: Exec
    private let state: LockedBox<State>

    /// Makes a completion whose `handler` runs in `context` with the first outcome.
    ///
    /// - Parameters:
    ///   - context: where `handler` runs, and where the timeout's timer runs. ``Exec/direct`` (the default) runs the
    ///     handler on the thread that completes or cancels, and a timeout on a global queue.
    ///     <!-- G-once-direct-inline -->
    ///   - timeout: how long to wait for a value before the handler gets ``CompletionFailure/timedOut``; `nil` waits
    ///     for ``complete(_:)`` or ``cancel()``.
    ///   - handler: runs once, with the winning outcome.
    public init(
        context: Exec = .direct,
        timeout: Duration? = nil,
        handler: @escaping @Sendable (Outcome) -> Void
    ) {
        self.context = context
        self.state = LockedBox(.pending(handler: handler, timer: nil), observed: false)
        guard let timeout else { return }
        // The timer holds `self` until it fires or is cancelled by the winner; the handler runs in the timer's
        // firing, which is already in `context`.
        let timer = context.singleTimer(interval: timeout) {
            self.finish(with: .failure(.timedOut), inContext: true)
        }
        let isPending = state.withLock { state in
            guard case .pending(let handler, nil) = state else { return false }
            state = .pending(handler: handler, timer: timer)
            return true
        }
        // Finished before the timer was stored (a zero timeout firing on another thread, say): it is not needed.
        if !isPending { timer.cancel() }
    }

    deinit {
        // Only reachable without a pending timer (a pending timer holds `self`).
        guard case .pending(let handler, let timer) = state.withLock({ $0 }) else { return }
        timer?.cancel()
        context.invoke { handler(.failure(.cancelled)) }
    }

    /// Delivers `value` unless an outcome has already won.
    ///
    /// - Returns: `true` if `value` won (the handler runs with it, in `context`); `false` if it arrived late and was
    ///   dropped. <!-- G-once-exactly-once -->
    @discardableResult
    public func complete(_ value: Value) -> Bool {
        finish(with: .success(value), inContext: false)
    }

    /// Delivers ``CompletionFailure/cancelled`` unless an outcome has already won, and cancels the timeout.
    /// <!-- G-once-exactly-once G-once-release -->
    ///
    /// - Returns: `true` if the cancellation won; `false` if the completion had already finished.
    @discardableResult
    public func cancel() -> Bool {
        finish(with: .failure(.cancelled), inContext: false)
    }

    /// Whether an outcome has won (the handler has run, or is on its way into `context`).
    public var isFinished: Bool {
        state.withLock { state in
            if case .finished = state { return true }
            return false
        }
    }

    /// Takes the handler and the timer if nothing has won yet, then cancels the timer and runs the handler.
    @discardableResult
    private func finish(with outcome: Outcome, inContext: Bool) -> Bool {
        let taken: (handler: @Sendable (Outcome) -> Void, timer: (any Lifetime)?)? = state.withLock { state in
            guard case .pending(let handler, let timer) = state else { return nil }
            state = .finished
            return (handler, timer)
        }
        guard let taken else { return false }
        taken.timer?.cancel()
        if inContext {
            taken.handler(outcome)
        } else {
            let handler = taken.handler
            context.invoke { handler(outcome) }
        }
        return true
    }
}
