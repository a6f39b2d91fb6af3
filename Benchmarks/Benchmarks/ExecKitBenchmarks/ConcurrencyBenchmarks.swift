// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The Swift Concurrency bridge beside what Swift offers without ExecKit: tasks on a context's task executor against
// tasks on a hand-written executor on the same queue and on the default global executor, an actor on a serial context
// against an actor on a hand-written executor and a default actor, and `perform` on `.direct` against a plain call of
// an async function. Each operation is created and awaited in the sample.

import Benchmark
import BenchmarkSupport
import ExecKit

func registerConcurrencyBenchmarks() {
    let perOperation = Suite.configuration(scalingFactor: .kilo)

    // Each task is started and awaited before the next, so each pays a wake-up of the executor's queue; the first
    // baseline is the same task on a hand-written executor on the same queue (the same crossings and wake-ups), the
    // second `Task {}` on the global executor, which keeps its threads spinning between tasks.
    registerTaskStart(
        "Exec.utility.taskExecutor.task", on: Exec.utility.taskExecutor,
        beside: DispatchQueue.global(qos: .utility), configuration: perOperation)
    // A task on a private queue's executor, start to finish (issue #21: the allocations of a task on a context's
    // executor, the task's own included, counted process-wide): the job crosses to the queue's thread, and the
    // awaiting task is resumed on a global worker.
    registerTaskStart(
        "Exec.asyncQueue.taskExecutor.task", on: Exec.asyncQueue().taskExecutor,
        beside: DispatchQueue(label: "baseline.taskExecutor"), configuration: perOperation)
    // The same at the global executor's own QoS, to tell the cost of the executor from the cost of a utility worker.
    registerTaskStart(
        "Exec.default.taskExecutor.task", on: Exec.default.taskExecutor,
        beside: DispatchQueue.global(qos: .default), configuration: perOperation)

    // Actor calls the way a task elsewhere calls an actor: the caller's jobs run on a default-QoS global queue (a task
    // executor preference, so the caller cannot stay on the actor's queue after a call returns), and every call hops
    // onto the actor's executor and back. Without that, the caller stays on the actor's queue after the first call
    // returns, and no later call crosses a thread: that measured 48 ns a call, not what an actor call costs. (The
    // global concurrent executor as the preference does not help: it is the same as none.) The first baseline makes
    // the same crossings (an actor on a hand-written executor on a private queue); the default actor beside it runs on
    // the caller's thread whenever it is free, crossing nothing.
    let serialContext = Exec.asyncQueue()
    let callerExecutor = Exec.default.taskExecutor
    Benchmark("Exec.asyncQueue actor call from another executor", configuration: perOperation) { benchmark async in
        let actor = CountingActor(executor: serialContext.unownedSerialExecutor)
        await withTaskExecutorPreference(callerExecutor) {
            for _ in benchmark.scaledIterations { await actor.increment() }
        }
        blackHole(await actor.count)
    }
    let minimalExecutor = MinimalQueueSerialExecutor(DispatchQueue(label: "baseline.actor"))
    Benchmark(
        "Exec.asyncQueue actor call from another executor (baseline: actor on a minimal queue executor)",
        configuration: perOperation
    ) { benchmark async in
        let actor = CountingActor(executor: minimalExecutor.asUnownedSerialExecutor())
        await withTaskExecutorPreference(callerExecutor) {
            for _ in benchmark.scaledIterations { await actor.increment() }
        }
        blackHole(await actor.count)
    }
    Benchmark(
        "Exec.asyncQueue actor call from another executor (baseline: default actor, no crossing)",
        configuration: perOperation
    ) { benchmark async in
        let actor = DefaultCountingActor()
        await withTaskExecutorPreference(callerExecutor) {
            for _ in benchmark.scaledIterations { await actor.increment() }
        }
        blackHole(await actor.count)
    }

    // `perform` on `.direct` runs its block inline: its floor is an async call plus a closure call. The block is a
    // closure handed in from elsewhere (opaque to the optimizer) and the call is not inlined, on both sides, so neither
    // loop can be folded into a bare increment (it was: 0.49 ns a call, faster than any call).
    Benchmark("Exec.direct.perform", configuration: perOperation) { benchmark async in
        let cell = Cell()
        let body = opaque { cell.increment() }
        for _ in benchmark.scaledIterations { await performOnDirect(body) }
        blackHole(cell.value)
    }
    Benchmark("Exec.direct.perform (baseline: await an async function)", configuration: perOperation) {
        benchmark async in
        let cell = Cell()
        let body = opaque { cell.increment() }
        for _ in benchmark.scaledIterations { await callAsynchronously(body) }
        blackHole(cell.value)
    }
}

/// A task started on `executor` and awaited, `name`, beside the same task on a hand-written executor on `queue` (the
/// queue behind `executor`) and on the global executor, its baselines.
private func registerTaskStart(
    _ name: String, on executor: any TaskExecutor, beside queue: DispatchQueue,
    configuration: Benchmark.Configuration
) {
    Benchmark(name, configuration: configuration) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task(executorPreference: executor) { 1 }.value)
        }
    }
    let minimalExecutor = MinimalQueueTaskExecutor(queue)
    Benchmark("\(name) (baseline: Task on a minimal executor on the same queue)", configuration: configuration) {
        benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task(executorPreference: minimalExecutor) { 1 }.value)
        }
    }
    Benchmark("\(name) (baseline: Task on the global executor)", configuration: configuration) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task { 1 }.value)
        }
    }

    // The executor without the wake-up: a sample's tasks are all started, then all awaited, so the queue's worker
    // stays awake through the burst. Each row above pays one wake-up of a parked thread per task (15 to 60 µs here,
    // varying more between runs than the executors differ), which this one shares across the sample.
    let burst = "\(name).startedTogether"
    Benchmark(burst, configuration: configuration) { benchmark async in
        await startAndAwaitTogether(benchmark) { Task(executorPreference: executor) { 1 } }
    }
    Benchmark("\(burst) (baseline: Task on a minimal executor on the same queue)", configuration: configuration) {
        benchmark async in
        await startAndAwaitTogether(benchmark) { Task(executorPreference: minimalExecutor) { 1 } }
    }
}

/// Starts a sample's tasks with `start`, then awaits them all; the array that holds them is set-up.
private func startAndAwaitTogether(_ benchmark: Benchmark, _ start: () -> Task<Int, Never>) async {
    var tasks: [Task<Int, Never>] = []
    tasks.reserveCapacity(benchmark.scaledIterations.count)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { tasks.append(start()) }
    for task in tasks { blackHole(await task.value) }
}

/// The same actor on Swift's default executor.
actor DefaultCountingActor {
    private(set) var count = 0

    func increment() { count += 1 }
}

/// `perform` on `.direct`, as a caller in another module makes it.
@inline(never)
func performOnDirect(_ body: @escaping @Sendable () -> Void) async {
    await Exec.direct.perform(body)
}

/// The same work without ExecKit: an async function that calls the closure.
@inline(never)
func callAsynchronously(_ body: @escaping @Sendable () -> Void) async {
    body()
}
