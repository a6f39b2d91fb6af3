// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// `.main` invoked by code that already runs on the main queue, the case where it must cost almost nothing.
//
// Where that code runs matters. The harness's `main` is `async`, so benchmarks run on a worker thread and the main
// queue, once reached with `sync`, runs there too: thread 1 is not involved (see DESIGN.md, "Main thread vs main
// queue"). So this measures `.main`'s check as every async-`main` program and every Swift Testing test sees it; the
// check (libdispatch's current queue against the main queue) costs the same on thread 1.

import Benchmark
import BenchmarkSupport
import ExecKit

func registerMainBenchmarks() {
    let main: Exec = identity(.main)

    Benchmark("Exec.main.invoke.onMainQueue", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        onMainQueue {
            for _ in benchmark.scaledIterations { invokeThroughParameter(main, cell) }
        }
        precondition(cell.value == benchmark.scaledIterations.count, ".main did not run the block immediately")
    }
    Benchmark("Exec.main.invokeWithValue.onMainQueue", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        onMainQueue {
            for _ in benchmark.scaledIterations { invokeWithValueThroughParameter(main, cell) }
        }
        precondition(cell.value == benchmark.scaledIterations.count, ".main did not run the block immediately")
    }
    // The floor of the check: libdispatch's own assertion that the main queue is current, then the same call.
    registerBaseline(
        for: "Exec.main.invokeWithValue.onMainQueue", .mainQueueAssertThenClosureCalledWithValue, onMainQueue: true)
    registerBaseline(for: "Exec.main.invoke.onMainQueue", .mainQueueAssertThenEscapingClosure, onMainQueue: true)
}

/// Runs `body` on the main queue and waits for it; inline when already there.
func onMainQueue(_ body: () -> Void) {
    if DispatchQueue.isMainQueueCurrent { return body() }
    mainQueue.sync(execute: body)
}

/// Fetched once: on Linux every `DispatchQueue.main` access allocates a wrapper. Held in a variable of type
/// `DispatchQueue` so that the compiler does not treat the `sync` block as `@MainActor` code.
let mainQueue: DispatchQueue = .main
