// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
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
}
