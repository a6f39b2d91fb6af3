// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import ExecTesting

/// Many tasks asleep on a test coordinator's clock, some cancelled while asleep, while the test advances time.
enum CoordinatorScenarios {
    static var all: [StressScenario] {
        [StressScenario("coordinator.sleepingTasks", run: sleepingTasks)]
    }

    /// `rounds` tasks sleep for random virtual durations under 1 s; every fifth is cancelled while asleep. Time
    /// advances in 7 ms steps. Each sleeper must wake exactly at its deadline, each cancelled one at its cancellation
    /// with `CancellationError`, and every task must have finished once time has passed the last deadline.
    private static func sleepingTasks(_ rounds: Int) async throws -> String {
        let coordinator = TestCoordinator(recordsCallSites: false)
        let clock = coordinator.clock
        var random = SplitMix64(seed: 0x534C_4545_50)
        let durations = (0..<rounds).map { _ in Duration.milliseconds(Int(random.next() % 1_000)) }
        let tasks = durations.map { duration in
            coordinator.task { () async -> (expected: VirtualClock.Instant, woke: VirtualClock.Instant, threw: Bool) in
                let start = clock.now
                let threw = (try? await clock.sleep(for: duration)) == nil
                return (start.advanced(by: duration), clock.now, threw)
            }
        }
        coordinator.runUntilIdle()
        // Every fifth sleeper is cancelled at one of the 143 steps that cover the first second.
        var cancelledAtStep: [Int: [Int]] = [:]
        for index in stride(from: 0, to: rounds, by: 5) {
            cancelledAtStep[1 + (index / 5) % 142, default: []].append(index)
        }
        var cancelledAt: [Int: VirtualClock.Instant] = [:]
        for step in 1...143 {
            coordinator.advance(by: .milliseconds(7))
            for index in cancelledAtStep[step] ?? [] {
                tasks[index].cancel()
                cancelledAt[index] = clock.now
            }
        }
        coordinator.advance(by: .seconds(1))
        var (woken, cancelled) = (0, 0)
        for (index, task) in tasks.enumerated() {
            let (expected, woke, threw) = await task.value
            if let moment = cancelledAt[index], moment < expected {
                try check(
                    threw && woke == moment, "task \(index): cancelled at \(moment), woke at \(woke), threw \(threw)")
                cancelled += 1
            } else {
                try check(
                    !threw && woke == expected, "task \(index): due at \(expected), woke at \(woke), threw \(threw)")
                woken += 1
            }
        }
        return "\(rounds) sleeping tasks: \(woken) woke at their deadlines, \(cancelled) cancelled while asleep"
    }
}
