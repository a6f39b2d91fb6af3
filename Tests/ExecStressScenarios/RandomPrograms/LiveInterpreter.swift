// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a body runs: its logical thread (a chain of calls each waiting for the next) and the contexts that chain is
/// inside, innermost last.
struct Frame: Sendable {
    struct Held: Sendable {
        let context: Int
        /// ExecKit's record on the running thread knows this entry (it was made on this thread, or carried here by
        /// an ExecKit `invokeSync`).
        var recorded: Bool
        /// The entry was made on the thread running the body now.
        var physical: Bool
    }

    let holder: Int
    var held: [Held]

    func held(group: Int, in pool: [ProgramContext]) -> Held? {
        held.last { pool[$0.context].group == group }
    }
}

/// Runs random programs on real contexts and checks every promise below as it goes. Each check names the line of the
/// documentation it holds ExecKit to.
final class LiveInterpreter: Sendable {
    let pool: [ProgramContext]
    let run: ProgramRun
    /// Lifetimes kept until the program is over (timers that must fire).
    private let kept = LockedBox<[any Lifetime]>([])

    init(pool: [ProgramContext], run: ProgramRun) {
        self.pool = pool
        self.run = run
    }

    /// Runs `program` from a thread outside every context, waits for all its work (20 s at most: a hang is a
    /// failure), and returns the failure report, or `nil`.
    func execute(_ program: RandomProgram) -> String? {
        run.expect()
        startDetachedThread {
            self.enter(program.root, in: nil, frame: Frame(holder: self.run.newHolder(), held: []))
            self.run.done()
        }
        if !run.waitUntilSettled(seconds: 20) {
            run.fail("a lost callback or a deadlock is a bug", "the program did not finish within 20 s")
            return run.report()
        }
        // Any timer that was cancelled but fires anyway does so within its interval (under 5 ms): give it the time.
        usleep(10_000)
        _ = run.waitUntilSettled(seconds: 20)
        run.checkRunCounts()
        withExtendedLifetime(kept) {}
        return run.report()
    }

    // MARK: - Bodies

    /// Runs `body` in `context` (or outside every context when `nil`), as `frame` says.
    private func enter(_ body: RandomProgram.Body, in context: Int?, frame: Frame) {
        run.ran(body.id)
        let serialGroup = context.flatMap { pool[$0].isSerial ? pool[$0].group : nil }
        if let group = serialGroup { run.enterSerial(group: group, holder: frame.holder, body: body.id) }
        run.log("b\(body.id) start in \(context.map { pool[$0].name } ?? "no context") h\(frame.holder)")
        if let context, expectedIsCurrent(context, frame) == true, !pool[context].context.isCurrent {
            run.fail(
                "isCurrent: is code running in this context now? (answered true inside its blocks)",
                "b\(body.id) runs in \(pool[context].name), whose isCurrent is false")
        }
        for step in body.steps { perform(step, frame: frame) }
        if let group = serialGroup { run.leaveSerial(group: group) }
    }

    /// The frame of a block that starts afresh in `context` (an asynchronous entry).
    private func freshFrame(in context: Int) -> Frame {
        let entry =
            pool[context].isSerial
            ? [Frame.Held(context: context, recorded: pool[context].isKnownByRecord, physical: true)] : []
        return Frame(holder: run.newHolder(), held: entry)
    }

    /// `frame` extended by a synchronous entry into `context` on the same thread.
    private func entering(_ context: Int, from frame: Frame) -> Frame {
        var inner = frame
        if pool[context].isSerial {
            inner.held.append(.init(context: context, recorded: pool[context].isKnownByRecord, physical: true))
        }
        return inner
    }

    /// What `isCurrent` of `context` must answer in `frame`, or `nil` where the docs leave it open here.
    private func expectedIsCurrent(_ index: Int, _ frame: Frame) -> Bool? {
        let context = pool[index]
        switch context.kind {
        case .direct: return true
        case .concurrent, .customSerial: return false
        case .asyncQueue, .mutexQueue, .main, .serializedMutex, .serializedAsync:
            guard let held = frame.held(group: context.group, in: pool) else { return false }
            return held.recorded ? true : nil
        }
    }

    /// Whether waiting for `context` here is allowed: never re-entering what cannot be re-entered, never waiting on a
    /// group below one held (which could deadlock against another thread, through no fault of ExecKit's).
    private func mayWait(on index: Int, _ frame: Frame) -> Bool {
        let context = pool[index]
        switch context.kind {
        case .direct, .concurrent: return true
        default: break
        }
        if let held = frame.held(group: context.group, in: pool) {
            return context.reentersInline && held.recorded
        }
        let highest = frame.held.map { pool[$0.context].group }.max() ?? -1
        return context.group > highest
    }

    // MARK: - Steps

    private func perform(_ step: RandomProgram.Step, frame: Frame) {
        switch step {
        case .probe: probe(frame)
        case .invokeAsync(let index, let body): invokeAsync(index, body, frame)
        case .invoke(let index, let body): invoke(index, body, frame)
        case .invokeSync(let index, let body): invokeSync(index, body, frame)
        case .invokeAfter(let index, let milliseconds, let body): invokeAfter(index, milliseconds, body)
        case .singleTimer(let index, let milliseconds, let fate, let body):
            singleTimer(index, milliseconds, fate, body, frame)
        case .periodicTimer(let index, let ticks, let body): periodicTimer(index, ticks, body)
        case .actorWait(let index, let shape, let waiterFirst):
            let launcher = pool[index]
            let actorContext = launcher.hasSerialExecutor ? launcher.context : Exec.asyncQueue()
            run.expect()
            Task.detached {
                let shape = ActorWaitShape.allCases[shape]
                await shape.run(on: actorContext, startingTasksOn: launcher.context, waiterFirst: waiterFirst)
                self.run.done()
            }
        }
    }

    private func probe(_ frame: Frame) {
        for index in pool.indices {
            guard let expected = expectedIsCurrent(index, frame) else { continue }
            let actual = pool[index].context.isCurrent
            if actual != expected {
                run.fail(
                    "isCurrent: never a false positive; inside a block that ExecKit ran on a serial queue, through "
                        + "other queues' sync calls, true",
                    "h\(frame.holder): \(pool[index].name).isCurrent is \(actual), expected \(expected)")
            }
        }
    }

    private func invokeAsync(_ index: Int, _ body: RandomProgram.Body, _ frame: Frame) {
        let context = pool[index]
        let sequence = run.sequence()
        let caller = pthread_self()
        let returned = Atomic(false)
        run.expect()
        run.expectRuns(body.id, 1)
        context.context.invokeAsync {
            if pthread_equal(pthread_self(), caller) != 0 && !returned.load(ordering: .acquiring) {
                self.run.fail("invokeAsync never runs the block before returning", "b\(body.id) ran inside invokeAsync")
            }
            if context.isSerial {
                self.run.startedInOrder(context: context.name, holder: frame.holder, sequence: sequence, body: body.id)
            }
            self.enter(body, in: index, frame: self.freshFrame(in: index))
            self.run.done()
        }
        returned.store(true, ordering: .releasing)
    }

    private func invoke(_ index: Int, _ body: RandomProgram.Body, _ frame: Frame) {
        let context = pool[index]
        let waits = context.kind == .mutexQueue || context.kind == .serializedMutex
        if waits && !mayWait(on: index, frame) {
            run.log("skip invoke(\(context.name)) in h\(frame.holder): it would wait where it may not")
            return
        }
        let caller = pthread_self()
        let returned = Atomic(false)
        run.expect()
        run.expectRuns(body.id, 1)
        context.context.invoke {
            // Inline exactly when it runs on the calling thread before invoke returned.
            let inline = pthread_equal(pthread_self(), caller) != 0 && !returned.load(ordering: .acquiring)
            if waits && !inline {
                self.run.fail(
                    "a mutex context's invoke runs the block before returning", "b\(body.id) ran after invoke returned")
            }
            self.enter(body, in: index, frame: inline ? self.entering(index, from: frame) : self.freshFrame(in: index))
            self.run.done()
        }
        returned.store(true, ordering: .releasing)
    }

    private func invokeSync(_ index: Int, _ body: RandomProgram.Body, _ frame: Frame) {
        let context = pool[index]
        guard mayWait(on: index, frame) else {
            run.log("skip invokeSync(\(context.name)) in h\(frame.holder): it would wait where it may not")
            return
        }
        var inner: Frame
        var mustBeInline = false
        switch context.kind {
        case .direct, .concurrent:
            inner = frame
        case .main where frame.held(group: context.group, in: pool) == nil,
            .serializedAsync where frame.held(group: context.group, in: pool) == nil:
            // The block runs on another thread (the main queue's, the draining one) while this one waits. ExecKit
            // carries its record there for the main queue; a serialized context waits with a semaphore.
            inner = frame
            for position in inner.held.indices {
                inner.held[position].physical = false
                if context.kind == .serializedAsync { inner.held[position].recorded = false }
            }
            inner.held.append(.init(context: index, recorded: context.isKnownByRecord, physical: true))
        default:
            if frame.held(group: context.group, in: pool) != nil {
                inner = frame  // re-entered: inline
                mustBeInline = true
            } else {
                inner = entering(index, from: frame)
            }
        }
        let caller = pthread_self()
        let ranInline = Atomic(false)
        // This call's own flag, not the body's run count: a body in a periodic timer or a loop may also be running
        // elsewhere meanwhile, on another thread (seed 146 met that: a count read before and after moved by two).
        let finished = Atomic(false)
        run.expectRuns(body.id, 1)
        context.context.invokeSync {
            ranInline.store(pthread_equal(pthread_self(), caller) != 0, ordering: .relaxed)
            self.enter(body, in: index, frame: inner)
            finished.store(true, ordering: .releasing)
        }
        if !finished.load(ordering: .acquiring) {
            run.fail("invokeSync waits for the block and returns its value", "b\(body.id) had not run when it returned")
        }
        if mustBeInline && !ranInline.load(ordering: .relaxed) {
            run.fail(
                "invokeSync from inside a serial asynchronous context runs the block inline",
                "b\(body.id) did not run on the calling thread")
        }
    }

    private func invokeAfter(_ index: Int, _ milliseconds: Int, _ body: RandomProgram.Body) {
        let start = DispatchTime.now().uptimeNanoseconds
        run.expect()
        run.expectRuns(body.id, 1)
        pool[index].context.invoke(after: .milliseconds(milliseconds)) {
            if DispatchTime.now().uptimeNanoseconds - start < UInt64(milliseconds) * 1_000_000 {
                self.run.fail("invoke(after:): never before delay has passed", "b\(body.id) ran early")
            }
            self.enter(body, in: index, frame: self.freshFrame(in: index))
            self.run.done()
        }
    }

    /// Whether `frame` runs inside serial context `index` on this very thread: where a `cancel()` that returns
    /// guarantees the handler never runs.
    private func isPhysicallyInside(_ index: Int, _ frame: Frame) -> Bool {
        pool[index].isSerial && frame.held(group: pool[index].group, in: pool)?.physical == true
    }

    private func singleTimer(
        _ index: Int, _ milliseconds: Int, _ fate: RandomProgram.TimerFate, _ body: RandomProgram.Body, _ frame: Frame
    ) {
        let context = pool[index]
        let start = DispatchTime.now().uptimeNanoseconds
        let firings = Atomic(0)
        let cancelledInside = Atomic(false)
        if fate == .fires {
            run.expect()
            run.expectRuns(body.id, 1)
        }
        let handler: @Sendable () -> Void = {
            if firings.add(1, ordering: .relaxed).newValue > 1 {
                self.run.fail("a one-shot timer fires once", "the timer of b\(body.id) fired twice")
            }
            if cancelledInside.load(ordering: .acquiring) {
                self.run.fail(
                    "on a serial context, once cancel() has returned inside the context, the handler never runs",
                    "the timer of b\(body.id) on \(context.name) fired after it was cancelled inside")
            }
            if DispatchTime.now().uptimeNanoseconds - start < UInt64(milliseconds) * 1_000_000 {
                self.run.fail("a timer never fires before its deadline", "the timer of b\(body.id) fired early")
            }
            self.enter(body, in: index, frame: self.freshFrame(in: index))
            if fate == .fires { self.run.done() }
        }
        let interval = Duration.milliseconds(milliseconds)
        switch fate {
        case .fires:
            kept.withLock { $0.append(context.context.singleTimer(interval: interval, handler: handler)) }
        case .cancelledAtOnce, .released:
            if fate == .cancelledAtOnce {
                context.context.singleTimer(interval: interval, handler: handler).cancel()
            } else {
                _ = context.context.singleTimer(interval: interval, handler: handler)  // released at once
            }
            if isPhysicallyInside(index, frame) { cancelledInside.store(true, ordering: .releasing) }
            run.log("timer of b\(body.id) on \(context.name) \(fate) in h\(frame.holder)")
        case .cancelledByALaterBlock:
            let lifetime = context.context.singleTimer(interval: interval, handler: handler)
            run.expect()
            context.context.invokeAsync {
                lifetime.cancel()
                if context.isSerial { cancelledInside.store(true, ordering: .releasing) }
                self.run.log("timer of b\(body.id) on \(context.name) cancelled by a later block")
                self.run.done()
            }
        }
    }

    private func periodicTimer(_ index: Int, _ ticks: Int, _ body: RandomProgram.Body) {
        let context = pool[index]
        let count = Atomic(0)
        let running = Atomic(0)
        let cancelledInside = Atomic(false)
        let finished = Atomic(false)
        let timer = LockedBox<(any Lifetime)?>(nil)
        run.expect()
        let lifetime = context.context.periodicTimer(interval: .milliseconds(1)) {
            if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
                self.run.fail("one periodic handler never runs twice at once", "the timer of b\(body.id) overlapped")
            }
            if cancelledInside.load(ordering: .acquiring) {
                self.run.fail(
                    "on a serial context, once cancel() has returned inside the context, the handler never runs",
                    "the periodic timer of b\(body.id) on \(context.name) ticked after it cancelled itself")
            }
            self.enter(body, in: index, frame: self.freshFrame(in: index))
            let ticked = count.add(1, ordering: .relaxed).newValue
            if ticked >= ticks, let lifetime = timer.withLock({ $0 }), !finished.exchange(true, ordering: .relaxed) {
                lifetime.cancel()
                if context.isSerial { cancelledInside.store(true, ordering: .releasing) }
                self.run.done()
            }
            running.subtract(1, ordering: .acquiringAndReleasing)
        }
        timer.withLock { $0 = lifetime }
    }
}
