// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// `.main` where Swift Testing runs it: the main queue and `MainActor` on a worker thread, not thread 1.
@Suite struct ExecMainSwiftTestingTests {
    // Guarantees: G-main-inline-on-main-queue
    @Test @MainActor func mainInvokeIsImmediateInsideMainActorCode() {
        let ran = Flag()
        Exec.main.invoke { ran.set() }
        #expect(ran.isSet)
        #expect(Exec.main.type == .conditionallyAsync(false))
        #expect(Exec.main.invokeSync { 1 } == 1)
    }

    // Guarantees: G-main-actor-agrees
    @Test func mainInvokeFromElsewhereRunsOnTheMainActor() async {
        let isolated = await withCheckedContinuation { continuation in
            Exec.main.invoke {
                let onMainActor = MainActor.assumeIsolated { true }
                continuation.resume(returning: onMainActor && DispatchQueue.isMainQueueCurrent)
            }
        }
        #expect(isolated)
    }

    // Guarantees: G-main-inline-on-main-queue
    @Test func mainQueueBlocksCountAsMain() async {
        let immediate = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                let ran = Flag()
                Exec.main.invoke { ran.set() }
                continuation.resume(returning: ran.isSet)
            }
        }
        #expect(immediate)
    }
}
