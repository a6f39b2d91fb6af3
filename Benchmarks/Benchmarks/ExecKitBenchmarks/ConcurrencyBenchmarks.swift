// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The Swift Concurrency bridge beside what Swift offers without ExecKit: tasks on a context's task executor against
// tasks on the default global executor, an actor on a serial context against a default actor, and `perform` on
// `.direct` against a plain call of an async function. Each operation is created and awaited in the sample.

import Benchmark
import BenchmarkSupport
import ExecKit

func registerConcurrencyBenchmarks() {
    let perOperation = Suite.configuration(scalingFactor: .kilo)

    registerTaskStart("Exec.utility.taskExecutor.task", on: Exec.utility.taskExecutor, configuration: perOperation)
    // A task on a private queue's executor, start to finish (issue #21: the allocations of a task on a context's
    // executor, the task's own included, counted process-wide): the job crosses to the queue's thread, and the
    // awaiting task is resumed on a global worker.
    registerTaskStart(
        "Exec.asyncQueue.taskExecutor.task", on: Exec.asyncQueue().taskExecutor, configuration: perOperation)
    // The same at the global executor's own QoS, to tell the cost of the executor from the cost of a utility worker.
    registerTaskStart("Exec.default.taskExecutor.task", on: Exec.default.taskExecutor, configuration: perOperation)

    // Actor calls the way a task elsewhere calls an actor: the caller's jobs run on a default-QoS global queue (a task
    // executor preference, so the caller cannot stay on the actor's queue after a call returns), and every call hops
    // onto the actor's executor and back. Without that, the caller stays on the actor's queue after the first call
    // returns, and no later call crosses a thread: that measured 48 ns a call, not what an actor call costs. (The
    // global concurrent executor as the preference does not help: it is the same as none.)
    let serialContext = Exec.asyncQueue()
    let callerExecutor = Exec.default.taskExecutor
    Benchmark("Exec.asyncQueue actor call from another executor", configuration: perOperation) { benchmark async in
        let actor = CountingActor(executor: serialContext.unownedSerialExecutor)
        await withTaskExecutorPreference(callerExecutor) {
            for _ in benchmark.scaledIterations { await actor.increment() }
        }
        blackHole(await actor.count)
    }
    Benchmark(
        "Exec.asyncQueue actor call from another executor (baseline: default actor)", configuration: perOperation
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

/// A task started on `executor` and awaited, `name`, beside the same task on the global executor as its baseline.
private func registerTaskStart(_ name: String, on executor: any TaskExecutor, configuration: Benchmark.Configuration) {
    Benchmark(name, configuration: configuration) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task(executorPreference: executor) { 1 }.value)
        }
    }
    Benchmark("\(name) (baseline: Task on the global executor)", configuration: configuration) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task { 1 }.value)
        }
    }
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
