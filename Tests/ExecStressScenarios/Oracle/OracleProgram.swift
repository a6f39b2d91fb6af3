// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport

/// A small program for the conformance oracle (issue #39): what a test does with ExecKit's contexts, small enough that
/// every ordering it allows can be listed.
///
/// Time is counted in units (a unit is real milliseconds on real contexts, a virtual second on a coordinator). A block
/// does one thing: logs its id, schedules one more block, or cancels a timer; or, on the concurrent context, logs twice
/// (its id, then ``secondLog(of:)``), two lock acquisitions between which real threads can run other blocks, and which
/// exploration interleaves with them (issue #39, item 5). The root's steps run first, all at time 0 (on real contexts
/// with every queue suspended).
struct OracleProgram: Sendable, CustomStringConvertible {
    /// Where a block runs: serial queue `i`, or the concurrent context.
    enum Place: Sendable, Hashable, CustomStringConvertible {
        case serial(Int)
        case concurrent

        var description: String {
            switch self {
            case .serial(let index): "q\(index)"
            case .concurrent: "global"
            }
        }
    }

    /// What a block, or the root, does.
    indirect enum Action: Sendable, CustomStringConvertible {
        /// Logs the block's id: what the trace records.
        case log
        /// Logs the block's id, then ``OracleProgram/secondLog(of:)``: a block of the concurrent context only.
        case logTwice
        /// `invoke` onto `place`.
        case invoke(Place, Block)
        /// `invoke(after:)` onto `place`, `units` from now.
        case invokeAfter(Place, units: Int, Block)
        /// A one-shot timer on `place`, due `units` from now, with a leeway of `leeway` units; `timer` names it for a
        /// cancel.
        case timer(Place, units: Int, leeway: Int, timer: Int, Block)
        /// Cancels timer `timer`, if it exists yet (from a block on the timer's own serial queue: once the cancel has
        /// run there, the timer's block never runs).
        case cancel(timer: Int)

        var description: String {
            switch self {
            case .log: "log"
            case .logTwice: "log twice"
            case .invoke(let place, let block): "invoke(\(place)) \(block)"
            case .invokeAfter(let place, let units, let block): "invokeAfter(\(place), \(units)) \(block)"
            case .timer(let place, let units, let leeway, let timer, let block):
                "timer#\(timer)(\(place), \(units)±\(leeway)) \(block)"
            case .cancel(let timer): "cancel#\(timer)"
            }
        }
    }

    /// A block: its id (what its log writes) and the one thing it does.
    struct Block: Sendable, CustomStringConvertible {
        let id: Int
        let action: Action

        var description: String { "[\(id): \(action)]" }
    }

    let seed: UInt64
    let queueCount: Int
    /// The root's steps, run in order at time 0.
    let root: [Action]
    /// How many blocks the program has, and how many of them log.
    let blockCount: Int
    let logCount: Int

    var description: String {
        "program \(seed): \(queueCount) serial queues; " + root.map(\.description).joined(separator: "; ")
    }

    /// What a block that logs twice logs the second time: its id, moved past every block's.
    static func secondLog(of id: Int) -> Int { 1_000 + id }

    /// The latest unit at which anything can happen: every delay, leeway and hop on the longest chain.
    func horizon(hopLatency: Int, hopSpread: Int) -> Int {
        func span(_ action: Action) -> Int {
            switch action {
            case .log, .logTwice, .cancel: 0
            case .invoke(_, let block): hopLatency + hopSpread + span(block.action)
            case .invokeAfter(_, 0, let block): hopLatency + hopSpread + span(block.action)
            case .invokeAfter(_, let units, let block): units + span(block.action)
            case .timer(_, let units, let leeway, _, let block): units + leeway + span(block.action)
            }
        }
        return root.map(span).max() ?? 0
    }

    /// Whether work that starts in a window (a timer's leeway, a hop's spread), or work it schedules with no delay,
    /// schedules something to start later: its time then follows from the instant exploration tries in the window,
    /// and exhaustive exploration does not claim to cover every ordering.
    func timesWorkFromAWindow(hopLatency: Int, hopSpread: Int) -> Bool {
        func startsLater(_ action: Action) -> Bool {
            switch action {
            case .log, .logTwice, .cancel: false
            case .invoke, .invokeAfter(_, 0, _): hopLatency + hopSpread > 0
            case .invokeAfter: true
            case .timer(_, let units, let leeway, _, _): units + leeway > 0
            }
        }
        func hasWindow(_ action: Action) -> Bool {
            switch action {
            case .log, .logTwice, .cancel: false
            case .invoke, .invokeAfter(_, 0, _): hopSpread > 0
            case .invokeAfter: false
            case .timer(_, _, let leeway, _, _): leeway > 0
            }
        }
        func times(_ action: Action, fromShiftedWork shifted: Bool) -> Bool {
            if shifted && startsLater(action) { return true }
            switch action {
            case .log, .logTwice, .cancel: return false
            case .invoke(_, let block), .invokeAfter(_, _, let block), .timer(_, _, _, _, let block):
                return times(block.action, fromShiftedWork: shifted || hasWindow(action))
            }
        }
        return root.contains { times($0, fromShiftedWork: false) }
    }

    /// The program of `seed`: two to four serial queues and the concurrent context, two or three chains.
    init(seed: UInt64) {
        var generator = Generator(random: SplitMix64(seed: seed ^ 0x4F52_4143_4C45))
        generator.queueCount = 2 + generator.pick(3)
        let rootCount = 2 + generator.pick(2)
        var root: [Action] = []
        for _ in 0..<rootCount { root.append(generator.scheduling(depth: 0)) }
        self.seed = seed
        self.queueCount = generator.queueCount
        self.root = root
        blockCount = generator.nextBlock
        logCount = generator.logs
    }

    private struct Generator {
        var random: SplitMix64
        var queueCount = 2
        var nextBlock = 0
        var nextTimer = 0
        var logs = 0
        /// The timers made so far on each serial queue, for cancels.
        var timersOnQueue: [Int: [Int]] = [:]

        init(random: SplitMix64) { self.random = random }

        mutating func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

        mutating func place() -> Place { pick(5) == 0 ? .concurrent : .serial(pick(queueCount)) }

        /// A step that schedules a block; the block logs or cancels, or (at depth 1) schedules in turn: each root step
        /// starts a chain of one or two blocks.
        mutating func scheduling(depth: Int) -> Action {
            let target = place()
            let block = self.block(on: target, depth: depth + 1)
            switch pick(8) {
            case 0..<3: return .invoke(target, block)
            case 3, 4: return .invokeAfter(target, units: pick(3), block)
            default:
                let timer = nextTimer
                nextTimer += 1
                if case .serial(let index) = target { timersOnQueue[index, default: []].append(timer) }
                // The root's timers are due a unit on at least: one due at once could fire on a real machine while
                // the root is still scheduling, which a coordinator (firing only while it runs) never shows.
                let units = depth == 0 ? 1 + pick(2) : pick(3)
                return .timer(target, units: units, leeway: pick(4) == 0 ? 1 + pick(2) : 0, timer: timer, block)
            }
        }

        mutating func block(on place: Place, depth: Int) -> Block {
            let id = nextBlock
            nextBlock += 1
            if depth >= 2 || pick(3) == 0 {
                // A cancel of a timer on this serial queue, now and then; otherwise a log.
                if case .serial(let index) = place, let timers = timersOnQueue[index], !timers.isEmpty, pick(4) == 0 {
                    return Block(id: id, action: .cancel(timer: timers[pick(timers.count)]))
                }
                // On the concurrent context, half the logging blocks log twice.
                if place == .concurrent, pick(2) == 0 {
                    logs += 2
                    return Block(id: id, action: .logTwice)
                }
                logs += 1
                return Block(id: id, action: .log)
            }
            return Block(id: id, action: scheduling(depth: depth))
        }
    }
}
