// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import Foundation
import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// `.main` in a process that called `dispatchMain()` (the main queue runs on a worker thread there), in one driven by
/// Foundation's `RunLoop` (on the initial thread), and in an async `@main` program.
@Suite struct DispatchMainProcessTests {
    /// Also what a block run for a caller parked in a sync on the main queue is inside (issue #40, item 3): ExecKit's
    /// `Exec.main.invokeSync` lends the caller's queue under either driver; a raw `DispatchQueue.main.sync` lends it
    /// only under `dispatchMain()`, where libdispatch runs the block on the caller's thread, as the docs now say.
    // Guarantees: G-main-actor-agrees, G-serial-lent-exclusion
    @Test(arguments: ["dispatchMain", "runloop", "noreader"])
    func mainMeansTheMainQueueInAProcessDrivenBy(driver: String) throws {
        let (status, printed) = try Self.run("ExecKitMainQueueProbe", arguments: [driver])
        #expect(status == 0, "probe output:\n\(printed)")
        let fastPath =
            driver == "noreader"
            ? "ok   without the reader, the fast main-queue check stays off"
            : "ok   the fast main-queue check is active"
        #expect(printed.contains(fastPath), "probe output:\n\(printed)")
        #expect(printed.contains("ok   a .main callback is isolated to MainActor"), "probe output:\n\(printed)")
        #expect(printed.contains("ok   .main timers fire on the main queue"), "probe output:\n\(printed)")
        #expect(printed.contains("ok   a released .main timer never fires"), "probe output:\n\(printed)")
        let lent = "ok   a .main.invokeSync block is inside its caller's queue"
        #expect(printed.contains(lent), "probe output:\n\(printed)")
        let rawSync =
            driver == "runloop"
            ? "ok   a raw main.sync block that the run loop runs is not inside its caller's queue"
            : "ok   a raw main.sync block under dispatchMain() runs on its caller's thread, inside"
        #expect(printed.contains(rawSync), "probe output:\n\(printed)")
    }

    /// An async `@main` program: after its first suspension the runtime runs the main actor on the main queue, from a
    /// worker thread on Linux; `.main` agrees with `MainActor` there (issue #32: this driver was untested).
    // Guarantees: G-main-actor-agrees, G-main-inline-on-main-queue
    @Test func mainMeansTheMainQueueInAnAsyncMainProgram() throws {
        let (status, printed) = try Self.run("ExecKitAsyncMainProbe", arguments: [])
        #expect(status == 0, "probe output:\n\(printed)")
        for line in [
            "ok   on the main actor after the first suspension, .main.isCurrent",
            "ok   from the main actor, .main.invoke runs the block at once",
            "ok   a .main callback invoked from another thread is isolated to MainActor",
            "ok   .main timers fire on the main queue, isolated to MainActor",
            "ok   a task started with Exec.main.task runs on the main actor",
        ] {
            #expect(printed.contains(line), "probe output:\n\(printed)")
        }
    }

    /// Runs the probe `product` (built beside this test binary) with `arguments`; its exit status and standard output.
    private static func run(_ product: String, arguments: [String]) throws -> (status: Int32, printed: String) {
        let probe = try #require(
            builtProduct(named: product),
            "build the \(product) product first (swift build): not found above this test binary")
        let process = Process()
        process.executableURL = probe
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, printed)
    }
}
#endif
