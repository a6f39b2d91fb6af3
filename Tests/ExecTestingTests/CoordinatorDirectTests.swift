// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `TestCoordinator.direct` looks like `Exec.direct`: `invoke` runs the block on the caller's thread before it returns,
/// wherever it is called from (the test's code, another thread, work the coordinator runs), and `isCurrent` is always
/// `true`.
@Suite struct CoordinatorDirectTests {
    private static var currentThread: UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: Int(bitPattern: pthread_self()))
        #endif
    }

    /// Calls `coordinator.direct.invoke` and reports whether the block ran on this thread before `invoke` returned,
    /// and what `direct.isCurrent` answered inside it.
    private static func invokeRunsInline(_ coordinator: TestCoordinator) -> (inline: Bool, isCurrent: Bool) {
        let caller = currentThread
        let ranOn = LockedBox<[UInt]>([])
        let isCurrentInside = LockedBox(false)
        coordinator.direct.invoke {
            ranOn.withLock { $0.append(currentThread) }
            isCurrentInside.withLock { $0 = coordinator.direct.isCurrent }
        }
        return (ranOn.withLock { $0 } == [caller], isCurrentInside.withLock { $0 })
    }

    // Guarantees: G-virtual-direct
    @Test func invokeRunsTheBlockBeforeReturningFromTheTestsCode() {
        let coordinator = TestCoordinator()
        let (inline, isCurrent) = Self.invokeRunsInline(coordinator)
        #expect(inline, "direct.invoke must run the block on the caller's thread before returning")
        #expect(isCurrent)
        #expect(coordinator.direct.isCurrent)
        #expect(coordinator.isIdle, "direct.invoke must not leave work for the coordinator")
    }

    // Guarantees: G-virtual-direct
    @Test func invokeRunsTheBlockBeforeReturningOnAnotherThread() {
        let coordinator = TestCoordinator()
        let report = LockedBox<(inline: Bool, isCurrent: Bool)?>(nil)
        let finished = runOnThreads(1) { _ in
            let result = Self.invokeRunsInline(coordinator)
            report.withLock { $0 = result }
        }
        #expect(finished)
        #expect(report.withLock { $0?.inline } == true, "direct.invoke on another thread must run the block there")
        #expect(report.withLock { $0?.isCurrent } == true)
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-direct
    @Test func invokeRunsTheBlockBeforeReturningInsideCoordinatorWork() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        for context in [coordinator.main, coordinator.global, coordinator.serialQueue(named: "serial")] {
            context.invoke {
                let queue = coordinator.currentQueueName ?? "-"
                coordinator.direct.invoke {
                    log.append(
                        "direct in \(coordinator.currentQueueName ?? "-"), isCurrent \(coordinator.direct.isCurrent)")
                }
                log.append("after invoke in \(queue)")
            }
        }
        coordinator.runUntilIdle()
        #expect(
            log.entries == [
                "direct in main, isCurrent true", "after invoke in main",
                "direct in global, isCurrent true", "after invoke in global",
                "direct in serial, isCurrent true", "after invoke in serial",
            ])
    }
}
