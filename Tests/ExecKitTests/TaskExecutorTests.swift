// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Contexts as task executors: a task that prefers a context's executor runs there, before and after suspensions,
/// and its child tasks and `async let`s inherit that.
@Suite struct TaskExecutorTests {
    /// A context of the user's that implements only the four required members: it gets an executor by default.
    // Guarantees: G-task-executor-runs-in-context
    @Test func aTaskRunsInAMinimalCustomContextBeforeAndAfterSuspending() async {
        let context = MinimalSerialContext()
        let places = await Task(executorPreference: context.taskExecutor) {
            var places = [context.queue.isCurrent]
            await Task.yield()
            places.append(context.queue.isCurrent)
            try? await Task.sleep(for: .milliseconds(1))
            places.append(context.queue.isCurrent)
            return places
        }.value
        #expect(places == [true, true, true])
    }

    // Guarantees: G-task-executor-runs-in-context
    @Test func childTasksAndAsyncLetInheritThePreference() async {
        let context = MinimalSerialContext()
        let inherited = await withTaskExecutorPreference(context.taskExecutor) {
            async let fromAsyncLet = context.queue.isCurrent
            let fromGroup = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { context.queue.isCurrent } }
                return await group.reduce(true) { $0 && $1 }
            }
            return await [fromAsyncLet, fromGroup, context.queue.isCurrent]
        }
        #expect(inherited == [true, true, true])
    }

    @Test func thePreferenceCanBeLeftForTheGlobalExecutor() async {
        let context = MinimalSerialContext()
        let leftIt = await withTaskExecutorPreference(context.taskExecutor) {
            await withTaskExecutorPreference(globalConcurrentExecutor) { context.queue.isCurrent }
        }
        #expect(leftIt == false)
    }

    // Guarantees: G-task-executor-runs-in-context
    @Test func execCasesRunTasksInTheirContext() async {
        let serial = Exec.asyncQueue()
        #expect(await Task(executorPreference: serial.taskExecutor) { serial.isCurrent }.value)
        #expect(await Task(executorPreference: Exec.main.taskExecutor) { Exec.main.isCurrent }.value)
        let lock = Exec.syncQueue()
        #expect(await Task(executorPreference: lock.taskExecutor) { lock.isCurrent }.value)
        #expect(await Task(executorPreference: Exec.utility.taskExecutor) { !Exec.main.isCurrent }.value)
    }

    // Guarantees: G-task-executor-shared
    @Test func sharedCasesReuseOneExecutor() {
        #expect(Exec.utility.taskExecutor === Exec.utility.taskExecutor)
        #expect(Exec.main.taskExecutor === Exec.mainAsync.taskExecutor)
        #expect(Exec.direct.taskExecutor === Exec.default.taskExecutor)
    }

    /// Jobs go through `invokeAsync`: on `.main`, even from the main queue, a job never runs in the caller's frame.
    // Guarantees: G-task-jobs-never-inline
    @Test func jobsNeverRunInsideTheEnqueuingFrame() async {
        let order = Recorder<String>()
        await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                Task(executorPreference: Exec.main.taskExecutor) {
                    order.record("task")
                    continuation.resume()
                }
                order.record("after Task.init")
            }
        }
        #expect(order.recorded == ["after Task.init", "task"])
    }
}

/// Whether two executors are the same object.
func === (lhs: any TaskExecutor, rhs: any TaskExecutor) -> Bool {
    ObjectIdentifier(lhs as AnyObject) == ObjectIdentifier(rhs as AnyObject)
}

/// A task on a context that nobody else keeps: the task's executor must keep the queue alive for the task's jobs.
@Suite struct TaskExecutorLifetimeTests {
    // Guarantees: G-task-executor-keeps-queue
    @Test func aTaskOnATemporaryContextOutlivesTheContextValue() async throws {
        let queue = WeakQueue()
        let task = makeTaskOnATemporaryQueue(remembering: queue)
        let places = try await task.value  // the Exec value that made the task is gone by now
        #expect(places == [true, true])
        #expect(becomesNil { queue.value }, "the queue must be released once the task is done")
    }

    private func makeTaskOnATemporaryQueue(remembering weakQueue: WeakQueue) -> Task<[Bool], any Error> {
        let queue = DispatchQueue(label: "temporary")
        weakQueue.value = queue
        return Exec.queue(queue, .serialAsync).task {
            var places = [weakQueue.value?.isCurrent == true]
            try await Task.sleep(for: .milliseconds(5))
            places.append(weakQueue.value?.isCurrent == true)
            return places
        }
    }
}

/// A weak reference to a queue that a `@Sendable` closure can read.
final class WeakQueue: @unchecked Sendable {
    // Unchecked: weak loads and stores are atomic; the test writes it once before sharing.
    weak var value: DispatchQueue?
}

/// Issue #29, defect 3: a task on a concurrent `.queue` is not recorded as inside the queue, so `isCurrent` answers as
/// it does in the same context's blocks: `false` for a global queue given as `.queue` (which used to answer `true`
/// inside the task), `true` for a private concurrent queue (its queue identity says so).
@Suite struct ConcurrentQueueTaskIsCurrentTests {
    @Test func aTaskOnAGlobalQueueGivenAsAQueueIsNotInsideIt() async {
        let context = Exec.queue(DispatchQueue.global(), .concurrentAsync)
        #expect(await context.task { context.isCurrent }.value == false)
        let fromBlock = await withCheckedContinuation { continuation in
            context.invoke { continuation.resume(returning: context.isCurrent) }
        }
        #expect(fromBlock == false)
    }

    @Test func aTaskOnAPrivateConcurrentQueueIsInsideIt() async {
        let context = Exec.queue(DispatchQueue(label: "concurrent", attributes: .concurrent), .concurrentAsync)
        #expect(await context.task { context.isCurrent }.value)
    }
}
