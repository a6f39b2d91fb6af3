// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The documented order of work, as a model of its own: every trace an ``OracleProgram`` may log, listed by trying
/// every move at every step. It shares no code with `TestCoordinator`; what it allows is what ExecKit's documentation
/// and libdispatch promise, step by step:
///
/// - A serial queue runs its blocks one at a time in the order they joined it (FIFO). A block joins when `invoke`
///   returns; a hop's latency (and spread) delays when it may start, never its place.
/// - A timer's block (and `invoke(after:)`'s) joins its queue when the timer fires: at any instant from its deadline
///   to the end of its leeway, before or after other work due then. `invoke(after:)` with no delay is a hop.
/// - The concurrent context runs each block as soon as it is due, in any order with other due work. A block that logs
///   twice may have other work due then run between its two logs, but not time move on.
/// - Work due at an earlier instant runs before time moves on; time moves on only when nothing must run now.
/// - Once a cancel has run on a timer's serial queue, the timer's block does not run (fired and queued, it is removed).
///
/// Times are whole units: every delay in a program is, and an event that could fall between two instants orders the
/// same way as one at the earlier instant, after its work, or at the later one, before its work.
struct OracleModel {
    let program: OracleProgram
    let hopLatency: Int
    let hopSpread: Int

    /// A block waiting to run: on a serial queue's FIFO, or on the concurrent context.
    private struct Waiting {
        let block: OracleProgram.Block
        /// When it may start, and when it must (if nothing ahead of it holds it back).
        let earliest: Int
        let latest: Int
        /// The timer it is the block of, for a cancel.
        let timer: Int?
    }

    /// A timer (or an `invoke(after:)`) that has not fired.
    private struct Unfired {
        let place: OracleProgram.Place
        let earliest: Int
        let latest: Int
        let timer: Int?
        let block: OracleProgram.Block
    }

    private struct State {
        var now = 0
        var queues: [[Waiting]]
        var concurrent: [Waiting] = []
        var unfired: [Unfired] = []
        var trace: [Int] = []

        var isIdle: Bool { unfired.isEmpty && concurrent.isEmpty && queues.allSatisfy(\.isEmpty) }
    }

    /// Every trace the program may log, or `nil` when listing them takes more than `budget` steps.
    func traces(budget: Int = 2_000_000) -> Set<[Int]>? {
        var state = State(queues: Array(repeating: [], count: program.queueCount))
        for action in program.root { perform(action, in: &state) }
        var found: Set<[Int]> = []
        var steps = 0
        return explore(state, into: &found, steps: &steps, budget: budget) ? found : nil
    }

    /// Tries every move from `state`; `false` once the budget is spent.
    private func explore(_ state: State, into found: inout Set<[Int]>, steps: inout Int, budget: Int) -> Bool {
        steps += 1
        guard steps <= budget else { return false }
        if state.isIdle {
            found.insert(state.trace)
            return true
        }
        let now = state.now
        var mustMoveNow = false
        // A timer fires: its block joins its queue.
        for (index, unfired) in state.unfired.enumerated() where unfired.earliest <= now {
            mustMoveNow = mustMoveNow || unfired.latest <= now
            var next = state
            next.unfired.remove(at: index)
            join(Waiting(block: unfired.block, earliest: now, latest: now, timer: unfired.timer), unfired.place, &next)
            guard explore(next, into: &found, steps: &steps, budget: budget) else { return false }
        }
        // A serial queue runs its first block.
        for (queue, waiting) in state.queues.enumerated() {
            guard let first = waiting.first, first.earliest <= now else { continue }
            mustMoveNow = mustMoveNow || first.latest <= now
            var next = state
            next.queues[queue].removeFirst()
            run(first.block, in: &next)
            guard explore(next, into: &found, steps: &steps, budget: budget) else { return false }
        }
        // The concurrent context runs any block due.
        for (index, waiting) in state.concurrent.enumerated() where waiting.earliest <= now {
            mustMoveNow = mustMoveNow || waiting.latest <= now
            var next = state
            next.concurrent.remove(at: index)
            run(waiting.block, in: &next)
            guard explore(next, into: &found, steps: &steps, budget: budget) else { return false }
        }
        // Time moves on, unless something must happen now.
        if !mustMoveNow {
            var next = state
            next.now += 1
            guard explore(next, into: &found, steps: &steps, budget: budget) else { return false }
        }
        return true
    }

    private func join(_ waiting: Waiting, _ place: OracleProgram.Place, _ state: inout State) {
        switch place {
        case .serial(let queue): state.queues[queue].append(waiting)
        case .concurrent: state.concurrent.append(waiting)
        }
    }

    private func run(_ block: OracleProgram.Block, in state: inout State) {
        switch block.action {
        case .log:
            state.trace.append(block.id)
        case .logTwice:
            // The second log is the rest of the block: concurrent work due now, which must run before time moves on.
            state.trace.append(block.id)
            let rest = OracleProgram.Block(id: OracleProgram.secondLog(of: block.id), action: .log)
            state.concurrent.append(Waiting(block: rest, earliest: state.now, latest: state.now, timer: nil))
        default:
            break
        }
        perform(block.action, in: &state)
    }

    private func perform(_ action: OracleProgram.Action, in state: inout State) {
        let now = state.now
        switch action {
        case .log, .logTwice:
            break
        case .invoke(let place, let block), .invokeAfter(let place, 0, let block):
            // With no delay, `invoke(after:)` is a hop: libdispatch's `dispatch_after` with its deadline passed is
            // `dispatch_async`.
            let start = now + hopLatency
            join(Waiting(block: block, earliest: start, latest: start + hopSpread, timer: nil), place, &state)
        case .invokeAfter(let place, let units, let block):
            state.unfired.append(
                Unfired(place: place, earliest: now + units, latest: now + units, timer: nil, block: block))
        case .timer(let place, let units, let leeway, let timer, let block):
            state.unfired.append(
                Unfired(place: place, earliest: now + units, latest: now + units + leeway, timer: timer, block: block))
        case .cancel(let timer):
            state.unfired.removeAll { $0.timer == timer }
            for queue in state.queues.indices { state.queues[queue].removeAll { $0.timer == timer } }
            state.concurrent.removeAll { $0.timer == timer }
        }
    }
}
