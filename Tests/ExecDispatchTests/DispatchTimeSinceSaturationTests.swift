// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import Testing

/// `DispatchTime.since(_:)` saturates instead of overflowing: a difference beyond `Int64` nanoseconds becomes `.never`
/// when positive and `Int64.min` nanoseconds when negative, and differences just inside the range stay exact.
@Suite struct DispatchTimeSinceSaturationTests {
    private static func time(_ nanoseconds: UInt64) -> DispatchTime { DispatchTime(uptimeNanoseconds: nanoseconds) }

    // Guarantees: G-dispatch-since-saturates
    @Test func differencesBeyondInt64Saturate() {
        let earliest = Self.time(1)
        let latest = Self.time(.max)
        #expect(latest.since(earliest) == .never)
        #expect(Duration(earliest.since(latest)) == .nanoseconds(Int64.min))

        // A difference of exactly Int64.max nanoseconds is at the limit.
        let atLimit = Self.time(UInt64(Int64.max) + 1)
        #expect(atLimit.since(earliest) == .never)
        #expect(Duration(earliest.since(atLimit)) == .nanoseconds(Int64.min))
    }

    // Guarantees: G-dispatch-since-saturates
    @Test func differencesJustInsideTheRangeAreExact() {
        let earliest = Self.time(1)
        let justInside = Self.time(UInt64(Int64.max))  // Int64.max - 1 after earliest
        #expect(Duration(justInside.since(earliest)) == .nanoseconds(Int64.max - 1))
        #expect(Duration(earliest.since(justInside)) == .nanoseconds(-(Int64.max - 1)))
    }
}
