// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Default timers for any context: a Dispatch timer fires on a global queue, then `invoke`s the handler into the
// context, where it checks for cancellation first. So on a serial context no handler starts after `cancel()` has
// returned from inside that context, even if the firing was already on its way.

extension ExecutionContext {
    /// Calls `handler` once in this context after `interval`.
    ///
    /// - Parameters:
    ///   - interval: How long from now; a negative interval fires as soon as possible.
    ///   - leeway: How late the system may fire to save power.
    /// - Returns: The timer's lifetime: cancelling or releasing it stops the timer. On a serial context, once
    ///   `cancel()` has returned from inside the context, the handler never runs.
    public func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        timerInvokingContext(interval: interval, leeway: leeway, repeats: false, handler: handler)
    }

    /// Calls `handler(parameter)` once in this context after `interval`; otherwise as
    /// ``singleTimer(interval:leeway:handler:)``.
    public func singleTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: Duration,
        leeway: Duration,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any Lifetime {
        singleTimer(interval: interval, leeway: leeway) { handler(parameter) }
    }

    /// Calls `handler` in this context every `interval`, first `interval` from now, until the returned lifetime is
    /// cancelled or released.
    ///
    /// - Precondition: `interval` is positive; zero or negative stops the program with a message.
    public func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        requirePositivePeriod(interval, "periodicTimer(interval:leeway:handler:)")
        return timerInvokingContext(interval: interval, leeway: leeway, repeats: true, handler: handler)
    }

    /// Calls `handler(parameter)` in this context every `interval`; otherwise as
    /// ``periodicTimer(interval:leeway:handler:)``.
    public func periodicTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: Duration,
        leeway: Duration,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any Lifetime {
        requirePositivePeriod(interval, "periodicTimer(parameter:interval:leeway:handler:)")
        return periodicTimer(interval: interval, leeway: leeway) { handler(parameter) }
    }

    /// Calls `handler` once in this context after `interval`, with no leeway.
    public func singleTimer(interval: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        singleTimer(interval: interval, leeway: .zero, handler: handler)
    }

    /// Calls `handler(parameter)` once in this context after `interval`, with no leeway.
    public func singleTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: Duration,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any Lifetime {
        singleTimer(parameter: parameter, interval: interval, leeway: .zero, handler: handler)
    }

    /// Calls `handler` in this context every `interval`, with no leeway.
    public func periodicTimer(interval: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        periodicTimer(interval: interval, leeway: .zero, handler: handler)
    }

    /// Calls `handler(parameter)` in this context every `interval`, with no leeway.
    public func periodicTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: Duration,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any Lifetime {
        periodicTimer(parameter: parameter, interval: interval, leeway: .zero, handler: handler)
    }

    /// A Dispatch timer on a global queue whose firings `invoke` the handler into this context, where the handler
    /// first checks that the timer was not cancelled meanwhile.
    private func timerInvokingContext(
        interval: Duration,
        leeway: Duration,
        repeats: Bool,
        handler: @escaping @Sendable () -> Void
    ) -> any Lifetime {
        let cancellation = TimerCancellation()
        let fire: @Sendable () -> Void = {
            self.invoke { if !cancellation.isCancelled { handler() } }
        }
        let (dispatchInterval, dispatchLeeway) = (DispatchTimeInterval(interval), DispatchTimeInterval(leeway))
        let source =
            repeats
            ? DispatchSource.repeatingTimer(
                interval: dispatchInterval, leeway: dispatchLeeway, queue: GlobalQueues.default, handler: fire)
            : DispatchSource.singleTimer(
                interval: dispatchInterval, leeway: dispatchLeeway, queue: GlobalQueues.default, handler: fire)
        return DispatchTimerLifetime(source: source, cancellation: cancellation)
    }
}
