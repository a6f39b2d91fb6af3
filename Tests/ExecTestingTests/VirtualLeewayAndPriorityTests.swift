// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// In virtual time, timers fire exactly at their deadline whatever their leeway, a sleep's tolerance is ignored, and
/// neither quality of service nor task priority reorders work: everything runs in deadline order, then in the order
/// it was scheduled.
@Suite struct VirtualLeewayAndPriorityTests {
    // Guarantees: G-virtual-no-leeway-no-priority
    @Test func timersWithLeewayFireExactlyAtTheirDeadline() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let timers = [
            coordinator.main.singleTimer(interval: .seconds(2), leeway: .seconds(10)) {
                log.append("2 s timer with 10 s leeway at \(coordinator.seconds)")
            },
            coordinator.main.singleTimer(interval: .seconds(3), leeway: .zero) {
                log.append("3 s timer with no leeway at \(coordinator.seconds)")
            },
            coordinator.global.periodicTimer(interval: .seconds(1), leeway: .milliseconds(900)) {
                log.append("periodic at \(coordinator.seconds)")
            },
        ]
        coordinator.advance(by: .nanoseconds(1_999_999_999))
        #expect(log.entries == ["periodic at 1.0"])
        coordinator.advance(by: .nanoseconds(1))
        coordinator.advance(by: .seconds(1))
        #expect(
            log.entries == [
                "periodic at 1.0", "2 s timer with 10 s leeway at 2.0", "periodic at 2.0",
                "3 s timer with no leeway at 3.0", "periodic at 3.0",
            ])
        for timer in timers { timer.cancel() }
    }

    /// Equal deadlines run in scheduling order, whatever leeway each timer was given.
    // Guarantees: G-virtual-no-leeway-no-priority
    @Test func equalDeadlinesRunInSchedulingOrderWhateverTheLeeway() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let leeways: [Duration] = [.seconds(5), .zero, .milliseconds(1), .seconds(60)]
        let timers = leeways.enumerated().map { index, leeway in
            coordinator.main.singleTimer(interval: .seconds(1), leeway: leeway) { log.append("timer \(index)") }
        }
        coordinator.advance(by: .seconds(1))
        #expect(log.entries == ["timer 0", "timer 1", "timer 2", "timer 3"])
        withExtendedLifetime(timers) {}
    }

    // Guarantees: G-virtual-no-leeway-no-priority
    @Test func aSleepsToleranceIsIgnored() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.task {
            let deadline = coordinator.clock.now.advanced(by: .seconds(1))
            try await coordinator.clock.sleep(until: deadline, tolerance: .seconds(5))
            log.append("woke at \(coordinator.seconds)")
        }
        coordinator.advance(by: .nanoseconds(999_999_999))
        #expect(log.entries.isEmpty)
        coordinator.advance(by: .nanoseconds(1))
        #expect(log.entries == ["woke at 1.0"])
        #expect(coordinator.isIdle, "the task must have finished")  // not awaited: a wrong wake-up time would hang it
    }

    // Guarantees: G-virtual-no-leeway-no-priority
    @Test func qualityOfServiceDoesNotReorderWork() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let qualities: [DispatchQoS.QoSClass] = [.background, .userInteractive, .utility, .userInitiated, .default]
        for (index, qos) in qualities.enumerated() {
            coordinator.global.relativeAsync(qos: qos).invoke { log.append("relative \(index)") }
        }
        coordinator.overridingSharedContexts {
            for (index, context) in [Exec.background, .interactive, .utility, .user, .default].enumerated() {
                context.invoke { log.append("shared \(index)") }
            }
            let queues = [
                Exec.asyncQueue(label: "low", qos: .background), Exec.asyncQueue(label: "high", qos: .userInteractive),
            ]
            for index in 0..<4 { queues[index % 2].invoke { log.append("queue \(index)") } }
        }
        coordinator.runUntilIdle()
        #expect(
            log.entries
                == (0..<5).map { "relative \($0)" } + (0..<5).map { "shared \($0)" } + (0..<4).map { "queue \($0)" })
    }

    // Guarantees: G-virtual-no-leeway-no-priority
    @Test func taskPriorityDoesNotReorderWork() async {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let priorities: [TaskPriority?] = [.background, .high, .low, nil, .userInitiated, .utility, .medium]
        var tasks: [Task<Void, Never>] = []
        for (index, priority) in priorities.enumerated() {
            tasks.append(coordinator.task(priority: priority) { log.append("task \(index)") })
            tasks.append(
                Task(executorPreference: coordinator.taskExecutor, priority: priority) {
                    log.append("preferring \(index)")
                })
        }
        coordinator.advance(by: .seconds(1))
        #expect(log.entries == priorities.indices.flatMap { ["task \($0)", "preferring \($0)"] })
        for task in tasks { await task.value }
    }
}
