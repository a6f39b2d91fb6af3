// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Synchronization
import Testing

/// `invoke(after:)`: a delayed block that nobody keeps still runs, in its context, never early, never inline, and
/// lets go of everything once it has run.
@Suite struct DelayedInvokeTests {
    /// Every kind of context: Exec's Dispatch-backed cases (the `asyncAfter` path), a mutex queue, and custom
    /// contexts (the default implementation, a self-keeping timer).
    static let contexts: [Exec] = [
        .direct, .main, .mainAsync, .utility, .asyncQueue(), .syncQueue(), .direct.serialized(),
        .custom(MinimalSerialContext()), .custom(CountingImmediateContext()),
    ]

    // Guarantees: G-timer-invoke-after
    @Test(arguments: contexts)
    func runsWithoutAHandleAndNeverBeforeTheDelay(context: Exec) {
        let start = DispatchTime.now()
        let ran = Recorder<Double>()
        context.invoke(after: .milliseconds(30)) { ran.record(DispatchTime.now().since(start).seconds) }
        #expect(ran.wait(), "a delayed block that nobody keeps must still run")
        #expect(ran.recorded.first.map { $0 >= 0.029 } == true, "never early: ran after \(ran.recorded)")
    }

    // Guarantees: G-timer-invoke-after
    @Test(arguments: contexts)
    func neverRunsInlineEvenWithNoDelay(context: Exec) {
        #expect(runsOnlyAfterReturning { block in context.invoke(after: .zero, block) })
        #expect(runsOnlyAfterReturning { block in context.invoke(after: .seconds(-5), block) })
    }

    /// `.main` on the main actor would run `invoke` inline; `invoke(after:)` must not, even with no delay.
    // Guarantees: G-timer-invoke-after
    @Test @MainActor func mainFromTheMainActorIsNotInline() async {
        let ran = Flag()
        await withCheckedContinuation { continuation in
            Exec.main.invoke(after: .zero) {
                ran.set()
                continuation.resume()
            }
            #expect(!ran.isSet, "ran before invoke(after:) returned")
        }
        #expect(ran.isSet)
    }

    @Test func mainRunsOnTheMainActor() async {
        let isolated = await withCheckedContinuation { continuation in
            Exec.main.invoke(after: .milliseconds(1)) {
                continuation.resume(returning: MainActor.assumeIsolated { DispatchQueue.isMainQueueCurrent })
            }
        }
        #expect(isolated)
    }

    @Test func aSerialQueueRunsTheBlockInsideTheQueue() {
        for context in [Exec.asyncQueue(), .syncQueue()] {
            let inside = Recorder<Bool>()
            context.invoke(after: .milliseconds(1)) { inside.record(context.isCurrent) }
            #expect(inside.wait())
            #expect(inside.recorded == [true], "\(context)")
        }
    }

    @Test func aCustomContextRunsTheBlockThroughItsInvoke() {
        let context = CountingImmediateContext()
        let ran = Recorder<Bool>()
        Exec.custom(context).invoke(after: .milliseconds(1)) { ran.record(true) }
        #expect(ran.wait())
        #expect(context.invocations.load(ordering: .relaxed) == 1)
    }

    /// The default implementation keeps its timer alive until it fires, then lets go of the timer and the block.
    // Guarantees: G-custom-invoke-after-self-keeping
    @Test(arguments: [false, true])
    func theDefaultImplementationReleasesTheTimerAndTheBlockOnceItRan(throughExec: Bool) {
        let context = LifetimeTrackingContext()
        weak var weakToken: Token?
        let ran = Recorder<Bool>()
        do {
            let token = Token()
            weakToken = token
            let block: @Sendable () -> Void = {
                token.touch()
                ran.record(true)
            }
            if throughExec {
                Exec.custom(context).invoke(after: .milliseconds(5), block)
            } else {
                context.invoke(after: .milliseconds(5), block)
            }
        }
        #expect(context.timers.withLock { $0.count } == 1, "one timer, and no handle for the caller")
        #expect(ran.wait())
        #expect(becomesNil { weakToken }, "the block (and what it captures) must be released once it has run")
        #expect(becomesNil { context.timers.withLock { $0.first?.value } }, "the timer must be released once fired")
    }

    /// Exec's own path (`asyncAfter`) lets go of the block once it has run.
    // Guarantees: G-timer-invoke-after-release
    @Test(arguments: [Exec.direct, .utility, .asyncQueue(), .syncQueue()])
    func execReleasesTheBlockOnceItRan(context: Exec) {
        weak var weakToken: Token?
        let ran = Recorder<Bool>()
        do {
            let token = Token()
            weakToken = token
            context.invoke(after: .milliseconds(1)) {
                token.touch()
                ran.record(true)
            }
        }
        #expect(ran.wait())
        #expect(becomesNil { weakToken })
    }

    /// Blocks with different delays on one serial context run in deadline order.
    ///
    /// The delays are 150 ms apart: each deadline is taken when its call is made, and under the Thread Sanitizer, on
    /// a loaded two-core machine, the three calls once took more than the 20 ms that separated them at first.
    @Test func earlierDeadlinesRunFirstOnASerialContext() {
        let context = Exec.asyncQueue()
        let order = Recorder<Int>()
        for (index, delay) in [(2, 300), (0, 0), (1, 150)] {
            context.invoke(after: .milliseconds(delay)) { order.record(index) }
        }
        #expect(order.wait(for: 3))
        #expect(order.recorded == [0, 1, 2])
    }
}

/// A custom context whose timers are ExecKit's own, wrapped in a lifetime the test can watch through weak references.
final class LifetimeTrackingContext: ExecutionContext {
    final class TrackedLifetime: Lifetime {
        private let timer: any Lifetime
        init(_ timer: any Lifetime) { self.timer = timer }
        func cancel() { timer.cancel() }
    }

    /// The timers this context started, weakly.
    let timers = LockedBox<[WeakBox]>([])

    /// A weak reference that may cross threads.
    final class WeakBox: @unchecked Sendable {
        // Unchecked: set once, in init; Swift loads `weak` references atomically.
        weak var value: TrackedLifetime?
        init(_ value: TrackedLifetime) { self.value = value }
    }

    var type: ExecutionType { .concurrentAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().sync(execute: execute) }

    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        let tracked = TrackedLifetime(Exec.utility.singleTimer(interval: interval, leeway: leeway, handler: handler))
        timers.withLock { $0.append(WeakBox(tracked)) }
        return tracked
    }
}
