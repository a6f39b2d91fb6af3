// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecStressScenarios
import ExecTestSupport
import Foundation
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// Every scenario of the stress suite (issue #16), each run by the `ExecKitStress` driver in a process of its own, so
/// that a crash fails that scenario with its output and leaves the others' results standing.
///
/// Size: 20,000 rounds per scenario (each scenario says what a round is). Under the Thread Sanitizer, 2,000: every
/// memory access costs several times more there, and the full size would take far longer than CI allows. CI also runs
/// the release build of the driver at 100,000 rounds (`.ci/run`).
// Guarantees: G-repetition
@Suite struct StressSuiteTests {
    static let rounds = isThreadSanitizerActive ? 2_000 : 20_000

    @Test(arguments: StressScenarios.all.map(\.name))
    func scenarioKeepsEveryPromise(_ name: String) async throws {
        let driver = try #require(builtProduct(named: "ExecKitStress"), "build the ExecKitStress product first")
        let process = Process()
        process.executableURL = driver
        process.arguments = ["run", name, String(Self.rounds)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Waited for on a thread of its own: blocking one of Swift Concurrency's few threads per running scenario
        // would stall every other test of this process.
        let printed = await withCheckedContinuation { continuation in
            startDetachedThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        let crashed = process.terminationReason == .uncaughtSignal
        #expect(!crashed, "\(name) crashed with signal \(process.terminationStatus):\n\(printed)")
        #expect(process.terminationStatus == 0 || crashed, "\(name) failed:\n\(printed)")
        #expect(printed.contains("ok   \(name)"), "\(name) printed:\n\(printed)")
    }
}
#endif
