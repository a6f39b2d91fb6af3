// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Weakly linked: ExecTesting also runs in processes without the Testing library (a benchmark, an XCTest bundle on an
// Apple platform), where its symbols are absent and failures stop the program instead.
#if canImport(Testing)
@_weakLinked import Testing
#endif

/// Where ExecTesting reports a failed check when the caller gives it nowhere else to go: as an issue of the Swift
/// Testing test that is running, at the caller's line, so the test fails and goes on; outside one (an XCTest, or no
/// test at all), by stopping the program with the message.
enum FailureReport {
    /// Records `message` in the running Swift Testing test, at `fileID`:`line`, or stops the program with it.
    static func report(_ message: String, fileID: StaticString, line: UInt) {
        if !recordInCurrentTest(message, fileID: fileID, line: line) { fatalError(message) }
    }

    /// Records `message` as an issue of the Swift Testing test running this code, at `fileID`:`line`; `false` when no
    /// such test is running here.
    static func recordInCurrentTest(_ message: String, fileID: StaticString, line: UInt) -> Bool {
        #if canImport(Testing)
        if #_hasSymbol(Test.self), Test.current != nil {
            let location = SourceLocation(
                fileID: "\(fileID)", filePath: "\(fileID)", line: max(Int(line), 1), column: 1)
            Issue.record(Comment(rawValue: message), sourceLocation: location)
            return true
        }
        #endif
        return false
    }
}
