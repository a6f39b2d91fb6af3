// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// `TestCoordinator.serialQueue(named:type:)` with a concurrent type stops the program with a message that names the
/// call and points to `coordinator.global`.
@Suite struct SerialQueueTypeExitTests {
    // Guarantees: G-virtual-serial-queue-concurrent-stops
    @Test func aConcurrentTypeStopsWithAMessage() async {
        let concurrent = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            _ = coordinator.serialQueue(named: "workers", type: .concurrentAsync)
        }
        #expect(concurrent.standardErrorText.contains("serialQueue(named: \"workers\", type: concurrentAsync)"))
        #expect(concurrent.standardErrorText.contains("needs a serial type"))
        #expect(concurrent.standardErrorText.contains("use coordinator.global for a concurrent queue"))

        let immediate = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            _ = coordinator.serialQueue(named: "inline", type: .immediate)
        }
        #expect(immediate.standardErrorText.contains("serialQueue(named: \"inline\", type: immediate)"))
        #expect(immediate.standardErrorText.contains("needs a serial type"))
    }
}
#endif
