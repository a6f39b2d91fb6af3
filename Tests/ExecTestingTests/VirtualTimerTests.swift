// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Timers on the coordinator's contexts fire in virtual time, in their context, without drift, and let go of their
/// handlers as real ExecKit timers do.
@Suite struct VirtualTimerTests {
    // Guarantees: G-virtual-timer-deadlines
    @Test func aSingleTimerFiresOnceAtItsDeadlineInItsContext() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let timer = coordinator.main.singleTimer(parameter: "p", interval: .seconds(5)) { parameter in
            log.append("\(parameter) at \(coordinator.seconds) on \(coordinator.currentQueueName ?? "-")")
        }
        coordinator.advance(by: .seconds(4))
        #expect(log.entries.isEmpty)
        coordinator.advance(by: .seconds(100))
        #expect(log.entries == ["p at 5.0 on main"])
        #expect(coordinator.isIdle)
        withExtendedLifetime(timer) {}
    }

    // Guarantees: G-virtual-timer-deadlines
    @Test func aPeriodicTimerFiresAtStartPlusMultiplesOfItsIntervalWithoutDrift() {
        let coordinator = TestCoordinator()
        coordinator.advance(by: .nanoseconds(7))
        let firings = Shared<[UInt64]>([])
        let timer = coordinator.global.periodicTimer(interval: .milliseconds(333)) {
            firings.update { $0.append(coordinator.elapsedNanoseconds) }
        }
        // Uneven steps: the firings do not depend on how the test slices time.
        for step in [1, 500, 2, 999, 1_000, 7_497] { coordinator.advance(by: .milliseconds(step)) }
        #expect(firings.value == (1...30).map { 7 + UInt64($0) * 333_000_000 })
        withExtendedLifetime(timer) {}
    }

    // Guarantees: G-virtual-blocks-take-no-time
    @Test func anHourOfA100MillisecondPeriodicTimerFires36000Times() {
        let coordinator = TestCoordinator()
        let count = Shared(0)
        let timer = coordinator.main.periodicTimer(interval: .milliseconds(100)) { count.update { $0 += 1 } }
        coordinator.advance(by: .seconds(3_600))
        #expect(count.value == 36_000)
        timer.cancel()
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-timer-cancel-releases
    @Test func aPeriodicTimerCancelledFromItsHandlerStopsAndReleasesIt() {
        let coordinator = TestCoordinator()
        let count = Shared(0)
        let timer = Shared<(any Lifetime)?>(nil)
        weak var released: Token?
        do {
            let token = Token()
            released = token
            timer.value = coordinator.serialQueue(named: "s").periodicTimer(interval: .seconds(1)) {
                withExtendedLifetime(token) {}
                if count.update({
                    $0 += 1; return $0
                }) == 3 {
                    timer.value?.cancel()
                }
            }
        }
        coordinator.advance(by: .seconds(10))
        #expect(count.value == 3)
        #expect(released == nil)
        #expect(coordinator.isIdle)
    }

    @Test func aPeriodicTimerThatReschedulesItselfWithALongerInterval() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let current = Shared<(any Lifetime)?>(nil)
        @Sendable func start(every seconds: Int) {
            current.value = coordinator.global.periodicTimer(interval: .seconds(seconds)) {
                log.append("\(Int(coordinator.seconds))")
                if log.entries.count.isMultiple(of: 2) {
                    current.value?.cancel()
                    start(every: seconds * 2)  // back off: the new timer counts from now
                }
            }
        }
        start(every: 1)
        coordinator.advance(by: .seconds(30))
        #expect(log.entries == ["1", "2", "4", "6", "10", "14", "22", "30"])
        current.value?.cancel()
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-timer-cancel-releases, G-virtual-pending-work
    @Test func cancellingOrReleasingATimerReleasesItsHandlerAndItNeverFires() {
        let coordinator = TestCoordinator()
        let fired = Shared(false)
        weak var cancelledToken: Token?
        weak var releasedToken: Token?
        var kept: (any Lifetime)?
        do {
            let first = Token()
            let second = Token()
            cancelledToken = first
            releasedToken = second
            kept = coordinator.main.periodicTimer(interval: .seconds(1)) {
                withExtendedLifetime(first) {}
                fired.value = true
            }
            _ = coordinator.main.singleTimer(interval: .seconds(1)) {
                withExtendedLifetime(second) {}
                fired.value = true
            }
        }
        #expect(releasedToken == nil)  // the handle was released at once: cancelled
        kept?.cancel()
        #expect(cancelledToken == nil)
        kept?.cancel()  // idempotent
        coordinator.advance(by: .seconds(5))
        #expect(fired.value == false)
        #expect(coordinator.pendingWork.isEmpty)
    }

    // Guarantees: G-lifetime-release
    @Test func aOneShotTimerReleasesItsHandlerOnceItHasFired() {
        let coordinator = TestCoordinator()
        weak var released: Token?
        let timer: any Lifetime
        do {
            let token = Token()
            released = token
            timer = coordinator.global.singleTimer(interval: .seconds(1)) { withExtendedLifetime(token) {} }
        }
        #expect(released != nil)
        coordinator.advance(by: .seconds(1))
        #expect(released == nil)
        withExtendedLifetime(timer) {}
    }

    // Guarantees: G-virtual-direct-async-global
    @Test func directTimersFireOnTheGlobalQueueAsTheRealOnesDo() {
        let coordinator = TestCoordinator()
        let place = Shared<String?>(nil)
        let timer = coordinator.direct.singleTimer(interval: .milliseconds(1)) {
            place.value = coordinator.currentQueueName
        }
        coordinator.advance(by: .milliseconds(1))
        #expect(place.value == "global")
        withExtendedLifetime(timer) {}
    }

    @Test func aNegativeIntervalFiresAtTheNextRun() {
        let coordinator = TestCoordinator()
        let fired = Shared(false)
        let timer = coordinator.main.singleTimer(interval: .seconds(-3)) { fired.value = true }
        coordinator.runUntilIdle()
        #expect(fired.value)
        withExtendedLifetime(timer) {}
    }
}
