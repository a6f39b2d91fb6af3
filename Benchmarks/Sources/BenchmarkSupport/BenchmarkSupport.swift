// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// What every suite shares: how long to measure, which metrics to record, and the tiny pieces of work the measured
// blocks do, so that ExecKit and its baseline always do exactly the same work.

import Benchmark
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Naming: an ExecKit measurement is called `X`; the baseline measured beside it in the same run is called
/// `X (baseline: what it does)`. `summary.py` pairs them by that suffix, so keep it when adding a benchmark.
public enum Suite {
    /// `EXECKIT_BENCHMARK_QUICK=1` (set by `ci-check.sh`): a few iterations only. Allocation counts are deterministic, so
    /// a handful of samples is enough for the threshold check; time figures from a quick run mean nothing.
    public static let isQuick: Bool = getenv("EXECKIT_BENCHMARK_QUICK") != nil

    /// Time, throughput and malloc count. Never `.instructions`: on this harness it allocates and corrupts the malloc
    /// counts that CI checks.
    public static let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]

    /// How many mallocs per sample the allocation check forgives. The harness counts mallocs process-wide, so a stray
    /// allocation on another thread (a Dispatch worker starting or stopping) can land in a sample; a real regression on
    /// a measured path costs at least one allocation per operation, 1,000 or 1,000,000 per sample.
    public static let allocationSlack = 100

    /// A configuration where each sample runs `benchmark.scaledIterations` operations, so that the harness reports
    /// per-operation figures (marked `*` in its tables).
    public static func configuration(
        scalingFactor: BenchmarkScalingFactor = .mega,
        metrics: [BenchmarkMetric] = metrics,
        maxDuration: Duration = .seconds(1),
        maxIterations: Int = 10_000
    ) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: metrics,
            timeUnits: .nanoseconds,
            warmupIterations: isQuick ? 1 : 3,
            scalingFactor: scalingFactor,
            maxDuration: isQuick ? .milliseconds(100) : maxDuration,
            maxIterations: isQuick ? 3 : maxIterations,
            thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p90: allocationSlack])]
        )
    }
}

/// One `Int` at a stable address: the work a measured block does is `cell.increment()`, a plain add through a pointer
/// (no exclusivity check, no retain), so what is measured is the machinery around it.
public struct Cell: @unchecked Sendable {
    // Unchecked: every benchmark that shares a cell between threads guards it with the lock it measures.
    @usableFromInline let pointer: UnsafeMutablePointer<Int>

    public init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: 0)
    }

    @inlinable @inline(__always)
    public func increment() { pointer.pointee &+= 1 }

    public var value: Int { pointer.pointee }
}

/// Waits until `count` asynchronous blocks have called ``arrive()``: how a throughput benchmark knows its blocks ran.
public final class Countdown: Sendable {
    private let remaining = Atomic<Int>(0)
    private let done = DispatchSemaphore(value: 0)

    public init() {}

    /// Expects `count` arrivals; call before submitting the blocks.
    public func reset(_ count: Int) { remaining.store(count, ordering: .relaxed) }

    /// Called once by each block; the last one wakes ``wait()``.
    public func arrive() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() }
    }

    /// Returns once every expected block has arrived.
    public func wait() { done.wait() }
}

/// The process's resident set size in bytes, from `/proc/self/statm` (Linux); `0` where it cannot be read.
public func residentBytes() -> Int {
    #if os(Linux)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard withUnsafeMutablePointer(to: &size, { sizePointer in
        withUnsafeMutablePointer(to: &resident) { residentPointer in
            withVaList([sizePointer, residentPointer]) { vfscanf(file, "%ld %ld", $0) }
        }
    }) == 2 else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return 0
    #endif
}

/// Gives freed heap memory back to the system (glibc), so the next sample's resident-size delta starts from a clean
/// heap.
public func trimHeap() {
    #if canImport(Glibc)
    // Looked up dynamically: Swift's Glibc module does not export `malloc_trim`.
    typealias MallocTrim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: MallocTrim.self)(0) }
    #endif
}

/// An actor whose executor is given, so the same actor runs on an ExecKit context or on another library's executor
/// (a SwiftNIO event loop's, beside it).
public actor CountingActor {
    private let executor: UnownedSerialExecutor
    public private(set) var count = 0

    public init(executor: UnownedSerialExecutor) { self.executor = executor }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor }

    public func increment() { count += 1 }
}
