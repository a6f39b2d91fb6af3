// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// PThreadMutex against the locks a Swift programmer would otherwise reach for, uncontended and with two threads
// contending. Every lock guards the same work: one add through a pointer. The raw pthread baselines use an allocated
// `pthread_mutex_t` and ignore return codes, the fastest correct-in-practice use of the C API.

import Benchmark
import BenchmarkSupport
import ExecMutex
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let benchmarks: @Sendable () -> Void = {
    for contending in [1, 2] {
        registerLockBenchmarks(threads: contending)
    }
}

/// Registers one family: `threads == 1` is uncontended, `2` runs the same total work split over two threads.
private func registerLockBenchmarks(threads: Int) {
    let suffix = threads == 1 ? "uncontended" : "contended\(threads)"
    // Contended samples include waking the second thread, so they get more time.
    let configuration = Suite.configuration(maxDuration: .seconds(threads == 1 ? 1 : 2))

    let normal = "PThreadMutex.normal.sync.\(suffix)"
    measureLock(normal, PThreadMutexLock(type: .normal), configuration, threads: threads)
    measureLock("\(normal) (baseline: pthread_mutex_lock+unlock)", RawPThreadLock(recursive: false), configuration,
        threads: threads)
    measureLock("\(normal) (baseline: Synchronization.Mutex)", SynchronizationMutexLock(), configuration,
        threads: threads)
    measureLock("\(normal) (baseline: NSLock)", FoundationLock(), configuration, threads: threads)

    let recursive = "PThreadMutex.recursive.sync.\(suffix)"
    measureLock(recursive, PThreadMutexLock(type: .recursive), configuration, threads: threads)
    measureLock("\(recursive) (baseline: recursive pthread_mutex_lock+unlock)", RawPThreadLock(recursive: true),
        configuration, threads: threads)
}

/// Measures `lock.increment(cell)` run `scaledIterations` times in total: on the benchmark's thread, or split evenly
/// between it and a second thread that starts together with it. Generic, so that each lock's operation is specialized
/// and inlined into the loop: no indirect call is measured.
private func measureLock<Lock: MeasuredLock>(
    _ name: String,
    _ lock: Lock,
    _ configuration: Benchmark.Configuration,
    threads: Int
) {
    precondition(threads == 1 || threads == 2, "two contending threads at most on this machine")
    Benchmark(name, configuration: configuration) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        let total = benchmark.scaledIterations.count
        if threads == 1 {
            for _ in 0..<total { lock.increment(cell) }
        } else {
            let perThread = total / 2
            let start = StartLine(runners: 2)
            let finished = DispatchSemaphore(value: 0)
            let other = Thread {
                start.arriveAndWait()
                for _ in 0..<perThread { lock.increment(cell) }
                finished.signal()
            }
            other.start()
            start.arriveAndWait()
            for _ in 0..<perThread { lock.increment(cell) }
            finished.wait()
        }
        precondition(cell.value == total / threads * threads, "\(name): the lock let two increments race")
    }
}

/// Holds each runner until all have arrived, so the contending loops really overlap.
private final class StartLine: Sendable {
    private let waiting: Atomic<Int>
    init(runners: Int) { waiting = Atomic(runners) }
    func arriveAndWait() {
        waiting.subtract(1, ordering: .acquiringAndReleasing)
        while waiting.load(ordering: .acquiring) > 0 { sched_yield() }
    }
}

/// A lock under test: `increment` adds one to the cell while holding the lock.
private protocol MeasuredLock: Sendable {
    func increment(_ cell: Cell)
}

private struct PThreadMutexLock: MeasuredLock {
    let mutex: PThreadMutex
    init(type: PThreadMutex.Kind) { mutex = PThreadMutex(type: type) }
    func increment(_ cell: Cell) { mutex.sync { cell.increment() } }
}

private struct RawPThreadLock: MeasuredLock {
    let mutex: RawPThreadMutex
    init(recursive: Bool) { mutex = RawPThreadMutex(recursive: recursive) }
    func increment(_ cell: Cell) {
        pthread_mutex_lock(mutex.pointer)
        cell.increment()
        pthread_mutex_unlock(mutex.pointer)
    }
}

private struct SynchronizationMutexLock: MeasuredLock {
    let box = SynchronizationMutexBox()
    func increment(_ cell: Cell) { box.mutex.withLock { _ in cell.increment() } }
}

private struct FoundationLock: MeasuredLock {
    let lock = NSLock()
    func increment(_ cell: Cell) {
        lock.lock()
        cell.increment()
        lock.unlock()
    }
}

/// A `pthread_mutex_t` at an allocated address, created and used through the C API only.
private final class RawPThreadMutex: @unchecked Sendable {
    // Unchecked: the pointer is only used through pthread calls, which are thread-safe.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    init(recursive: Bool) {
        pointer = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL))
        pthread_mutex_init(pointer, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }
}

/// `Synchronization.Mutex` is `~Copyable`; a class lets the measured closure share it.
private final class SynchronizationMutexBox: Sendable {
    let mutex = Mutex<Void>(())
}
