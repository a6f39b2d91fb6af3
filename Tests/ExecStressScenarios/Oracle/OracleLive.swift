// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecKit
import ExecTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What real contexts make of an ``OracleProgram``: the traces of many runs on private serial queues and a private
/// concurrent queue, each block waiting a random moment (up to half a millisecond) before it acts, so that work due
/// together interleaves differently from run to run.
///
/// A run counts only if the machine kept to the model's time: every block started in the first half of a unit (a
/// unit is `unitMilliseconds` of real time), so that work due at one instant finished before the next began, and
/// nothing more ran after the run was read. Other runs are dropped and counted.
struct OracleLive {
    let traces: Set<[Int]>
    let kept: Int
    let dropped: Int

    init(_ program: OracleProgram, runs: Int, unitMilliseconds: Int = 10) {
        var traces: Set<[Int]> = []
        var kept = 0
        for run in 0..<runs {
            if let trace = Self.run(program, unitMilliseconds: unitMilliseconds, seed: program.seed &+ UInt64(run)) {
                traces.insert(trace)
                kept += 1
            }
        }
        self.traces = traces
        self.kept = kept
        dropped = runs - kept
    }

    /// One run's trace, or `nil` when the run left the model's time.
    private static func run(_ program: OracleProgram, unitMilliseconds: Int, seed: UInt64) -> [Int]? {
        let unit = UInt64(unitMilliseconds) * 1_000_000
        let serial = (0..<program.queueCount).map { DispatchQueue(label: "oracle.q\($0)") }
        let concurrent = DispatchQueue(label: "oracle.global", attributes: .concurrent)
        let all = serial + [concurrent]
        for queue in all { queue.suspend() }
        let start = LockedBox<UInt64>(0)
        let late = LockedBox(false)
        let jitter = LockedBox(SplitMix64(seed: seed))
        let run = OracleRun(
            program, queues: serial.map { .queue($0, .serialAsync) }, concurrent: .queue(concurrent, .concurrentAsync),
            unit: .milliseconds(unitMilliseconds)
        ) { _ in
            let elapsed = DispatchTime.now().uptimeNanoseconds &- start.withLock { $0 }
            if elapsed % unit >= unit / 2 { late.withLock { $0 = true } }
            let wait = jitter.withLock { $0.next() % 500_000 }
            let until = DispatchTime.now().uptimeNanoseconds + wait
            while DispatchTime.now().uptimeNanoseconds < until {}
        }
        start.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
        run.start()
        for queue in all { queue.resume() }
        let horizon = program.horizon(hopLatency: 0, hopSpread: 0)
        usleep(UInt32(unitMilliseconds * 1_000 * (horizon + 3)))
        let first = run.log
        usleep(UInt32(unitMilliseconds * 1_000 * 3))
        let second = run.log
        run.finish()
        // Let the queues drain before they go (a block still running holds its queue).
        for queue in serial { queue.sync {} }
        concurrent.sync(flags: .barrier) {}
        return late.withLock({ $0 }) || first != second ? nil : second
    }
}
