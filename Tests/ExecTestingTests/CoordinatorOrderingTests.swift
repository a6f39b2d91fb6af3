// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Work runs in deadline order, ties in the order of scheduling, nested work in the same call, and only when the test
/// drives time.
@Suite struct CoordinatorOrderingTests {
    // Guarantees: G-virtual-deterministic, G-virtual-global-queued
    @Test func nothingRunsUntilTheTestDrivesTime() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.global.invoke { log.append("block") }
        _ = coordinator.main.singleTimer(interval: .zero) { log.append("timer") }
        #expect(log.entries.isEmpty)
        coordinator.runUntilIdle()
        #expect(log.entries == ["block"])  // the timer's lifetime was released at once, which cancelled it
    }

    // Guarantees: G-virtual-deterministic, G-virtual-one-at-a-time
    @Test func workDueAtTheSameInstantRunsInTheOrderItWasScheduled() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queues = [coordinator.main, coordinator.global, coordinator.serialQueue(named: "a"), coordinator.mainAsync]
        var timers: [any Lifetime] = []
        for index in 0..<40 {
            let queue = queues[index % queues.count]
            if index.isMultiple(of: 2) {
                timers.append(queue.singleTimer(interval: .seconds(1)) { log.append("\(index)") })
            } else {
                coordinator.advance(by: .zero)
                timers.append(queue.singleTimer(interval: .seconds(1)) { log.append("\(index)") })
            }
        }
        coordinator.advance(by: .seconds(1))
        #expect(log.entries == (0..<40).map { "\($0)" })
        withExtendedLifetime(timers) {}
    }

    // Guarantees: G-virtual-deterministic, G-virtual-advance
    @Test func earlierDeadlinesRunFirstAndNowIsEachDeadlineWhileItRuns() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let timers = [3, 1, 2].map { second in
            coordinator.global.singleTimer(interval: .seconds(second)) {
                log.append("\(second)@\(coordinator.seconds)")
            }
        }
        coordinator.advance(by: .seconds(10))
        #expect(log.entries == ["1@1.0", "2@2.0", "3@3.0"])
        #expect(coordinator.elapsed == .seconds(10))
        withExtendedLifetime(timers) {}
    }

    // Guarantees: G-virtual-run-until-idle
    @Test func workThatWorkSchedulesForNowRunsInTheSameCall() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let serial = coordinator.serialQueue(named: "serial")
        coordinator.main.invoke {
            log.append("outer")
            serial.invoke {
                log.append("inner")
                coordinator.main.invoke { log.append("innermost") }
            }
            log.append("outer ends")
        }
        coordinator.runUntilIdle()
        #expect(log.entries == ["outer", "outer ends", "inner", "innermost"])
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-advance
    @Test func workScheduledForLaterWaitsForTheAdvanceThatReachesIt() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let outer = coordinator.global.singleTimer(interval: .seconds(1)) {
            log.append("outer@\(coordinator.seconds)")
            coordinator.global.invoke { log.append("follow-up@\(coordinator.seconds)") }
        }
        coordinator.advance(by: .milliseconds(999))
        #expect(log.entries.isEmpty)
        coordinator.advance(by: .milliseconds(1))
        #expect(log.entries == ["outer@1.0", "follow-up@1.0"])
        withExtendedLifetime(outer) {}
    }

    // Guarantees: G-virtual-timer-cancel-releases
    @Test func cancellingDuringARunStopsWorkDueLaterInTheSameRun() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let victim = Shared<(any Lifetime)?>(nil)
        let killer = coordinator.main.singleTimer(interval: .seconds(1)) {
            log.append("killer")
            victim.value?.cancel()
        }
        victim.value = coordinator.main.singleTimer(interval: .seconds(2)) { log.append("victim") }
        coordinator.advance(by: .seconds(5))
        #expect(log.entries == ["killer"])
        #expect(coordinator.isIdle)
        withExtendedLifetime(killer) {}
    }

    // Guarantees: G-virtual-timer-cancel-releases
    @Test func cancellingWorkDueAtTheSameInstantFromAnEarlierBlockStopsIt() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let second = Shared<(any Lifetime)?>(nil)
        let first = coordinator.global.singleTimer(interval: .seconds(1)) {
            log.append("first")
            second.value?.cancel()
        }
        second.value = coordinator.global.singleTimer(interval: .seconds(1)) { log.append("second") }
        coordinator.advance(by: .seconds(1))
        #expect(log.entries == ["first"])
        withExtendedLifetime(first) {}
    }

    // Guarantees: G-virtual-advance
    @Test func advanceBySecondsCompilesAndMovesTime() {
        let coordinator = TestCoordinator()
        coordinator.advance(by: .seconds(1))
        #expect(coordinator.elapsed == .seconds(1))
        let afterOneSecond = coordinator.now
        coordinator.advance(to: coordinator.now + .seconds(2))
        #expect(coordinator.elapsed == .seconds(3))
        coordinator.advance(to: afterOneSecond)  // the past: time never goes back
        #expect(coordinator.elapsed == .seconds(3))
        coordinator.advance(to: coordinator.clock.now.advanced(by: .milliseconds(500)))
        #expect(coordinator.clock.now.dispatchTime == DispatchTime(uptimeNanoseconds: 125 + 3_500_000_000))
    }

    // Guarantees: G-virtual-other-threads-schedule
    @Test func otherThreadsMayScheduleWorkThatRunsOnlyInTheTestsCalls() async {
        let coordinator = TestCoordinator()
        let count = Shared(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<250 { coordinator.global.invoke { count.update { $0 += 1 } } }
                }
            }
        }
        #expect(count.value == 0)
        coordinator.runUntilIdle()
        #expect(count.value == 1_000)
    }
}
