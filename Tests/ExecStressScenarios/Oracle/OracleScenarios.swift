// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The conformance oracle (issue #39): random ``OracleProgram``s, each run three ways, and the traces compared.
///
/// - `oracle.explored`: the documented order, listed by ``OracleModel``, against what `TestCoordinator.explore
///   (.exhaustive)` runs, with no hop latency, with a latency, and with a latency and a spread. Every explored trace
///   must be one the model allows (no false alarm), and when exploration says it covered every ordering, every trace
///   the model allows must have been explored (nothing missed). It may leave that claim out only where the documents
///   say so: where work that starts in a window (a leeway, a spread) schedules something to start later.
/// - `oracle.live`: the traces of real contexts, with random waits in every block, against the explored ones: nothing
///   real may be missing from them.
///
/// Program `n` has seed `n` (from 1, or `EXECKIT_FIRST_SEED`); a failure names the seed and the program.
enum OracleScenarios {
    static var all: [StressScenario] {
        [
            // Guarantees: G-explore-oracle
            StressScenario("oracle.explored") { rounds in
                try checkExplored(count: max(20, rounds / 100), firstSeed: RandomProgramScenarios.firstSeed)
            },
            // Guarantees: G-explore-oracle
            StressScenario(
                "oracle.live",
                blocking: { rounds in
                    try checkLive(count: max(2, rounds / 4_000), firstSeed: RandomProgramScenarios.firstSeed)
                }),
        ]
    }

    /// The hop latencies and spreads each program is explored with, in units.
    static let timings: [(latency: Int, spread: Int)] = [(0, 0), (1, 0), (1, 1)]

    /// Checks the explored traces of programs `firstSeed...` against the model; throws the first failure.
    static func checkExplored(count: Int, firstSeed: UInt64 = 1) throws -> String {
        var runs = 0
        var tooLarge = 0
        // Explorations that did not claim every ordering covered, as documented for work timed from a window: only
        // their traces were checked.
        var unclaimed = 0
        for seed in firstSeed..<firstSeed + UInt64(count) {
            let program = OracleProgram(seed: seed)
            for timing in timings {
                guard
                    let allowed = OracleModel(program: program, hopLatency: timing.latency, hopSpread: timing.spread)
                        .traces()
                else {
                    tooLarge += 1
                    continue
                }
                let explored = OracleExploration(program, hopLatency: timing.latency, hopSpread: timing.spread)
                runs += explored.runs
                let setting = "hop latency \(timing.latency), spread \(timing.spread)"
                if let forbidden = explored.traces.subtracting(allowed).sorted(by: Self.before).first {
                    throw StressFailure(
                        "seed \(seed), \(setting): exploration ran \(forbidden), which the documented order forbids "
                            + "(a false alarm). \(program)")
                }
                guard explored.coveredEveryOrdering else {
                    // Documented: work timed from an instant tried in a window leaves the claim out.
                    guard program.timesWorkFromAWindow(hopLatency: timing.latency, hopSpread: timing.spread) else {
                        throw StressFailure(
                            "seed \(seed), \(setting): exhaustive exploration did not cover every ordering in "
                                + "\(explored.runs) runs. \(program)")
                    }
                    unclaimed += 1
                    continue
                }
                if let missed = allowed.subtracting(explored.traces).sorted(by: Self.before).first {
                    throw StressFailure(
                        "seed \(seed), \(setting): exploration said it covered every ordering in \(explored.runs) "
                            + "runs, yet never ran \(missed), which the documented order allows. \(program)")
                }
            }
        }
        return "\(count) oracle programs (seeds \(firstSeed)...\(firstSeed + UInt64(count) - 1)), each explored "
            + "exhaustively with \(timings.count) hop timings (\(runs) runs), every trace the documented order's and "
            + "every one it allows explored where it claimed so (\(unclaimed) of \(count * timings.count - tooLarge) "
            + "explorations did not claim it, timing work from a window)"
            + (tooLarge > 0 ? "; \(tooLarge) too large for the model, skipped" : "")
    }

    /// Checks the traces of programs `firstSeed...` on real contexts against the explored ones; throws the first
    /// failure.
    static func checkLive(count: Int, firstSeed: UInt64 = 1, runsPerProgram: Int = 30) throws -> String {
        var kept = 0
        var dropped = 0
        for seed in firstSeed..<firstSeed + UInt64(count) {
            let program = OracleProgram(seed: seed)
            let live = OracleLive(program, runs: runsPerProgram)
            kept += live.kept
            dropped += live.dropped
            let explored = OracleExploration(program)
            if let missed = live.traces.subtracting(explored.traces).sorted(by: Self.before).first {
                throw StressFailure(
                    "seed \(seed): real contexts ran \(missed), which exploration never ran (explored: "
                        + "\(explored.traces.sorted(by: Self.before))). \(program)")
            }
        }
        return "\(count) oracle programs on real contexts (\(kept) runs kept, \(dropped) dropped for leaving the "
            + "model's time), every real trace among the explored ones"
    }

    /// A fixed order of traces, so that a failure names the same one every time.
    static func before(_ a: [Int], _ b: [Int]) -> Bool { a.lexicographicallyPrecedes(b) }
}
