// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// `VirtualClock.Instant.advanced(by:)` clamps to uptime zero and to the largest representable instant instead of
/// wrapping or trapping.
@Suite struct VirtualInstantClampTests {
    // Guarantees: G-virtual-instant-clamps
    @Test func goingBackBeforeUptimeZeroClampsToZero() {
        let start = VirtualClock.Instant(nanoseconds: 125)
        #expect(start.advanced(by: .nanoseconds(-124)).nanoseconds == 1)
        #expect(start.advanced(by: .nanoseconds(-125)).nanoseconds == 0)
        #expect(start.advanced(by: .nanoseconds(-126)).nanoseconds == 0)
        #expect(start.advanced(by: .seconds(-3_600)).nanoseconds == 0)
        #expect(start.advanced(by: .seconds(Int64.min)).nanoseconds == 0)
        #expect(VirtualClock.Instant(nanoseconds: .max).advanced(by: .seconds(Int64.min)).nanoseconds == 0)
    }

    // Guarantees: G-virtual-instant-clamps
    @Test func goingBeyondTheLargestInstantClampsToIt() {
        let nearEnd = VirtualClock.Instant(nanoseconds: .max - 10)
        #expect(nearEnd.advanced(by: .nanoseconds(10)).nanoseconds == .max)
        #expect(nearEnd.advanced(by: .nanoseconds(11)).nanoseconds == .max)
        #expect(nearEnd.advanced(by: .seconds(1)).nanoseconds == .max)
        let start = VirtualClock.Instant(nanoseconds: 125)
        #expect(start.advanced(by: .seconds(Int64.max)).nanoseconds == .max)
        #expect(VirtualClock.Instant(nanoseconds: .max).advanced(by: .nanoseconds(1)).nanoseconds == .max)
        // In range, it is exact.
        #expect(start.advanced(by: .seconds(2)).nanoseconds == 2_000_000_125)
    }
}
