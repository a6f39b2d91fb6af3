// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// A timer that is scheduled far in the future and cancelled at once must leave nothing behind: half a million such
/// cycles keep the resident memory flat (a leaked object of the smallest heap size, 32 bytes, would add 16 MB).
/// Each measurement runs in an exit test; see `MemoryGrowth`.
// Guarantees: G-memory-flat
@Suite struct MemoryGrowthTests {
    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func timerCyclesOnAGlobalQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MemoryGrowth.measureTimerCycles(on: .utility)
        }
        MemoryGrowth.check(result)
    }

    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func timerCyclesOnASerialQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MemoryGrowth.measureTimerCycles(on: .asyncQueue())
        }
        MemoryGrowth.check(result)
    }
}

extension MemoryGrowth {
    /// Runs in the child: schedules a far-future timer on `context` and cancels it, once per cycle.
    static func measureTimerCycles(on context: Exec) {
        measure(settlingOn: context) {
            let timer = context.singleTimer(interval: .seconds(3_600)) {}
            timer.cancel()
        }
    }
}
#endif
