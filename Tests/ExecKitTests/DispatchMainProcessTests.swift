// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Foundation
import Testing

/// `.main` in a process that called `dispatchMain()` (the main queue runs on a worker thread there) and in one driven by
/// Foundation's `RunLoop` (on the initial thread).
@Suite struct DispatchMainProcessTests {
    @Test(arguments: ["dispatchMain", "runloop"])
    func mainMeansTheMainQueueInAProcessDrivenBy(driver: String) throws {
        // SwiftPM builds the probe (a dependency of this test target) in the build directory that holds the test
        // bundle: next to the test binary on Linux, a few levels up from it inside an .xctest bundle on macOS.
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var probe = directory.appendingPathComponent("ExecKitMainQueueProbe")
        while !FileManager.default.isExecutableFile(atPath: probe.path) && directory.pathComponents.count > 1 {
            directory.deleteLastPathComponent()
            probe = directory.appendingPathComponent("ExecKitMainQueueProbe")
        }
        try #require(
            FileManager.default.isExecutableFile(atPath: probe.path),
            "build the ExecKitMainQueueProbe product first (swift build); looked above \(CommandLine.arguments[0])"
        )
        let process = Process()
        process.executableURL = probe
        process.arguments = [driver]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "probe output:\n\(printed)")
        #expect(printed.contains("ok   the fast main-queue check is active"), "probe output:\n\(printed)")
        #expect(printed.contains("ok   a .main callback is isolated to MainActor"), "probe output:\n\(printed)")
        #expect(printed.contains("ok   .main timers fire on the main queue"), "probe output:\n\(printed)")
        #expect(printed.contains("ok   a released .main timer never fires"), "probe output:\n\(printed)")
    }
}
