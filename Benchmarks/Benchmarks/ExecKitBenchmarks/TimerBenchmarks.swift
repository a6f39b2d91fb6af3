// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Timers: the cost of arming and cancelling a one-shot timer (the common "timeout that did not fire" case), and what
// 100,000 pending timers cost in time and memory.

import Benchmark
import BenchmarkSupport
import ExecKit

/// Far enough away that no timer fires during a run.
private let farAway: Duration = .seconds(3_600)
private let pendingCount = 100_000

func registerTimerBenchmarks() {
    let context: Exec = .default
    let queue = DispatchQueue.global(qos: .default)

    Benchmark("Exec.singleTimer.scheduleCancel", configuration: Suite.configuration(scalingFactor: .kilo)) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let timer = context.singleTimer(interval: farAway, leeway: .zero) {}
            timer.cancel()
        }
    }
    Benchmark(
        "Exec.singleTimer.scheduleCancel (baseline: DispatchSourceTimer)",
        configuration: Suite.configuration(scalingFactor: .kilo)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler {}
            timer.schedule(deadline: .now() + DispatchTimeInterval.seconds(3_600), leeway: .nanoseconds(0))
            timer.resume()
            timer.cancel()
        }
    }

    // Firing on a concurrent engine (issue #21): 1,000 timers due at once on `.utility`, each handler run by a job of
    // its own on the global queue; a sample ends when every handler has run. Allocations per timer: the timer itself
    // and nothing per firing (its handler's closure is created once, outside the loop). The baseline fires the same
    // through one `DispatchSourceTimer` per timer, what a user writes without ExecKit.
    let fired = Countdown()
    let fireHandler: @Sendable () -> Void = { fired.arrive() }
    // No allocation threshold for this pair: libdispatch's own continuation allocations move the harness's
    // process-wide count from run to run (1.01 to 1.54 per timer in CI's quick runs). CI counts the row's mallocs
    // under callgrind instead, where they repeat (`InstructionCounts/check.sh`: 1.001 per timer).
    let firing = Suite.configuration(scalingFactor: .kilo)
    Benchmark("Exec.utility.singleTimer.fire", configuration: firing) {
        benchmark in
        fired.reset(benchmark.scaledIterations.count)
        var timers: [any Lifetime] = []
        timers.reserveCapacity(benchmark.scaledIterations.count)
        benchmark.startMeasurement()  // the array is set-up, not measured
        for _ in benchmark.scaledIterations {
            timers.append(Exec.utility.singleTimer(interval: .zero, leeway: .zero, handler: fireHandler))
        }
        fired.wait()
        benchmark.stopMeasurement()
        blackHole(timers.count)
    }
    Benchmark("Exec.utility.singleTimer.fire (baseline: DispatchSourceTimer)", configuration: firing) { benchmark in
        fired.reset(benchmark.scaledIterations.count)
        var timers: [any DispatchSourceTimer] = []
        timers.reserveCapacity(benchmark.scaledIterations.count)
        let utility = DispatchQueue.global(qos: .utility)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let timer = DispatchSource.makeTimerSource(queue: utility)
            timer.setEventHandler(handler: fireHandler)
            timer.schedule(deadline: .now(), leeway: .nanoseconds(0))
            timer.resume()
            timers.append(timer)
        }
        fired.wait()
        benchmark.stopMeasurement()
        for timer in timers { timer.cancel() }
    }

    // One sample holds `pendingCount` timers; `summary.py` reads the count from the name.
    let pending = Suite.configuration(
        scalingFactor: .one,
        metrics: Suite.metrics + [.mallocBytesCount, residentPerTimer],
        maxDuration: .seconds(5),
        maxIterations: 10
    )
    Benchmark("Exec.singleTimer.\(pendingCount)-pending", configuration: pending) { benchmark in
        var timers: [any Lifetime] = []
        timers.reserveCapacity(pendingCount)
        trimHeap()
        let before = residentBytes()
        benchmark.startMeasurement()
        for _ in 0..<pendingCount {
            timers.append(context.singleTimer(interval: farAway, leeway: .zero) {})
        }
        benchmark.stopMeasurement()
        benchmark.measurement(residentPerTimer, (residentBytes() - before) / pendingCount)
        for index in timers.indices { timers[index].cancel() }
    }
    Benchmark("Exec.singleTimer.\(pendingCount)-pending (baseline: DispatchSourceTimer)", configuration: pending) {
        benchmark in
        var timers: [any DispatchSourceTimer] = []
        timers.reserveCapacity(pendingCount)
        trimHeap()
        let before = residentBytes()
        benchmark.startMeasurement()
        for _ in 0..<pendingCount {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler {}
            timer.schedule(deadline: .now() + DispatchTimeInterval.seconds(3_600), leeway: .nanoseconds(0))
            timer.resume()
            timers.append(timer)
        }
        benchmark.stopMeasurement()
        benchmark.measurement(residentPerTimer, (residentBytes() - before) / pendingCount)
        for timer in timers { timer.cancel() }
    }
}

/// Resident memory added per pending timer (bytes), measured from `/proc/self/statm` around the sample.
private let residentPerTimer = BenchmarkMetric.custom("Resident bytes per timer", useScalingFactor: false)
