// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// `perform` on every kind of context, returning and throwing, alternating with a `perform` on a global queue, as in
/// issue #16's report (which crashed within 20,000 rounds: the escape check of the caller's closure ran while the
/// worker that had run it still held the submitted block).
enum PerformScenarios {
    static var all: [StressScenario] {
        StressContext.all.map { stressContext in
            StressScenario("perform.\(stressContext.name)") { rounds in
                try await performRounds(rounds, on: stressContext)
            }
        }
    }

    private static func performRounds(_ rounds: Int, on stressContext: StressContext) async throws -> String {
        let context = stressContext.make()
        for round in 0..<rounds {
            var caught: RoundError?
            do {
                _ = try await context.perform { () throws(RoundError) -> Int in throw RoundError(round: round) }
            } catch {
                caught = error
            }
            try check(caught?.round == round, "round \(round): perform rethrew \(String(describing: caught))")
            let (value, inside) = await context.perform { (round, stressContext.isInside(context)) }
            try check(value == round, "round \(round): perform returned \(value)")
            try check(inside, "round \(round): the block did not run inside \(stressContext.name)")
            let echoed = await Exec.utility.perform { round }
            try check(echoed == round, "round \(round): Exec.utility.perform returned \(echoed)")
        }
        return "\(rounds) rounds of a throwing and a returning perform, each followed by one on .utility"
    }
}
