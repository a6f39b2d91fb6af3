// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecMutex
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

    /// Issue #40, item 3: a block of a queue waits in a raw `DispatchQueue.main.sync` under a run loop, and the main
    /// queue's block waits in `invokeSync` for that queue. ExecKit cannot see the raw wait, so it cannot stop the
    /// deadlock, but it must not stay silent: past a threshold (here 1 s) one line on standard error names the shape
    /// and the way out. With the threshold at 0 nothing is written; a normal run writes nothing either (above).
    // Guarantees: G-misuse-stops-with-message, G-main-wait-report
    @Test func aMainQueueWaitThatLastsIsReportedOnStandardError() throws {
        let report = "ExecKit: the main queue has waited 1 s in an invokeSync onto another queue, and still waits."
        let (printed, errors) = try Self.runUntil(
            "ExecKitMainQueueProbe", arguments: ["runloop", "deadlock"],
            environment: ["EXECKIT_MAIN_WAIT_REPORT_SECONDS": "1"], seconds: 30, lingering: 2
        ) { _, errors in errors.contains(report) }
        #expect(printed.contains("ok   the main queue waits for the queue whose block waits for it"), "\(printed)")
        #expect(errors.contains(report), "standard error:\n\(errors)")
        #expect(errors.contains("a raw DispatchQueue.main.sync"), "standard error:\n\(errors)")
        #expect(errors.contains("Exec.main.invokeSync"), "standard error:\n\(errors)")
        // Two more seconds of the same wait, eight more samples: still the one line.
        #expect(errors.components(separatedBy: "ExecKit: the main queue").count == 2, "one line per wait:\n\(errors)")

        let (quietPrinted, quietErrors) = try Self.runUntil(
            "ExecKitMainQueueProbe", arguments: ["runloop", "deadlock"],
            environment: ["EXECKIT_MAIN_WAIT_REPORT_SECONDS": "0"], seconds: 3
        ) { _, _ in false }
        #expect(quietPrinted.contains("ok   the main queue waits"), "\(quietPrinted)")
        #expect(!quietErrors.contains("ExecKit: the main queue"), "turned off:\n\(quietErrors)")
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

    /// The probe `product` (built beside this test binary), not started yet, with `arguments` and `environment` added to
    /// this process's, and pipes for its standard output and standard error.
    private static func probe(
        _ product: String, arguments: [String], environment: [String: String]
    ) throws -> (process: Process, output: Pipe, errors: Pipe) {
        let executable = try #require(
            builtProduct(named: product),
            "build the \(product) product first (swift build): not found above this test binary")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        return (process, output, errors)
    }

    /// Runs the probe `product` (built beside this test binary) with `arguments`; its exit status and standard output.
    private static func run(_ product: String, arguments: [String]) throws -> (status: Int32, printed: String) {
        let (process, output, errors) = try probe(product, arguments: arguments, environment: [:])
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(!errorText.contains("ExecKit: the main queue"), "no wait lasted: \(errorText)")
        return (process.terminationStatus, printed)
    }

    /// Runs the probe `product` with `arguments` and `environment` added to this process's, until `done` says so of
    /// what it printed on standard output and standard error (and `lingering` seconds more), or `seconds` have passed;
    /// then stops it. Both outputs.
    private static func runUntil(
        _ product: String, arguments: [String], environment: [String: String], seconds: Double,
        lingering: Double = 0, done: @escaping @Sendable (String, String) -> Bool
    ) throws -> (printed: String, errors: String) {
        let (process, output, errors) = try probe(product, arguments: arguments, environment: environment)
        let read = LockedBox((printed: Data(), errors: Data()))
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            read.withLock { $0.printed.append(data) }
        }
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            read.withLock { $0.errors.append(data) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        func texts() -> (String, String) {
            read.withLock { (String(decoding: $0.printed, as: UTF8.self), String(decoding: $0.errors, as: UTF8.self)) }
        }
        while Date() < deadline, process.isRunning, !done(texts().0, texts().1) {
            Thread.sleep(forTimeInterval: 0.05)  // polling another process's output: there is nothing to wait on
        }
        if lingering > 0, process.isRunning { Thread.sleep(forTimeInterval: lingering) }  // what more it writes
        // SIGKILL: Foundation's `terminate()` (SIGTERM) left the probe running here until its own 20 s watchdog.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        return texts()
    }
}
#endif
