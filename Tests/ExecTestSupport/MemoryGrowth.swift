// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

package import ExecKit

// A plain `swift build` builds this target too, and a Mac with only the Command Line Tools has no Testing module; exit
// tests exist on macOS, Linux and Windows only.
#if canImport(Testing) && (os(macOS) || os(Linux) || os(Windows))
package import Testing
#endif

/// How the memory-growth tests measure: an exit test's child process runs many add/cancel cycles and prints how much
/// its resident size grew; the parent checks the report against ``bound``.
///
/// Resident memory is process-wide, and other tests run in parallel in the test process and allocate freely, hence a
/// child process of its own, in which nothing else runs. Linux only: the resident size comes from `/proc/self/statm`.
package enum MemoryGrowth {
    /// 500,000 cycles: a million took 3.3 to 7.5 s in a debug build on an idle machine but over 10 s while other builds
    /// shared its two cores, over the 10 s budget of a test. Half a million still catch any leaked object: the smallest
    /// heap block is 32 bytes, so 16 MB. Under the Thread Sanitizer, 100,000 (2 to 5 s there); its shadow memory and
    /// allocator then let the bound catch only larger leaks (about 100 bytes a cycle), but the cycles still run under
    /// its race checks.
    package static let cycles = isThreadSanitizerActive ? 100_000 : 500_000
    package static let warmUpCycles = 10_000
    /// Generous: allocator arenas and Dispatch's caches settle at sizes of their own; a leak grows with the cycles.
    package static let bound = 10 << 20

    /// Runs in the child: `cycle()` ``warmUpCycles`` times, then ``cycles`` times between two resident-size readings
    /// taken once the work queued on `context` has settled, and prints the growth for ``check(_:)``.
    package static func measure(settlingOn context: Exec, _ cycle: () -> Void) {
        for _ in 0..<warmUpCycles { cycle() }
        let before = settledResidentMemoryBytes(after: context)
        let start = DispatchTime.now()
        for _ in 0..<cycles { cycle() }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let after = settledResidentMemoryBytes(after: context)
        print("growth=\(after - before) before=\(before) after=\(after) cycles=\(cycles) seconds=\(seconds)")
    }

    #if canImport(Testing) && (os(macOS) || os(Linux) || os(Windows))
    /// Runs in the parent: finds the child's report and checks the growth against ``bound``.
    package static func check(_ result: ExitTest.Result?) {
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let report = output.split(separator: "\n").last { $0.hasPrefix("growth=") }
        let growth = report.flatMap { $0.split(separator: " ").first?.dropFirst("growth=".count) }.flatMap { Int($0) }
        #expect(growth != nil, "the child printed no measurement: \(output)")
        guard let growth else { return }
        #expect(growth < bound, "resident memory grew by \(growth) bytes: \(report ?? "")")
    }
    #endif
}
