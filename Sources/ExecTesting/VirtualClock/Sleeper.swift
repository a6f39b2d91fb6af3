// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
@_spi(ExecTesting) import ExecMutex

/// One ``VirtualClock/sleep(until:tolerance:)`` call: resumes its continuation exactly once, with the wake-up or with
/// `CancellationError`, whichever comes first, including a cancellation that arrives before the sleep starts.
final class Sleeper: Sendable {
    private enum State: Sendable {
        case idle
        case asleep(UnsafeContinuation<Void, any Error>, wakeUp: WorkToken)
        case cancelledEarly
        case finished
    }

    private let state = LockedBox(State.idle, observed: false)

    /// Parks `continuation` and schedules the wake-up (under this sleeper's lock, so a cancellation sees its token),
    /// or resumes at once with `CancellationError` if the task was cancelled meanwhile.
    func start(_ continuation: UnsafeContinuation<Void, any Error>, scheduleWakeUp: () -> WorkToken) {
        let cancelled = state.withLock { state -> Bool in
            guard case .idle = state else { return true }
            state = .asleep(continuation, wakeUp: scheduleWakeUp())
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    /// Resumes the sleeping task normally; called by the wake-up work.
    func wake() {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            guard case .asleep(let continuation, _) = state else { return nil }
            state = .finished
            return continuation
        }
        continuation?.resume()
    }

    /// Removes the wake-up (through `removeWakeUp`), then resumes the sleeping task with `CancellationError`.
    func cancel(removeWakeUp: (WorkToken) -> Void) {
        let asleep = state.withLock { state -> (UnsafeContinuation<Void, any Error>, WorkToken)? in
            switch state {
            case .idle:
                state = .cancelledEarly
                return nil
            case .asleep(let continuation, let wakeUp):
                state = .finished
                return (continuation, wakeUp)
            case .cancelledEarly, .finished:
                return nil
            }
        }
        guard let (continuation, wakeUp) = asleep else { return }
        removeWakeUp(wakeUp)
        continuation.resume(throwing: CancellationError())
    }
}
