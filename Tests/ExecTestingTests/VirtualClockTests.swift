// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Tasks that run on the coordinator (executor preference or its launcher) run inside `runUntilIdle` and `advance`;
/// `clock.sleep` resumes exactly when virtual time passes its deadline, and cancellation ends it promptly.
// Guarantees: G-virtual-deterministic
@Suite struct VirtualClockTests {
    // Guarantees: G-virtual-job-due-at-once, G-virtual-task-executor, G-virtual-task-value-after
    @Test func aSleepResumesExactlyWhenVirtualTimeReachesItsDeadline() async throws {
        let coordinator = TestCoordinator()
        let flag = Shared(false)
        let task = Task(executorPreference: coordinator.taskExecutor) {
            try await coordinator.clock.sleep(for: .seconds(30))
            flag.value = true
        }
        coordinator.advance(by: .seconds(29))
        #expect(flag.value == false)
        coordinator.advance(by: .seconds(1))
        #expect(flag.value == true)  // in the same advance: the resumed job was enqueued on the coordinator at once
        try await task.value
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-virtual-task-first-job, G-virtual-task-executor, G-virtual-task-value-after
    @Test func aTasksJobsRunOnlyInsideTheTestsCalls() async throws {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let task = coordinator.task {
            log.append("start on \(coordinator.currentQueueName ?? "-")")
            try await coordinator.clock.sleep(until: coordinator.clock.now.advanced(by: .seconds(2)))
            log.append("woke at \(coordinator.seconds)")
            return 7
        }
        #expect(log.entries.isEmpty)
        #expect(coordinator.pendingWork.map(\.kind) == [.job])
        coordinator.runUntilIdle()
        #expect(log.entries == ["start on global"])
        #expect(coordinator.pendingWork.map(\.kind) == [.sleep])
        coordinator.advance(by: .seconds(3))
        #expect(log.entries == ["start on global", "woke at 2.0"])
        #expect(try await task.value == 7)
    }

    // Guarantees: G-virtual-sleep-cancel
    @Test func cancellingASleepingTaskThrowsAtTheNextRunAndRemovesTheSleep() async {
        let coordinator = TestCoordinator()
        let outcome = Shared<String?>(nil)
        let task = Task(executorPreference: coordinator.taskExecutor) {
            do {
                try await coordinator.clock.sleep(for: .seconds(3_600))
                outcome.value = "slept"
            } catch {
                outcome.value = "\(type(of: error)) at \(coordinator.seconds)"
            }
        }
        coordinator.advance(by: .seconds(10))
        #expect(coordinator.pendingWork.map(\.kind) == [.sleep])
        task.cancel()
        #expect(coordinator.pendingWork.map(\.kind) == [.job])  // the wake-up is gone; the task's job is due now
        #expect(outcome.value == nil)
        coordinator.runUntilIdle()
        #expect(outcome.value == "CancellationError at 10.0")
        #expect(coordinator.isIdle)
        await task.value
    }

    // Guarantees: G-virtual-sleep-cancel, G-virtual-sleep-past-deadline
    @Test func aCancelledTaskThrowsBeforeSleepingAndAPastDeadlineReturnsAtOnce() async {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let task = coordinator.task {
            try await coordinator.clock.sleep(until: coordinator.clock.now)
            log.append("a deadline that has come does not suspend")
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await coordinator.clock.sleep(for: .seconds(1))
            } catch {
                log.append("cancelled: \(error is CancellationError)")
            }
        }
        coordinator.runUntilIdle()
        #expect(log.entries == ["a deadline that has come does not suspend", "cancelled: true"])
        #expect(coordinator.isIdle)
        _ = await task.result
    }

    // Guarantees: G-virtual-task-executor
    @Test func childTasksAndSleepsInterleaveDeterministically() async throws {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let task = coordinator.task {
            await withThrowingTaskGroup(of: Void.self) { group in
                for index in [3, 1, 2] {
                    group.addTask {
                        try await coordinator.clock.sleep(for: .seconds(index))
                        log.append("child \(index) at \(coordinator.seconds)")
                    }
                }
            }
            log.append("all done at \(coordinator.seconds)")
        }
        coordinator.advance(by: .seconds(5))
        #expect(log.entries == ["child 1 at 1.0", "child 2 at 2.0", "child 3 at 3.0", "all done at 3.0"])
        await task.value
    }

    // Guarantees: G-virtual-task-executor-cost (the same executor on every access; its allocations per job are
    //   Benchmarks/InstructionCounts/check.sh's TestCoordinator malloc row)
    @Test func theTaskExecutorIsTheSameObjectOnEveryAccess() {
        let coordinator = TestCoordinator()
        #expect(coordinator.taskExecutor === coordinator.taskExecutor)
        #expect(coordinator.global.taskExecutor === coordinator.taskExecutor)
        #expect(TestCoordinator().taskExecutor !== coordinator.taskExecutor)
    }

    // Guarantees: G-virtual-job-due-at-once
    @Test func aTaskAwaitsACallbackAPIDeliveredOnACoordinatorContext() async throws {
        let coordinator = TestCoordinator()
        let service = FakeService(delay: .seconds(2), context: coordinator.serialQueue(named: "service"))
        let deliveredOn = Shared<String?>(nil)
        let task = coordinator.task {
            let answer = try await withCallback { context, completion in
                service.fetch(context: context) { value in
                    deliveredOn.value = coordinator.currentQueueName
                    completion(value)
                }
            }
            return "\(answer) at \(coordinator.seconds) on \(coordinator.currentQueueName ?? "-")"
        }
        coordinator.advance(by: .seconds(1))
        #expect(deliveredOn.value == nil)
        coordinator.advance(by: .seconds(1))
        #expect(deliveredOn.value == "service")
        #expect(try await task.value == "42 at 2.0 on global")
    }

    @Test func performOnACoordinatorContextHopsThereAndBack() async throws {
        let coordinator = TestCoordinator()
        let serial = coordinator.serialQueue(named: "store")
        let task = coordinator.task {
            let inside = await serial.perform { coordinator.currentQueueName }
            return [inside, coordinator.currentQueueName]
        }
        coordinator.runUntilIdle()
        #expect(await task.value == ["store", "global"])
    }

    @Test func aSerialQueuesTaskExecutorRunsTheTaskInThatQueue() async throws {
        let coordinator = TestCoordinator()
        let serial = coordinator.serialQueue(named: "worker")
        let task = serial.task {
            try await coordinator.clock.sleep(for: .milliseconds(10))
            return "\(coordinator.currentQueueName ?? "-") \(serial.isCurrent)"
        }
        coordinator.advance(by: .milliseconds(10))
        #expect(try await task.value == "worker true")
    }
}

/// A callback API: answers 42 after `delay`, through a timer on its own context, then in the caller's context.
struct FakeService: Sendable {
    let delay: Duration
    let context: Exec

    func fetch(context callerContext: Exec, completion: @escaping @Sendable (Int) -> Void) {
        let timer = Shared<(any Lifetime)?>(nil)
        timer.value = context.singleTimer(interval: delay) {
            callerContext.invoke(completion, with: 42)
            timer.value = nil
        }
    }
}
