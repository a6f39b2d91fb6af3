// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// `invoke(after:)` on a coordinator's contexts goes through ExecKit's default implementation (a timer that keeps
/// itself alive), so it runs in virtual time, exactly at its deadline, in its simulated queue.
@Suite struct DelayedInvokeVirtualTimeTests {
    // Guarantees: G-virtual-timer-deadlines, G-custom-invoke-after-self-keeping
    @Test func firesExactlyAtTheDeadlineInItsQueue() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.main.invoke(after: .seconds(5)) {
            log.append("at \(coordinator.seconds) on \(coordinator.currentQueueName ?? "-")")
        }
        #expect(coordinator.pendingWork.count == 1, "the delayed block waits in the coordinator")
        coordinator.advance(by: .nanoseconds(4_999_999_999))
        #expect(log.entries.isEmpty, "never before the deadline")
        coordinator.advance(by: .nanoseconds(1))
        #expect(log.entries == ["at 5.0 on main"])
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-direct-async-global, G-custom-invoke-after-self-keeping
    @Test func zeroDelayWaitsForTheCoordinatorEvenOnDirect() {
        let coordinator = TestCoordinator()
        let ran = Shared(false)
        coordinator.direct.invoke(after: .zero) { ran.value = true }
        #expect(!ran.value, "never inline")
        coordinator.runUntilIdle()
        #expect(ran.value)
    }

    // Guarantees: G-virtual-deterministic
    @Test func delayedBlocksRunInDeadlineOrderTiesInSchedulingOrder() {
        let coordinator = TestCoordinator()
        let queue = coordinator.serialQueue(named: "worker")
        let log = EventLog()
        queue.invoke(after: .seconds(2)) { log.append("b") }
        queue.invoke(after: .seconds(1)) { log.append("a") }
        queue.invoke(after: .seconds(2)) { log.append("c") }
        coordinator.advance(by: .seconds(2))
        #expect(log.entries == ["a", "b", "c"])
    }

    /// Code hard-wired to `Exec.main` and `Exec.utility` runs its delayed blocks in virtual time under
    /// `overridingSharedContexts`, as its timers do.
    // Guarantees: G-virtual-override-redirects
    @Test func sharedContextsInsideAnOverrideUseVirtualTime() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.overridingSharedContexts {
            Exec.main.invoke(after: .seconds(30)) { log.append("main at \(coordinator.seconds)") }
            Exec.utility.invoke(after: .seconds(10)) { log.append("utility at \(coordinator.seconds)") }
            Exec.direct.invoke(after: .seconds(20)) { log.append("direct at \(coordinator.seconds)") }
            coordinator.advance(by: .seconds(9.999))
            #expect(log.entries.isEmpty)
            coordinator.advance(by: .seconds(60))
        }
        #expect(log.entries == ["utility at 10.0", "direct at 20.0", "main at 30.0"])
    }

    @Test func theBlockIsReleasedOnceItRan() {
        let coordinator = TestCoordinator()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            coordinator.global.invoke(after: .seconds(1)) { withExtendedLifetime(token) {} }
        }
        #expect(weakToken != nil, "kept until it runs")
        coordinator.advance(by: .seconds(1))
        #expect(weakToken == nil)
        #expect(coordinator.pendingWork.isEmpty)
    }
}
