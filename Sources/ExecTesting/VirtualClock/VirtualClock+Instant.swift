// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import ExecKit

extension VirtualClock {
    /// An instant of virtual time (a ``TestCoordinator``'s, an ``ImmediateClock``'s): whole nanoseconds of
    /// `DispatchTime` uptime, so `coordinator.clock.now.dispatchTime == coordinator.now`. Virtual time starts at 125 ns
    /// (see ``TestCoordinator/now``). <!-- G-virtual-start-125ns -->
    public struct Instant: InstantProtocol {
        /// Nanoseconds of `DispatchTime` uptime.
        public let nanoseconds: UInt64

        /// The instant at `nanoseconds` of `DispatchTime` uptime.
        public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

        /// The instant at `time`.
        public init(_ time: DispatchTime) { self.nanoseconds = time.uptimeNanoseconds }

        /// This instant as a `DispatchTime`, the type ``TestCoordinator/now`` and `timestamp()` answer with.
        public var dispatchTime: DispatchTime { DispatchTime(uptimeNanoseconds: nanoseconds) }

        /// The instant `duration` later (earlier when negative), clamped to uptime zero and the largest
        /// representable instant. O(1). <!-- G-virtual-instant-clamps -->
        public func advanced(by duration: Duration) -> Instant {
            if duration < .zero {
                let back = (.zero - duration).saturatingNanoseconds
                return Instant(nanoseconds: nanoseconds >= back ? nanoseconds - back : 0)
            }
            let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.saturatingNanoseconds)
            return Instant(nanoseconds: overflow ? .max : sum)
        }

        /// The time from this instant to `other`, negative when `other` is earlier. O(1).
        public func duration(to other: Instant) -> Duration {
            if other.nanoseconds >= nanoseconds { return .nanoseconds(other.nanoseconds - nanoseconds) }
            return .zero - .nanoseconds(nanoseconds - other.nanoseconds)
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    }
}
