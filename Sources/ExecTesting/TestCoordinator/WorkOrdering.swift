// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// How a ``TestCoordinator`` orders work that ExecKit leaves free to run in either order.
///
/// The coordinator holds work as libdispatch does, event by event. A block joins its serial queue's FIFO when it is
/// queued; a hop's latency (`hopLatency`) delays when it may start, never its place in the FIFO. A timer (and
/// `invoke(after:)` with a delay) joins its queue when it *fires*, which is a step of its own: at any point from its
/// deadline to the end of its leeway, before or after other work due then.
/// <!-- G-explore-timer-fires-into-fifo G-explore-hop-keeps-fifo -->
/// Work due at the same virtual instant at the front of *different* simulated queues
/// (serial or global), on the global queue itself, or belonging to no queue (a sleeping task's wake-up) may run in any
/// order: real queues and threads promise nothing between them; a timer due may fire before or after a block that
/// joins its queue at that instant; a timer with a leeway fires anywhere in it, and a hop with a spread
/// (`hopLatencySpread`) starts anywhere from its latency to its latency plus the spread. ``fixed`` fires every timer due
/// before running anything due at the same instant, then runs work by deadline, then in the order it was scheduled;
/// timers fire at their deadlines and hops take the latency: every run is the same. The other orderings choose at each
/// point among the steps that may come next, and let something due within a window (a leeway, a spread) wait while
/// time moves on to the next instant at which other work is due, so that it is tried at every position among that work.
/// <!-- G-explore-leeway G-explore-hop-spread --> What ExecKit does promise stays true in every ordering: a serial
/// queue runs its work one piece at a time in FIFO order, an inline `invokeSync` runs where it is called, after the
/// blocks queued before it that may start, nothing runs before its deadline, and time moves only as the test says.
/// <!-- G-explore-keeps-promises -->
///
/// Each choice is recorded; ``TestCoordinator/schedule`` spells the choices made so far, and ``replay(_:)`` makes them
/// again, so any run can be repeated exactly. <!-- G-explore-replay -->
public struct WorkOrdering: Sendable, CustomStringConvertible {
    enum Mode: Sendable, Equatable {
        case fixed
        case random(seed: UInt64)
        case pct(seed: UInt64, depth: Int, expectedSteps: Int)
        case replay([Int])
        /// One run of ``ExplorationStrategy/exhaustive``: the choices given, then, past them, the first candidate not
        /// asleep (sleep sets over work on queues declared independent). `loud[d]`: the candidates at choice `d`
        /// that, run there in an earlier run, scheduled or cancelled something (they never go to sleep).
        case exhaustive([Int], loud: [[Int]])
    }

    let mode: Mode
    /// How many choices a run with this ordering is likely to make (an exploration passes the last run's count), so
    /// that the chooser's records are allocated once: a hint, never a limit.
    var expectedChoices = 0
    /// Whether the chooser describes each departure from the fixed order as it makes it (``WorkChooser/deviations``).
    /// An exploration turns it off for the runs it only checks, and replays a failing run to describe it.
    var describesDepartures = true
    /// For a shrinking replay: the failing run's choices, so that where this run takes another candidate than the
    /// failing run did, the chooser also describes the failing run's departure there (``WorkChooser/alternatives``).
    /// That describes a failing run that did not describe itself without running it again.
    var describesAlternativesTo: [Int] = []

    /// Deadline, then scheduling order: the same run every time. The default.
    public static let fixed = WorkOrdering(mode: .fixed)

    /// A uniformly random choice at each point, from `seed`: the same seed gives the same run.
    public static func random(seed: UInt64) -> WorkOrdering { WorkOrdering(mode: .random(seed: seed)) }

    /// Probabilistic concurrency testing (PCT; Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010), from
    /// `seed`. Work forms chains, PCT's threads: each serial queue is one, and each piece of work on the global queue
    /// or in no queue is one of its own. Each chain gets a random priority, the highest-priority chain's work goes
    /// first, and `depth - 1` change points k₁ … k₍d−1₎ are drawn among the first `expectedSteps` ordering choices: at kᵢ, the
    /// chain that runs drops to priority i, below every other. This is the paper's algorithm, with its guarantee: for
    /// work in `n` chains taking at most `k` (`expectedSteps`) choices, a run finds a given ordering bug of depth `d`
    /// (one that shows only when `d` pieces of work happen in a particular order) with probability at least
    /// 1 / (n · k^(d−1)), where a uniformly random order can do exponentially worse. <!-- G-explore-pct -->
    ///
    /// - Precondition: `depth` is at least 1 and `expectedSteps` at least 1; otherwise the program stops with a
    ///   message. <!-- G-explore-misuse-stops -->
    public static func pct(seed: UInt64, depth: Int = 3, expectedSteps: Int = 100) -> WorkOrdering {
        precondition(depth >= 1, "ExecTesting: WorkOrdering.pct needs a depth of at least 1, got \(depth).")
        precondition(
            expectedSteps >= 1, "ExecTesting: WorkOrdering.pct needs expectedSteps of at least 1, got \(expectedSteps)."
        )
        return WorkOrdering(mode: .pct(seed: seed, depth: depth, expectedSteps: expectedSteps))
    }

    /// The choices that ``TestCoordinator/schedule`` spelled: the same run again. Choices past the end of the string
    /// take the fixed order's (the first candidate).
    ///
    /// - Precondition: `schedule` is a schedule string (numbers separated by dots, or empty); anything else stops the
    ///   program with a message naming it. <!-- G-explore-misuse-stops -->
    public static func replay(_ schedule: String) -> WorkOrdering {
        guard let choices = WorkOrdering.choices(in: schedule) else {
            preconditionFailure(
                "ExecTesting: WorkOrdering.replay(\"\(schedule)\") is not a schedule: expected numbers separated by "
                    + "dots, as TestCoordinator.schedule spells them (for example \"0.2.1\").")
        }
        return WorkOrdering(mode: .replay(choices))
    }

    /// The ordering as written in code, such as `random(seed: 7)`.
    public var description: String {
        switch mode {
        case .fixed: return "fixed"
        case .random(let seed): return "random(seed: \(seed))"
        case .pct(let seed, let depth, let steps): return "pct(seed: \(seed), depth: \(depth), expectedSteps: \(steps))"
        case .replay(let choices): return "replay(\"\(Self.spell(choices))\")"
        case .exhaustive(let choices, _): return "exhaustive run from \"\(Self.spell(choices))\""
        }
    }

    /// The choices a schedule string spells, or `nil` when it is not one.
    static func choices(in schedule: String) -> [Int]? {
        if schedule.isEmpty { return [] }
        var choices: [Int] = []
        for part in schedule.split(separator: ".", omittingEmptySubsequences: false) {
            guard let choice = Int(part), choice >= 0 else { return nil }
            choices.append(choice)
        }
        return choices
    }

    /// The schedule string of `choices`.
    static func spell(_ choices: [Int]) -> String {
        choices.map(String.init).joined(separator: ".")
    }
}
