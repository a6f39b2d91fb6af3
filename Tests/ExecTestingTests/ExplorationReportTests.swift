// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import Testing

/// Issue #42, item 3: a report a user can read. A failure of the fixed order says so in words, and is run 1 of every
/// strategy; the report says how many runs shrinking took and how many of them failed again (their own issues are the
/// known issues a Swift Testing test shows); a long exploration says how far it has come.
@Suite struct ExplorationReportTests {
    struct Failed: Error {}

    // Guarantees: G-explore-fixed-order-first
    @Test func aFailureOfTheFixedOrderIsRunOneOfEveryStrategyAndSaidInWords() throws {
        let strategies: [ExplorationStrategy] = [.random, .pct(depth: 3, expectedSteps: 10), .exhaustive]
        for strategy in strategies {
            // Six queues: a random first run would take the fixed order once in 720.
            let names = (0..<6).map { "q\($0)" }
            let report = TestCoordinator.explore(strategy, iterations: 50, seed: 7) { coordinator in
                let log = Shared<[String]>([])
                for name in names { coordinator.serialQueue(named: name).invoke { log.update { $0.append(name) } } }
                coordinator.runUntilIdle()
                if log.value == names { throw Failed() }  // the fixed order
            } reportFailure: { _ in
            }
            let failure = try #require(report.failure, "\(strategy)")
            #expect(failure.run == 1, "\(strategy)")
            #expect(failure.schedule.isEmpty, "\(strategy)")
            #expect(failure.description.contains("failed in the fixed order (run 1)"), "\(failure)")
            #expect(failure.description.contains("a plain TestCoordinator() with the same hopLatency"), "\(failure)")
            #expect(!failure.description.contains("replay("), "no replay of an empty schedule is suggested: \(failure)")
        }
    }

    /// Every run after the failing one is counted, and those that failed again are exactly the runs whose issues
    /// the test shows as known issues: the body counts its own failures.
    // Guarantees: G-explore-report-counts
    @Test func theReportCountsTheRunsShrinkingTookAndThoseThatFailedAgain() throws {
        for seed: UInt64 in [0, 3, 11] {
            let bodyRuns = Shared(0)
            let bodyFailures = Shared(0)
            let report = TestCoordinator.explore(.random, iterations: 500, seed: seed) { coordinator in
                bodyRuns.update { $0 += 1 }
                let log = Shared<[String]>([])
                for name in ["a", "b", "c", "d"] {
                    coordinator.serialQueue(named: name).invoke { log.update { $0.append(name) } }
                }
                coordinator.runUntilIdle()
                // Fails when "d" overtakes "a": shrinking undoes the other departures of a random run.
                if let a = log.value.firstIndex(of: "a"), let d = log.value.firstIndex(of: "d"), d < a {
                    bodyFailures.update { $0 += 1 }
                    throw Failed()
                }
            } reportFailure: { _ in
            }
            let failure = try #require(report.failure, "seed \(seed)")
            #expect(bodyRuns.value == report.runs + failure.shrinkingRuns, "seed \(seed)")
            #expect(bodyFailures.value == 1 + failure.shrinkingFailures, "seed \(seed)")
            #expect(failure.shrinkingFailures <= failure.shrinkingRuns)
            let runs = failure.shrinkingRuns == 1 ? "1 more run" : "\(failure.shrinkingRuns) more runs"
            #expect(
                failure.description.contains("Shrinking took \(runs) (\(failure.shrinkingFailures) failed again)"),
                "\(failure)")
        }
    }

    /// 10,000 runs into an exhaustive exploration of a large space (eight queues of one block each: 40,320 orders),
    /// a progress line; at 20,000, another, which compares the branches left with the first line's.
    // Guarantees: G-explore-progress
    @Test func aLongExplorationSaysHowFarItHasCome() {
        let lines = Shared<[String]>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 20_001, recordsCallSites: false) { coordinator in
            for index in 0..<8 { coordinator.serialQueue(named: "q\(index)").invoke {} }
            coordinator.runUntilIdle()
        } reportProgress: { line in
            lines.update { $0.append(line) }
        }
        #expect(report.runs == 20_001)
        #expect(!report.coveredEveryOrdering)
        #expect(lines.value.count == 2, "\(lines.value)")
        #expect(lines.value.first?.contains("10000 of up to 20001 runs, no failure yet") == true, "\(lines.value)")
        #expect(lines.value.first?.contains("branches left untried on the path of the last run") == true)
        #expect(lines.value.last?.contains("20000 of up to 20001 runs") == true, "\(lines.value)")
        #expect(lines.value.last?.contains("at the last line") == true, "\(lines.value)")
        #expect(lines.value.allSatisfy { $0.contains("declare queues that share nothing independent") })
    }

    /// A short exploration says nothing along the way.
    // Guarantees: G-explore-progress
    @Test func aShortExplorationWritesNoProgressLine() {
        let lines = Shared<[String]>([])
        TestCoordinator.explore(.random, iterations: 200) { coordinator in
            coordinator.serialQueue(named: "a").invoke {}
            coordinator.runUntilIdle()
        } reportProgress: { line in
            lines.update { $0.append(line) }
        }
        #expect(lines.value.isEmpty)
    }
}
