// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecKit
import ExecTestSupport

/// One run of an ``OracleProgram`` on ExecKit contexts (a coordinator's, or real ones): it performs the program's
/// actions through ExecKit's API and logs what the blocks log.
final class OracleRun: Sendable {
    let program: OracleProgram
    /// The serial queues, by index, and the concurrent context.
    let queues: [Exec]
    let concurrent: Exec
    /// How long a unit of the program's time is.
    let unit: Duration
    /// Called at the start of each block, before it acts, and between the two logs of one that logs twice (real runs:
    /// note the time, then wait a moment at random).
    let atStart: @Sendable (OracleProgram.Block) -> Void

    private let state = LockedBox(State())

    private struct State {
        var log: [Int] = []
        var timers: [Int: any Lifetime] = [:]
    }

    init(
        _ program: OracleProgram, queues: [Exec], concurrent: Exec, unit: Duration,
        atStart: @escaping @Sendable (OracleProgram.Block) -> Void = { _ in }
    ) {
        self.program = program
        self.queues = queues
        self.concurrent = concurrent
        self.unit = unit
        self.atStart = atStart
    }

    /// What the blocks logged so far, in order.
    var log: [Int] { state.withLock { $0.log } }

    /// Performs the root's actions, in order, from the calling thread.
    func start() {
        for action in program.root { perform(action) }
    }

    /// Drops every timer still kept.
    func finish() {
        let timers = state.withLock { state in
            defer { state.timers = [:] }
            return state.timers
        }
        withExtendedLifetime(timers) {}
    }

    private func context(_ place: OracleProgram.Place) -> Exec {
        switch place {
        case .serial(let index): queues[index]
        case .concurrent: concurrent
        }
    }

    private func run(_ block: OracleProgram.Block) {
        atStart(block)
        switch block.action {
        case .log:
            state.withLock { $0.log.append(block.id) }
        case .logTwice:
            state.withLock { $0.log.append(block.id) }
            atStart(block)
            state.withLock { $0.log.append(OracleProgram.secondLog(of: block.id)) }
        default:
            break
        }
        perform(block.action)
    }

    private func perform(_ action: OracleProgram.Action) {
        switch action {
        case .log, .logTwice:
            break
        case .invoke(let place, let block):
            context(place).invoke { self.run(block) }
        case .invokeAfter(let place, let units, let block):
            context(place).invoke(after: unit * units) { self.run(block) }
        case .timer(let place, let units, let leeway, let timer, let block):
            // Made and kept under the lock, so that a cancel on another thread finds it or runs before it is made,
            // as in the model (making a timer never runs its handler before returning).
            state.withLock { state in
                state.timers[timer] = context(place).singleTimer(interval: unit * units, leeway: unit * leeway) {
                    self.run(block)
                }
            }
        case .cancel(let timer):
            let lifetime = state.withLock { $0.timers[timer] }
            lifetime?.cancel()
        }
    }
}
