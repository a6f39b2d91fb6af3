// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import Testing

@Suite struct DispatchTimeIntervalConversionTests {
    @Test func nanosecondsOfEveryUnit() {
        #expect(DispatchTimeInterval.seconds(2).nanoseconds == 2_000_000_000)
        #expect(DispatchTimeInterval.milliseconds(3).nanoseconds == 3_000_000)
        #expect(DispatchTimeInterval.microseconds(-4).nanoseconds == -4_000)
        #expect(DispatchTimeInterval.nanoseconds(5).nanoseconds == 5)
        #expect(DispatchTimeInterval.never.nanoseconds == Int64.max)
    }

    // Guarantees: G-dispatch-conversions-saturate
    @Test func nanosecondsSaturateInsteadOfOverflowing() {
        #expect(DispatchTimeInterval.seconds(Int.max).nanoseconds == Int64.max)
        #expect(DispatchTimeInterval.seconds(Int.min).nanoseconds == Int64.min)
    }

    @Test func secondsAsDouble() {
        #expect(DispatchTimeInterval.milliseconds(1500).seconds == 1.5)
        #expect(DispatchTimeInterval.never.seconds == .infinity)
    }

    // Guarantees: G-dispatch-conversions-saturate
    @Test func intervalFromSeconds() {
        #expect(DispatchTimeInterval.interval(0.25) == .nanoseconds(250_000_000))
        #expect(DispatchTimeInterval.interval(-1) == .nanoseconds(-1_000_000_000))
        #expect(DispatchTimeInterval.interval(.infinity) == .never)
        #expect(DispatchTimeInterval.interval(1e300) == .never)
        #expect(DispatchTimeInterval.interval(.nan) == .nanoseconds(0))
    }

    @Test func durationRoundTrips() {
        #expect(DispatchTimeInterval(Duration.milliseconds(20)) == .nanoseconds(20_000_000))
        #expect(DispatchTimeInterval(Duration.seconds(-3)) == .nanoseconds(-3_000_000_000))
        #expect(Duration(DispatchTimeInterval.seconds(3)) == .seconds(3))
        #expect(Duration(DispatchTimeInterval.microseconds(7)) == .microseconds(7))
    }

    // Guarantees: G-dispatch-conversions-saturate, G-dispatch-never-roundtrip
    @Test func neverMapsToTheDocumentedDurationAndBack() {
        let forever = Duration(DispatchTimeInterval.never)
        #expect(forever == .nanoseconds(Int64.max))
        #expect(DispatchTimeInterval(forever) == .never)
        #expect(DispatchTimeInterval(Duration.seconds(Int64.max)) == .never)
    }
}

@Suite struct DispatchTimeArithmeticTests {
    @Test func sinceIsTheSignedDifference() {
        let start = DispatchTime(uptimeNanoseconds: 1_000_000)
        let later = DispatchTime(uptimeNanoseconds: 3_500_000)
        #expect(later.since(start) == .nanoseconds(2_500_000))
        #expect(start.since(later) == .nanoseconds(-2_500_000))
        #expect(start.since(start) == .nanoseconds(0))
    }
}
