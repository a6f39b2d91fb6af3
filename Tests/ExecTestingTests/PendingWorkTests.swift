// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// `pendingWork` lists what a test left behind, in run order; `assertNoPendingWork` reports it through the test's
/// own failure call.
@Suite struct PendingWorkTests {
    // Guarantees: G-virtual-pending-work, G-virtual-call-site
    @Test func pendingWorkListsBlocksTimersJobsAndSleepsInRunOrder() async {
        let coordinator = TestCoordinator()
        let serial = coordinator.serialQueue(named: "db")
        let line = #line + 2  // the periodic timer's line; the other items are scheduled 1, 3 and 4 lines below it
        let timers = [
            serial.periodicTimer(interval: .seconds(2)) {},
            coordinator.main.singleTimer(interval: .seconds(1)) {},
        ]
        coordinator.global.invoke {}
        let task = coordinator.task { try await coordinator.clock.sleep(for: .seconds(3)) }
        #expect(
            coordinator.pendingWork.map(\.description) == [
                "block on \"global\", due at 0.0 s (#2), scheduled at PendingWorkTests.swift:\(line + 3)",
                "task job on \"global\", due at 0.0 s (#3), scheduled at PendingWorkTests.swift:\(line + 4)",
                "timer on \"main\", due at 1.0 s (#1), scheduled at PendingWorkTests.swift:\(line + 1)",
                "periodic timer (every 2.0 seconds) on \"db\", due at 2.0 s (#0), scheduled at "
                    + "PendingWorkTests.swift:\(line)",
            ])
        coordinator.runUntilIdle()
        #expect(coordinator.pendingWork.map(\.kind) == [.singleTimer, .periodicTimer(interval: .seconds(2)), .sleep])
        #expect(coordinator.pendingWork.last?.queueName == nil)
        task.cancel()
        coordinator.runUntilIdle()
        for timer in timers { timer.cancel() }
        #expect(coordinator.pendingWork.isEmpty)
        _ = await task.result
    }

    // Guarantees: G-virtual-assert-no-pending
    @Test func assertNoPendingWorkReportsThroughTheGivenClosure() {
        let coordinator = TestCoordinator()
        var reports: [String] = []
        coordinator.assertNoPendingWork { reports.append($0) }
        #expect(reports.isEmpty)
        coordinator.mainAsync.invoke {}
        coordinator.assertNoPendingWork { reports.append($0) }
        #expect(reports.count == 1)
        #expect(reports.first?.contains("block on \"main\", due at 0.0 s") == true)
        coordinator.runUntilIdle()
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
    }

    // Guarantees: G-virtual-timer-cancel-releases
    @Test func manyCancelledTimersDoNotAccumulate() {
        let coordinator = TestCoordinator()
        for _ in 0..<10_000 {
            coordinator.main.singleTimer(interval: .seconds(3_600)) {}.cancel()
        }
        #expect(coordinator.isIdle)
        let fired = Shared(false)
        let timer = coordinator.main.singleTimer(interval: .seconds(1)) { fired.value = true }
        coordinator.advance(by: .seconds(1))
        #expect(fired.value)
        withExtendedLifetime(timer) {}
    }

    // Guarantees: G-virtual-discard-releases
    @Test func releasingTheCoordinatorReleasesItsPendingWork() {
        weak var released: Token?
        var context: Exec?
        do {
            let coordinator = TestCoordinator()
            let token = Token()
            released = token
            coordinator.global.invoke { withExtendedLifetime(token) {} }
            context = coordinator.global
        }
        #expect(released == nil)
        withExtendedLifetime(context) {}
    }
}
