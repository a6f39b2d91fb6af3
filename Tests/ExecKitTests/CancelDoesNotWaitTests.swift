// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Synchronization
import Testing

/// *Timers and lifetimes*: "`cancel()` does not wait for a call of the handler that is already running elsewhere", and
/// whatever a timer holds (handler, `parameter:`) is released once it can never run again (issue #32, untested
/// promises 1 and 2). A `cancel()` that waited would deadlock a user who cancels while holding a lock the handler
/// takes; here it would return only once the handler gave up waiting (10 s), and the test sees the handler finished.
@Suite struct CancelDoesNotWaitTests {
    /// Contexts whose handlers run on a thread of their own, so that the test thread can cancel while one is running:
    /// the engine's concurrent and serial firings, both serialized kinds, and a context of the user's.
    static let contexts: [Exec] = [
        .utility, .asyncQueue(), .syncQueue(),
        .queue(
            DispatchQueue(label: "concurrent", attributes: .concurrent),
            .concurrentAsync), .direct.serialized(), .utility.serialized(), .custom(MinimalSerialContext()),
    ]

    // Guarantees: G-timer-cancel-no-wait
    @Test(arguments: contexts, [false, true])
    func cancelReturnsWhileTheHandlerIsStillRunning(context: Exec, periodic: Bool) {
        let blocked = BlockedHandler()
        let timer =
            periodic
            ? context.periodicTimer(interval: .milliseconds(1)) { blocked.run() }
            : context.singleTimer(interval: .milliseconds(1)) { blocked.run() }
        #expect(blocked.started.wait(timeout: .now() + 10) == .success, "the handler must start")
        timer.cancel()
        let finishedBeforeCancelReturned = blocked.finished.load(ordering: .acquiring)
        #expect(!finishedBeforeCancelReturned, "cancel() waited for the running handler")
        blocked.release.signal()
        #expect(blocked.finishedSignal.wait(timeout: .now() + 10) == .success)
        // Let any later tick that slipped in before the cancel finish too, then check no firing starts after.
        let runs = blocked.runs.load(ordering: .acquiring)
        for _ in 0..<4 { blocked.release.signal() }
        context.alwaysAsync().invokeSync {}
        let runsAfter = blocked.runs.load(ordering: .acquiring)
        #expect(runsAfter <= runs + (periodic ? 1 : 0))
    }

    /// The exact promise from another thread (issue #40, item 7): `cancel()` stops every firing that has not begun, and
    /// does not wait for one that has. A serial engine takes a due timer under its lock and calls the handler with the
    /// lock released, so a `cancel()` that lands in between returns before that call starts: at most one call starts
    /// after `cancel()` returns, never a second. Raced 200 times per context against a timer firing every 200 µs. (The
    /// window is a few instructions wide: in a trial, no round of any context hit it; the test holds the bound.)
    // Guarantees: G-timer-cancel-no-wait, G-timer-cancel-per-kind
    @Test(arguments: contexts)
    func atMostTheFiringThatHadBegunStartsAfterCancelReturns(context: Exec) {
        for round in 0..<200 {
            let starts = Atomic(0)
            let timer = context.periodicTimer(interval: .microseconds(200)) { starts.add(1, ordering: .relaxed) }
            let until = DispatchTime.now().uptimeNanoseconds + UInt64(round % 10) * 100_000
            // Cancel at a different phase of the period each round.
            while DispatchTime.now().uptimeNanoseconds < until {}
            timer.cancel()
            let atCancel = starts.load(ordering: .acquiring)
            context.alwaysAsync().invokeSync {}  // on a serial context, any firing that had begun has run by now
            let after = starts.load(ordering: .acquiring)
            #expect(after <= atCancel + 1, "round \(round): \(after - atCancel) calls started after cancel() returned")
        }
    }

    /// The `parameter:` variants hold their parameter as the handler does: released when `cancel()` returns (the
    /// timer has not fired, so no call can be running), and once a one-shot has fired (polled: the firing thread lets
    /// go of it after the handler returns, and no event marks that).
    // Guarantees: G-lifetime-release
    @Test(arguments: contexts)
    func aTimersParameterIsReleasedOnCancelAndAfterAOneShotFired(context: Exec) {
        weak var cancelledParameter: Token?
        weak var firedParameter: Token?
        let fired = DispatchSemaphore(value: 0)
        let timer: any Lifetime
        do {
            let cancelled = Token()
            cancelledParameter = cancelled
            timer = context.singleTimer(parameter: cancelled, interval: .seconds(3_600)) { _ in }
        }
        timer.cancel()
        #expect(cancelledParameter == nil, "a cancelled timer still held its parameter after cancel()")
        do {
            let once = Token()
            firedParameter = once
            let oneShot = context.singleTimer(parameter: once, interval: .milliseconds(1)) { _ in fired.signal() }
            #expect(fired.wait(timeout: .now() + 10) == .success, "the one-shot timer must fire")
            withExtendedLifetime(oneShot) {}
        }
        #expect(becomesNil { firedParameter }, "a fired one-shot timer still holds its parameter")
    }

    /// A periodic timer's parameter goes when the timer is cancelled. Polled: with a firing every millisecond, a call
    /// may be running on another thread when the test thread cancels, and it keeps the parameter until it returns
    /// (`LifetimeReleaseTests` checks the release at once where no call can be running).
    // Guarantees: G-lifetime-release
    @Test(arguments: contexts)
    func aPeriodicTimersParameterIsReleasedOnCancel(context: Exec) {
        weak var weakParameter: Token?
        let ticked = DispatchSemaphore(value: 0)
        do {
            let parameter = Token()
            weakParameter = parameter
            let timer = context.periodicTimer(parameter: parameter, interval: .milliseconds(1)) { _ in ticked.signal() }
            #expect(ticked.wait(timeout: .now() + 10) == .success, "the periodic timer must tick")
            timer.cancel()
        }
        #expect(becomesNil { weakParameter }, "a cancelled periodic timer still holds its parameter")
    }
}

/// A handler that blocks until released (at most 10 s, so that a `cancel()` that waits for it fails the test rather
/// than hanging it).
private final class BlockedHandler: Sendable {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let finishedSignal = DispatchSemaphore(value: 0)
    let finished = Atomic(false)
    let runs = Atomic(0)

    func run() {
        runs.add(1, ordering: .acquiringAndReleasing)
        started.signal()
        _ = release.wait(timeout: .now() + 10)
        finished.store(true, ordering: .releasing)
        finishedSignal.signal()
    }
}
