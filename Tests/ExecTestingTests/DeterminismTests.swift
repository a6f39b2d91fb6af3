// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// The same scenario gives the same event log every run, byte for byte: ties are broken by the order of scheduling,
/// never by hashes or threads.
// Guarantees: G-virtual-deterministic
@Suite struct DeterminismTests {
    @Test func theSameScenarioRunTwiceLogsTheSameEvents() async throws {
        let first = try await Self.scenario()
        let second = try await Self.scenario()
        #expect(first.count > 1_000)
        #expect(first == second)
    }

    /// Three serial queues with periodic timers of equal deadlines, blocks hopping between them, and tasks sleeping to
    /// the same instants, for ten virtual minutes.
    static func scenario() async throws -> String {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let queues = ["alpha", "beta", "gamma"].map { coordinator.serialQueue(named: $0) }
        var timers: [any Lifetime] = []
        for (index, queue) in queues.enumerated() {
            timers.append(
                queue.periodicTimer(interval: .seconds(1)) {
                    log.append("\(coordinator.now.uptimeNanoseconds) tick \(coordinator.currentQueueName!)")
                    queues[(index + 1) % queues.count].invoke {
                        log.append("\(coordinator.now.uptimeNanoseconds) hop \(coordinator.currentQueueName!)")
                    }
                })
            timers.append(
                queue.periodicTimer(interval: .milliseconds(500)) {
                    log.append("\(coordinator.now.uptimeNanoseconds) half \(coordinator.currentQueueName!)")
                })
        }
        let tasks = (0..<4).map { index in
            coordinator.task {
                for step in 0..<100 {
                    try await coordinator.clock.sleep(for: .seconds(1 + index % 2))
                    log.append("\(coordinator.now.uptimeNanoseconds) task \(index) step \(step)")
                    await queues[step % 3].perform { log.append("perform on \(coordinator.currentQueueName!)") }
                }
            }
        }
        coordinator.advance(by: .seconds(600))
        for timer in timers { timer.cancel() }
        for task in tasks { try await task.value }
        return log.entries.joined(separator: "\n")
    }
}
