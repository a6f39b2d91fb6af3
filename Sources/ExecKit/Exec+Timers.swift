// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch

// Exec's timers fire straight on the context's queue (the main queue for `.main`, the private queue for
// `asyncQueue()`), with no extra hop; `.direct` fires on a default-QoS global queue and `.custom` forwards. Each queue
// keeps its timers in one `TimerEngine` (Timers/): one Dispatch source armed for the earliest deadline, a heap behind
// it. A firing takes its timer out of the heap under the engine's lock right before the handler runs, and `cancel()`
// removes it under that lock, so on a serial context, once `cancel()` has returned inside it, the handler never runs
// again. The `parameter:` variants and the leeway-free spellings come from the protocol's default implementations,
// which call these two.

extension Exec {
    /// Calls `handler` once in this context after `interval`.
    ///
    /// - Parameters:
    ///   - interval: How long from now; a negative interval fires as soon as possible.
    ///   - leeway: How late the system may fire to save power.
    ///   - handler: The work to run in this context.
    /// - Returns: The timer's lifetime: cancelling or releasing it stops the timer and releases `handler`; so does
    ///   the firing itself, once the handler has run. On a serial context, once `cancel()` has returned from inside
    ///   the context, the handler never runs. <!-- G-lifetime-release G-lifetime-handle G-timer-cancel-inside -->
    /// - Ordering: never before `interval` has passed. On the main queue and private serial queues, timers fire in
    ///   deadline order, equal deadlines in scheduling order; on global queues, several due handlers run in parallel.
    ///   <!-- G-timer-never-early G-timer-serial-deadline-order G-timer-concurrent-parallel -->
    /// - Cost: one allocation and an O(log n) heap insertion under the queue's timer lock (n: pending timers on that
    ///   queue); a Dispatch call only when this deadline is the earliest. Cancelling is O(log n) and calls no Dispatch.
    ///   <!-- G-timer-schedule-cost -->
    public func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        timer(interval: interval, leeway: leeway, repeats: false, handler: handler)
    }

    /// Calls `handler` in this context every `interval`, first `interval` from now, until the returned lifetime is
    /// cancelled or released.
    ///
    /// - Parameters:
    ///   - interval: The period; it must be positive (zero or negative stops the program with a message).
    ///     <!-- G-misuse-stops-with-message -->
    ///   - leeway: How late the system may fire to save power.
    ///   - handler: The work to run in this context.
    /// - Returns: The timer's lifetime: cancelling or releasing it stops the timer and releases `handler`. A firing
    ///   that finds the context still busy with the previous one is skipped, never run back to back: the next firing
    ///   is the first multiple of `interval` (counted from the call) after the handler returns, so it does not drift,
    ///   and one handler never runs twice at once, even on a global queue.
    ///   <!-- G-lifetime-release G-lifetime-handle -->
    ///   <!-- G-timer-periodic-skips-missed G-timer-periodic-no-drift G-timer-periodic-not-reentrant -->
    /// - Ordering and cost: as ``singleTimer(interval:leeway:handler:)``.
    ///   <!-- G-timer-never-early G-timer-serial-deadline-order G-timer-concurrent-parallel -->
    public func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        requirePositivePeriod(interval, "periodicTimer(interval:leeway:handler:)")
        return timer(interval: interval, leeway: leeway, repeats: true, handler: handler)
    }

    /// A timer at an absolute deadline (one-shot, or every `period` after it), for tests that need equal deadlines (the
    /// public API computes each deadline from the current time). Stops the program for ``custom(_:)`` and for a global queue given as
    /// ``queue(_:_:)``, which have no engine.
    package func _engineTimer(
        deadline: DispatchTime, period: Duration? = nil, leeway: Duration = .zero,
        handler: @escaping @Sendable () -> Void
    ) -> any Lifetime {
        guard let engine = timerEngine else { preconditionFailure("no timer engine for \(self)") }
        var queue: DispatchQueue? = nil
        if case .queue(let contextQueue, _) = self { queue = contextQueue }
        return engine.schedule(
            deadline: deadline.uptimeNanoseconds, period: period.map { UInt64(TimerEngine.nanoseconds($0)) } ?? 0,
            leeway: UInt32(clamping: TimerEngine.nanoseconds(leeway)), queue: queue, handler: handler)
    }

    /// The engine that keeps this context's timers; `nil` for ``custom(_:)`` and for a global queue given as
    /// ``queue(_:_:)``.
    private var timerEngine: TimerEngine? {
        switch self {
        case .custom: return nil
        case .main, .mainAsync, .mainOrdered: return .main
        case .interactive: return .userInteractive
        case .user: return .userInitiated
        case .direct, .default: return .default
        case .utility: return .utility
        case .background: return .background
        case .queue(let queue, let type): return TimerEngine.attached(to: queue, serial: type.isSerial)
        }
    }

    /// A timer on this context's queue, kept by that queue's ``TimerEngine``; ``custom(_:)`` forwards to its context.
    private func timer(interval: Duration, leeway: Duration, repeats: Bool, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        if let replacement = overridden {
            return replacement.timer(interval: interval, leeway: leeway, repeats: repeats, handler: handler)
        }
        // Each shared engine is passed straight to `schedule(on:)`, not through a local: a local `TimerEngine` holds
        // a strong reference, a retain and a release per timer (callgrind).
        func schedule(on engine: TimerEngine, queue: DispatchQueue? = nil) -> any Lifetime {
            let period = repeats ? UInt64(TimerEngine.nanoseconds(interval)) : 0
            return engine.schedule(interval: interval, period: period, leeway: leeway, queue: queue, handler: handler)
        }
        switch self {
        case .custom(let context):
            return repeats
                ? context.periodicTimer(interval: interval, leeway: leeway, handler: handler)
                : context.singleTimer(interval: interval, leeway: leeway, handler: handler)
        case .main, .mainAsync, .mainOrdered: return schedule(on: .main)
        case .interactive: return schedule(on: .userInteractive)
        case .user: return schedule(on: .userInitiated)
        case .direct, .default: return schedule(on: .default)
        case .utility: return schedule(on: .utility)
        case .background: return schedule(on: .background)
        case .queue(let queue, let type):
            // This thread's last engine, when it was this queue's: unretained, and alive while the caller holds the
            // queue (the queue owns it), which spares a retain and a release per timer.
            if let cached = TimerEngineCache.unretainedEngine(for: queue, serial: type.isSerial) {
                return cached._withUnsafeGuaranteedRef { schedule(on: $0, queue: queue) }
            }
            guard let attached = TimerEngine.attached(to: queue, serial: type.isSerial) else {
                return Self.sourcePerTimer(
                    interval: interval, leeway: leeway, repeats: repeats, queue: queue, type: type, handler: handler)
            }
            return schedule(on: attached, queue: queue)
        }
    }

    /// Which timer engine this thread's timers on `Exec.queue(queue, serial ? .serialAsync : .concurrentAsync)` go
    /// to, for ExecKit's tests: it is otherwise invisible as long as the timers fire on the queue (and two engines on
    /// one queue would break deadline order only between them).
    package static func engineIdentityForTests(of queue: DispatchQueue, serial: Bool) -> ObjectIdentifier? {
        TimerEngine.attached(to: queue, serial: serial).map(ObjectIdentifier.init)
    }

    /// A global queue given as `.queue(globalQueue, type)`: it cannot hold an engine (no queue-specific values), so
    /// each timer keeps a Dispatch source of its own, as every timer did before the engine.
    private static func sourcePerTimer(
        interval: Duration,
        leeway: Duration,
        repeats: Bool,
        queue: DispatchQueue,
        type: ExecutionType,
        handler: @escaping @Sendable () -> Void
    ) -> any Lifetime {
        guard case .mutex = type else {
            return dispatchTimer(interval: interval, leeway: leeway, repeats: repeats, queue: queue, handler: handler)
        }
        // Firings are recorded as inside the queue, like every other way in, so re-entry is caught with a message.
        let entry = SerialQueueEntry(queue)
        return dispatchTimer(interval: interval, leeway: leeway, repeats: repeats, queue: queue) {
            withExtendedLifetime(queue) { entry.run(handler) }  // see SerialQueueEntry's Lifetime
        }
    }

    /// Runs `execute` once in this context after `delay`, like `DispatchQueue.asyncAfter`: nothing to keep, nothing
    /// to cancel. Use ``singleTimer(interval:leeway:handler:)`` when the work may have to be called off.
    ///
    /// Every case but ``custom(_:)`` calls `asyncAfter` on its queue (``direct`` on a default-QoS global queue; the
    /// main-queue cases on the main queue, where ``mainOrdered`` keeps no order against its other blocks, as its
    /// timers do); ``custom(_:)`` forwards to its context (see ``ExecutionContext/invoke(after:_:)``). Inside a
    /// test's shared-context override, the overridden cases forward to their replacement, as timers do.
    /// <!-- G-virtual-override-redirects -->
    ///
    /// - Timing: never before `delay` has passed; a zero or negative delay runs as soon as possible. Never inline:
    ///   the block has not started when this call returns, even on ``direct`` or on ``main`` from the main queue.
    ///   <!-- G-timer-invoke-after -->
    /// - Release: `execute` (and whatever it captures) is released once it has run.
    ///   <!-- G-timer-invoke-after-release -->
    /// - Cost: one `asyncAfter`: one allocation, where a timer that keeps itself alive (the protocol's default) makes
    ///   three. In instructions Dispatch's `asyncAfter` costs more than ExecKit's timers: 2,550 to 2,630 on the
    ///   calling thread for a block an hour ahead, against 1,430 for the self-keeping timer.
    ///   <!-- G-timer-invoke-after-cost -->
    public func invoke(after delay: Duration, _ execute: @escaping @Sendable () -> Void) {
        if let replacement = overridden { return replacement.invoke(after: delay, execute) }
        switch self {
        case .custom(let context):
            context.invoke(after: delay, execute)
        case .queue(let queue, let type) where type.isSerial:
            // Recorded as inside the queue, like every other way in: re-entry through another queue's `sync` is
            // then caught with a message (a mutex) or runs inline (the asynchronous types).
            SerialQueueEntry(queue).asyncAfter(.now() + DispatchTimeInterval(delay), execute)
        case .main, .mainAsync, .mainOrdered:
            SerialQueueEntry.main.asyncAfter(.now() + DispatchTimeInterval(delay), execute)
        default:
            dispatchQueue.asyncAfter(deadline: .now() + DispatchTimeInterval(delay), execute: execute)
        }
    }

    /// The current time; ``custom(_:)`` asks its context (a virtual-time context answers with virtual time).
    /// <!-- G-exec-timestamp-now -->
    public func timestamp() -> DispatchTime {
        if case .custom(let context) = self { return context.timestamp() }
        if let replacement = overridden { return replacement.timestamp() }
        return DispatchTime.now()
    }
}
