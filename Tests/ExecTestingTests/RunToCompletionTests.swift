// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// `run(upTo:)` advances through all pending work, deadline by deadline, and stops at its bound with a report naming
/// what is still scheduled.
@Suite struct RunToCompletionTests {
    // Guarantees: G-virtual-run-to-completion
    @Test func runAdvancesThroughEveryDeadlineAndStopsAtTheLast() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let retries = coordinator.main.singleTimer(interval: .seconds(5)) {
            log.append("retry at \(coordinator.seconds)")
            coordinator.main.invoke(after: .seconds(5)) { log.append("gave up at \(coordinator.seconds)") }
        }
        coordinator.task {
            try await coordinator.clock.sleep(for: .seconds(2))
            log.append("slept until \(coordinator.seconds)")
        }
        coordinator.run { Issue.record(Comment(rawValue: $0)) }
        #expect(log.entries == ["slept until 2.0", "retry at 5.0", "gave up at 10.0"])
        #expect(coordinator.elapsed == .seconds(10), "time stops at the last deadline, not at the bound")
        #expect(coordinator.isIdle)
        withExtendedLifetime(retries) {}
    }

    // Guarantees: G-virtual-run-to-completion
    @Test func runWithNothingPendingMovesNothing() {
        let coordinator = TestCoordinator()
        coordinator.run()
        #expect(coordinator.elapsed == .zero)
    }

    // Guarantees: G-virtual-run-to-completion
    @Test func aPeriodicTimerStopsTheRunAtItsBoundWithAReportNamingIt() {
        let coordinator = TestCoordinator()
        let ticks = Shared(0)
        let poll = coordinator.global.periodicTimer(interval: .seconds(10)) { ticks.update { $0 += 1 } }
        let reports = Shared<[String]>([])
        coordinator.run(upTo: .seconds(60)) { message in reports.update { $0.append(message) } }
        #expect(ticks.value == 6)
        #expect(coordinator.elapsed == .seconds(60))
        #expect(reports.value.count == 1)
        let report = reports.value.first ?? ""
        #expect(report.contains("run(upTo: 60.0 seconds) reached its bound"))
        #expect(report.contains("periodic timer (every 10.0 seconds) on \"global\", due at 70.0 s"))
        #expect(report.contains("RunToCompletionTests.swift"))
        poll.cancel()
    }
}
