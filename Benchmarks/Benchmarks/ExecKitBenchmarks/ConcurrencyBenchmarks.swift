// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The Swift Concurrency bridge beside what Swift offers without ExecKit: tasks on a context's task executor against
// tasks on the default global executor, an actor on a serial context against a default actor, and `perform` on
// `.direct` against a plain call of an async function. Each operation is created and awaited in the sample.

import Benchmark
import BenchmarkSupport
import ExecKit

func registerConcurrencyBenchmarks() {
    let perOperation = Suite.configuration(scalingFactor: .kilo)

    let utility = Exec.utility.taskExecutor
    Benchmark("Exec.utility.taskExecutor.task", configuration: perOperation) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task(executorPreference: utility) { 1 }.value)
        }
    }
    Benchmark("Exec.utility.taskExecutor.task (baseline: Task on the global executor)", configuration: perOperation) {
        benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task { 1 }.value)
        }
    }

    // The same at the global executor's own QoS, to tell the cost of the executor from the cost of a utility worker.
    let defaultExecutor = Exec.default.taskExecutor
    Benchmark("Exec.default.taskExecutor.task", configuration: perOperation) { benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task(executorPreference: defaultExecutor) { 1 }.value)
        }
    }
    Benchmark("Exec.default.taskExecutor.task (baseline: Task on the global executor)", configuration: perOperation) {
        benchmark async in
        for _ in benchmark.scaledIterations {
            blackHole(await Task { 1 }.value)
        }
    }

    let serialContext = Exec.asyncQueue()
    Benchmark("Exec.asyncQueue actor call", configuration: perOperation) { benchmark async in
        let actor = CountingActor(executor: serialContext.unownedSerialExecutor)
        for _ in benchmark.scaledIterations { await actor.increment() }
        blackHole(await actor.count)
    }
    Benchmark("Exec.asyncQueue actor call (baseline: default actor)", configuration: perOperation) {
        benchmark async in
        let actor = DefaultCountingActor()
        for _ in benchmark.scaledIterations { await actor.increment() }
        blackHole(await actor.count)
    }

    Benchmark("Exec.direct.perform", configuration: perOperation) { benchmark async in
        let cell = Cell()
        for _ in benchmark.scaledIterations { await Exec.direct.perform { cell.increment() } }
        blackHole(cell.value)
    }
    Benchmark("Exec.direct.perform (baseline: await an async function)", configuration: perOperation) {
        benchmark async in
        let cell = Cell()
        for _ in benchmark.scaledIterations { await incrementAsynchronously(cell) }
        blackHole(cell.value)
    }
}

/// An actor whose executor is given, so the same actor runs on an ExecKit context.
actor CountingActor {
    private let executor: UnownedSerialExecutor
    private(set) var count = 0

    init(executor: UnownedSerialExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor }

    func increment() { count += 1 }
}

/// The same actor on Swift's default executor.
actor DefaultCountingActor {
    private(set) var count = 0

    func increment() { count += 1 }
}

@inline(never)
func incrementAsynchronously(_ cell: Cell) async {
    cell.increment()
}
