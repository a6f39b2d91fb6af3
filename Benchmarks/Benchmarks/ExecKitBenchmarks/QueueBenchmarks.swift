// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The asynchronous contexts: each sample submits 1,000 blocks and waits until the last has run, so the figure per
// operation is submission plus execution (throughput), not just the cost of queuing. The baselines fetch their queue
// once, as a careful user would (on Linux `DispatchQueue.global(qos:)` allocates a wrapper on every access).

import Benchmark
import BenchmarkSupport
import ExecKit

func registerQueueBenchmarks() {
    let throughput = Suite.configuration(scalingFactor: .kilo)

    asyncThroughput("Exec.utility.invoke", context: .utility, configuration: throughput)
    asyncThroughput(
        "Exec.utility.invoke (baseline: DispatchQueue.global(qos: .utility).async)",
        queue: .global(qos: .utility),
        configuration: throughput
    )

    asyncThroughput("Exec.default.invoke", context: .default, configuration: throughput)
    asyncThroughput(
        "Exec.default.invoke (baseline: DispatchQueue.global(qos: .default).async)",
        queue: .global(qos: .default),
        configuration: throughput
    )

    asyncThroughput("Exec.asyncQueue.invoke", context: .asyncQueue(), configuration: throughput)
    asyncThroughput(
        "Exec.asyncQueue.invoke (baseline: serial DispatchQueue.async)",
        queue: DispatchQueue(label: "baseline.serial"),
        configuration: throughput
    )

    let syncQueue: Exec = .syncQueue()
    Benchmark("Exec.syncQueue.invokeSync", configuration: throughput) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { syncQueue.invokeSync { cell.increment() } }
        blackHole(cell.value)
    }
    let serialQueue = DispatchQueue(label: "baseline.sync")
    Benchmark("Exec.syncQueue.invokeSync (baseline: serial DispatchQueue.sync)", configuration: throughput) {
        benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { serialQueue.sync { cell.increment() } }
        blackHole(cell.value)
    }
}

private func asyncThroughput(_ name: String, context: Exec, configuration: Benchmark.Configuration) {
    let countdown = Countdown()
    Benchmark(name, configuration: configuration) { benchmark in
        countdown.reset(benchmark.scaledIterations.count)
        for _ in benchmark.scaledIterations { context.invoke { countdown.arrive() } }
        countdown.wait()
    }
}

private func asyncThroughput(_ name: String, queue: DispatchQueue, configuration: Benchmark.Configuration) {
    let countdown = Countdown()
    Benchmark(name, configuration: configuration) { benchmark in
        countdown.reset(benchmark.scaledIterations.count)
        for _ in benchmark.scaledIterations { queue.async { countdown.arrive() } }
        countdown.wait()
    }
}
