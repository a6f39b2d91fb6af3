// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// A timer on a ``TestCoordinator``: its firings are pieces of work due at virtual instants.
///
/// A periodic timer fires at `start + k * interval` (k = 1, 2, …), computed from the start each time, so it never
/// drifts. The handler is released when the timer is cancelled, and a one-shot timer releases it once it has fired.
///
/// The pending firing holds this object, never the ``VirtualTimerLifetime`` the caller keeps, so releasing that handle
/// still cancels the timer.
final class VirtualTimer: Sendable {
    private struct State: Sendable {
        var handler: (@Sendable () -> Void)?
        /// The pending firing, cancelled with the timer.
        var pending: WorkToken?
        /// How many firings have been scheduled so far; the next one is due at `start + firings * interval`.
        var firings: UInt64 = 0
    }

    private let state: LockedBox<State>
    private let storage: CoordinatorStorage
    private let queue: SimulatedQueue
    private let start: UInt64
    /// The period in nanoseconds for a periodic timer, `nil` for a one-shot.
    private let period: UInt64?
    private let kind: PendingWork.Kind

    /// Creates a timer and schedules its first firing `interval` from now.
    init(
        storage: CoordinatorStorage,
        queue: SimulatedQueue,
        interval: Duration,
        repeats: Bool,
        handler: @escaping @Sendable () -> Void
    ) {
        self.storage = storage
        self.queue = queue
        self.start = storage.now
        let nanoseconds = Self.nanoseconds(interval)
        self.period = repeats ? max(nanoseconds, 1) : nil
        self.kind = repeats ? .periodicTimer(interval: interval) : .singleTimer
        self.state = LockedBox(State(handler: handler))
        state.withLock { state in
            state.firings = 1
            state.pending = storage.schedule(kind, on: queue, at: start &+ nanoseconds) { self.fire() }
        }
    }

    /// Runs the handler, after scheduling the next firing of a periodic timer (or letting go of a one-shot's handler).
    private func fire() {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard let handler = state.handler else { return nil }
            if let period {
                state.firings += 1
                let (offset, overflow) = period.multipliedReportingOverflow(by: state.firings)
                let (deadline, overflowSum) = start.addingReportingOverflow(offset)
                state.pending = storage.schedule(kind, on: queue, at: overflow || overflowSum ? .max : deadline) {
                    self.fire()
                }
            } else {
                state.handler = nil  // a one-shot never runs again: release its handler once it has run
                state.pending = nil
            }
            return handler
        }
        handler?()
    }

    /// Stops the timer: no firing starts after this returns, and the handler is released.
    func cancel() {
        let (handler, pending) = state.withLock { state in
            defer {
                state.handler = nil
                state.pending = nil
            }
            return (state.handler, state.pending)
        }
        if let pending { storage.cancel(pending) }
        withExtendedLifetime(handler) {}  // released here, outside the timer's lock
    }

    /// `interval` in whole nanoseconds; negative intervals count as zero, very long ones saturate.
    static func nanoseconds(_ interval: Duration) -> UInt64 {
        if interval <= .zero { return 0 }
        let (seconds, attoseconds) = interval.components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowSum) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || overflowSum ? .max : total
    }
}
