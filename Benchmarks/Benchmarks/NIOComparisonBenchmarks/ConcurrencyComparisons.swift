// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// A lock, an actor, a task and an `execute` hop beside SwiftNIO's: `PThreadMutex` against `NIOLock`, an actor on a
// private serial queue against an actor on the event loop, a task on the queue's task executor against a task on the
// loop through the `TaskExecutor` adapter SwiftNIO users write, and `invokeAsync` against `loop.execute`.

import Benchmark
import BenchmarkSupport
import Dispatch
import ExecKit
import ExecMutex
import NIOConcurrencyHelpers
import NIOCore

func registerConcurrencyComparisons() {
    let perOperation = Suite.configuration(scalingFactor: .kilo)

    // An uncontended lock around one add through a pointer, on the benchmark's thread: nothing crosses a thread.
    let lockName = "PThreadMutex.normal.sync uncontended on one thread"
    let mutex = PThreadMutex(type: .normal)
    Benchmark(lockName, configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { mutex.sync { cell.increment() } }
        blackHole(cell.value)
    }
    let lock = NIOLock()
    Benchmark("\(lockName) (baseline: SwiftNIO NIOLock.withLock)", configuration: Suite.configuration()) {
        benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { lock.withLock { cell.increment() } }
        blackHole(cell.value)
    }

    // An actor call from a task whose jobs run on a default-QoS global queue (a task executor preference), so every
    // call hops onto the actor's executor and back: the private queue's, or the loop's (its own thread).
    let actorName = "Exec.asyncQueue actor call from Exec.default.taskExecutor"
    let callerExecutor = Exec.default.taskExecutor
    let actorContext = Exec.asyncQueue()
    Benchmark(actorName, configuration: perOperation) { benchmark async in
        let actor = CountingActor(executor: actorContext.unownedSerialExecutor)
        benchmark.startMeasurement()  // creating the actor is set-up, not measured
        await withTaskExecutorPreference(callerExecutor) {
            for _ in benchmark.scaledIterations { await actor.increment() }
        }
        blackHole(await actor.count)
    }
    Benchmark("\(actorName) (baseline: SwiftNIO loop.executor as the actor's executor)", configuration: perOperation) {
        benchmark async in
        let actor = CountingActor(executor: loop.executor.asUnownedSerialExecutor())
        benchmark.startMeasurement()  // creating the actor is set-up, not measured
        await withTaskExecutorPreference(callerExecutor) {
            for _ in benchmark.scaledIterations { await actor.increment() }
        }
        blackHole(await actor.count)
    }

    // A task started on an executor and awaited, start to finish, from the benchmark's task (on the global executor):
    // the task's job runs on the queue or on the loop's thread, and its end resumes the awaiting task on the global
    // executor. Each executor is made once, outside the samples.
    let taskName = "Exec.asyncQueue.taskExecutor.task awaited from the global executor"
    let queueExecutor = Exec.asyncQueue().taskExecutor
    Benchmark(taskName, configuration: perOperation) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task(executorPreference: queueExecutor) { 1 }.value)
        }
    }
    let loopExecutor = LoopTaskExecutor(loop: loop)
    Benchmark(
        "\(taskName) (baseline: SwiftNIO loop.execute per job in a hand-written TaskExecutor)",
        configuration: perOperation
    ) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task(executorPreference: loopExecutor) { 1 }.value)
        }
    }

    // Empty blocks handed from the benchmark's thread to the queue's or the loop's thread; the last one signals, and
    // both run their blocks in order, so the sample ends when every block has run.
    let hopName = "Exec.asyncQueue.invokeAsync from another thread"
    let hopContext = Exec.asyncQueue()
    Benchmark(hopName, configuration: perOperation) { benchmark in
        let done = DispatchSemaphore(value: 0)
        let count = benchmark.scaledIterations.count
        benchmark.startMeasurement()  // the semaphore is set-up, not measured
        for _ in 1..<count { hopContext.invokeAsync {} }
        hopContext.invokeAsync { done.signal() }
        done.wait()
    }
    Benchmark("\(hopName) (baseline: SwiftNIO loop.execute from another thread)", configuration: perOperation) {
        benchmark in
        let done = DispatchSemaphore(value: 0)
        let count = benchmark.scaledIterations.count
        benchmark.startMeasurement()  // the semaphore is set-up, not measured
        for _ in 1..<count { loop.execute {} }
        loop.execute { done.signal() }
        done.wait()
    }
}

/// The adapter a SwiftNIO user writes to run tasks on an event loop: each job of the task is one `loop.execute`.
final class LoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
