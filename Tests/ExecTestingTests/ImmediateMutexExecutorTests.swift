// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only.
#if os(macOS) || os(Linux) || os(Windows)

/// Issue #28, item 5: `Exec.immediate(clock:).serialized()` is a mutex around a context that runs everything at once.
/// Its executors must still never run a job inside the runtime's `enqueue`: a SerialTaskQueue on it then started its
/// operation under the queue's own lock, which nested (a trap in debug, a deadlock in release). Each check runs in a
/// process of its own, with a bound, so a trap or a deadlock fails it.
@Suite struct ImmediateMutexExecutorTests {
    // Guarantees: G-mutexcontext-executor-queued
    @Test func aSerialTaskQueueOnAMutexAroundAnImmediateContextRunsItsOperations() async {
        await #expect(processExitsWith: .success) {
            let queue = SerialTaskQueue(context: Exec.immediate().serialized())
            let tasks = (0..<20).map { index in queue.enqueue { index } }
            var values: [Int] = []
            for task in tasks { values.append(await task.value) }
            precondition(values == Array(0..<20), "operations ran out of order: \(values)")
        }
    }

    // Guarantees: G-mutexcontext-executor-queued
    @Test func tasksAndAnActorOnAMutexAroundAnImmediateContextRunUnderItsLock() async {
        await #expect(processExitsWith: .success) {
            let context = Exec.immediate().serialized()
            let counter = MutexCounter(context: context)
            let tasks = (0..<20).map { _ in context.task { await counter.increment() } }
            for task in tasks { await task.value }
            let count = await counter.count
            precondition(count == 20, "increments were lost: \(count)")
            let inside = await context.task { context.isCurrent }.value
            precondition(inside, "a task's job ran outside the mutex")
        }
    }
}

/// An actor on a mutex context.
private actor MutexCounter {
    let context: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedSerialExecutor }
    var count = 0

    init(context: Exec) { self.context = context }

    func increment() {
        precondition(context.isCurrent, "an actor job ran outside the mutex")
        count += 1
    }
}
#endif
