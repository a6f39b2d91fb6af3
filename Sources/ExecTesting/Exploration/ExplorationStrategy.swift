// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// How `TestCoordinator.explore` orders the work of each run (see <doc:FindingOrderingBugs>). Every strategy is
/// deterministic from the exploration's seed.
public struct ExplorationStrategy: Sendable, CustomStringConvertible {
    enum Mode: Sendable {
        case random
        case pct(depth: Int, expectedSteps: Int)
        case exhaustive
        case replay([Int])

        /// Whether this is ``ExplorationStrategy/replay(_:)``.
        var isReplay: Bool {
            if case .replay = self { return true }
            return false
        }
    }

    let mode: Mode

    /// A uniformly random choice at each point (``WorkOrdering/random(seed:)``). Run 1 is the fixed order; run `i`
    /// after it, counting from 1, uses seed `seed + i - 1`. <!-- G-explore-random G-explore-fixed-order-first -->
    public static let random = ExplorationStrategy(mode: .random)

    /// Probabilistic concurrency testing with bug depth `depth` (``WorkOrdering/pct(seed:depth:expectedSteps:)``,
    /// which states its guarantee). Run 1 is the fixed order; run `i` after it, counting from 1, uses seed
    /// `seed + i - 1`. <!-- G-explore-pct G-explore-fixed-order-first -->
    ///
    /// - Precondition: `depth` and `expectedSteps` are at least 1; otherwise the program stops with a message.
    public static func pct(depth: Int = 3, expectedSteps: Int = 100) -> ExplorationStrategy {
        _ = WorkOrdering.pct(seed: 0, depth: depth, expectedSteps: expectedSteps)  // checks the arguments
        return ExplorationStrategy(mode: .pct(depth: depth, expectedSteps: expectedSteps))
    }

    /// Every distinct ordering, depth first, one run each, up to the exploration's `iterations`; the report says
    /// whether that covered them all (``ExplorationReport/coveredEveryOrdering``): every ordering of whole blocks that
    /// ``WorkOrdering`` allows, each timer at every position in its leeway and each hop in its spread among the other
    /// work due there, and, for an exploration made with `interleavesGlobalBlocks: true`, the interleavings of blocks
    /// on the global queue at each call onto the coordinator and each lock acquisition. What it does not vary is listed
    /// in <doc:FindingOrderingBugs#Limits> (blocks on serial queues run whole, and so does a global block between two
    /// such points). Two pieces of work on different queues are run both ways, since
    /// the coordinator cannot see whether they touch something in common, so the count grows quickly with the work
    /// that is due at once: for small programs. For work on queues the test declares
    /// independent (``TestCoordinator/declareIndependent(_:)``), orderings that differ only in the order of that work
    /// are skipped where sleep sets can tell (two queues of three blocks each: 6 runs instead of 20; sleep sets do not
    /// bring every case down to one run). <!-- G-explore-exhaustive -->
    public static let exhaustive = ExplorationStrategy(mode: .exhaustive)

    /// One run, making the choices of `schedule` (as ``ExplorationFailure/schedule`` or ``TestCoordinator/schedule``
    /// spell them): a failure found before, again, reported as it is (not shrunk). <!-- G-explore-replay -->
    ///
    /// - Precondition: `schedule` is a schedule string; anything else stops the program with a message naming it.
    public static func replay(_ schedule: String) -> ExplorationStrategy {
        guard case .replay(let choices) = WorkOrdering.replay(schedule).mode else { preconditionFailure() }
        return ExplorationStrategy(mode: .replay(choices))
    }

    /// The strategy as written in code, such as `pct(depth: 3, expectedSteps: 100)`.
    public var description: String {
        switch mode {
        case .random: return "random"
        case .pct(let depth, let steps): return "pct(depth: \(depth), expectedSteps: \(steps))"
        case .exhaustive: return "exhaustive"
        case .replay(let choices): return "replay(\"\(WorkOrdering.spell(choices))\")"
        }
    }
}

/// What an exploration found: how many runs it made, whether they covered every ordering, and its failure, if any.
public struct ExplorationReport: Sendable, CustomStringConvertible {
    /// How many runs of the test body were made, shrinking runs not included.
    public let runs: Int
    /// For ``ExplorationStrategy/exhaustive``: whether the runs covered every distinct ordering that ``WorkOrdering``
    /// allows, counting as one the orderings that differ only in the order of work on queues declared independent
    /// (``TestCoordinator/declareIndependent(_:)``). A block on a serial queue counts as one step; a block on the global
    /// queue, explored with `interleavesGlobalBlocks: true`, as one step per call it makes onto the coordinator and per
    /// `PThreadMutex`/`LockedBox` acquisition, so that two of them interleave there (without it, a run in which one
    /// made two is left out of the claim) (see <doc:FindingOrderingBugs#Limits>, which lists everything exploration
    /// does not vary). Held to a model of the documented order, and to real queues, by the
    /// project's oracle. `false` for the other strategies. <!-- G-explore-oracle -->
    ///
    /// `false` too when work that started at an instant tried in a window (a timer in its leeway, a hop in its spread)
    /// scheduled something to start later, itself or through work it queued at once: exploration tries each position
    /// among the work due in the window, not each instant, and that work is timed from the instant tried, where a real
    /// firing may come at any other. <!-- G-explore-window-timed-work --> And `false` when a serial block that had
    /// already acted waited for a lock a stopped global block held, which then ran on outside the exploration's
    /// choices.
    public let coveredEveryOrdering: Bool
    /// The failing runs found, each shrunk, in the order found: at most the exploration's `failureLimit`; empty when
    /// every run passed.
    public let failures: [ExplorationFailure]

    /// The first failing run, shrunk; `nil` when every run passed.
    public var failure: ExplorationFailure? { failures.first }

    /// The failures' descriptions, or how many runs passed.
    public var description: String {
        if !failures.isEmpty { return failures.map(\.description).joined(separator: "\n") }
        let coverage = coveredEveryOrdering ? ", every ordering covered" : ""
        return "\(runs) run\(runs == 1 ? "" : "s") passed\(coverage)"
    }
}

/// A run of an exploration whose body failed (threw, or recorded an issue): where to find it again, and the choices
/// that made it fail, in words.
public struct ExplorationFailure: Error, Sendable, CustomStringConvertible {
    /// The strategy, as written in the call.
    public let strategy: String
    /// The exploration's seed.
    public let seed: UInt64
    /// Which run failed, from 1.
    public let run: Int
    /// The failing run's choices, shrunk greedily: each departure from the fixed order is undone in turn, and stays
    /// undone if the run still fails with fewer departures. Pass it to ``ExplorationStrategy/replay(_:)`` or
    /// ``WorkOrdering/replay(_:)`` to run it again.
    public let schedule: String
    /// What the body threw, as text.
    public let error: String
    /// Each choice of ``schedule`` that departs from the fixed order, in words: which work ran before which, where
    /// each was scheduled (when the coordinator records call sites). <!-- G-explore-shrinks -->
    public let departures: [String]
    /// How many runs the exploration made after finding this failure, to shrink its schedule (and to describe it):
    /// they are not counted in ``ExplorationReport/runs``.
    public let shrinkingRuns: Int
    /// How many of the ``shrinkingRuns`` failed too. In a Swift Testing test, each failing run's own issues (the
    /// `#expect` that failed) show as known issues; the exploration's report is the one real issue.
    /// <!-- G-explore-report-counts -->
    public let shrinkingFailures: Int

    /// The report a failing exploration gives: where the run is, how to replay it, and its departures in words. A
    /// failure that needs no departure is reported as the fixed order's, which is run 1 of `random`, `pct` and
    /// `exhaustive`. <!-- G-explore-fixed-order-first -->
    public var description: String {
        let inFixedOrder = run == 1 && schedule.isEmpty
        let failed = inFixedOrder ? "failed in the fixed order (run 1)" : "failed at run \(run)"
        var lines = ["ExecTesting: exploration (\(strategy), seed \(seed)) \(failed): \(error)"]
        if inFixedOrder {
            lines.append(
                "It needs no departure from the fixed order: a plain TestCoordinator() with the same hopLatency and "
                    + "hopLatencySpread runs this order and fails the same way.")
        } else if schedule.isEmpty {
            lines.append(
                "Shrunk, it needs no departure from the fixed order, yet the fixed order passed in run 1: the body "
                    + "depends on more than the order (real time, randomness, state kept from one run to the next).")
        } else {
            lines.append(
                "Replay it with explore(.replay(\"\(schedule)\")) or TestCoordinator(ordering: .replay(\"\(schedule)\")), "
                    + "with the same hopLatency and hopLatencySpread.")
            lines.append("Departures from the fixed order (deadline, then scheduling order), after shrinking:")
            lines += departures.map { "  - \($0)" }
        }
        if shrinkingRuns > 0 {
            let again = shrinkingFailures == 1 ? "1 failed again" : "\(shrinkingFailures) failed again"
            lines.append(
                "Shrinking took \(shrinkingRuns) more run\(shrinkingRuns == 1 ? "" : "s") (\(again)); in a Swift "
                    + "Testing test, a failing run's own issues show as known issues, and this report is the one issue."
            )
        }
        return lines.joined(separator: "\n")
    }
}
