// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The code under test of the test-driven example: a debounce written with ExecKit timers. It takes the context its
// action runs in, so production code passes `.main` and a test passes a `TestCoordinator`'s context, and the test
// drives an hour of typing in virtual time (Examples/DebounceTestingTests).

public import ExecKit

/// Runs an action with the latest value once values have stopped arriving for an interval: a search field that
/// searches when the user pauses, a save that waits until edits stop.
///
/// - Ordering: each ``send(_:)`` restarts the wait. The action runs at most once per pause, with the value sent last,
///   `interval` after it was sent; a value superseded before then is never delivered.
/// - Context: the action runs in the context given to ``init(interval:context:action:)``.
/// - Cancellation: after ``cancel()`` returns, the pending value is never delivered, even if its timer has already
///   fired and its firing is queued in the context. Releasing the debouncer cancels as well.
/// - Thread-safety: `send` and `cancel` may be called from any thread.
public final class Debouncer<Value: Sendable>: Sendable {
    private let interval: Duration
    private let context: Exec
    private let action: @Sendable (Value) -> Void
    private let state = LockedBox(State())

    private struct State: Sendable {
        /// Counts sends and cancellations; a firing whose generation is not the current one is stale.
        var generation: UInt64 = 0
        var latest: Value?
        var timer: (any Lifetime)?
    }

    /// Creates a debouncer that runs `action` in `context` once values have stopped arriving for `interval`.
    ///
    /// - Parameters:
    ///   - interval: How long a pause must last before the latest value is delivered.
    ///   - context: Where `action` runs; `.main` by default.
    ///   - action: Receives the latest value after each pause.
    public init(interval: Duration, context: Exec = .main, action: @escaping @Sendable (Value) -> Void) {
        self.interval = interval
        self.context = context
        self.action = action
    }

    /// Records `value` as the latest and restarts the wait: the action receives it `interval` from now, unless another
    /// value or a ``cancel()`` comes first. Cost: one timer (a closure and a `Lifetime`).
    public func send(_ value: Value) {
        let (generation, previous) = state.withLock { state in
            state.generation += 1
            state.latest = value
            defer { state.timer = nil }
            return (state.generation, state.timer)
        }
        previous?.cancel()
        let timer = context.singleTimer(parameter: generation, interval: interval) { [weak self] generation in
            self?.fire(generation)
        }
        let superseded = state.withLock { state -> (any Lifetime)? in
            guard state.generation == generation else { return timer }
            state.timer = timer
            return nil
        }
        superseded?.cancel()
    }

    /// Drops the pending value, if any; the action does not run until the next ``send(_:)``.
    public func cancel() {
        let timer = state.withLock { state in
            state.generation += 1
            state.latest = nil
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }

    private func fire(_ generation: UInt64) {
        let value = state.withLock { state -> Value? in
            guard state.generation == generation else { return nil }  // a stale firing: a newer send or a cancel won
            defer {
                state.latest = nil
                state.timer = nil
            }
            return state.latest
        }
        if let value { action(value) }
    }
}
