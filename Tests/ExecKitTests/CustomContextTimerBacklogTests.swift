// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A timer on a custom context keeps at most one firing waiting in the context, so a context that was busy does not
/// run every missed tick back to back (it used to run ~150 ticks within a millisecond after a 300 ms stall; now 1 or 2:
/// the queued firing, and at most one more tick arriving in that millisecond, so the bound leaves room for load).
// Guarantees: G-timer-periodic-skips-missed
@Suite struct CustomContextTimerBacklogTests {
    @Test func aBlockedSerialContextDoesNotRunMissedTicksBackToBack() {
        let context = MinimalSerialContext()
        let blockStarted = DispatchSemaphore(value: 0)
        let blockEnded = LockedBox<DispatchTime?>(nil)
        context.queue.async {
            blockStarted.signal()
            usleep(300_000)  // the context is busy with real work for 300 ms: that is the scenario, not a wait
            blockEnded.withLock { $0 = .now() }
        }
        _ = blockStarted.wait(timeout: .now() + 10)
        let ticks = Recorder<DispatchTime>()
        let timer = Exec.custom(context).periodicTimer(interval: .milliseconds(2)) { ticks.record(.now()) }
        #expect(ticks.wait(for: 5), "the timer must keep ticking after the stall")
        timer.cancel()
        guard let end = blockEnded.withLock({ $0 }) else {
            Issue.record("the blocking block never finished")
            return
        }
        let burst = ticks.recorded.filter { $0 >= end && $0.uptimeNanoseconds - end.uptimeNanoseconds < 1_000_000 }
        #expect(burst.count <= 3, "\(burst.count) ticks ran within 1 ms after the stall: missed ticks piled up")
    }

    // Guarantees: G-timer-cancel-inside, G-timer-cancel-per-kind
    @Test func aCancelledTimerOnABlockedContextNeverRunsItsQueuedFiring() {
        let context = ManualSerialContext()
        let ran = Flag()
        let timer = Exec.custom(context).periodicTimer(interval: .milliseconds(1)) { ran.set() }
        #expect(context.waitForArrival(), "a firing must be queued in the context")
        timer.cancel()
        context.runPending()
        #expect(!ran.isSet, "a firing queued before cancel() ran after it")
    }

    /// A context of the user's may drop a block unrun (issue #40, item 5): the next period still fires. Before, the
    /// dropped firing kept the timer's one-firing-queued flag set, and the timer never fired again.
    // Guarantees: G-timer-periodic-survives-drops
    @Test(arguments: [DropPattern.first, .everyOther])
    func aPeriodicTimerFiresOnAfterItsContextDropsADelivery(dropping pattern: DropPattern) {
        let context = DroppingContext(pattern)
        let ticks = Recorder<Int>()
        weak var weakCapture: Token?
        var timer: (any Lifetime)?
        do {
            let capture = Token()
            weakCapture = capture
            timer = Exec.custom(context).periodicTimer(interval: .milliseconds(10)) {
                withExtendedLifetime(capture) { ticks.record(1) }
            }
        }
        #expect(ticks.wait(for: 3), "the timer stopped after its context dropped a delivery")
        #expect(context.dropped >= 1, "the context must have dropped a delivery for this test to mean anything")
        timer?.cancel()
        #expect(becomesNil { weakCapture }, "a cancelled timer keeps its handler")
    }
}

/// Which deliveries a ``DroppingContext`` drops.
enum DropPattern: Sendable, CustomTestStringConvertible {
    case first, everyOther

    var testDescription: String { self == .first ? "its first delivery" : "every other delivery" }

    func drops(_ submission: Int) -> Bool { self == .first ? submission == 0 : submission % 2 == 0 }
}

/// A serial context of the user's that lets go of some blocks without running them (as a context that is shutting
/// down might), and runs the others on a private queue.
private final class DroppingContext: ExecutionContext {
    private let queue = DispatchQueue(label: "DroppingContext")
    private let submissions = Atomic(0)
    private let drops = Atomic(0)
    private let pattern: DropPattern

    init(_ pattern: DropPattern) { self.pattern = pattern }

    var dropped: Int { drops.load(ordering: .relaxed) }
    var type: ExecutionType { .serialAsync }

    func invoke(_ execute: @escaping @Sendable () -> Void) {
        if pattern.drops(submissions.add(1, ordering: .relaxed).oldValue) {
            drops.add(1, ordering: .relaxed)
            return  // `execute` is released here, unrun
        }
        queue.async(execute: execute)
    }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { invoke(execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}
