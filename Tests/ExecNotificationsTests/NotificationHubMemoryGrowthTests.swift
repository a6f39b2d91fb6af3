// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import Testing

/// Adding an observer and cancelling it must leave nothing behind: half a million such cycles keep the resident
/// memory flat (a leaked object of the smallest heap size, 32 bytes, would add 16 MB).
///
/// Resident memory is process-wide, and other tests run in parallel in the test process and allocate freely, so each
/// measurement runs in an exit test: a child process of its own, in which nothing else runs. The child prints what
/// it measured and the parent checks it. Linux only: the resident size comes from `/proc/self/statm`.
@Suite struct NotificationHubMemoryGrowthTests {
    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func observerCyclesOnAGlobalQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            ObserverMemoryGrowth.measureObserverCycles(on: .utility)
        }
        ObserverMemoryGrowth.check(result)
    }

    @Test(.enabled(if: residentMemoryBytes() != nil, "reads the resident size from /proc/self/statm, on Linux"))
    func observerCyclesOnASerialQueueKeepMemoryFlat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            ObserverMemoryGrowth.measureObserverCycles(on: .asyncQueue())
        }
        ObserverMemoryGrowth.check(result)
    }
}

/// The measurement the exit tests of ``NotificationHubMemoryGrowthTests`` run in their child process.
enum ObserverMemoryGrowth {
    /// 500,000 cycles: a million took 6 to 7.5 s in a debug build on an idle machine and over 10 s while other builds
    /// shared its two cores. Half a million still catch any leaked object: the smallest heap block is 32 bytes, so
    /// 16 MB. Under the Thread Sanitizer, 100,000 (about 4 s there); its shadow memory and allocator then let the
    /// bound catch only larger leaks (about 100 bytes a cycle), but the cycles still run under its race checks.
    static let cycles = isThreadSanitizerActive ? 100_000 : 500_000
    static let warmUpCycles = 10_000
    /// Generous: allocator arenas and Dispatch's caches settle at sizes of their own; a leak grows with the cycles.
    static let bound = 10 << 20

    /// Runs in the child: adds an observer on `context` to a hub and cancels it, `cycles` times after a warm-up, and
    /// prints the growth of the resident size for ``check(_:)``.
    static func measureObserverCycles(on context: Exec) {
        let hub = NotificationHub()
        let stayingObserver = hub.addObserver(for: .number, context: context) { _ in }  // the table is never empty
        func cycle() {
            let observation = hub.addObserver(for: .number, context: context) { _ in }
            observation.cancel()
        }
        for _ in 0..<warmUpCycles { cycle() }
        let before = settledResidentMemoryBytes(after: context)
        let start = DispatchTime.now()
        for _ in 0..<cycles { cycle() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let after = settledResidentMemoryBytes(after: context)
        print("growth=\(after - before) before=\(before) after=\(after) cycles=\(cycles) seconds=\(seconds)")
        withExtendedLifetime(stayingObserver) {}
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
