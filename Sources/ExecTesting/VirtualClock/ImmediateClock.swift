// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
@_spi(ExecTesting) import ExecMutex

/// A `Clock` whose sleeps return at once, moving ``now`` forward by the time slept: for tests of code that takes
/// `some Clock<Duration>` and should not wait (retries with back-off, polling loops), where the order of other work
/// does not matter. Where it does, use a ``TestCoordinator``'s ``TestCoordinator/clock``.
///
/// ```swift
/// let clock = ImmediateClock()
/// let downloader = Downloader(clock: clock)   // retries 3 times, 10 s apart
/// await #expect(throws: TimeoutError.self) { try await downloader.fetch(url) }
/// #expect(clock.elapsed == .seconds(30))
/// ```
///
/// - Sleeping: `sleep(until:)` throws `CancellationError` if the task is cancelled, otherwise moves ``now`` to the
///   deadline (never back) and suspends once (`Task.yield()`), so other tasks get a turn as they would during a real
///   sleep. <!-- G-virtual-immediate-clock -->
/// - Instants: ``VirtualClock/Instant``, starting at 125 ns of `DispatchTime` uptime as a coordinator's do.
///   <!-- G-virtual-start-125ns -->
/// - Thread-safety: may be shared between tasks; ``now`` is guarded by a lock. Copies share the same time.
///   <!-- G-virtual-clocks-any-thread -->
public final class ImmediateClock: Clock, Sendable {
    /// Virtual time, in nanoseconds of `DispatchTime` uptime.
    private let current = LockedBox<UInt64>(CoordinatorState.start, observed: false)

    /// A clock at the start of virtual time, `now.nanoseconds == 125`.
    public init() {}

    /// The clock's time: its start plus everything slept so far. O(1); takes a lock.
    public var now: VirtualClock.Instant { VirtualClock.Instant(nanoseconds: current.withLock { $0 }) }

    /// How far ``now`` has moved since the clock was made.
    public var elapsed: Duration { .nanoseconds(current.withLock { $0 } - CoordinatorState.start) }

    /// One nanosecond: the clock counts whole nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Returns without waiting, after moving ``now`` to `deadline` (if that is later) and yielding once.
    ///
    /// - Parameters:
    ///   - deadline: The instant to move to.
    ///   - tolerance: Ignored.
    /// - Throws: `CancellationError` if the task is cancelled; then ``now`` does not move.
    ///   <!-- G-virtual-immediate-clock -->
    public func sleep(until deadline: VirtualClock.Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = max($0, deadline.nanoseconds) }
        await Task.yield()
    }

    /// Moves ``now`` forward by `duration` without sleeping: for the immediate context's delayed work.
    func advance(by duration: Duration) -> UInt64 {
        current.withLock { now in
            now = VirtualClock.Instant(nanoseconds: now).advanced(by: max(duration, .zero)).nanoseconds
            return now
        }
    }
}
