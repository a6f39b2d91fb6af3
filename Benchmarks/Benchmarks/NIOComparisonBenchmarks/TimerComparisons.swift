// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// One-shot timers beside SwiftNIO's: arming and cancelling a timeout that does not fire (inside the serial domain, from
// another thread, and with 10,000 timers pending), and 100,000 timers that all fire. ExecKit's timers are on a private
// serial queue (`Exec.asyncQueue()`), SwiftNIO's on the event loop, through both of its APIs: `scheduleTask` (a
// promise per timer) and `scheduleCallback` (a handler value, no promise).

import Benchmark
import BenchmarkSupport
import ExecKit
import NIOCore

/// The measured timers' delay: far enough that none fires during a run.
private let measuredDelay: Duration = .seconds(60)
private let measuredDelayOnLoop: TimeAmount = .seconds(60)

/// The timers that are only there to be pending: an hour ahead, so they sit behind every measured timer.
private let pendingCount = 10_000
private let pendingDelay: Duration = .seconds(3_600)
private let pendingDelayOnLoop: TimeAmount = .seconds(3_600)

func registerTimerComparisons() {
    let perOperation = Suite.configuration(scalingFactor: .kilo)

    // Schedule+cancel made inside the serial domain: the whole sample runs in one `invokeSync` block on the queue
    // (on the benchmark's thread, as `dispatch_sync` runs it) or in one `submit` block on the loop's thread. Nothing
    // crosses a thread inside the loop.
    let insideQueue = "Exec.asyncQueue.singleTimer.scheduleCancel inside the queue"
    let insideContext = Exec.asyncQueue()
    Benchmark(insideQueue, configuration: perOperation) { benchmark in
        let iterations = benchmark.scaledIterations
        insideContext.invokeSync { scheduleAndCancelTimers(iterations, on: insideContext) }
    }
    Benchmark(
        "\(insideQueue) (baseline: SwiftNIO scheduleTask+cancel inside the loop)", configuration: perOperation
    ) { benchmark in
        let iterations = benchmark.scaledIterations
        onLoop { scheduleAndCancelTasks(iterations) }
    }
    Benchmark(
        "\(insideQueue) (baseline: SwiftNIO scheduleCallback+cancel inside the loop)", configuration: perOperation
    ) { benchmark in
        let iterations = benchmark.scaledIterations
        onLoop { scheduleAndCancelCallbacks(iterations) }
    }

    // The same from another thread: the benchmark's thread schedules and cancels; no block of the benchmark runs on
    // the queue or the loop until the sample ends with one empty block there, so that whatever the sample handed the
    // queue's or the loop's thread (arming the timer source, waking the loop, a cancelled promise) is done inside it.
    let fromAnotherThread = "Exec.asyncQueue.singleTimer.scheduleCancel from another thread"
    let outsideContext = Exec.asyncQueue()
    Benchmark(fromAnotherThread, configuration: perOperation) { benchmark in
        scheduleAndCancelTimers(benchmark.scaledIterations, on: outsideContext)
        outsideContext.invokeSync {}
    }
    Benchmark(
        "\(fromAnotherThread) (baseline: SwiftNIO scheduleTask+cancel from another thread)", configuration: perOperation
    ) { benchmark in
        scheduleAndCancelTasks(benchmark.scaledIterations)  // off the loop, each cancel fails a promise via `execute`
        onLoop {}
    }
    Benchmark(
        "\(fromAnotherThread) (baseline: SwiftNIO scheduleCallback+cancel from another thread)",
        configuration: perOperation
    ) { benchmark in
        scheduleAndCancelCallbacks(benchmark.scaledIterations)
        onLoop {}
    }

    // Inside the serial domain again, with `pendingCount` timers pending an hour ahead, scheduled before the
    // measurement starts and cancelled after it stops. (The measured timer is the earliest, so it sits at the root of
    // either heap.)
    let withPending = "\(insideQueue) with \(pendingCount) pending"
    let pendingContext = Exec.asyncQueue()
    Benchmark(withPending, configuration: perOperation) { benchmark in
        let iterations = benchmark.scaledIterations
        let pending = pendingContext.invokeSync {
            (0..<pendingCount).map { _ in pendingContext.singleTimer(interval: pendingDelay) {} }
        }
        benchmark.startMeasurement()
        pendingContext.invokeSync { scheduleAndCancelTimers(iterations, on: pendingContext) }
        benchmark.stopMeasurement()
        pendingContext.invokeSync {
            for timer in pending { timer.cancel() }
        }
    }
    Benchmark(
        "\(withPending) (baseline: SwiftNIO scheduleTask+cancel inside the loop with \(pendingCount) pending)",
        configuration: perOperation
    ) { benchmark in
        let iterations = benchmark.scaledIterations
        let pending = onLoop {
            (0..<pendingCount).map { _ in loop.scheduleTask(in: pendingDelayOnLoop) {} }
        }
        benchmark.startMeasurement()
        onLoop { scheduleAndCancelTasks(iterations) }
        benchmark.stopMeasurement()
        onLoop {
            for task in pending { task.cancel() }
        }
    }
    Benchmark(
        "\(withPending) (baseline: SwiftNIO scheduleCallback+cancel inside the loop with \(pendingCount) pending)",
        configuration: perOperation
    ) { benchmark in
        let iterations = benchmark.scaledIterations
        let pending = onLoop {
            (0..<pendingCount).map { _ in scheduleCallback(in: pendingDelayOnLoop, handler: EmptyCallback()) }
        }
        benchmark.startMeasurement()
        onLoop { scheduleAndCancelCallbacks(iterations) }
        benchmark.stopMeasurement()
        onLoop {
            for callback in pending { callback.cancel() }
        }
    }
}

/// The measured work of the rows above: one schedule+cancel of a timer `measuredDelay` ahead per iteration, on
/// whichever thread calls, here on `context`.
private func scheduleAndCancelTimers(_ iterations: Range<Int>, on context: Exec) {
    for _ in iterations {
        let timer = context.singleTimer(interval: measuredDelay) {}
        timer.cancel()
    }
}

/// `scheduleAndCancelTimers` with SwiftNIO's `scheduleTask` (a promise per timer).
private func scheduleAndCancelTasks(_ iterations: Range<Int>) {
    for _ in iterations {
        let task = loop.scheduleTask(in: measuredDelayOnLoop) {}
        task.cancel()
    }
}

/// `scheduleAndCancelTimers` with SwiftNIO's `scheduleCallback` (a handler value, no promise).
private func scheduleAndCancelCallbacks(_ iterations: Range<Int>) {
    for _ in iterations {
        let callback = scheduleCallback(in: measuredDelayOnLoop, handler: EmptyCallback())
        callback.cancel()
    }
}
