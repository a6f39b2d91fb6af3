// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Default timers for any context: a Dispatch timer fires on a global queue, then `invoke`s the handler into the
// context, where it checks for cancellation first. So on a serial context no handler starts after `cancel()` has
// returned from inside that context, even if the firing was already on its way. At most one firing waits in the
// context at a time (see `ContextTimerFiring`), so a context that was busy does not run missed ticks back to back.

extension ExecutionContext {
    /// Calls `handler` once in this context after `interval`.
    ///
    /// - Parameters:
    ///   - interval: How long from now; a negative interval fires as soon as possible.
    ///   - leeway: How late the system may fire to save power.
    ///   - handler: The work to run in this context.
    /// - Returns: The timer's lifetime: cancelling or releasing it stops the timer and releases `handler`; so does the
    ///   firing, once the handler has run. On a serial context, once `cancel()` has returned from inside the context,
    ///   the handler never runs. <!-- G-lifetime-release G-lifetime-handle G-timer-cancel-inside -->
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
    ///   <!-- G-misuse-stops-with-message -->
    /// - Missed periods: at most one firing waits in the context at a time. While the context is busy (a serial
    ///   context still running earlier work), later ticks are skipped, as a `DispatchSource` timer skips them.
    ///   <!-- G-timer-periodic-skips-missed -->
    /// - Dropped deliveries: a context that lets go of a firing's block without running it (one of your own that is
    ///   shutting down, say) loses that tick only; the next period fires as usual. <!-- G-timer-periodic-survives-drops -->
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
    ///
    /// - Precondition: `interval` is positive; zero or negative stops the program with a message naming this call
    ///   and the caller's file and line (`file` and `line` default to the call site).
    ///   <!-- G-misuse-stops-with-message -->
    public func periodicTimer(
        interval: Duration,
        handler: @escaping @Sendable () -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> any Lifetime {
        requirePositivePeriod(interval, "periodicTimer(interval:handler:)", file: file, line: line)
        return periodicTimer(interval: interval, leeway: .zero, handler: handler)
    }

    /// Calls `handler(parameter)` in this context every `interval`, with no leeway.
    ///
    /// - Precondition: `interval` is positive, as for ``periodicTimer(interval:handler:file:line:)``.
    ///   <!-- G-misuse-stops-with-message -->
    public func periodicTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: Duration,
        handler: @escaping @Sendable (Parameter) -> Void,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> any Lifetime {
        requirePositivePeriod(interval, "periodicTimer(parameter:interval:handler:)", file: file, line: line)
        return periodicTimer(parameter: parameter, interval: interval, leeway: .zero, handler: handler)
    }

    /// A Dispatch timer on a global queue whose firings `invoke` the handler into this context, one at a time, where
    /// the handler first checks that the timer was not cancelled meanwhile.
    private func timerInvokingContext(
        interval: Duration,
        leeway: Duration,
        repeats: Bool,
        handler: @escaping @Sendable () -> Void
    ) -> any Lifetime {
        let slot = HandlerSlot(handler)
        let firing = ContextTimerFiring(context: self, handler: slot, repeats: repeats)
        return DispatchTimerLifetime(
            interval: interval, leeway: leeway, repeats: repeats, queue: GlobalQueues.default, handler: slot
        ) { firing.fire() }
    }
}
