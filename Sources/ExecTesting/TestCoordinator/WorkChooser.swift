// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// Makes a ``WorkOrdering``'s choices among work free to run in either order, and records them.
///
/// A plain value inside ``CoordinatorState``: deterministic from its ordering, with no clock and no threads.
struct WorkChooser: Sendable {
    /// One choice that differs from the fixed order.
    struct Deviation: Sendable, CustomStringConvertible {
        enum Kind: Sendable {
            /// `ran` ran before `insteadOf`, which the fixed order would have run.
            case order(ran: PendingWork, insteadOf: PendingWork)
            /// A timer's firing came `by` nanoseconds into its leeway of `leeway` rather than at its deadline.
            case lateInLeeway(PendingWork, by: UInt64, leeway: UInt64)
            /// A hop took the coordinator's latency plus `by` nanoseconds of its spread of `spread`, rather than the
            /// latency alone.
            case slowHop(PendingWork, by: UInt64, spread: UInt64)
        }

        /// The index of the choice in ``WorkChooser/choices``.
        let choice: Int
        let kind: Kind

        /// The departure in words, naming where each piece of work was scheduled when that is known.
        var description: String {
            switch kind {
            case .order(let ran, let insteadOf):
                return "\(ran) ran before \(insteadOf)"
            case .lateInLeeway(let work, let by, let leeway):
                let late = Duration.nanoseconds(Int64(clamping: by))
                return "\(work) fired \(by == leeway ? "at the end of" : "within") its leeway, \(late) late"
            case .slowHop(let work, let by, let spread):
                let late = Duration.nanoseconds(Int64(clamping: by))
                return "\(work) took \(by == spread ? "the slow hop" : "a slower hop"), \(late) later"
            }
        }
    }

    private let mode: WorkOrdering.Mode
    private var random: SplitMix
    /// Every choice made where there was more than one candidate: the index of the candidate taken, in fixed order.
    private(set) var choices: [Int] = []
    /// How many candidates each of ``choices`` had.
    private(set) var candidateCounts: [Int] = []
    /// For each of ``choices``, the candidates that were asleep there (an exhaustive run's sleep set; empty
    /// otherwise): orderings that start with one of them were covered by an earlier run.
    private(set) var asleep: [[Int]] = []

    /// What a candidate is for sleep sets: its work, and the queue declared independent that it runs on, if any.
    struct Candidate: Sendable {
        let sequence: UInt64
        let independentQueue: ObjectIdentifier?

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
    /// The choices that took another candidate than the fixed order's first.
    private(set) var deviations: [Deviation] = []

    /// What PCT gives priorities to: a serial queue, whose work runs in FIFO order anyway, or a piece of work that
    /// runs independently (on the global queue, or in no queue), named by its token's id.
    enum Chain: Hashable, Sendable {
        case queue(ObjectIdentifier)
        case work(UInt64)
    }

    // PCT: each chain's priority, and its change points: at choice k_i, the chain that runs takes priority i
    // (1 <= i < depth), below every initial priority.
    private var priorities: [Chain: Int] = [:]
    private var changePoints: [Int: Int] = [:]
    /// How many ordering choices (not leeway or hop ones) have been made: PCT's steps, which change points count.
    private var orderingChoices = 0
    private let depth: Int

    init(_ ordering: WorkOrdering) {
        mode = ordering.mode
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
            while changePoints.count < min(depth - 1, expectedSteps) {
                let point = Int(random.next() % UInt64(expectedSteps))
                if changePoints[point] == nil { changePoints[point] = changePoints.count + 1 }
            }
        }
    }

    /// Picks one of `count` candidates (in fixed order, at least two); returns its index and records the choice.
    /// `chain(i)` is candidate `i`'s chain, read only by PCT; `describe(i)` is candidate `i` as
    /// ``TestCoordinator/pendingWork`` would describe it, read only for a departure from the fixed order;
    /// `candidate(i)` is what sleep sets know of it, and `quiet` whether, since the last choice, only the work chosen
    /// then ran and it scheduled and cancelled nothing (both read only by an exhaustive run).
    mutating func choose(
        among count: Int, chain: (Int) -> Chain, describe: (Int) -> PendingWork,
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
                let sequence = candidate(index).sequence
                return sleeping?.contains { $0.sequence == sequence } ?? false
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
                let priority = priorities[chain] ?? depth + Int(random.next() % UInt64(Int32.max))
                priorities[chain] = priority
                if priority > bestPriority { (best, bestPriority) = (index, priority) }
            }
            chosen = best
            if let lowered = changePoints[orderingChoices] {
                priorities[chain(chosen)] = lowered
            }
        }
        record(chosen, of: count) { .order(ran: describe(chosen), insteadOf: describe(0)) }
        return chosen
    }

    /// How far into a window of `window` nanoseconds (a timer's leeway, a hop's spread) the time falls, from 0 (its
    /// start, the fixed order's) to `window` (its end); `late(offset)` describes a later time as a departure.
    ///
    /// Recorded as a choice between two candidates, the start and the end, which is all ``ExplorationStrategy/exhaustive``
    /// tries; random orderings, and PCT (whose priorities order work, not time), take the start or the end a quarter of
    /// the time each, and a uniformly drawn time strictly inside the window otherwise, recorded as `1 + offset`. A
    /// replayed value `v` means the start (0), the end (1), or `v - 1` nanoseconds in (2 or more, at most the end).
    mutating func offset(within window: UInt64, late: (UInt64) -> Deviation.Kind) -> UInt64 {
        let step = choices.count
        let value: Int
        switch mode {
        case .fixed:
            value = 0
        case .random, .pct:
            switch random.next() % 4 {
            case 0: value = 0
            case 1: value = 1
            default:
                // Strictly inside, and small enough for the recorded value (1 + offset) to fit an `Int`.
                let inside = min(window, UInt64(Int.max) - 1)
                value = inside > 1 ? 1 + Int(1 + random.next() % (inside - 1)) : 1
            }
        case .replay(let script), .exhaustive(let script, _):
            value = step < script.count ? script[step] : 0
        }
        let offset: UInt64 =
            switch value {
            case 0: 0
            case 1: window
            default: min(UInt64(value - 1), window)
            }
        record(value, of: 2) { late(offset) }
        return offset
    }

    /// Records choice `chosen` among `count` candidates, and the departure `departure` describes if it is not the
    /// first.
    private mutating func record(_ chosen: Int, of count: Int, departure: () -> Deviation.Kind) {
        if chosen != 0 { deviations.append(Deviation(choice: choices.count, kind: departure())) }
        choices.append(chosen)
        candidateCounts.append(count)
        if asleep.count < choices.count { asleep.append([]) }
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
