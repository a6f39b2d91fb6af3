// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// NotificationHub against Foundation's NotificationCenter: posting to 1, 10 and 100 `.direct` observers (block
// observers with `queue: nil` on Foundation's side, its cheapest form), adding and removing an observer, and
// delivering to a `.main` observer from another thread. Every observer does the same work: one add through a pointer.

import Benchmark
import BenchmarkSupport
import ExecNotifications
import Foundation

let benchmarks: @Sendable () -> Void = {
    for observers in [1, 10, 100] {
        registerPostBenchmarks(observers: observers)
    }
    registerAddCancelBenchmarks()
    registerMainObserverBenchmarks()
}

extension NotificationName where Payload == Int {
    fileprivate static let tick = NotificationName("ExecNotificationsBenchmarks.tick")
}

private let foundationTick = Notification.Name("ExecNotificationsBenchmarks.tick")

private func registerPostBenchmarks(observers: Int) {
    let name = "NotificationHub.post.direct.\(observers)-observers"
    // A post to 100 observers takes far longer than a call: fewer operations per sample keep samples short.
    let configuration = Suite.configuration(scalingFactor: observers == 1 ? .mega : .kilo)

    Benchmark(name, configuration: configuration) { benchmark in
        let hub = NotificationHub()
        let cell = Cell()
        let observations = (0..<observers).map { _ in hub.addObserver(for: .tick) { _ in cell.increment() } }
        benchmark.startMeasurement()  // registering is set-up, not measured
        for iteration in benchmark.scaledIterations { hub.post(.tick, payload: iteration) }
        benchmark.stopMeasurement()
        precondition(cell.value == observers * benchmark.scaledIterations.count, "a delivery was lost")
        withExtendedLifetime(observations) {}
    }
    Benchmark("\(name) (baseline: NotificationCenter.post)", configuration: configuration) { benchmark in
        let center = NotificationCenter()
        let cell = Cell()
        let tokens = (0..<observers).map { _ in
            center.addObserver(forName: foundationTick, object: nil, queue: nil) { _ in cell.increment() }
        }
        benchmark.startMeasurement()  // registering is set-up, not measured
        for _ in benchmark.scaledIterations { center.post(name: foundationTick, object: nil) }
        benchmark.stopMeasurement()
        precondition(cell.value == observers * benchmark.scaledIterations.count, "a delivery was lost")
        tokens.forEach(center.removeObserver)
    }
}

private func registerAddCancelBenchmarks() {
    let name = "NotificationHub.addObserver+cancel"
    let configuration = Suite.configuration(scalingFactor: .kilo)

    Benchmark(name, configuration: configuration) { benchmark in
        let hub = NotificationHub()
        for _ in benchmark.scaledIterations {
            let observation = hub.addObserver(for: .tick) { blackHole($0) }
            observation.cancel()
        }
    }
    Benchmark("\(name) (baseline: NotificationCenter.addObserver+removeObserver)", configuration: configuration) {
        benchmark in
        let center = NotificationCenter()
        for _ in benchmark.scaledIterations {
            let token = center.addObserver(forName: foundationTick, object: nil, queue: nil) { blackHole($0) }
            center.removeObserver(token)
        }
    }
}

/// Posts from the benchmark's thread to an observer on the main queue, and waits until every delivery has run there.
private func registerMainObserverBenchmarks() {
    let name = "NotificationHub.post.main-observer"
    let configuration = Suite.configuration(scalingFactor: .kilo)

    Benchmark(name, configuration: configuration) { benchmark in
        let hub = NotificationHub()
        let delivered = Countdown()
        let observation = hub.addObserver(for: .tick, context: .main) { _ in delivered.arrive() }
        delivered.reset(benchmark.scaledIterations.count)
        benchmark.startMeasurement()  // registering is set-up, not measured
        for iteration in benchmark.scaledIterations { hub.post(.tick, payload: iteration) }
        delivered.wait()
        benchmark.stopMeasurement()
        withExtendedLifetime(observation) {}
    }
    Benchmark("\(name) (baseline: DispatchQueue.main.async)", configuration: configuration) { benchmark in
        let delivered = Countdown()
        let main = DispatchQueue.main
        delivered.reset(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { main.async { delivered.arrive() } }
        delivered.wait()
        benchmark.stopMeasurement()
    }
}
