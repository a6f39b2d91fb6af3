// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import Dispatch

// Every factory here returns a timer that is already scheduled and resumed. That matters beyond convenience:
// libdispatch stops the process when a source that was never resumed is released, so a timer that is dropped or
// cancelled before it fires must already be resumed.

extension DispatchSource {
    /// A timer that calls `handler` once, `interval` from now, on `queue`. <!-- G-dispatch-single-timer-once -->
    ///
    /// - Parameters:
    ///   - interval: How long from now; a negative interval fires as soon as possible.
    ///   - leeway: How late the system may fire to save power.
    ///   - queue: Where `handler` runs; `nil` means a default-QoS global queue.
    ///   - handler: The work to run when the timer fires.
    /// - Returns: The resumed timer. Cancel it to stop it before it fires; releasing it without cancelling is safe.
    ///   <!-- G-dispatch-timer-release-safe -->
    public static func singleTimer(
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        queue: DispatchQueue? = nil,
        handler: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        resumedTimer(queue: queue, handler: handler) { timer in
            timer.schedule(deadline: .now() + interval.clampedToZero, leeway: leeway)
        }
    }

    /// A timer that calls `handler(parameter)` once, `interval` from now, on `queue`.
    ///
    /// The parameter lets a handler that re-arms its timer (see
    /// ``Dispatch/DispatchSourceTimer/scheduleOneshot(parameter:interval:leeway:handler:)``) tell a stale firing
    /// from the current one. <!-- G-dispatch-rearm-stale -->
    public static func singleTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        queue: DispatchQueue? = nil,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any DispatchSourceTimer {
        singleTimer(interval: interval, leeway: leeway, queue: queue) { handler(parameter) }
    }

    /// A timer that calls `handler` every `interval` on `queue`, first `interval` from now.
    ///
    /// - Precondition: `interval` is positive; zero or negative intervals stop the program with a message instead of
    ///   spinning. <!-- G-dispatch-repeating-positive -->
    /// - Returns: The resumed timer; it fires until cancelled.
    public static func repeatingTimer(
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        queue: DispatchQueue? = nil,
        handler: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        requirePositive(interval, "DispatchSource.repeatingTimer(interval:leeway:queue:handler:)")
        return resumedTimer(queue: queue, handler: handler) { timer in
            timer.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
        }
    }

    /// A timer that calls `handler(parameter)` every `interval` on `queue`, first `interval` from now.
    ///
    /// - Precondition: `interval` is positive.
    public static func repeatingTimer<Parameter: Sendable>(
        parameter: Parameter,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        queue: DispatchQueue? = nil,
        handler: @escaping @Sendable (Parameter) -> Void
    ) -> any DispatchSourceTimer {
        repeatingTimer(interval: interval, leeway: leeway, queue: queue) { handler(parameter) }
    }
}

extension DispatchSource {
    /// A timer source with `handler`, scheduled by `schedule`, then resumed.
    private static func resumedTimer(
        queue: DispatchQueue?,
        handler: @escaping @Sendable () -> Void,
        schedule: (any DispatchSourceTimer) -> Void
    ) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler(handler: handler)
        schedule(timer)
        timer.resume()
        return timer
    }
}

extension DispatchSourceTimer {
    /// Re-arms this timer to call `handler(parameter)` once, `interval` from now, replacing its handler.
    ///
    /// Call it from the timer's queue (typically from its own handler): a firing already under way then finishes with
    /// the old handler and old parameter, and comparing the parameter with the current one tells such a stale firing
    /// apart. <!-- G-dispatch-rearm-stale --> From another thread, a firing that has not started may already run the
    /// new handler.
    public func scheduleOneshot<Parameter: Sendable>(
        parameter: Parameter,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        handler: @escaping @Sendable (Parameter) -> Void
    ) {
        setEventHandler { handler(parameter) }
        schedule(deadline: .now() + interval.clampedToZero, leeway: leeway)
    }

    /// Re-arms this timer to call `handler(parameter)` every `interval`, first `interval` from now, replacing its
    /// handler. Call it from the timer's queue, as ``scheduleOneshot(parameter:interval:leeway:handler:)`` explains.
    ///
    /// - Precondition: `interval` is positive.
    public func scheduleRepeating<Parameter: Sendable>(
        parameter: Parameter,
        interval: DispatchTimeInterval,
        leeway: DispatchTimeInterval = .nanoseconds(0),
        handler: @escaping @Sendable (Parameter) -> Void
    ) {
        requirePositive(interval, "DispatchSourceTimer.scheduleRepeating(parameter:interval:leeway:handler:)")
        setEventHandler { handler(parameter) }
        schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
    }
}

extension DispatchTimeInterval {
    /// Negative intervals become zero: "fire as soon as possible".
    fileprivate var clampedToZero: DispatchTimeInterval {
        nanoseconds < 0 ? .nanoseconds(0) : self
    }
}

private func requirePositive(_ interval: DispatchTimeInterval, _ call: StaticString) {
    if interval.nanoseconds <= 0 {
        fatalError("\(call): a repeating timer needs a positive interval, got \(interval.nanoseconds) ns.")
    }
}
