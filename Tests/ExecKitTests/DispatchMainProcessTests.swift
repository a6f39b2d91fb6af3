// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Foundation
import Testing

/// `.main` in a process that called `dispatchMain()`: the main queue runs on a worker thread there.
@Suite struct DispatchMainProcessTests {
    @Test func mainMeansTheMainQueueInADispatchMainProcess() throws {
        // SwiftPM builds the probe (a dependency of this test target) next to the test bundle.
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let probe = buildDirectory.appendingPathComponent("ExecKitMainQueueProbe")
        try #require(
            FileManager.default.isExecutableFile(atPath: probe.path),
            "build the ExecKitMainQueueProbe product first (swift build), expected at \(probe.path)"
        )
        let process = Process()
        process.executableURL = probe
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "probe output:\n\(printed)")
        #expect(printed.contains(".main timers fire on the main queue"), "probe output:\n\(printed)")
    }
}
