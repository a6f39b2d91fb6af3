// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Foundation
import Testing

// The article's figures (ExecTesting.docc/FindingOrderingBugs.md, "How soon each bug is found"): over 20 seeds, the
// run at which `random` and `pct(depth: 3)` first fail on each example's wrong version, held to issue #31's bars.
// `EXECKIT_PRINT_FIGURES=1 swift test --filter FindingOrderingBugsFigures` prints the article's table rows.

/// The article's examples, each with its wrong version as a body that throws when the run shows the bug.
enum OrderingBugExample: String, CaseIterable, Sendable, CustomStringConvertible {
    case staleResults = "Stale results"
    case resultRacingTimeout = "A result racing its time-out"
    case cancelRacingFiring = "A cancel racing a firing"
    case answersOutOfOrder = "Answers out of order"
    case actorReentrancy = "Actor reentrancy"
    case invokeSyncCycle = "An invokeSync cycle"

    var description: String { rawValue }

    func runWrongVersion(_ coordinator: TestCoordinator) async throws {
        switch self {
        case .staleResults:
            let screen = SearchScreen(main: coordinator.main)
            screen.search("ca", on: coordinator.serialQueue(named: "worker 1"))
            screen.search("cat", on: coordinator.serialQueue(named: "worker 2"))
            coordinator.runUntilIdle()
            if screen.shown != "results for cat" { throw StaleResult() }
        case .resultRacingTimeout:
            if completions(of: fetch, coordinator).count != 1 { throw CompletedTwice() }
        case .cancelRacingFiring:
            let shown = pricesShown(by: { PricePoller(poll: $0, ui: $1, show: $2).stop }, coordinator)
            if shown.last != "stopped" { throw ShownAfterStop() }
        case .answersOutOfOrder:
            let received = answers(of: ServiceClient.init, coordinator)
            if received != expectedAnswers { throw AnswersOutOfOrder(answers: received) }
        case .actorReentrancy:
            let balance = await balance(of: Account.init, coordinator)
            if balance < 0 { throw Overdrawn(balance: balance) }
        case .invokeSyncCycle:  // the run fails as a deadlock, reported by the coordinator itself
            ExplorationDeadlockTests.saveThenRefresh(ExplorationDeadlockTests.SyncedCache(coordinator), coordinator)
        }
    }
}

struct StaleResult: Error {}

@Suite struct FindingOrderingBugsFigures {
    /// The 20 seeds, far enough apart that no two explorations share a run (run 1 is the fixed order, and run `i`
    /// after it uses `seed + i - 1`).
    static let seeds = (0..<20).map { UInt64($0) * 10_000 }

    /// For each seed, the run at which `strategy` first fails on `example`'s wrong version; `nil` for a seed whose
    /// `iterations` runs all passed.
    static func failingRuns(
        of example: OrderingBugExample, _ strategy: ExplorationStrategy, iterations: Int
    ) async -> [Int?] {
        var runs: [Int?] = []
        for seed in seeds {
            let report = await TestCoordinator.explore(
                strategy, iterations: iterations, seed: seed, recordsCallSites: false
            ) { coordinator in
                try await example.runWrongVersion(coordinator)
            } reportFailure: { _ in
            }
            runs.append(report.failure?.run)
        }
        return runs
    }

    /// Issue #31's bars: each example's bug is found by `random` within 1,000 runs and by `pct(depth: 3)` within 200,
    /// whatever the seed, and the fixed order hides it.
    // Guarantees: G-explore-example-figures
    @Test(arguments: OrderingBugExample.allCases)
    func eachExamplesBugIsFoundWithinTheBars(_ example: OrderingBugExample) async throws {
        let fixed = await TestCoordinator.explore(.replay(""), iterations: 1) { coordinator in
            try await example.runWrongVersion(coordinator)
        }
        #expect(fixed.failure == nil, "the fixed order passes")

        let random = await Self.failingRuns(of: example, .random, iterations: 1_000)
        let pct = await Self.failingRuns(of: example, .pct(depth: 3), iterations: 200)
        #expect(!random.contains(nil), "random, 1,000 runs: \(random)")
        #expect(!pct.contains(nil), "pct(depth: 3), 200 runs: \(pct)")

        if ProcessInfo.processInfo.environment["EXECKIT_PRINT_FIGURES"] != nil {
            print("| \(example) | \(Self.summary(random)) | \(Self.summary(pct)) |")
        }
    }

    /// "median / max" of the runs, the median of an even count being the mean of the middle two.
    static func summary(_ runs: [Int?]) -> String {
        let sorted = runs.compactMap { $0 }.sorted()
        guard !sorted.isEmpty else { return "none found" }
        let middle = sorted.count / 2
        let median =
            sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
        let spelled = median.rounded() == median ? String(Int(median)) : String(median)
        return "\(spelled) / \(sorted.last!)"
    }
}
