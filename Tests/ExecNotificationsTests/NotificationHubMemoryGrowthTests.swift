// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import ExecTestSupport
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// Adding an observer and cancelling it must leave nothing behind: half a million such cycles keep the resident
/// memory flat (a leaked object of the smallest heap size, 32 bytes, would add 16 MB).
/// Each measurement runs in an exit test; see `MemoryGrowth`.
// Guarantees: G-memory-flat
@Suite struct NotificationHubMemoryGrowthTests {
    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func observerCyclesOnAGlobalQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MemoryGrowth.measureObserverCycles(on: .utility)
        }
        MemoryGrowth.check(result)
    }

    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func observerCyclesOnASerialQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MemoryGrowth.measureObserverCycles(on: .asyncQueue())
        }
        MemoryGrowth.check(result)
    }
}

extension MemoryGrowth {
    /// Runs in the child: adds an observer on `context` to a hub and cancels it, once per cycle.
    static func measureObserverCycles(on context: Exec) {
        let hub = NotificationHub()
        let stayingObserver = hub.addObserver(for: .number, context: context) { _ in }  // the table is never empty
        measure(settlingOn: context) {
            let observation = hub.addObserver(for: .number, context: context) { _ in }
            observation.cancel()
        }
        withExtendedLifetime(stayingObserver) {}
    }
}
#endif
