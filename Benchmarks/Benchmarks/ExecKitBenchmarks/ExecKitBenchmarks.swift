// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// ExecKit's own benchmarks. Every measurement `X` has its baseline `X (baseline: …)` measured in the same run, on the
// same machine, doing the same work; `summary.py` turns the pairs into one table of ratios.

import Benchmark

let benchmarks: @Sendable () -> Void = {
    registerInvokeBenchmarks()
    registerMainBenchmarks()
    registerQueueBenchmarks()
    registerTimerBenchmarks()
    registerConcurrencyBenchmarks()
    registerOrderedWorkBenchmarks()
}
