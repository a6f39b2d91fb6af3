// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
import Testing

/// `Duration.saturatingNanoseconds`, the fast conversion behind the timer engine and virtual time, agrees with the
/// slow one through `components` and saturates at both ends.
@Suite struct DurationNanosecondsTests {
    @Test(arguments: [
        (Duration.zero, UInt64(0)),
        (.nanoseconds(1), 1),
        (.nanoseconds(-1), 0),
        (.seconds(-3_600), 0),
        (.milliseconds(1_500), 1_500_000_000),
        (.seconds(1) / 3, 333_333_333),  // rounded toward zero
        (.seconds(3_600), 3_600_000_000_000),
        (.seconds(18_446_744_073), 18_446_744_073_000_000_000),  // the largest whole second that fits
        (.seconds(18_446_744_074), .max),  // saturates
        (.seconds(Int64.max), .max),
    ])
    func matchesTheExactValueOrSaturates(duration: Duration, expected: UInt64) {
        #expect(duration.saturatingNanoseconds == expected)
    }

    @Test func agreesWithComponentsOverAWideRange() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<10_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let duration = Duration(
                secondsComponent: Int64(state >> 34), attosecondsComponent: Int64(state % 1_000_000_000_000_000_000))
            let (seconds, attoseconds) = duration.components
            #expect(
                duration.saturatingNanoseconds == UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
        }
    }
}
