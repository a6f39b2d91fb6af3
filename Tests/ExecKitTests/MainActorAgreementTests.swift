// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// `.main` and `MainActor` agree in Swift Testing, where the main queue runs on a worker thread: `MainActor` code is
/// on `.main`, and a `.main` callback is isolated to `MainActor`. (XCTest, on thread 1, is checked in
/// `ExecMainXCTests`; a `dispatchMain()` process in `DispatchMainProcessTests`.)
@Suite struct MainActorAgreementTests {
    // Guarantees: G-main-actor-agrees
    @Test @MainActor func fromMainActorCodeMainInvokeRunsImmediately() {
        let ran = Flag()
        Exec.main.invoke { ran.set() }
        #expect(ran.isSet)
        #expect(Exec.main.isCurrent)
        #expect(Exec.main.type == .conditionallyAsync(false))
    }

    // Guarantees: G-main-actor-agrees
    @Test func aMainCallbackMayAssumeMainActorIsolation() async {
        let isolated = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                Exec.main.invoke {
                    // Stops the test process if the runtime disagrees that the main queue is the main actor.
                    let onMain = MainActor.assumeIsolated { Exec.main.isCurrent }
                    continuation.resume(returning: onMain)
                }
            }
        }
        #expect(isolated)
    }

    // Guarantees: G-main-actor-agrees
    @Test func mainTimersAndMainAsyncCallbacksAreMainActorIsolated() async {
        let fromTimer = await withCheckedContinuation { continuation in
            let timer = LockedBox<(any Lifetime)?>(nil)
            timer.withLock {
                $0 = Exec.main.singleTimer(interval: .milliseconds(1)) {
                    continuation.resume(returning: MainActor.assumeIsolated { true })
                    _ = timer
                }
            }
        }
        #expect(fromTimer)
        let fromMainAsync = await withCheckedContinuation { continuation in
            Exec.mainAsync.invoke { continuation.resume(returning: MainActor.assumeIsolated { true }) }
        }
        #expect(fromMainAsync)
    }
}
