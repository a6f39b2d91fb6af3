// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Makes a ``WorkOrdering``'s choices among work free to run in either order, and records them.
///
/// A plain value inside ``CoordinatorState``: deterministic from its ordering, with no clock and no threads.
struct WorkChooser: Sendable {
    /// A step a choice can take: work running, a timer firing (its handler joining its queue), time moving on with
    /// something due left waiting in its window, or a block joining its queue before a timer due there fires.
    enum Step: Sendable {
        case ran(PendingWork)
        case fired(PendingWork)
        /// Time moved on from this instant (uptime nanoseconds).
        case timeMovedOn(UInt64)
        case queuedFirst(PendingWork)
    }

    /// One choice that differs from the fixed order.
    struct Deviation: Sendable, CustomStringConvertible {
        enum Kind: Sendable {
            /// `chosen` came before `insteadOf`, which the fixed order would have taken.
            case order(chosen: Step, insteadOf: Step)
            /// A replay meant to describe the departures ended otherwise (`failure`: how, `nil` if it passed).
            case notReplayed(failure: String?)
        }

        /// The index of the choice in ``WorkChooser/choices``.
        let choice: Int
        let kind: Kind

        init(choice: Int, kind: Kind) {
            (self.choice, self.kind) = (choice, kind)
        }

        /// Stands for the departures of a failing run whose replay did not fail the same way (`failure`: how it
        /// ended instead, `nil` if it passed), so they cannot be described.
        init(notDescribedBecause failure: String?) {
            self.init(choice: -1, kind: .notReplayed(failure: failure))
        }

        /// The departure in words, naming where each piece of work was scheduled when that is known.
        var description: String {
            switch kind {
            case .order(.ran(let ran), .ran(let insteadOf)):
                return "\(ran) ran before \(insteadOf)"
            case .order(.ran(let ran), .fired(let timer)):
                return "\(ran) ran before \(timer) fired"
            case .order(.fired(let fired), .fired(let insteadOf)):
                return "\(fired) fired before \(insteadOf)"
            case .order(.fired(let fired), .ran(let insteadOf)):
                return "\(fired) fired before \(insteadOf) ran"
            case .order(.timeMovedOn(let now), .fired(let timer)):
                return "\(timer) fired later in its leeway: time moved on from \(Self.seconds(now)) first"
            case .order(.timeMovedOn(let now), .ran(let work)):
                return "\(work) started later in its hop's spread: time moved on from \(Self.seconds(now)) first"
            case .order(.queuedFirst(let block), .fired(let timer)):
                return "\(block) was queued before \(timer) fired"
            case .order(let chosen, let insteadOf):
                return "\(chosen) before \(insteadOf)"
            case .notReplayed(let failure):
                return "not known: replaying the schedule to describe them "
                    + (failure.map { "failed as \($0) instead" } ?? "passed")
                    + ", so the body depends on more than the coordinator's order (real time, randomness, shared state)"
            }
        }

        /// Virtual time in seconds since the coordinator's start, as pending-work descriptions give it.
        private static func seconds(_ uptime: UInt64) -> String {
            "\(Double(uptime &- min(uptime, CoordinatorState.start)) / 1_000_000_000) s"
        }
    }

    private let mode: WorkOrdering.Mode
    private var random: SplitMix
    /// Every choice made where there was more than one candidate: the index of the candidate taken, in fixed order.
    private(set) var choices: [Int] = []
    /// How many candidates each of ``choices`` had.
    private(set) var candidateCounts: [Int] = []
    /// For each of ``choices``, the candidates that were asleep there (an exhaustive run's sleep set; no entries
    /// otherwise): orderings that start with one of them were covered by an earlier run.
    private(set) var asleep: [[Int]] = []

    /// What a candidate is for sleep sets: which step it is (its work's sequence number, and whether it runs or
    /// fires; `.max` for a step that never sleeps), and the queue declared independent that it runs on, if any.
    struct Candidate: Sendable {
        let identity: UInt64
        /// The ``SimulatedQueue/index`` of that queue.
        let independentQueue: Int?

        /// Whether running `self` and `other` in either order leads to the same state, when the one that ran first
        /// scheduled and cancelled nothing: both run on queues declared independent, different ones.
        func commutes(with other: Candidate) -> Bool {
            guard let mine = independentQueue, let theirs = other.independentQueue else { return false }
            return mine != theirs
        }
    }

    /// For an exhaustive run: at the last ordering choice, its index in ``choices``, the sleep set with the
    /// candidates taken there before the chosen one in earlier runs (siblings explored already) that were quiet
    /// then, and the candidate chosen.
    private var lastChoice: (index: Int, covered: [Candidate], chosen: Candidate)?
    /// The ordering choices whose chosen work was seen to schedule and cancel nothing before the next choice (the
    /// others, and the last, count as loud): what the driver tells later runs so that a sibling that cancels or
    /// schedules never goes to sleep.
    private(set) var quietChoices: Set<Int> = []
    /// The choices that took another candidate than the fixed order's first, described; `nil` when the ordering
    /// asked for none (``WorkOrdering/describesDepartures``).
    private(set) var deviations: [Deviation]?
    /// Where this run took another candidate than ``WorkOrdering/describesAlternativesTo`` says, and that one was a
    /// departure: that departure, described (what the failing run being shrunk did there).
    private(set) var alternatives: [Deviation] = []
    private let alternativesTo: [Int]

    /// What PCT gives priorities to: a serial queue, whose work runs in FIFO order anyway, or a piece of work that
    /// runs independently (on the global queue, or in no queue), named by its token's id.
    enum Chain: Hashable, Sendable {
        /// A serial queue, by its ``SimulatedQueue/index``.
        case queue(Int)
        case work(UInt64)
        /// Time moving on.
        case time
    }

    // PCT: each chain's priority (a serial queue's by its index, found without hashing), and its change points: at
    // choice k_i, the chain that runs takes priority i (1 <= i < depth), below every initial priority.
    private var queuePriorities: [Int?] = []
    private var priorities: [Chain: Int] = [:]
    /// The change points, `(k_i, i)`, at most `depth - 1` of them: a list, searched in a few instructions where a
    /// dictionary would hash at every choice.
    private var changePoints: [(point: Int, priority: Int)] = []
    /// How many ordering choices (not leeway or hop ones) have been made: PCT's steps, which change points count.
    private var orderingChoices = 0
    private let depth: Int

    init(_ ordering: WorkOrdering) {
        mode = ordering.mode
        if ordering.describesDepartures { deviations = [] }
        alternativesTo = ordering.describesAlternativesTo
        // Records sized once from the hint: growing them step by step cost a run of ten blocks a tenth of its time.
        choices.reserveCapacity(ordering.expectedChoices)
        candidateCounts.reserveCapacity(ordering.expectedChoices)
        switch ordering.mode {
        case .fixed, .replay, .exhaustive:
            random = SplitMix(seed: 0)
            depth = 1
        case .random(let seed):
            random = SplitMix(seed: seed)
            depth = 1
        case .pct(let seed, let depth, let expectedSteps):
            random = SplitMix(seed: seed)
            self.depth = depth
            // k_1 ... k_(d-1): distinct points among the first `expectedSteps` choices (fewer if there are not that
            // many), each drawn uniformly; the i-th drawn gives priority i.
            queuePriorities.reserveCapacity(8)  // most programs have a few queues: no growing, step by step
            let wanted = min(depth - 1, expectedSteps)
            changePoints.reserveCapacity(wanted)
            while changePoints.count < wanted {
                let point = Int(random.next() % UInt64(expectedSteps))
                if !changePoints.contains(where: { $0.point == point }) {
                    changePoints.append((point, changePoints.count + 1))
                }
            }
        }
    }

    /// Picks one of `count` candidates (in fixed order, at least two); returns its index and records the choice.
    /// `chain(i)` is candidate `i`'s chain, read only by PCT; `describe(i)` is candidate `i`'s step, read only for a
    /// departure from the fixed order;
    /// `candidate(i)` is what sleep sets know of it, and `quiet` whether, since the last choice, only the work chosen
    /// then ran and it scheduled and cancelled nothing (both read only by an exhaustive run).
    mutating func choose(
        among count: Int, chain: (Int) -> Chain, describe: (Int) -> Step,
        candidate: (Int) -> Candidate, quiet: Bool
    ) -> Int {
        let step = choices.count
        defer { orderingChoices += 1 }
        let chosen: Int
        switch mode {
        case .fixed:
            chosen = 0
        case .random:
            chosen = Int(random.next() % UInt64(count))
        case .replay(let script):
            chosen = step < script.count ? min(script[step], count - 1) : 0
        case .exhaustive(let prefix, let loud):
            // The sleep set here (Godefroid's sleep sets): what was covered at the last choice, less what may not
            // commute with the work that ran since.
            if let last = lastChoice, quiet { quietChoices.insert(last.index) }
            let sleeping = lastChoice.map { last in
                quiet ? last.covered.filter { $0.commutes(with: last.chosen) } : []
            }
            let asleepHere = (0..<count).filter { index in
                let identity = candidate(index).identity
                return identity != .max && (sleeping?.contains { $0.identity == identity } ?? false)
            }
            chosen =
                step < prefix.count
                ? min(prefix[step], count - 1) : (0..<count).first { !asleepHere.contains($0) } ?? 0
            asleep.append(asleepHere)
            // The siblings tried here before (lower indices) go to sleep, unless they were loud when tried.
            let loudHere = step < loud.count ? loud[step] : []
            var covered = sleeping ?? []
            for index in 0..<chosen where !asleepHere.contains(index) && !loudHere.contains(index) {
                covered.append(candidate(index))
            }
            lastChoice = (step, covered, candidate(chosen))
        case .pct:
            var best = 0
            var bestPriority = Int.min
            for index in 0..<count {
                let chain = chain(index)
                // Initial priorities sit above every priority a change point gives (1 ..< depth).
                let priority: Int
                if let known = self.priority(of: chain) {
                    priority = known
                } else {
                    priority = depth + Int(random.next() % UInt64(Int32.max))
                    setPriority(priority, of: chain)
                }
                if priority > bestPriority { (best, bestPriority) = (index, priority) }
            }
            chosen = best
            if let lowered = changePoints.first(where: { $0.point == orderingChoices }) {
                setPriority(lowered.priority, of: chain(chosen))
            }
        }
        record(chosen, of: count) { .order(chosen: describe(chosen), insteadOf: describe(0)) }
        if step < alternativesTo.count {
            let other = alternativesTo[step]
            if other != chosen, other != 0, other < count {
                alternatives.append(
                    Deviation(choice: step, kind: .order(chosen: describe(other), insteadOf: describe(0))))
            }
        }
        return chosen
    }

    private func priority(of chain: Chain) -> Int? {
        guard case .queue(let index) = chain else { return priorities[chain] }
        return index < queuePriorities.count ? queuePriorities[index] : nil
    }

    private mutating func setPriority(_ priority: Int, of chain: Chain) {
        guard case .queue(let index) = chain else { return priorities[chain] = priority }
        while queuePriorities.count <= index { queuePriorities.append(nil) }
        queuePriorities[index] = priority
    }

    /// Records choice `chosen` among `count` candidates, and the departure `departure` describes if it is not the
    /// first.
    private mutating func record(_ chosen: Int, of count: Int, departure: () -> Deviation.Kind) {
        if chosen != 0, deviations != nil { deviations!.append(Deviation(choice: choices.count, kind: departure())) }
        choices.append(chosen)
        candidateCounts.append(count)
    }
}

/// A small, fast pseudo-random generator (SplitMix64, Steele, Lea and Flood, 2014): the same seed, the same numbers.
struct SplitMix: Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
