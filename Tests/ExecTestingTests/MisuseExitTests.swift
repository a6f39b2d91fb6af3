// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// Misuse and forbidden scheduling stop the program with a message that says what happened and where.
@Suite struct MisuseExitTests {
    // Guarantees: G-virtual-unimplemented-stops
    @Test func schedulingOnAnUnimplementedContextStopsNamingTheTestsFileAndLine() async {
        let invoke = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let context = Exec.unimplemented("analytics")
            context.invoke {}
        }
        #expect(invoke.standardErrorText.contains("invoke was called on Exec.unimplemented(\"analytics\")"))
        #expect(invoke.standardErrorText.contains("made at ExecTestingTests/MisuseExitTests.swift:"))

        let timer = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.unimplemented().singleTimer(parameter: 1, interval: .seconds(1)) { _ in }
        }
        #expect(timer.standardErrorText.contains("singleTimer was called on Exec.unimplemented"))

        let task = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Task(executorPreference: Exec.unimplemented().taskExecutor) {}
            try? await Task.sleep(for: .seconds(10))  // reached only if the job was never enqueued
        }
        #expect(task.standardErrorText.contains("a task job was enqueued on the taskExecutor on Exec.unimplemented"))
    }

    /// Every way of scheduling stops, not only `invoke` and timers (issue #32: these three were not checked).
    // Guarantees: G-virtual-unimplemented-stops
    @Test func invokeAsyncOnAnUnimplementedContextStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Exec.unimplemented("sync").invokeAsync {}
        }
        #expect(result.standardErrorText.contains("invokeAsync was called on Exec.unimplemented(\"sync\")"))
    }

    // Guarantees: G-virtual-unimplemented-stops
    @Test func invokeSyncOnAnUnimplementedContextStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Exec.unimplemented("sync").invokeSync {}
        }
        #expect(result.standardErrorText.contains("invokeSync was called on Exec.unimplemented(\"sync\")"))
    }

    // Guarantees: G-virtual-unimplemented-stops
    @Test func startingATaskOnAnUnimplementedContextStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.unimplemented("tasks").task { 1 }
        }
        // `Exec.custom`'s `task { }` forwards to the context's own (issue #40), which stops at the call.
        #expect(result.standardErrorText.contains("task was called on Exec.unimplemented(\"tasks\")"))
    }

    /// A negative grace for captured tasks is a mistake said at the call, not a grace of zero.
    // Guarantees: G-virtual-captured-tasks-grace
    @Test func aNegativeHangGraceStopsSayingSo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestCoordinator().withTasksCaptured(hangGrace: .seconds(-1)) {}
        }
        #expect(result.standardErrorText.contains("withTasksCaptured's hangGrace is -1.0 seconds, which is negative"))
    }

    // Guarantees: G-virtual-mutex-reentry-stops
    @Test func workRunForAWaitingCallerThatEntersTheCallersQueueStops() async {
        // Real queues would deadlock: the caller holds "m" and waits for "q"; q's earlier block waits for "m".
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            let m = coordinator.serialQueue(named: "m", type: .mutex)
            let q = coordinator.serialQueue(named: "q")
            q.invokeAsync { m.invokeSync {} }
            m.invoke { q.invokeSync {} }
        }
        #expect(result.standardErrorText.contains("entered \"m\" while a caller inside \"m\" was waiting"))
    }

    // Guarantees: G-virtual-override-main-warning
    @Test func overridingOnTheRealMainQueueWarnsOnceOnStandardError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let coordinator = TestCoordinator()
                coordinator.overridingSharedContexts {}
                coordinator.overridingSharedContexts {}
            }
        }
        let text = result.standardErrorText
        #expect(text.contains("overridingSharedContexts was entered on the real main queue"))
        #expect(text.split(separator: "ExecTesting:", omittingEmptySubsequences: false).count == 2, "once per process")
    }

    // Guarantees: G-virtual-override-main-warning
    @Test func overridingOffTheMainQueueIsSilent() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            TestCoordinator().overridingSharedContexts {}
        }
        #expect(!result.standardErrorText.contains("ExecTesting:"))
    }

    // Guarantees: G-virtual-unimplemented-readable
    @Test func readingAnUnimplementedContextDoesNotFail() {
        let context = Exec.unimplemented()
        #expect(!context.isCurrent)
        #expect(context.type == .concurrentAsync)
    }

    // Guarantees: G-virtual-mutex-reentry-stops
    @Test func reenteringASimulatedMutexQueueStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            let lock = coordinator.serialQueue(named: "the.lock", type: .mutex)
            let other = coordinator.serialQueue(named: "other")
            lock.invoke { other.invokeSync { lock.invoke {} } }
        }
        #expect(result.standardErrorText.contains("the simulated mutex queue \"the.lock\" was invoked from inside"))
        #expect(result.standardErrorText.contains("use invokeAsync"))
    }

    // Guarantees: G-virtual-drive-misuse-stops
    @Test func drivingTimeFromInsideCoordinatorWorkStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            coordinator.main.invoke { coordinator.advance(by: .seconds(1)) }
            coordinator.runUntilIdle()
        }
        #expect(result.standardErrorText.contains("was called from inside work that the coordinator is running"))
    }

    /// TestingWithVirtualTime.md: driving time "from another thread while it runs stops the program with a message"
    /// (issue #32, untested promise 12).
    // Guarantees: G-virtual-drive-misuse-stops
    @Test func drivingTimeFromAnotherThreadWhileItRunsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            coordinator.main.invoke {
                let finished = DispatchSemaphore(value: 0)
                startDetachedThread {
                    coordinator.runUntilIdle()
                    finished.signal()
                }
                // The other thread's call stops the process; waiting here is bounded, so a broken check cannot hang.
                _ = finished.wait(timeout: .now() + 10)
            }
            coordinator.runUntilIdle()
        }
        #expect(result.standardErrorText.contains("was called while another thread is running its work"))
    }

    // Guarantees: G-virtual-assert-no-pending
    @Test func assertNoPendingWorkStopsByDefaultListingThePendingWork() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            let timer = coordinator.main.periodicTimer(interval: .milliseconds(100)) {}
            coordinator.assertNoPendingWork()
            withExtendedLifetime(timer) {}
        }
        #expect(
            result.standardErrorText.contains("1 piece(s) of work still pending at ExecTestingTests/MisuseExitTests"))
        #expect(result.standardErrorText.contains("periodic timer (every 0.1 seconds) on \"main\", due at 0.1 s"))
    }

    /// Exploration's arguments are checked, with a message that names the bad one (issue #31).
    // Guarantees: G-explore-misuse-stops
    @Test func badExplorationArgumentsStopWithAMessage() async {
        let replay = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = WorkOrdering.replay("1.x")
        }
        #expect(replay.standardErrorText.contains("WorkOrdering.replay(\"1.x\") is not a schedule"))

        let depth = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ExplorationStrategy.pct(depth: 0)
        }
        #expect(depth.standardErrorText.contains("needs a depth of at least 1, got 0"))

        let iterations = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestCoordinator.explore(iterations: 0) { _ in }
        }
        #expect(iterations.standardErrorText.contains("explore needs at least 1 iteration, got 0"))

        let steps = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestCoordinator.explore(stepLimit: 0) { _ in }
        }
        #expect(steps.standardErrorText.contains("explore needs a stepLimit of at least 1, got 0"))

        let failures = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestCoordinator.explore(failureLimit: 0) { _ in }
        }
        #expect(failures.standardErrorText.contains("explore needs a failureLimit of at least 1, got 0"))

        let independent = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let coordinator = TestCoordinator()
            coordinator.declareIndependent(coordinator.serialQueue(named: "ok"), coordinator.global)
        }
        #expect(independent.standardErrorText.contains("declareIndependent takes this coordinator's serial queues"))
    }
}
#endif
