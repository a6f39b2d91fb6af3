// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Foundation
import Synchronization
import Testing

/// Issue #29, defect 1: on a concurrent engine (`.utility`, any global queue, a private concurrent queue), a due timer
/// waits in the engine's ready list for a job of its own. `cancel()` must reach it there: the handler never starts
/// and is released when `cancel()` returns, as a `DispatchSourceTimer` never starts a cancelled handler.
// Guarantees: G-timer-cancel-concurrent, G-timer-cancel-per-kind
@Suite struct ConcurrentEngineCancelTests {
    /// Every worker of `.utility` is held by a CPU-bound handler of a timer due at the same instant (more handlers than
    /// workers, so some wait), and the last timer due then, waiting behind them, is cancelled.
    @Test(arguments: [false, true])
    func cancelReachesAFiringWaitingForItsJob(periodic: Bool) {
        let context = Exec.utility
        // More spinners than `.utility` has workers. Not just twice the cores: libdispatch adds workers while others
        // are blocked, and tests running beside this one block several (with 2 x 2 + 2 the target found a free
        // worker in one of five CI runs). Spinners beyond the pool wait their turn and spin only after `release`.
        let workers = ProcessInfo.processInfo.activeProcessorCount * 2 + 32
        let release = Atomic(false)
        let started = Atomic(0)
        let deadline = DispatchTime.now() + .milliseconds(50)
        let spinners = (0..<workers).map { _ in
            context._engineTimer(deadline: deadline) {
                started.add(1, ordering: .relaxed)
                let giveUp = DispatchTime.now() + .seconds(20)
                while !release.load(ordering: .relaxed) && DispatchTime.now() < giveUp {}
            }
        }
        let ran = Atomic(false)
        weak var weakCapture: Token?
        let target: any Lifetime
        do {
            let capture = Token()
            weakCapture = capture
            let handler: @Sendable () -> Void = {
                withExtendedLifetime(capture) {}
                ran.store(true, ordering: .relaxed)
            }
            target =
                periodic
                ? context._engineTimer(deadline: deadline, period: .seconds(60), handler: handler)
                : context._engineTimer(deadline: deadline, handler: handler)
        }
        // Wait until the workers are all busy spinning: the target is then due and waiting for a job.
        #expect(eventually(timeout: 20) { started.load(ordering: .relaxed) >= 1 })
        usleep(100_000)
        let alreadyRan = ran.load(ordering: .relaxed)
        target.cancel()
        let releasedAtCancel = weakCapture == nil
        release.store(true, ordering: .relaxed)
        #expect(eventually(timeout: 20) { started.load(ordering: .relaxed) == workers })
        usleep(50_000)
        #expect(!alreadyRan, "the target ran before the workers filled up; this machine has more of them")
        let ranAfterCancel = ran.load(ordering: .relaxed)
        #expect(!ranAfterCancel, "a cancelled timer's waiting firing ran")
        #expect(releasedAtCancel, "the handler outlived cancel()")
        withExtendedLifetime(spinners) {}
    }
}
