// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// A timer that is scheduled far in the future and cancelled at once must leave nothing behind: half a million such
/// cycles keep the resident memory flat (a leaked object of the smallest heap size, 32 bytes, would add 16 MB).
///
/// Resident memory is process-wide, and other tests run in parallel in the test process and allocate freely, so each
/// measurement runs in an exit test: a child process of its own, in which nothing else runs. The child prints what
/// it measured and the parent checks it. Linux only: the resident size comes from `/proc/self/statm`.
@Suite struct MemoryGrowthTests {
    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func timerCyclesOnAGlobalQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MemoryGrowth.measureTimerCycles(on: .utility)
        }
        MemoryGrowth.check(result)
    }

    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func timerCyclesOnASerialQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            MemoryGrowth.measureTimerCycles(on: .asyncQueue())
        }
        MemoryGrowth.check(result)
    }
}

/// The measurement the exit tests of ``MemoryGrowthTests`` run in their child process.
enum MemoryGrowth {
    /// 500,000 cycles: a million took 3.3 to 5.5 s in a debug build on an idle machine but 12 to 12.7 s while other
    /// builds shared its two cores, over the 10 s budget of a test. Half a million still catch any leaked object: the
    /// smallest heap block is 32 bytes, so 16 MB. Under the Thread Sanitizer a million take 17 to 19 s, so it runs
    /// 100,000 there (2 to 5 s); its shadow memory and allocator then let the bound catch only larger leaks (about
    /// 100 bytes a cycle), but the cycles still run under its race checks.
    static let cycles = isThreadSanitizerActive ? 100_000 : 500_000
    static let warmUpCycles = 10_000
    /// Generous: allocator arenas and Dispatch's caches settle at sizes of their own; a leak grows with the cycles.
    static let bound = 10 << 20

    /// Runs in the child: schedules a far-future timer on `context` and cancels it, `cycles` times after a warm-up,
    /// and prints the growth of the resident size for ``check(_:)``.
    static func measureTimerCycles(on context: Exec) {
        func cycle() {
            let timer = context.singleTimer(interval: .seconds(3_600)) {}
            timer.cancel()
        }
        for _ in 0..<warmUpCycles { cycle() }
        let before = settledResidentMemoryBytes(after: context)
        let start = DispatchTime.now()
        for _ in 0..<cycles { cycle() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let after = settledResidentMemoryBytes(after: context)
        print("growth=\(after - before) before=\(before) after=\(after) cycles=\(cycles) seconds=\(seconds)")
    }

    /// Runs in the parent: finds the child's report and checks the growth against ``bound``.
    static func check(_ result: ExitTest.Result?) {
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let report = output.split(separator: "\n").last { $0.hasPrefix("growth=") }
        let growth = report.flatMap { $0.split(separator: " ").first?.dropFirst("growth=".count) }.flatMap { Int($0) }
        #expect(growth != nil, "the child printed no measurement: \(output)")
        guard let growth else { return }
        #expect(growth < bound, "resident memory grew by \(growth) bytes: \(report ?? "")")
    }
}
