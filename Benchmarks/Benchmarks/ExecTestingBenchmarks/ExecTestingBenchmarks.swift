// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// ExecTesting's coordinator: scheduling N blocks at random virtual times and running them all, beside a plain binary
// heap of closures (the floor) and a coordinator that keeps its work in a sorted array (insertion by binary search,
// O(n) per insert), as CwlUtils' DebugContextCoordinator does; the same with call sites recorded (the coordinator's
// default); exploration runs; and an hour of a 100 ms periodic timer.

import Benchmark
import BenchmarkSupport
import ExecKit
import ExecTesting

let benchmarks: @Sendable () -> Void = {
    // Without call sites: what the heap and the contexts cost. With them: what a test pays by default (one backtrace
    // per distinct call path, here one, and a stack walk per scheduling).
    let runs = [10_000, 100_000, 1_000_000].flatMap { [($0, false), ($0, true)] }
    for (count, recordsCallSites) in runs {
        let name = "TestCoordinator.scheduleThenRun.\(count)-pending" + (recordsCallSites ? ".recordingCallSites" : "")
        Benchmark(name, configuration: configuration(for: count)) { benchmark in
            let delays = randomDelays(count)
            let cell = Cell()
            let coordinator = TestCoordinator(recordsCallSites: recordsCallSites)
            let context = coordinator.global
            var timers: [any Lifetime] = []
            timers.reserveCapacity(count)
            benchmark.startMeasurement()
            for delay in delays {
                timers.append(context.singleTimer(interval: .nanoseconds(delay)) { cell.increment() })
            }
            coordinator.advance(by: .seconds(3_600))
            benchmark.stopMeasurement()
            precondition(cell.value == count, "every block ran")
            blackHole(timers)
        }
    }
    // The floor: a plain binary heap of closures, under both rows' names so that each gets its ratio.
    for count in [10_000, 100_000, 1_000_000] {
        for suffix in ["", ".recordingCallSites"] {
            Benchmark(
                "TestCoordinator.scheduleThenRun.\(count)-pending\(suffix) (baseline: plain binary heap)",
                configuration: configuration(for: count)
            ) { benchmark in
                let delays = randomDelays(count)
                let cell = Cell()
                let coordinator = BinaryHeapCoordinator()
                benchmark.startMeasurement()
                for delay in delays { coordinator.schedule(after: UInt64(delay)) { cell.increment() } }
                coordinator.advance(by: 3_600_000_000_000)
                benchmark.stopMeasurement()
                precondition(cell.value == count, "every block ran")
            }
        }
    }
    // The sorted array is quadratic: 10,000 and 100,000 blocks only (the latter takes seconds).
    for count in [10_000, 100_000] {
        Benchmark(
            "TestCoordinator.scheduleThenRun.\(count)-pending (baseline: sorted-array coordinator)",
            configuration: configuration(for: count)
        ) { benchmark in
            let delays = randomDelays(count)
            let cell = Cell()
            let coordinator = SortedArrayCoordinator()
            benchmark.startMeasurement()
            for delay in delays { coordinator.schedule(after: UInt64(delay)) { cell.increment() } }
            coordinator.advance(by: 3_600_000_000_000)
            benchmark.stopMeasurement()
            precondition(cell.value == count, "every block ran")
        }
    }

    // Exploration (issue #31): 1,000 runs of a body of `steps` blocks, half on each of two serial queues, each run
    // on a fresh coordinator ordering them at random. Throughput is runs per second: the issue asks at least 20,000
    // for 10 steps and 200 for 1,000.
    for steps in [10, 1_000] {
        Benchmark(
            "TestCoordinator.explore.random.\(steps)-steps",
            configuration: Suite.configuration(
                scalingFactor: steps >= 1_000 ? .one : .kilo, maxDuration: .seconds(3), maxIterations: 1_000)
        ) { benchmark in
            let cell = Cell()
            let report = TestCoordinator.explore(.random, iterations: benchmark.scaledIterations.count) { coordinator in
                let queues = [coordinator.serialQueue(named: "a"), coordinator.serialQueue(named: "b")]
                for step in 0..<steps { queues[step % 2].invoke { cell.increment() } }
                coordinator.runUntilIdle()
            }
            precondition(report.failure == nil && report.runs == benchmark.scaledIterations.count, "every run passed")
            precondition(cell.value == steps * report.runs, "every block ran")
        }
    }

    // Exploration of blocks on the global queue with `interleavesGlobalBlocks: true` (issue #39, item 5): each runs on
    // a thread of its own, handing the
    // baton to and fro, so that it can stop at its lock acquisitions. 10 blocks, each taking a lock twice, against
    // the 10-step row above (whose blocks run inline on two serial queues).
    Benchmark(
        "TestCoordinator.explore.random.10-global-blocks",
        configuration: Suite.configuration(scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 1_000)
    ) { benchmark in
        let cell = Cell()
        let lock = LockedBox(0)
        let report = TestCoordinator.explore(
            .random, iterations: benchmark.scaledIterations.count, interleavesGlobalBlocks: true
        ) { coordinator in
            for _ in 0..<10 {
                coordinator.global.invoke {
                    lock.withLock { $0 += 1 }
                    lock.withLock { $0 -= 1 }
                    cell.increment()
                }
            }
            coordinator.runUntilIdle()
        }
        precondition(report.failure == nil && report.runs == benchmark.scaledIterations.count, "every run passed")
        precondition(cell.value == 10 * report.runs, "every block ran")
    }

    Benchmark(
        "TestCoordinator.periodicTimer.100ms.1-hour",
        configuration: Suite.configuration(scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20)
    ) { benchmark in
        let cell = Cell()
        let coordinator = TestCoordinator()
        benchmark.startMeasurement()
        let timer = coordinator.main.periodicTimer(interval: .milliseconds(100)) { cell.increment() }
        coordinator.advance(by: .seconds(3_600))
        benchmark.stopMeasurement()
        timer.cancel()
        precondition(cell.value == 36_000, "36,000 ticks in an hour")
    }
}

private func configuration(for count: Int) -> Benchmark.Configuration {
    Suite.configuration(
        scalingFactor: .one,
        maxDuration: .seconds(count >= 1_000_000 ? 10 : 3),
        maxIterations: count >= 100_000 ? 5 : 20
    )
}

/// `count` delays in nanoseconds, spread over an hour, the same in every sample (seeded SplitMix64).
private func randomDelays(_ count: Int) -> [Int] {
    var state: UInt64 = 2_026
    return (0..<count).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % 3_600_000_000_000)
    }
}
