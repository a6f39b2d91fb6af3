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
