// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The decisions of an exploration, as a plain value: which ordering each run uses, what to try next after a run,
/// and, once a run has failed, the shrinking of its schedule. The sync and async `explore` share it and only run the
/// body.
struct ExplorationDriver {
    /// What one run of the body gave.
    struct Outcome {
        /// What the body threw, as text; `nil` when it returned.
        let error: String?
        /// What failed, for telling one failure from another (``RunFailure/Found/kind``); `nil` when it returned.
        var failureKind: String? = nil
        let choices: [Int]
        let candidateCounts: [Int]
        /// For each choice, the candidates asleep there (an exhaustive run's sleep set): covered by earlier runs.
        var asleep: [[Int]] = []
        /// The choices whose chosen work scheduled and cancelled nothing before the next choice.
        var quiet: Set<Int> = []
        /// The departures from the fixed order, described; `nil` for a run that did not describe them (see
        /// ``WorkOrdering/describesDepartures``).
        var deviations: [WorkChooser.Deviation]?
        /// For a shrinking replay, the failing run's departures where this run chose otherwise
        /// (``WorkChooser/alternatives``).
        var alternatives: [WorkChooser.Deviation] = []
        /// Whether the run left orderings out that no other run tries: work that started at an instant tried in a
        /// window scheduled something to start later (``ExploringSteps/timedFromAWindow``), so orderings at other
        /// instants of the window may be missed; or a thread that could not park ran a parked block on to take a
        /// lock it held (``CoordinatorStorage/leaveOrderingsOut()``).
        var leftOrderingsOut = false
    }

    private enum Phase {
        case exploring
        /// Trying to undo the departure at `position` of the failing schedule (`0` there instead).
        case shrinking(position: Int)
        /// Replaying the shrunk failing schedule, to describe its departures (the run that found it did not).
        case describing
        case done
    }

    /// How many shrinking runs a failure gets at most.
    static let shrinkingBudget = 200

    private let strategy: ExplorationStrategy
    private let seed: UInt64
    private let iterations: Int
    private var phase = Phase.exploring
    private(set) var runs = 0
    /// For ``ExplorationStrategy/exhaustive``: the choices the next run starts with, and, for each of them, the
    /// candidates tried there before that scheduled or cancelled something (loud: they never go to sleep).
    private var nextPrefix: [Int] = []
    private var loudSiblings: [[Int]] = []
    private var coveredEveryOrdering = false
    /// Whether a run left orderings out (``Outcome/leftOrderingsOut``): the exploration
    /// then never claims every ordering covered.
    private var leftOrderingsOut = false
    /// For ``ExplorationStrategy/exhaustive``: whether orderings remain after the run that failed last.
    private var orderingsRemain = true
    /// The run being shrunk, its outcome as shrunk so far, and how many shrinking runs are left.
    private var failedRun = 0
    private var failing: Outcome?
    private var shrinkingLeft = ExplorationDriver.shrinkingBudget
    /// How many runs the failure in hand has had since it was found (shrinking it, and describing it when no shrinking
    /// run did), and how many of them failed too (each shows its issues as known issues in a Swift Testing test).
    private var shrinkingRuns = 0
    private var shrinkingFailures = 0
    /// How many failing runs end the exploration, and those found so far, shrunk.
    private let failureLimit: Int
    private var found: [ExplorationFailure] = []
    /// How many choices the last run made: the next run's ``WorkOrdering/expectedChoices``.
    private var lastChoiceCount = 0

    /// How many runs pass between two progress lines.
    static let progressInterval = 10_000
    /// The progress line due after the last run, if one is: taken by ``takeProgress()``.
    private var progress: String?
    /// For ``ExplorationStrategy/exhaustive``: the branches left untried at the last progress line.
    private var branchesAtLastProgress: Int?

    init(strategy: ExplorationStrategy, seed: UInt64, iterations: Int, stepLimit: Int, failureLimit: Int = 1) {
        precondition(iterations >= 1, "ExecTesting: explore needs at least 1 iteration, got \(iterations).")
        precondition(stepLimit >= 1, "ExecTesting: explore needs a stepLimit of at least 1, got \(stepLimit).")
        precondition(failureLimit >= 1, "ExecTesting: explore needs a failureLimit of at least 1, got \(failureLimit).")
        self.strategy = strategy
        self.seed = seed
        self.iterations = iterations
        self.failureLimit = failureLimit
    }

    /// The ordering of the next run, or `nil` when the exploration is over.
    mutating func nextOrdering() -> WorkOrdering? {
        guard var ordering = plannedOrdering() else { return nil }
        ordering.expectedChoices = lastChoiceCount
        // The runs that only look for a failure skip describing departures (a tenth of a short run's cost); a replay
        // describes them, for a failure's report.
        if case .exploring = phase { ordering.describesDepartures = strategy.mode.isReplay }
        return ordering
    }

    /// ``nextOrdering()`` before its hint.
    private mutating func plannedOrdering() -> WorkOrdering? {
        switch phase {
        case .done:
            return nil
        case .shrinking(let position):
            guard let failing, shrinkingLeft > 0 else {
                finishFailure()
                return plannedOrdering()
            }
            var trial = failing.choices
            trial[position] = 0
            var ordering = WorkOrdering(mode: .replay(Self.trimmed(trial)))
            // A failing run not yet described is described by this replay: the same choices before `position`, and
            // there, its departure described as an alternative.
            if failing.deviations == nil { ordering.describesAlternativesTo = failing.choices }
            return ordering
        case .describing:
            return WorkOrdering(mode: .replay(failing?.choices ?? []))
        case .exploring:
            guard runs < iterations else { return finish() }
            let runSeed = seed &+ UInt64(runs)
            switch strategy.mode {
            // Run 1 of every strategy is the fixed order (an exhaustive one starts there anyway), so a failure that
            // needs no departure is reported as the fixed order's.
            case .random, .pct: if runs == 0 { return .fixed }
            default: break
            }
            switch strategy.mode {
            case .random: return .random(seed: runSeed)
            case .pct(let depth, let steps): return .pct(seed: runSeed, depth: depth, expectedSteps: steps)
            case .exhaustive: return WorkOrdering(mode: .exhaustive(nextPrefix, loud: loudSiblings))
            case .replay(let choices): return runs == 0 ? WorkOrdering(mode: .replay(choices)) : finish()
            }
        }
    }

    /// Takes the outcome of the run made with the last ``nextOrdering()``.
    mutating func record(_ outcome: Outcome) {
        lastChoiceCount = outcome.choices.count
        switch phase {
        case .done:
            preconditionFailure("ExecTesting: an exploration recorded a run after it was over")
        case .exploring:
            runs += 1
            leftOrderingsOut = leftOrderingsOut || outcome.leftOrderingsOut
            // Depth first, the next run's prefix follows from this run, failing or not.
            if case .exhaustive = strategy.mode { orderingsRemain = advanceDepthFirst(after: outcome) }
            if runs % Self.progressInterval == 0, runs < iterations, orderingsRemain, outcome.error == nil {
                progress = progressLine(after: outcome)
            }
            if outcome.error != nil {
                failedRun = runs
                startShrinking(outcome)
                // A replay reports the run it was given, unshrunk: one run, as asked.
                if case .replay = strategy.mode { finishFailure() }
            } else if !orderingsRemain {
                phase = .done
            }
        case .shrinking(let position):
            shrinkingLeft -= 1
            shrinkingRuns += 1
            if outcome.error != nil { shrinkingFailures += 1 }
            if let unshrunk = failing, unshrunk.deviations == nil, let described = outcome.deviations,
                outcome.alternatives.contains(where: { $0.choice == position }),
                outcome.choices.prefix(position) == unshrunk.choices.prefix(position),
                outcome.candidateCounts.prefix(position + 1) == unshrunk.candidateCounts.prefix(position + 1)
            {
                // This replay made the failing run's choices up to `position`, among the same numbers of candidates:
                // its departures there describe the failing run's, and its alternative at `position` the departure it
                // undid.
                failing?.deviations =
                    described.filter { $0.choice < position } + outcome.alternatives.filter { $0.choice == position }
            }
            if let kind = outcome.failureKind, kind == failing?.failureKind,
                Self.departures(in: outcome.choices) < Self.departures(in: failing?.choices ?? [])
            {
                // Still fails the same way with fewer departures: keep that schedule (what the run actually chose,
                // which after the undone one may differ, since the choices that follow face other candidates). A run
                // that fails another way is another failure: the report must not pair it with this one's run.
                failing = Outcome(
                    error: outcome.error, failureKind: outcome.failureKind, choices: Self.trimmed(outcome.choices),
                    candidateCounts: outcome.candidateCounts, deviations: outcome.deviations)
            }
            moveShrinking(below: min(position, failing?.choices.count ?? 0))
        case .describing:
            shrinkingRuns += 1
            if outcome.error != nil { shrinkingFailures += 1 }
            // The same schedule fails the same way in a deterministic body; a body that does not is told so.
            let described =
                outcome.failureKind == failing?.failureKind
                ? outcome.deviations
                : [WorkChooser.Deviation(notDescribedBecause: outcome.failureKind)]
            failing?.deviations = described ?? []
            finishFailure()
        }
    }

    /// What the exploration found.
    var report: ExplorationReport {
        ExplorationReport(runs: runs, coveredEveryOrdering: coveredEveryOrdering && !leftOrderingsOut, failures: found)
    }

    /// The progress line due after the last run, if any, once: a long exploration says every
    /// ``progressInterval`` runs how far it has come, and, depth first, whether the space left is still growing.
    mutating func takeProgress() -> String? {
        defer { progress = nil }
        return progress
    }

    private mutating func progressLine(after outcome: Outcome) -> String {
        let failures = found.count
        let found = failures == 0 ? "no failure yet" : "\(failures) failure\(failures == 1 ? "" : "s")"
        var line = "ExecTesting: exploration (\(strategy), seed \(seed)): \(runs) of up to \(iterations) runs, \(found)"
        if case .exhaustive = strategy.mode {
            // Each untried sibling along the last run's path is a subtree of orderings still to run.
            let left = outcome.choices.indices.reduce(0) { sum, depth in
                let asleep = depth < outcome.asleep.count ? outcome.asleep[depth] : []
                let next = outcome.choices[depth] + 1
                return sum + (next..<max(next, outcome.candidateCounts[depth])).count { !asleep.contains($0) }
            }
            let trend =
                branchesAtLastProgress.map { previous in
                    left > previous
                        ? " (\(previous) at the last line: still growing)" : " (\(previous) at the last line)"
                } ?? ""
            line += "; \(left) branches left untried on the path of the last run\(trend)"
            branchesAtLastProgress = left
        }
        return line
            + ". To cut the space: declare queues that share nothing independent, observe less (see "
            + "FindingOrderingBugs, \"Cutting the space\")."
    }

    /// Moves depth first to the next ordering after `outcome`'s: the deepest choice that has a next sibling not asleep
    /// takes it, and what followed it starts over (an asleep sibling's orderings were covered by an earlier run).
    /// Returns `false`, and marks every ordering covered, when none remains.
    private mutating func advanceDepthFirst(after outcome: Outcome) -> Bool {
        func nextSibling(at depth: Int) -> Int? {
            let asleep = depth < outcome.asleep.count ? outcome.asleep[depth] : []
            let next = outcome.choices[depth] + 1
            guard next < outcome.candidateCounts[depth] else { return nil }
            return (next..<outcome.candidateCounts[depth]).first { !asleep.contains($0) }
        }
        guard let deepest = outcome.choices.indices.last(where: { nextSibling(at: $0) != nil }) else {
            coveredEveryOrdering = true
            return false
        }
        nextPrefix = Array(outcome.choices[..<deepest]) + [nextSibling(at: deepest)!]
        // The sibling just tried at `deepest` joins those tried there before (kept: the driver may come back to this
        // choice again, with three or more candidates); deeper levels start over.
        loudSiblings = Array(loudSiblings.prefix(deepest + 1))
        while loudSiblings.count <= deepest { loudSiblings.append([]) }
        if !outcome.quiet.contains(deepest) { loudSiblings[deepest].append(outcome.choices[deepest]) }
        return true
    }

    /// Ends the shrinking of the failure in hand: records it, then goes on exploring if the test asked for more
    /// failures and runs and orderings remain.
    private mutating func finishFailure() {
        if let unshrunk = failing, unshrunk.deviations == nil {
            guard Self.departures(in: unshrunk.choices) == 0 else {
                phase = .describing
                return
            }
            failing?.deviations = []
        }
        if let failing {
            found.append(
                ExplorationFailure(
                    strategy: strategy.description, seed: seed, run: failedRun,
                    schedule: WorkOrdering.spell(failing.choices), error: failing.error ?? "",
                    departures: (failing.deviations ?? []).map(\.description), shrinkingRuns: shrinkingRuns,
                    shrinkingFailures: shrinkingFailures))
        }
        failing = nil
        shrinkingLeft = Self.shrinkingBudget
        shrinkingRuns = 0
        shrinkingFailures = 0
        let replays = if case .replay = strategy.mode { true } else { false }
        phase = found.count < failureLimit && runs < iterations && orderingsRemain && !replays ? .exploring : .done
    }

    private mutating func startShrinking(_ outcome: Outcome) {
        failing = Outcome(
            error: outcome.error, failureKind: outcome.failureKind, choices: Self.trimmed(outcome.choices),
            candidateCounts: outcome.candidateCounts,
            deviations: outcome.deviations)
        moveShrinking(below: failing?.choices.count ?? 0)
    }

    /// Moves to the last departure before `end`, or ends the shrinking.
    private mutating func moveShrinking(below end: Int) {
        guard let failing, let position = failing.choices[..<end].lastIndex(where: { $0 != 0 }) else {
            finishFailure()
            return
        }
        phase = .shrinking(position: position)
    }

    private mutating func finish() -> WorkOrdering? {
        phase = .done
        return nil
    }

    /// How many of `choices` depart from the fixed order.
    static func departures(in choices: [Int]) -> Int { choices.count { $0 != 0 } }

    /// `choices` without trailing zeros, which a replay takes anyway.
    static func trimmed(_ choices: [Int]) -> [Int] {
        var choices = choices
        while choices.last == 0 { choices.removeLast() }
        return choices
    }
}
