// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import ExecMutex
import Testing

/// Counts events and lets a test wait for a number of them without sleeping.
final class EventCounter: Sendable {
    private let count = LockedBox(0)
    private let signal = DispatchSemaphore(value: 0)

    func record() {
        count.withLock { $0 += 1 }
        signal.signal()
    }

    var value: Int { count.withLock { $0 } }

    /// Waits for `events` events; `false` when they did not all come within `timeout` (generous: this is a shared box).
    func wait(for events: Int = 1, timeout: Double = 10) -> Bool {
        for _ in 0..<events where signal.wait(timeout: .now() + timeout) == .timedOut { return false }
        return true
    }
}

@Suite struct DispatchSourceTimerTests {
    // Guarantees: G-dispatch-single-timer-once
    @Test func singleTimerFiresOnceOnItsQueue() {
        let queue = DispatchQueue(label: "timer")
        let fired = EventCounter()
        let onQueue = LockedBox(false)
        let timer = DispatchSource.singleTimer(interval: .milliseconds(5), queue: queue) {
            onQueue.withLock { $0 = queue.isCurrent }
            fired.record()
        }
        #expect(fired.wait())
        // One more turn of the queue: a second firing, if there were one, would be visible by now.
        queue.sync(flags: .barrier) {}
        #expect(fired.value == 1)
        #expect(onQueue.withLock { $0 })
        timer.cancel()
    }

    @Test func negativeIntervalFiresAsSoonAsPossible() {
        let fired = EventCounter()
        let timer = DispatchSource.singleTimer(interval: .seconds(-5)) { fired.record() }
        #expect(fired.wait())
        timer.cancel()
    }

    @Test func parameterIsHandedToTheHandler() {
        let received = LockedBox<String?>(nil)
        let fired = EventCounter()
        let timer = DispatchSource.singleTimer(parameter: "tag", interval: .milliseconds(1)) { value in
            received.withLock { $0 = value }
            fired.record()
        }
        #expect(fired.wait())
        #expect(received.withLock { $0 } == "tag")
        timer.cancel()
    }

    @Test func repeatingTimerFiresUntilCancelled() {
        let fired = EventCounter()
        let timer = DispatchSource.repeatingTimer(interval: .milliseconds(2)) { fired.record() }
        #expect(fired.wait(for: 3))
        timer.cancel()
    }

    @Test func repeatingTimerWithParameter() {
        let sum = LockedBox(0)
        let fired = EventCounter()
        let timer = DispatchSource.repeatingTimer(parameter: 5, interval: .milliseconds(2)) { value in
            sum.withLock { $0 += value }
            fired.record()
        }
        #expect(fired.wait(for: 2))
        timer.cancel()
        #expect(sum.withLock { $0 } >= 10)
    }

    @Test func rearmingWithANewParameterTellsStaleFiringsApart() {
        let queue = DispatchQueue(label: "rearm")
        let seen = LockedBox<[Int]>([])
        let fired = EventCounter()
        let timer = DispatchSource.singleTimer(parameter: 1, interval: .seconds(3600), queue: queue) { value in
            seen.withLock { $0.append(value) }
            fired.record()
        }
        queue.sync {
            timer.scheduleOneshot(parameter: 2, interval: .milliseconds(1)) { value in
                seen.withLock { $0.append(value) }
                fired.record()
            }
        }
        #expect(fired.wait())
        #expect(seen.withLock { $0 } == [2])
        queue.sync {
            timer.scheduleRepeating(parameter: 3, interval: .milliseconds(1)) { value in
                seen.withLock { $0.append(value) }
                fired.record()
            }
        }
        #expect(fired.wait(for: 2))
        timer.cancel()
        #expect(seen.withLock { Array($0.prefix(3)) } == [2, 3, 3])
    }

    /// A handler re-arms its own timer from the timer's queue, with a new parameter, while its firing is under way and
    /// has outlived the old arming's next period. That firing finishes with the old parameter, which no longer matches
    /// the current one: it is told apart as stale. The next firing carries the new parameter and comes no earlier than
    /// the new deadline: no pending firing of the old arming reached the new handler, where its parameter would pass
    /// for current.
    // Guarantees: G-dispatch-rearm-stale
    @Test func aFiringUnderWayWhenItsHandlerRearmsCarriesTheOldParameter() {
        let timer = SelfRearmingTimer()
        timer.start()
        #expect(timer.fired.wait(for: 2), "both armings must fire")
        let (firings, newFiringWasEarly) = timer.stop()
        #expect(firings == ["1 stale", "2 current"])
        #expect(!newFiringWasEarly, "a firing of the old arming ran the new handler with the new parameter")
    }

    // Guarantees: G-dispatch-timer-release-safe
    @Test func droppingOrCancellingBeforeFiringIsSafe() {
        let fired = EventCounter()
        do {
            _ = DispatchSource.singleTimer(interval: .seconds(3600)) { fired.record() }
            _ = DispatchSource.repeatingTimer(interval: .seconds(3600)) { fired.record() }
        }
        let cancelled = DispatchSource.singleTimer(interval: .milliseconds(1)) { fired.record() }
        cancelled.cancel()
        // A firing that escaped the cancel would have come within this window.
        #expect(fired.wait(timeout: 0.1) == false)
    }

    #if os(macOS) || os(Linux) || os(Windows)
    // Guarantees: G-dispatch-repeating-positive
    @Test func zeroRepeatingIntervalStopsWithAMessage() async {
        let exit1 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DispatchSource.repeatingTimer(interval: .nanoseconds(0)) {}
        }
        #expect(
            exit1.standardErrorText.contains(
                "DispatchSource.repeatingTimer(interval:leeway:queue:handler:): a repeating timer needs a positive interval"
            ))
        let exit2 = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let timer = DispatchSource.singleTimer(interval: .seconds(1)) {}
            timer.scheduleRepeating(parameter: 0, interval: .milliseconds(-1)) { _ in }
        }
        #expect(
            exit2.standardErrorText.contains(
                "DispatchSourceTimer.scheduleRepeating(parameter:interval:leeway:handler:)"))
    }
    #endif
}

/// A repeating timer (parameter 1, every millisecond) whose first firing re-arms it from its own handler as a one-shot
/// with parameter 2, and records each firing's parameter against the current one.
private final class SelfRearmingTimer: @unchecked Sendable {
    // Unchecked: every `var` is read and written only on `queue`, which is serial.
    private let queue = DispatchQueue(label: "SelfRearmingTimer")
    let fired = EventCounter()
    private var timer: (any DispatchSourceTimer)?
    private var current = 1
    private var firings: [String] = []
    private var newDeadline = UInt64.max
    private var newFiringWasEarly = false

    func start() {
        // Armed inside the queue, so that no firing starts before `timer` is set.
        queue.sync {
            timer = DispatchSource.repeatingTimer(parameter: 1, interval: .milliseconds(1), queue: queue) {
                self.fire($0)
            }
        }
    }

    /// Cancels the timer (which breaks the cycle through its handler) and returns what the firings recorded.
    func stop() -> (firings: [String], newFiringWasEarly: Bool) {
        queue.sync {
            timer?.cancel()
            return (firings, newFiringWasEarly)
        }
    }

    private func fire(_ parameter: Int) {
        if parameter == 1 {
            // Not a wait for another thread: the firing stays under way for a few of the old arming's periods, so that
            // one of them falls due meanwhile.
            let until = DispatchTime.now().uptimeNanoseconds + 5_000_000
            while DispatchTime.now().uptimeNanoseconds < until {}
            current = 2
            newDeadline = DispatchTime.now().uptimeNanoseconds + 50_000_000
            timer?.scheduleOneshot(parameter: 2, interval: .milliseconds(50)) { self.fire($0) }
        } else if DispatchTime.now().uptimeNanoseconds < newDeadline {
            newFiringWasEarly = true
        }
        firings.append("\(parameter) \(parameter == current ? "current" : "stale")")
        fired.record()
    }
}
