// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Timers that fire: 100,000 one-shot timers at pseudo-random delays from 0 to 50 ms, the same delays on both sides,
// scheduled from the benchmark's thread; each handler runs on the queue's or the loop's thread and counts down, and
// a sample ends when the last one has run. One sample is 100,000 timers; `summary.py` reads that count from the name
// (`.100000-fired`). A sample cannot take less than about 50 ms (the latest deadline), so no figure per timer here can
// be below about 500 ns, whatever either side costs.

import Benchmark
import BenchmarkSupport
import ExecKit
import NIOCore

private let firingCount = 100_000

/// The delays in nanoseconds, in [0, 50 ms): a SplitMix64 sequence with a fixed seed, so every run and both sides
/// schedule the same timers in the same order.
private let firingDelays: [Int64] = {
    var state: UInt64 = 0x2026_1126
    return (0..<firingCount).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Int64(mixed % 50_000_000)
    }
}()

/// A SwiftNIO callback handler that counts down when it fires.
private struct ArrivingCallback: NIOScheduledCallbackHandler, Sendable {
    let countdown: Countdown

    func handleScheduledCallback(eventLoop: some EventLoop) { countdown.arrive() }
}

func registerFiringComparisons() {
    let firing = Suite.configuration(scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 30)
    let delays = firingDelays  // computed here, not in the first sample

    let name = "Exec.asyncQueue.singleTimer.\(firingCount)-fired at random 0-50 ms from another thread"
    let context = Exec.asyncQueue()
    let countdown = Countdown()
    Benchmark(name, configuration: firing) { benchmark in
        // Releasing a timer's lifetime cancels it: ExecKit's caller keeps them until they have fired.
        var timers: [any Lifetime] = []
        timers.reserveCapacity(delays.count)
        countdown.reset(delays.count)
        benchmark.startMeasurement()
        for delay in delays {
            timers.append(context.singleTimer(interval: .nanoseconds(delay)) { countdown.arrive() })
        }
        countdown.wait()
        benchmark.stopMeasurement()
        blackHole(timers)
    }

    // SwiftNIO's caller may drop what it gets back: a scheduled task or callback runs whether or not it is kept.
    let loopCountdown = Countdown()
    Benchmark("\(name) (baseline: SwiftNIO scheduleTask on the loop from another thread)", configuration: firing) {
        benchmark in
        loopCountdown.reset(delays.count)
        benchmark.startMeasurement()
        for delay in delays {
            loop.scheduleTask(in: .nanoseconds(delay)) { loopCountdown.arrive() }
        }
        loopCountdown.wait()
    }
    Benchmark("\(name) (baseline: SwiftNIO scheduleCallback on the loop from another thread)", configuration: firing) {
        benchmark in
        loopCountdown.reset(delays.count)
        benchmark.startMeasurement()
        for delay in delays {
            scheduleCallback(in: .nanoseconds(delay), handler: ArrivingCallback(countdown: loopCountdown))
        }
        loopCountdown.wait()
    }
}
