// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization
import Testing

@Suite struct ExecTimerTests {
    // Guarantees: G-timer-fires-in-context
    @Test func singleTimerFiresOnceInItsQueue() {
        let context = Exec.asyncQueue()
        guard case .queue(let queue, _) = context else { return }
        let fired = Recorder<Bool>()
        let lifetime = context.singleTimer(interval: .milliseconds(5)) { fired.record(queue.isCurrent) }
        #expect(fired.wait())
        context.invokeSync {}  // one more turn of the queue
        #expect(fired.recorded == [true])
        withExtendedLifetime(lifetime) {}
    }

    // Guarantees: G-timer-interval-from-call
    @Test func singleTimerHonoursTheInterval() {
        let start = DispatchTime.now()
        let fired = Recorder<DispatchTime>()
        let lifetime = Exec.utility.singleTimer(interval: .milliseconds(30)) { fired.record(DispatchTime.now()) }
        #expect(fired.wait())
        #expect(fired.recorded[0].since(start).seconds >= 0.029, "never early")
        withExtendedLifetime(lifetime) {}
    }

    // Guarantees: G-timer-interval-from-call
    @Test func negativeIntervalFiresAsSoonAsPossible() {
        let fired = Recorder<Bool>()
        let lifetime = Exec.direct.singleTimer(interval: .seconds(-10)) { fired.record(true) }
        #expect(fired.wait())
        withExtendedLifetime(lifetime) {}
    }

    @Test func parameterVariantsPassTheParameter() {
        let fired = Recorder<String>()
        let single = Exec.default.singleTimer(parameter: "once", interval: .milliseconds(1)) { fired.record($0) }
        #expect(fired.wait())
        let periodic = Exec.default.periodicTimer(parameter: "tick", interval: .milliseconds(1)) { fired.record($0) }
        #expect(fired.wait(for: 2))
        periodic.cancel()
        #expect(fired.recorded.prefix(3) == ["once", "tick", "tick"])
        withExtendedLifetime(single) {}
    }

    // Guarantees: G-timer-fires-in-context
    @Test func periodicTimerFiresRepeatedlyInItsContext() {
        let context = Exec.asyncQueue()
        guard case .queue(let queue, _) = context else { return }
        let ticks = Recorder<Bool>()
        let lifetime = context.periodicTimer(interval: .milliseconds(2)) { ticks.record(queue.isCurrent) }
        #expect(ticks.wait(for: 3))
        lifetime.cancel()
        #expect(ticks.recorded.allSatisfy { $0 })
    }

    /// On a serial context, once `cancel()` returned inside the context, no firing runs, even one already queued.
    // Guarantees: G-timer-cancel-inside, G-timer-cancel-per-kind
    @Test(arguments: [Exec.asyncQueue(), .syncQueue(), .main, .custom(MinimalSerialContext()), .direct.serialized()])
    func noFiringAfterCancelReturnsInsideTheContext(context: Exec) {
        let ticks = Atomic(0)
        let lifetime = LockedBox<(any Lifetime)?>(nil)
        let cancelled = Recorder<Int>()
        lifetime.withLock { slot in
            slot = context.periodicTimer(interval: .milliseconds(1)) {
                let count = ticks.add(1, ordering: .relaxed).newValue
                guard count == 3 else { return }
                // Hold the context long enough for further firings to queue up behind this one, then cancel.
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(20))
                lifetime.withLock { $0?.cancel() }
                cancelled.record(count)
            }
        }
        #expect(cancelled.wait())
        // A firing queued before the cancel would run within this window; it must find the timer cancelled.
        let settled = Recorder<Bool>()
        let probe = Exec.utility.singleTimer(interval: .milliseconds(60)) { settled.record(true) }
        #expect(settled.wait())
        context.invokeSync {}
        #expect(ticks.load(ordering: .relaxed) == 3)
        withExtendedLifetime(probe) {}
    }

    /// The default timer reaches a custom context through `invoke`: a firing already queued there when `cancel()`
    /// returns inside the context must be dropped.
    // Guarantees: G-timer-cancel-inside
    @Test func aFiringQueuedInACustomContextBeforeCancelIsDropped() {
        let context = ManualSerialContext()
        let fired = Flag()
        let single = context.singleTimer(interval: .milliseconds(1)) { fired.set() }
        #expect(context.waitForArrival(), "the firing must reach the context")
        single.cancel()
        #expect(context.runPending() == 1)
        #expect(!fired.isSet)

        let ticks = Recorder<Int>()
        let periodic = context.periodicTimer(parameter: 1, interval: .milliseconds(1)) { ticks.record($0) }
        #expect(context.waitForArrival())
        context.runPending()
        #expect(ticks.recorded.count >= 1, "a firing that is not cancelled runs")
        #expect(context.waitForArrival())
        periodic.cancel()
        let before = ticks.recorded.count
        context.runPending()
        #expect(ticks.recorded.count == before)
    }

    // Guarantees: G-lifetime-handle
    @Test(arguments: [Exec.utility, .asyncQueue(), .custom(MinimalSerialContext())])
    func releasingTheLifetimeCancelsTheTimer(context: Exec) {
        let fired = Recorder<String>()
        let scheduled = ContinuousClock.now
        do {
            _ = context.singleTimer(interval: .milliseconds(300)) { fired.record("single") }
            _ = context.periodicTimer(interval: .milliseconds(200)) { fired.record("periodic") }
        }
        let released = ContinuousClock.now - scheduled
        // Both would have fired within this window had the released lifetimes not cancelled them. A firing is no
        // failure only where the first deadline had passed before the release (this thread descheduled for 200 ms
        // meanwhile, on a badly loaded machine): a firing already taken may then still run.
        #expect(fired.wait(timeout: 0.6) == false || released >= .milliseconds(200), "\(fired.recorded)")
    }

    // Guarantees: G-lifetime-handle
    @Test func cancelIsIdempotent() {
        let fired = Recorder<Bool>()
        let scheduled = ContinuousClock.now
        let lifetime = Exec.utility.singleTimer(interval: .milliseconds(200)) { fired.record(true) }
        lifetime.cancel()
        let cancelled = ContinuousClock.now - scheduled
        lifetime.cancel()
        // As above: a firing is a failure unless the deadline passed before the first cancel() returned.
        #expect(fired.wait(timeout: 0.4) == false || cancelled >= .milliseconds(200))
    }

    // Guarantees: G-custom-timer-through-invoke, G-timer-fires-in-context
    @Test func customContextsForwardTimersAndTimestamp() {
        let fired = Recorder<Bool>()
        let inner = MinimalSerialContext()
        let context = Exec.custom(inner)
        let lifetime = context.singleTimer(parameter: true, interval: .milliseconds(1), leeway: .zero) {
            fired.record($0 && inner.queue.isCurrent)
        }
        #expect(fired.wait())
        #expect(fired.recorded == [true])
        #expect(context.timestamp() <= DispatchTime.now())
        withExtendedLifetime(lifetime) {}
    }

    #if os(macOS) || os(Linux) || os(Windows)
    @Test func zeroOrNegativePeriodStopsWithAMessage() async {
        let exit1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.main.periodicTimer(interval: .zero) {}
        }
        #expect(exit1.standardErrorText.contains("periodicTimer(interval:handler:) needs a positive interval"))
        let exit2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.utility.periodicTimer(parameter: 1, interval: .milliseconds(-5)) { _ in }
        }
        #expect(
            exit2.standardErrorText.contains(
                "periodicTimer(parameter:interval:handler:) needs a positive interval"))
        let exit3 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MinimalSerialContext().periodicTimer(interval: .zero, leeway: .zero) {}
        }
        #expect(exit3.standardErrorText.contains("periodicTimer(interval:leeway:handler:) needs a positive interval"))
    }
    #endif
}
