// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecKit
import ExecMutex
import ExecTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain Swift concurrency under a coordinator (issue #41, first step): `Task {}` and default actors, with no ExecKit
/// in them, run in the coordinator's order inside `withTasksCaptured`, and are explored.
/// Serialized: one test installs a hook of its own, which another capturing test meanwhile would replace.
@Suite(.serialized, .enabled(if: TestCoordinator.capturesTasks)) struct CapturedTasksTests {
    /// Two unstructured tasks started in the body: nothing of them runs until the coordinator does, and then in the
    /// order they were started (the fixed order).
    // Guarantees: G-virtual-captured-tasks
    @Test func tasksStartedInTheBodyRunWhenTheCoordinatorRuns() {
        let coordinator = TestCoordinator()
        let log = LockedBox<[String]>([])
        coordinator.withTasksCaptured {
            Task { log.withLock { $0.append("a") } }
            Task { log.withLock { $0.append("b") } }
            // Swift's executor would have run them by now, or soon: give it the chance.
            usleep(50_000)
            #expect(log.withLock { $0 }.isEmpty, "nothing runs before the coordinator does")
            coordinator.runUntilIdle()
        }
        #expect(log.withLock { $0 } == ["a", "b"])
    }

    /// A default actor's jobs are captured too: tasks that call it run their calls in the coordinator's order, and
    /// exhaustive exploration runs both orders of two tasks, and only those.
    // Guarantees: G-virtual-captured-tasks
    @Test func exhaustiveExplorationRunsBothOrdersOfTwoTasksThatCallAnActor() {
        actor Store {
            var values: [Int] = []
            func append(_ value: Int) { values.append(value) }
        }
        let seen = LockedBox<Set<[Int]>>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 100) { coordinator in
            let store = Store()
            let values = LockedBox<[Int]>([])
            coordinator.withTasksCaptured {
                Task { await store.append(1) }
                Task { await store.append(2) }
                coordinator.runUntilIdle()
                Task {
                    let stored = await store.values
                    values.withLock { $0 = stored }
                }
                coordinator.runUntilIdle()
            }
            _ = seen.withLock { $0.insert(values.withLock { $0 }) }
        }
        #expect(report.failure == nil)
        #expect(report.coveredEveryOrdering)
        #expect(seen.withLock { $0 } == [[1, 2], [2, 1]])
    }

    /// The reentrancy bug of a default actor, with no ExecKit in it: two withdrawals each check the balance, await
    /// an audit (another actor), then pay. Exploration finds the overdraft, its schedule replays it, the report names
    /// task jobs, and the fix (pay before awaiting) passes every ordering.
    // Guarantees: G-virtual-captured-tasks
    @Test func explorationFindsADefaultActorsReentrancyBug() throws {
        // The article's example (CapturedTasksExamplesTests.swift), run here for what its figures do not check.
        func body(fixed: Bool) -> (TestCoordinator) throws -> Void {
            { try CapturedTasksExample.reentrantActor.run(fixed: fixed, $0) }
        }
        let buggy = TestCoordinator.explore(.random, iterations: 200, body(fixed: false)) { _ in }
        let failure = try #require(buggy.failure)
        #expect(failure.error.contains("-60"), "\(failure.error)")
        #expect(failure.departures.allSatisfy { $0.contains("task job on \"global\"") }, "\(failure.departures)")
        // The schedule replays the failure: the tasks ran in the coordinator's order, not on real threads.
        for _ in 0..<20 {
            let replayed = TestCoordinator.explore(.replay(failure.schedule), body(fixed: false)) { _ in }
            #expect(replayed.failure?.error == failure.error)
        }
        let fixed = TestCoordinator.explore(.exhaustive, iterations: 1_000, body(fixed: true)) { _ in }
        #expect(fixed.failure == nil)
        #expect(fixed.coveredEveryOrdering)
        #expect(fixed.runs > 2, "the tasks' orders were explored")
    }

    /// `Task.yield()` in a captured task comes back to the coordinator: the runtime enqueues the task's resumption
    /// on the thread that runs it, the coordinator's. Two tasks that log, yield and log again finish inside the
    /// body's run, and exhaustive exploration runs every interleaving of their halves the yields allow (924 runs:
    /// each yield is two jobs, and the coordinator cannot tell that the tasks' jobs share nothing).
    // Guarantees: G-virtual-captured-tasks
    @Test func aYieldingCapturedTaskResumesInTheCoordinatorAndItsHalvesInterleave() {
        let seen = LockedBox<Set<[String]>>([])
        let report = TestCoordinator.explore(.exhaustive, iterations: 2_000) { coordinator in
            let log = LockedBox<[String]>([])
            coordinator.withTasksCaptured {
                for name in ["a", "b"] {
                    Task {
                        log.withLock { $0.append(name + "1") }
                        await Task.yield()
                        log.withLock { $0.append(name + "2") }
                    }
                }
                coordinator.runUntilIdle()
            }
            _ = seen.withLock { $0.insert(log.withLock { $0 }) }
        }
        #expect(report.failure == nil)
        #expect(report.coveredEveryOrdering)
        let traces = seen.withLock { $0 }
        #expect(traces.allSatisfy { $0.count == 4 }, "every half ran inside the body's run: \(traces)")
        #expect(traces.count == 6, "each of the 6 interleavings of a1 < a2 with b1 < b2 ran: \(traces)")
    }

    /// The same seed gives the same trace, run after run, for captured tasks too.
    // Guarantees: G-virtual-captured-tasks
    @Test func theSameSeedGivesTheSameTraces() {
        actor Gate {
            func pass() {}
        }
        func traces() -> [[Int]] {
            let all = LockedBox<[[Int]]>([])
            TestCoordinator.explore(.random, iterations: 30, seed: 7) { coordinator in
                let log = LockedBox<[Int]>([])
                let gate = Gate()
                coordinator.withTasksCaptured {
                    for index in 0..<4 {
                        Task {
                            log.withLock { $0.append(index) }
                            await gate.pass()
                            log.withLock { $0.append(10 + index) }
                        }
                    }
                    coordinator.runUntilIdle()
                }
                all.withLock { $0.append(log.withLock { $0 }) }
            }
            return all.withLock { $0 }
        }
        let first = traces()
        #expect(first.allSatisfy { $0.count == 8 }, "every task finished inside the coordinator's run: \(first)")
        #expect(Set(first).count > 1, "the runs differ from each other")
        #expect(traces() == first)
    }

    /// While a test captures, a task another test starts (here, from a Dispatch thread) still runs on Swift's
    /// executor, with no coordinator running: jobs are attributed, not all taken.
    // Guarantees: G-virtual-captured-tasks-isolated
    @Test func aTaskOfCodeThatCapturesNothingRunsNormallyMeanwhile() {
        let coordinator = TestCoordinator()
        coordinator.withTasksCaptured {
            let finished = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                Task {
                    await Task.yield()
                    finished.signal()
                }
            }
            #expect(finished.wait(timeout: .now() + 30) == .success, "the other task finished without the coordinator")
        }
    }

    /// A hook installed before capture (as Point-Free's `withMainSerialExecutor` installs one) sees the jobs that
    /// are not captured while capture is on, and is put back after.
    // Guarantees: G-virtual-captured-tasks-isolated
    @Test func aHookInstalledBeforeIsCalledThroughAndPutBack() throws {
        let variable = try #require(HookVariable.address)
        let before = variable.pointee
        variable.pointee = unsafeBitCast(HookVariable.countingHook, to: UnsafeMutableRawPointer.self)
        defer { variable.pointee = before }
        let coordinator = TestCoordinator()
        let forwardedBefore = HookVariable.forwarded.withLock { $0 }
        coordinator.withTasksCaptured {
            let finished = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { Task { finished.signal() } }
            #expect(finished.wait(timeout: .now() + 30) == .success)
            #expect(
                variable.pointee != unsafeBitCast(HookVariable.countingHook, to: UnsafeMutableRawPointer.self),
                "capture installs its own hook")
        }
        #expect(HookVariable.forwarded.withLock { $0 } > forwardedBefore, "the job not captured went through it")
        #expect(
            variable.pointee == unsafeBitCast(HookVariable.countingHook, to: UnsafeMutableRawPointer.self),
            "put back")
    }
}

extension CapturedTasksTests {
    /// A task job the coordinator drops inside `withTasksCaptured` runs on Swift's executor, as everywhere else: it is
    /// not captured back into the coordinator (where nothing would run it).
    // Guarantees: G-virtual-captured-tasks
    @Test func aDroppedTaskJobRunsOnSwiftsExecutorNotBackInTheCoordinator() {
        let coordinator = TestCoordinator()
        let finished = DispatchSemaphore(value: 0)
        coordinator.withTasksCaptured {
            coordinator.task { finished.signal() }
            coordinator.discardPendingWork()
            #expect(finished.wait(timeout: .now() + 30) == .success, "the dropped job ran on Swift's executor")
        }
    }

    #if os(macOS) || os(Linux) || os(Windows)
    /// Ours put back by a library that saved it while we were installed (it installed its own over ours, then
    /// restored what it saw): the next capture must not take ours for the hook before it, which would make every job
    /// not captured call ours for ever. In a child process: the failure is a stack overflow.
    // Guarantees: G-virtual-captured-tasks-isolated
    @Test func ourHookPutBackByAnotherLibraryDoesNotCallItself() async {
        await #expect(processExitsWith: .success) {
            guard let variable = HookVariable.address else { return }
            let original = variable.pointee
            let coordinator = TestCoordinator()
            var saved: UnsafeMutableRawPointer?
            coordinator.withTasksCaptured {
                saved = variable.pointee  // ours
                variable.pointee = unsafeBitCast(HookVariable.countingHook, to: UnsafeMutableRawPointer.self)
            }
            variable.pointee = saved  // the other library puts back what it saw: ours, with no capture running
            coordinator.withTasksCaptured {
                let finished = DispatchSemaphore(value: 0)
                DispatchQueue.global().async { Task { finished.signal() } }  // not captured: passes through ours
                _ = finished.wait(timeout: .now() + 30)
            }
            variable.pointee = original
        }
    }
    #endif
}

extension CapturedTasksTests {
    /// A captured task left waiting on a continuation nobody resumes, once nothing is pending: the exploration's run
    /// fails as a hang naming the `withTasksCaptured` line, whichever strategy; the fixed one is run 1. The call is
    /// the body's last, which an optimized build makes a jump (no frame of the body's is left on the stack): the line
    /// comes from the call's own arguments. `CallSite` in the name: CI runs it in release too.
    // Guarantees: G-virtual-captured-tasks-hang
    @Test func aCapturedTaskLeftWaitingFailsTheRunAsAHangNamingTheCallSite() throws {
        let waiting = LockedBox<[CheckedContinuation<Void, Never>]>([])
        let captureLine = Shared(0)
        let report = TestCoordinator.explore(.random, iterations: 10) { coordinator in
            captureLine.value = #line + 1
            coordinator.withTasksCaptured {
                Task { await withCheckedContinuation { continuation in waiting.withLock { $0.append(continuation) } } }
                coordinator.runUntilIdle()
            }
        } reportFailure: { _ in
        }
        waiting.withLock { continuations in for continuation in continuations { continuation.resume() } }
        let failure = try #require(report.failure)
        #expect(failure.run == 1)
        #expect(failure.error.hasPrefix("hang: nothing is pending, and a task started inside withTasksCaptured"))
        #expect(failure.error.contains("CapturedTasksTests.swift:\(captureLine.value)"), "\(failure.error)")
    }

    /// Tasks that finished are no hang, their `Task` handles held or not; `assertNoPendingWork` says nothing.
    // Guarantees: G-virtual-captured-tasks-hang
    @Test func finishedCapturedTasksAreNoHangWhetherOrNotTheirHandlesAreHeld() async {
        let coordinator = TestCoordinator()
        var handles: [Task<Int, Never>] = []
        coordinator.withTasksCaptured {
            handles.append(Task { 1 })
            Task { _ = 2 }
            coordinator.runUntilIdle()
        }
        let reports = LockedBox<[String]>([])
        coordinator.assertNoPendingWork { message in reports.withLock { $0.append(message) } }
        #expect(reports.withLock { $0 }.isEmpty)
        #expect(await handles[0].value == 1)
    }

    /// Outside an exploration, `assertNoPendingWork` at the end of the test reports the waiting task as a hang, with
    /// the line of the `withTasksCaptured` call; once the task has finished, nothing. Async, with the checks on a
    /// Dispatch thread: no thread of Swift's pool is blocked while the task needs one to go on.
    // Guarantees: G-virtual-captured-tasks-hang
    @Test func assertNoPendingWorkReportsACapturedTaskLeftWaiting() async {
        let coordinator = TestCoordinator()
        let waiting = LockedBox<CheckedContinuation<Void, Never>?>(nil)
        let captureLine = #line + 1
        let task = coordinator.withTasksCaptured {
            let task = Task { await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } } }
            coordinator.runUntilIdle()
            return task
        }
        let reports = await Self.assertNoPendingWorkOffThePool(coordinator)
        #expect(reports.count == 1)
        #expect(
            reports.first?.contains(
                "a task started inside withTasksCaptured never finished (the call at "
                    + "CapturedTasksTests.swift:\(captureLine), waited for 0.2 s)") == true, "\(reports)")
        waiting.withLock { $0?.resume() }  // resumed from here: the task goes on on Swift's executor
        await task.value
        #expect(await Self.assertNoPendingWorkOffThePool(coordinator).isEmpty, "the task finished: no hang")
    }

    /// `assertNoPendingWork` inside the `withTasksCaptured` body reports no hang: the call's own binding holds what
    /// its tasks carry until it returns.
    // Guarantees: G-virtual-captured-tasks-hang
    @Test func assertNoPendingWorkInsideTheBodyIsNoHang() {
        let coordinator = TestCoordinator()
        let reports = LockedBox<[String]>([])
        coordinator.withTasksCaptured {
            coordinator.assertNoPendingWork { message in reports.withLock { $0.append(message) } }
        }
        #expect(reports.withLock { $0 }.isEmpty, "\(reports.withLock { $0 })")
    }

    /// `assertNoPendingWork`'s messages, from a Dispatch thread, so that its grace blocks none of Swift's threads.
    static func assertNoPendingWorkOffThePool(_ coordinator: TestCoordinator) async -> [String] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let reports = LockedBox<[String]>([])
                coordinator.assertNoPendingWork { message in reports.withLock { $0.append(message) } }
                continuation.resume(returning: reports.withLock { $0 })
            }
        }
    }

    /// What users see of a main-actor task inside `withTasksCaptured`: it is not captured (Swift 6.3's runtime
    /// enqueues main-actor jobs past its main-executor hook, which does not fire), so it runs on the real main actor
    /// with nothing run on the coordinator, which stays idle. If a runtime ever routes them through the hook, this
    /// test says so, and main-actor jobs can be captured too.
    // Guarantees: G-virtual-captured-tasks
    @Test func aMainActorTaskIsNotCapturedAndRunsOnTheRealMainActor() {
        let coordinator = TestCoordinator()
        let ran = DispatchSemaphore(value: 0)
        coordinator.withTasksCaptured {
            Task { @MainActor in ran.signal() }
            #expect(coordinator.isIdle, "a main-actor job was captured")
            #expect(ran.wait(timeout: .now() + 30) == .success, "it ran without the coordinator")
        }
    }

    /// A real `Task.sleep` shorter than the 0.2 s grace is waited for, not reported: the task finishes on Swift's
    /// executor (the runtime's sleep is outside every hook). The check starts once the sleep has, off Swift's pool.
    // Guarantees: G-virtual-captured-tasks-hang
    @Test func aShortRealSleepInACapturedTaskIsWaitedForNotReported() async {
        let coordinator = TestCoordinator()
        let sleeping = DispatchSemaphore(value: 0)
        coordinator.withTasksCaptured {
            Task {
                sleeping.signal()
                try? await Task.sleep(for: .milliseconds(1))
            }
            coordinator.runUntilIdle()
        }
        await Self.waitOffThePool(for: sleeping)
        let reports = await Self.assertNoPendingWorkOffThePool(coordinator)
        #expect(reports.isEmpty, "\(reports)")
    }
}

extension CapturedTasksTests {
    /// A captured task resumed from a real queue while the call runs comes back to the coordinator: its rest is pending
    /// work, run by the body's next `runUntilIdle()`, not on one of Swift's threads beside the coordinator's work.
    // Guarantees: G-virtual-captured-tasks-woken
    @Test func aCapturedTaskResumedFromARealQueueComesBackToTheCoordinator() {
        let coordinator = TestCoordinator()
        let waiting = LockedBox<CheckedContinuation<Void, Never>?>(nil)
        let log = LockedBox<[String]>([])
        coordinator.withTasksCaptured {
            Task {
                await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } }
                log.withLock { $0.append("rest") }
            }
            coordinator.runUntilIdle()
            DispatchQueue.global().async { waiting.withLock { $0?.resume() } }
            Self.waitForArrival(in: coordinator, orAny: log)
            #expect(log.withLock { $0 }.isEmpty, "the rest ran on a real thread")
            let pending = coordinator.pendingWork
            #expect(pending.count == 1 && pending.first?.kind == .job && pending.first?.queueName == "global")
            coordinator.runUntilIdle()
            #expect(log.withLock { $0 } == ["rest"])
        }
    }

    /// A captured task's real `Task.sleep` that ends while the call runs: the task comes back to the coordinator.
    // Guarantees: G-virtual-captured-tasks-woken
    @Test func aCapturedTaskWokenByARealSleepComesBackToTheCoordinator() {
        let coordinator = TestCoordinator()
        let log = LockedBox<[String]>([])
        coordinator.withTasksCaptured {
            Task {
                try? await Task.sleep(for: .milliseconds(5))
                log.withLock { $0.append("woke") }
            }
            coordinator.runUntilIdle()
            Self.waitForArrival(in: coordinator, orAny: log)
            #expect(log.withLock { $0 }.isEmpty, "the task went on on a real thread")
            coordinator.runUntilIdle()
            #expect(log.withLock { $0 } == ["woke"])
        }
    }

    /// A captured task woken from outside after the body's last run, but before the call returns: its job is pending
    /// when the call returns, and nothing would run it. It goes to Swift's executor then, and the task finishes.
    // Guarantees: G-virtual-captured-tasks-woken
    @Test func aCapturedTaskWokenAfterTheBodysLastRunFinishesOnSwiftsExecutor() {
        let coordinator = TestCoordinator()
        let waiting = LockedBox<CheckedContinuation<Void, Never>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        coordinator.withTasksCaptured {
            Task {
                await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } }
                finished.signal()
            }
            coordinator.runUntilIdle()
            DispatchQueue.global().async { waiting.withLock { $0?.resume() } }
            Self.waitForArrival(in: coordinator, orAny: LockedBox([]))
            #expect(!coordinator.isIdle, "the woken task came back to the coordinator while the call ran")
        }
        #expect(coordinator.isIdle, "its job left the coordinator when the call returned")
        #expect(finished.wait(timeout: .now() + 30) == .success, "the task finished without the coordinator")
    }

    /// The same in an exploration: the run does not end with the woken job pending (which would hide a hang, and
    /// leave the task to finish only when the run's coordinator is closed).
    // Guarantees: G-virtual-captured-tasks-woken
    @Test func aWokenTaskPendingWhenAnExploredCallReturnsLeavesTheRunsWork() {
        let pendingAfterTheCall = LockedBox<[Bool]>([])
        let report = TestCoordinator.explore(.random, iterations: 5) { coordinator in
            let waiting = LockedBox<CheckedContinuation<Void, Never>?>(nil)
            coordinator.withTasksCaptured {
                Task { await withCheckedContinuation { continuation in waiting.withLock { $0 = continuation } } }
                coordinator.runUntilIdle()
                DispatchQueue.global().async { waiting.withLock { $0?.resume() } }
                Self.waitForArrival(in: coordinator, orAny: LockedBox([]))
            }
            pendingAfterTheCall.withLock { $0.append(!coordinator.isIdle) }
        }
        #expect(report.failure == nil, "\(report.failure?.error ?? "")")
        #expect(pendingAfterTheCall.withLock { $0 } == [false, false, false, false, false])
    }

    /// While a coordinator captures, and has taken tasks, a task of code that captures nothing, resumed from a real
    /// queue, still finishes on Swift's executor: only tasks whose jobs the coordinator took come back to it.
    // Guarantees: G-virtual-captured-tasks-isolated G-virtual-captured-tasks-woken
    @Test func aTaskOfCodeThatCapturesNothingResumedFromARealQueueRunsNormally() {
        let coordinator = TestCoordinator()
        let waiting = LockedBox<CheckedContinuation<Void, Never>?>(nil)
        let suspended = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            Task {
                await withCheckedContinuation { continuation in
                    waiting.withLock { $0 = continuation }
                    suspended.signal()
                }
                finished.signal()
            }
        }
        #expect(suspended.wait(timeout: .now() + 30) == .success)
        coordinator.withTasksCaptured {
            Task { await Task.yield() }
            coordinator.runUntilIdle()  // the coordinator has taken tasks of its own
            DispatchQueue.global().async { waiting.withLock { $0?.resume() } }
            #expect(finished.wait(timeout: .now() + 30) == .success, "the other task finished without the coordinator")
            #expect(coordinator.isIdle)
        }
    }

    /// Waits (up to 10 s, in 1 ms pauses) until work reaches `coordinator` or something is logged in `log`.
    static func waitForArrival(in coordinator: TestCoordinator, orAny log: LockedBox<[String]>) {
        let pause = DispatchSemaphore(value: 0)  // never signalled: each wait is a 1 ms pause
        for _ in 0..<10_000 where coordinator.isIdle && log.withLock({ $0.isEmpty }) {
            _ = pause.wait(timeout: .now() + .milliseconds(1))
        }
    }
}

extension CapturedTasksTests {
    /// A real `Task.sleep` longer than the default 0.2 s grace, in a call given a grace of 30 s, is waited for: no hang
    /// is reported, and the check returns once the task has finished, not after the whole grace.
    // Guarantees: G-virtual-captured-tasks-grace
    @Test func aRealSleepWithinTheCallsHangGraceIsWaitedForNotReported() async {
        let coordinator = TestCoordinator()
        let sleeping = DispatchSemaphore(value: 0)
        coordinator.withTasksCaptured(hangGrace: .seconds(30)) {
            Task {
                sleeping.signal()
                try? await Task.sleep(for: .milliseconds(400))
            }
            coordinator.runUntilIdle()
        }
        await Self.waitOffThePool(for: sleeping)
        let clock = ContinuousClock()
        let start = clock.now
        let reports = await Self.assertNoPendingWorkOffThePool(coordinator)
        #expect(reports.isEmpty, "\(reports)")
        #expect(clock.now - start < .seconds(25), "the check waited for the whole grace, not for the task")
    }

    /// A real `Task.sleep` longer than the call's grace is reported as a hang, and the report says the grace it waited
    /// and what to do: put the sleep on `coordinator.clock`, or give a longer `hangGrace`.
    // Guarantees: G-virtual-captured-tasks-grace
    @Test func aRealSleepLongerThanTheCallsHangGraceIsReportedWithWhatToDo() async {
        let coordinator = TestCoordinator()
        let sleeping = DispatchSemaphore(value: 0)
        let sleeper = coordinator.withTasksCaptured(hangGrace: .milliseconds(50)) {
            let sleeper = Task {
                sleeping.signal()
                try? await Task.sleep(for: .seconds(600))
            }
            coordinator.runUntilIdle()
            return sleeper
        }
        await Self.waitOffThePool(for: sleeping)
        let reports = await Self.assertNoPendingWorkOffThePool(coordinator)
        sleeper.cancel()  // wakes the sleep, so that the task finishes
        await sleeper.value
        #expect(reports.count == 1)
        let report = reports.first ?? ""
        #expect(report.contains("never finished (the call at CapturedTasksTests.swift:"), "\(report)")
        #expect(report.contains("waited for 0.05 s"), "\(report)")
        #expect(report.contains("put the sleep on coordinator.clock"), "\(report)")
        #expect(report.contains("a longer hangGrace"), "\(report)")
    }

    /// Waits for `semaphore` on a Dispatch thread, so that no thread of Swift's pool is blocked meanwhile.
    static func waitOffThePool(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                _ = semaphore.wait(timeout: .now() + 30)
                continuation.resume()
            }
        }
    }
}

/// The runtime's global-enqueue hook, as a test that installs its own sees it.
private enum HookVariable {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    static var address: UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
        dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook")?
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    static let forwarded = LockedBox(0)

    static let countingHook: Hook = { job, original in
        forwarded.withLock { $0 += 1 }
        original(job)
    }
}
