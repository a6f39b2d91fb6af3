// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import ExecTesting

/// Runs random programs on a `TestCoordinator`'s contexts in virtual time, and holds the coordinator to its documented
/// ordering through a reference model: "A `TestCoordinator` runs work in deadline order, ties in the order of
/// scheduling (never hashes or threads), and only inside `runUntilIdle()`/`advance`" (README). Every block or timer the
/// program schedules goes into the model with its deadline and a sequence number; each one that starts must be the
/// model's earliest. Periodic timers are left out (the model knows one-shot work only).
final class CoordinatorInterpreter: @unchecked Sendable {
    // Unchecked: the coordinator runs everything on the one thread that calls `execute`; `model` is only touched there.
    let coordinator: TestCoordinator
    let pool: [ProgramContext]
    let run: ProgramRun
    /// Pending work: its token, deadline and place in the order of scheduling, and the serial group whose queue it
    /// runs in (`nil` for the global queue, where `.direct`'s queued work goes too).
    private var model: [(token: Int, deadline: UInt64, sequence: Int, group: Int?, atFiring: Bool)] = []
    /// For each inline `invokeSync` onto a serial queue in progress, innermost last: the queue's group and the first
    /// sequence number scheduled after the call. Until its block starts, the work queued before it in that queue
    /// runs first ("invokeSync onto a serial queue runs after the blocks already queued there").
    private var drains: [(group: Int, bound: Int, waiterHolds: Set<Int>)] = []
    private var nextToken = 0
    private var nextSequence = 0
    private var kept: [any Lifetime] = []

    /// Whether the coordinator explores (orders work at random within ExecKit's freedom, as `explore` does) rather
    /// than running the fixed order; the model then checks what exploration promises to keep.
    let explores: Bool

    init(seed: UInt64, explores: Bool = false) {
        self.explores = explores
        coordinator = TestCoordinator(recordsCallSites: false, ordering: explores ? .random(seed: seed) : .fixed)
        pool = CoordinatorContexts.pool(coordinator)
        run = ProgramRun(seed: seed)
    }

    private var now: UInt64 { coordinator.now.uptimeNanoseconds }

    /// Runs `program`, advancing virtual time a millisecond at a time until nothing is pending (3 s of virtual time at
    /// most), and returns the failure report, or `nil`.
    func execute(_ program: RandomProgram) -> String? {
        enter(program.root, in: nil, frame: Frame(holder: run.newHolder(), held: []), token: nil)
        for _ in 0..<3_000 {
            coordinator.runUntilIdle()
            if run.isSettled && model.isEmpty { break }
            coordinator.advance(by: .milliseconds(1))
        }
        if !run.isSettled || !model.isEmpty {
            run.fail(
                "work runs inside advance once its deadline is reached; tasks waiting through an actor on their "
                    + "context never hang",
                "\(model.count) scheduled items never ran"
                    + (run.isSettled ? "" : "; announced work (blocks, or an actor wait's tasks) never finished"))
        }
        run.checkRunCounts()
        kept.removeAll()
        return run.report()
    }

    // MARK: - The model

    /// Puts a piece of work due `delay` from now, in the queue of `pool[index]`, into the model; returns its token.
    /// `timer`: it joins its queue when its timer fires (at its deadline), not when it is scheduled.
    private func schedule(after delay: UInt64 = 0, on index: Int?, timer: Bool = false) -> Int {
        defer {
            nextToken += 1
            nextSequence += 1
        }
        model.append((nextToken, now + delay, nextSequence, index.flatMap(queueGroup), timer))
        return nextToken
    }

    /// The serial group whose simulated queue `pool[index]`'s queued work runs in, or `nil` for the global queue.
    private func queueGroup(_ index: Int) -> Int? { pool[index].isSerial ? pool[index].group : nil }

    /// The work of `token` starts: it must be the model's earliest, and due. Explored, it must be due, due no later
    /// than anything pending (no work due at a later instant runs first), and the earliest of its serial group (FIFO
    /// on a serial queue); what runs for an `invokeSync`'s drain is checked as in the fixed order.
    private func starts(_ token: Int, _ what: String) {
        if explores && drains.isEmpty {
            startsExplored(token, what)
            return
        }
        let candidates = model.indices.filter { position in
            guard let drain = drains.last else { return true }
            // Explored, a timer due in the queue may not have fired yet when the caller came: it then runs later.
            if explores && model[position].atFiring && model[position].token != token { return false }
            return model[position].group == drain.group && model[position].sequence < drain.bound
                && model[position].deadline <= now
        }
        guard
            let earliest = candidates.min(by: {
                (model[$0].deadline, model[$0].sequence) < (model[$1].deadline, model[$1].sequence)
            })
        else {
            run.fail("work runs once, as scheduled", "\(what) started but the model had nothing pending")
            return
        }
        let expected = model[earliest]
        if expected.token != token || expected.deadline > now {
            run.fail(
                "deadline order, ties in the order of scheduling",
                "\(what) started at \(now) ns; the earliest pending was #\(expected.token) due at \(expected.deadline)")
        }
        model.removeAll { $0.token == token }
    }

    private func startsExplored(_ token: Int, _ what: String) {
        guard let item = model.first(where: { $0.token == token }) else {
            run.fail("work runs once, as scheduled", "\(what) started but the model did not have it pending")
            return
        }
        if item.deadline > now {
            run.fail(
                "explored, work never runs before its deadline", "\(what) started at \(now), due at \(item.deadline)")
        }
        if let earlier = model.first(where: { $0.deadline < item.deadline }) {
            run.fail(
                "explored, work due at an earlier instant runs first",
                "\(what) (due at \(item.deadline)) started before #\(earlier.token), due at \(earlier.deadline)")
        }
        // FIFO: a block joins its queue when scheduled, a timer's when it fires (at its deadline): work that joined
        // first runs first. At one instant, a firing may come before or after a block joining then.
        if let group = item.group,
            let before = model.first(where: {
                $0.group == group && $0.token != token
                    && ($0.deadline < item.deadline
                        || ($0.deadline == item.deadline && !$0.atFiring && !item.atFiring
                            && $0.sequence < item.sequence))
            })
        {
            run.fail(
                "explored, a serial queue runs its work in FIFO order",
                "\(what) (#\(token), sequence \(item.sequence)) started before #\(before.token), sequence "
                    + "\(before.sequence), in the same serial queue")
        }
        model.removeAll { $0.token == token }
    }

    private func cancelled(_ token: Int) { model.removeAll { $0.token == token } }

    // MARK: - Bodies and steps

    private func enter(_ body: RandomProgram.Body, in context: Int?, frame: Frame, token: Int?) {
        let name = context.map { pool[$0].name } ?? "no context"
        if let token { starts(token, "b\(body.id) in \(name)") }
        run.ran(body.id)
        run.log("t=\(now) b\(body.id) start in \(name)")
        for step in body.steps { perform(step, frame: frame) }
    }

    private func freshFrame(in index: Int) -> Frame {
        Frame(
            holder: run.newHolder(),
            held: pool[index].isSerial ? [.init(context: index, recorded: true, physical: true)] : [])
    }

    private func entering(_ index: Int, from frame: Frame) -> Frame {
        var inner = frame
        if pool[index].isSerial { inner.held.append(.init(context: index, recorded: true, physical: true)) }
        return inner
    }

    private func mayWait(on index: Int, _ frame: Frame) -> Bool {
        let context = pool[index]
        // Work run for a caller waiting in invokeSync must not wait for a queue that caller holds: for real, the two
        // threads would wait for each other (the coordinator stops with a message there).
        if context.isSerial && drains.contains(where: { $0.waiterHolds.contains(context.group) })
            && frame.held(group: context.group, in: pool) == nil
        {
            return false
        }
        guard context.isSerial, frame.held(group: context.group, in: pool) != nil else { return true }
        return context.reentersInline
    }

    /// The serial groups `frame` holds.
    private func heldGroups(_ frame: Frame) -> Set<Int> { Set(frame.held.map { pool[$0.context].group }) }

    private func perform(_ step: RandomProgram.Step, frame: Frame) {
        switch step {
        case .probe:
            for index in pool.indices where pool[index].isKnownByRecord {
                let expected = frame.held(group: pool[index].group, in: pool) != nil
                if pool[index].context.isCurrent != expected {
                    run.fail(
                        "isCurrent answers for the simulated queue", "\(pool[index].name).isCurrent is not \(expected)")
                }
            }
        case .invokeAsync(let index, let body):
            let token = schedule(on: index)
            run.expectRuns(body.id, 1)
            pool[index].context.invokeAsync {
                self.enter(body, in: index, frame: self.freshFrame(in: index), token: token)
            }
        case .invoke(let index, let body):
            guard mayWait(on: index, frame) || pool[index].kind != .mutexQueue else {
                run.log("skip invoke(\(pool[index].name))")
                return
            }
            run.expectRuns(body.id, 1)
            let before = run.runCount(body.id)
            let token = nextToken  // claimed below if the block was scheduled rather than run inline
            nextToken += 1
            let sequence = nextSequence
            nextSequence += 1
            let inline = LockedBox(true)
            // A mutex queue's invoke is an invokeSync: the work queued there before it runs first.
            let drains = pool[index].kind == .mutexQueue
            if drains { self.drains.append((pool[index].group, nextSequence, heldGroups(frame))) }
            pool[index].context.invoke {
                if drains && inline.withLock({ $0 }) { self.drains.removeLast() }
                if inline.withLock({ $0 }) {
                    self.enter(body, in: index, frame: self.entering(index, from: frame), token: nil)
                } else {
                    self.enter(body, in: index, frame: self.freshFrame(in: index), token: token)
                }
            }
            if run.runCount(body.id) == before {
                inline.withLock { $0 = false }
                model.append((token, now, sequence, queueGroup(index), false))
            }
        case .invokeSync(let index, let body):
            guard mayWait(on: index, frame) else {
                run.log("skip invokeSync(\(pool[index].name))")
                return
            }
            run.expectRuns(body.id, 1)
            // Onto a serial queue it is not inside, the work queued there before the call runs first.
            let drains = pool[index].isSerial && frame.held(group: pool[index].group, in: pool) == nil
            if drains { self.drains.append((pool[index].group, nextSequence, heldGroups(frame))) }
            pool[index].context.invokeSync {
                if drains { self.drains.removeLast() }
                self.enter(body, in: index, frame: self.entering(index, from: frame), token: nil)
            }
        case .invokeAfter(let index, let milliseconds, let body):
            // With a delay, a timer; with none, a hop (as libdispatch's `dispatch_after` with its deadline passed).
            let token = schedule(after: UInt64(milliseconds) * 1_000_000, on: index, timer: milliseconds > 0)
            run.expectRuns(body.id, 1)
            pool[index].context.invoke(after: .milliseconds(milliseconds)) {
                self.enter(body, in: index, frame: self.freshFrame(in: index), token: token)
            }
        case .singleTimer(let index, let milliseconds, let fate, let body):
            let token = schedule(after: UInt64(milliseconds) * 1_000_000, on: index, timer: true)
            if fate == .fires { run.expectRuns(body.id, 1) }
            let lifetime = pool[index].context.singleTimer(interval: .milliseconds(milliseconds)) {
                self.enter(body, in: index, frame: self.freshFrame(in: index), token: token)
            }
            switch fate {
            case .fires: kept.append(lifetime)
            case .cancelledAtOnce:
                lifetime.cancel()
                cancelled(token)
            case .released: cancelled(token)
            case .cancelledByALaterBlock:
                let cancelToken = schedule(on: index)
                pool[index].context.invokeAsync {
                    self.starts(cancelToken, "the cancel of b\(body.id)'s timer")
                    lifetime.cancel()
                    self.cancelled(token)
                }
            }
        case .periodicTimer:
            break  // left out of coordinator programs
        case .actorWait(let index, let shape, let waiterFirst):
            // Outside the model: the shape's jobs and its zero-interval timer schedule no program work, and its tasks
            // must all have finished once the program settles.
            let launcher = pool[index]
            let actorContext =
                launcher.hasSerialExecutor ? launcher.context : coordinator.serialQueue(named: "actor \(nextToken)")
            run.expect()
            launcher.context.task {
                let shape = ActorWaitShape.allCases[shape]
                await shape.run(on: actorContext, startingTasksOn: launcher.context, waiterFirst: waiterFirst)
                self.run.done()
            }
        }
    }
}
