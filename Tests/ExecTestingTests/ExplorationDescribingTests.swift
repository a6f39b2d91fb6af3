// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import Testing

/// How an exploration describes a failure's departures (issue #39, speed): the runs that only look for a failure do
/// not describe their choices. The first shrinking replay, which makes the failing run's choices up to the departure
/// it undoes, describes them (no run more, so no known issue more); where it cannot, the failing schedule is replayed
/// once to describe them, and a body that does not fail the same way there is told so rather than given another
/// run's words.
@Suite struct ExplorationDescribingTests {
    struct BOvertookA: Error {}

    /// "b" ran before "a" on another queue: the one departure that shows it, from a two-queue program.
    private static func bOvertookA(_ coordinator: TestCoordinator) throws {
        let log = Shared<[String]>([])
        coordinator.serialQueue(named: "a").invoke { log.update { $0.append("a") } }
        coordinator.serialQueue(named: "b").invoke { log.update { $0.append("b") } }
        coordinator.runUntilIdle()
        if log.value == ["b", "a"] { throw BOvertookA() }
    }

    /// A failure whose shrinking keeps the run that found it is still described, in words naming both blocks, and
    /// the replays are not counted as runs of the exploration.
    // Guarantees: G-explore-reports, G-explore-shrinks
    @Test func theRunThatFoundAFailureIsDescribedByItsReplay() throws {
        for strategy in [ExplorationStrategy.random, .pct(depth: 2, expectedSteps: 2)] {
            let bodyRuns = Shared(0)
            let report = TestCoordinator.explore(strategy, iterations: 100, seed: 5) { coordinator in
                bodyRuns.update { $0 += 1 }
                try Self.bOvertookA(coordinator)
            } reportFailure: { _ in
            }
            #expect(bodyRuns.value == report.runs + 1, "one shrinking replay, which also describes: no run more")
            let failure = try #require(report.failure, "\(strategy)")
            #expect(failure.schedule == "1")
            #expect(failure.departures.count == 1, "\(strategy): \(failure.departures)")
            #expect(failure.departures.first?.hasPrefix("block on \"b\"") == true, "\(failure.departures)")
            #expect(failure.departures.first?.contains("ran before block on \"a\"") == true, "\(failure.departures)")
            #expect(failure.run == report.runs, "the exploration stopped at the failing run; replays are not runs")
        }
    }

    /// A body that schedules two blocks only the first time it fails, and one block afterwards (it depends on
    /// something besides the coordinator's order): no replay makes the failing run's choices, and the report says the
    /// departures are not known, and why, rather than describing some other run.
    // Guarantees: G-explore-reports
    @Test func aBodyThatDoesNotFailAgainOnTheReplayIsToldItsDeparturesAreNotKnown() throws {
        let failedOnce = Shared(false)
        let report = TestCoordinator.explore(.random, iterations: 100, seed: 5) { coordinator in
            guard !failedOnce.value else {
                coordinator.serialQueue(named: "a").invoke {}
                coordinator.runUntilIdle()
                return
            }
            do { try Self.bOvertookA(coordinator) } catch {
                failedOnce.value = true
                throw error
            }
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.schedule == "1")
        #expect(failure.departures.count == 1, "\(failure.departures)")
        let words = try #require(failure.departures.first)
        #expect(words.hasPrefix("not known: replaying the schedule to describe them passed"), "\(words)")
        #expect(words.contains("depends on more than the coordinator's order"), "\(words)")
    }

    /// A failure in the fixed order has no departures to describe, and needs no replay: the body runs once.
    // Guarantees: G-explore-reports
    @Test func aFailureInTheFixedOrderNeedsNoReplay() throws {
        let bodyRuns = Shared(0)
        let report = TestCoordinator.explore(.pct(depth: 1, expectedSteps: 1), iterations: 10) { coordinator in
            bodyRuns.update { $0 += 1 }
            coordinator.main.invoke {}
            coordinator.runUntilIdle()
            throw BOvertookA()
        } reportFailure: { _ in
        }
        let failure = try #require(report.failure)
        #expect(failure.departures.isEmpty)
        #expect(bodyRuns.value == 1)
    }
}
