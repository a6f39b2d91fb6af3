// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Exec's timers fire straight on the context's queue (the main queue for `.main`, the private queue for
// `asyncQueue()`), with no extra hop and no wrapper around the handler; `.direct` fires on a default-QoS global queue
// and `.custom` forwards. No cancellation flag is needed: libdispatch guarantees that a source cancelled from its
// target queue never calls its handler again, which is exactly the serial-context promise. The `parameter:` variants
// and the leeway-free spellings come from the protocol's default implementations, which call these two.

extension Exec {
    /// Calls `handler` once in this context after `interval`.
    ///
    /// - Parameters:
    ///   - interval: How long from now; a negative interval fires as soon as possible.
    ///   - leeway: How late the system may fire to save power.
    ///   - handler: The work to run in this context.
    /// - Returns: The timer's lifetime: cancelling or releasing it stops the timer. On a serial context, once
    ///   `cancel()` has returned from inside the context, the handler never runs.
    public func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        if case .custom(let context) = self {
            return context.singleTimer(interval: interval, leeway: leeway, handler: handler)
        }
        let source = DispatchSource.singleTimer(
            interval: DispatchTimeInterval(interval),
            leeway: DispatchTimeInterval(leeway),
            queue: dispatchQueue,
            handler: handler
        )
        return DispatchTimerLifetime(source: source, cancellation: nil)
    }

    /// Calls `handler` in this context every `interval`, first `interval` from now, until the returned lifetime is
    /// cancelled or released.
    ///
    /// - Parameters:
    ///   - interval: The period; it must be positive (zero or negative stops the program with a message).
    ///   - leeway: How late the system may fire to save power.
    ///   - handler: The work to run in this context.
    public func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        requirePositivePeriod(interval, "periodicTimer(interval:leeway:handler:)")
        if case .custom(let context) = self {
            return context.periodicTimer(interval: interval, leeway: leeway, handler: handler)
        }
        let source = DispatchSource.repeatingTimer(
            interval: DispatchTimeInterval(interval),
            leeway: DispatchTimeInterval(leeway),
            queue: dispatchQueue,
            handler: handler
        )
        return DispatchTimerLifetime(source: source, cancellation: nil)
    }

    /// The current time; ``custom(_:)`` asks its context (a virtual-time context answers with virtual time).
    public func timestamp() -> DispatchTime {
        if case .custom(let context) = self { return context.timestamp() }
        return DispatchTime.now()
    }
}
