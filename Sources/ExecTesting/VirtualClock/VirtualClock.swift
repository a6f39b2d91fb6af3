// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// A `Clock` that reads a ``TestCoordinator``'s virtual time: `sleep` suspends until the test advances time past the
/// deadline. Get one from ``TestCoordinator/clock``.
///
/// Pass it where code takes `some Clock<Duration>`. A sleeping task resumes inside the `advance(by:)` or
/// `advance(to:)` call that reaches its deadline, in deadline order with the coordinator's other work, provided the
/// task runs on the coordinator (started with ``TestCoordinator/taskExecutor`` as its executor preference, or with
/// `TestCoordinator.task(priority:_:)`). <!-- G-virtual-deterministic --> A task that runs elsewhere is resumed on its
/// own executor, asynchronously.
///
/// - Thread-safety: may be used from any thread. <!-- G-virtual-clocks-any-thread -->
public struct VirtualClock: Clock {
    let storage: CoordinatorStorage

    init(storage: CoordinatorStorage) { self.storage = storage }

    /// The coordinator's virtual time. O(1); takes the coordinator's lock.
    public var now: Instant { Instant(nanoseconds: storage.now) }

    /// One nanosecond: virtual time counts whole nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until virtual time reaches `deadline`.
    ///
    /// - Ordering: the wake-up is a piece of work due at `deadline`, ordered with the coordinator's other work due
    ///   then by the order of scheduling. <!-- G-virtual-deterministic --> A deadline that has already passed returns
    ///   at once, without suspending. <!-- G-virtual-sleep-past-deadline -->
    /// - Cancellation: throws `CancellationError` at once if the task is already cancelled. If it is cancelled while
    ///   asleep, the wake-up is removed and the task's next job is enqueued at once (on the coordinator, for a task that
    ///   runs there), so it throws `CancellationError` at the next `runUntilIdle()` or `advance`.
    ///   <!-- G-virtual-sleep-cancel -->
    /// - Parameters:
    ///   - deadline: The instant of virtual time to sleep until.
    ///   - tolerance: Ignored: virtual time is exact.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let target = deadline.nanoseconds
        if target <= storage.now { return }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                sleeper.start(continuation) {
                    storage.schedule(.sleep, on: nil, at: target, onDiscard: { sleeper.cancel { _ in } }) {
                        sleeper.wake()
                    }
                }
            }
        } onCancel: {
            sleeper.cancel { wakeUp in storage.cancel(wakeUp) }
        }
    }
}
