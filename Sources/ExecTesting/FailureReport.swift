// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Weakly linked: ExecTesting also runs in processes without the Testing library (a benchmark, an XCTest bundle on an
// Apple platform), where its symbols are absent and failures stop the program instead.
import ExecMutex

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

/// How a run of an exploration's body failed, whichever way it said so.
///
/// In a Swift Testing test, the run goes inside `withKnownIssue`, so that `#expect` and `#require` failures inside it
/// are caught (and shown as known issues) rather than failing the test once per run; the exploration then reports the
/// failure it found once, as a real issue. Elsewhere only a thrown error tells.
enum RunFailure {
    /// Runs `body`; returns what failed in it (the issues it recorded, or the error it threw), or `nil`.
    static func capture(_ body: () throws -> Void) -> String? {
        let failures = LockedBox<[String]>([])
        #if canImport(Testing)
        if #_hasSymbol(Test.self), Test.current != nil {
            withKnownIssue(isIntermittent: true) {
                do { try body() } catch let error { record(error, in: failures, issueRecorded: true) }
            } matching: { issue in
                failures.withLock { $0.append(String(describing: issue)) }
                return true
            }
            return summary(failures)
        }
        #endif
        do { try body() } catch { record(error, in: failures, issueRecorded: false) }
        return summary(failures)
    }

    /// ``capture(_:)`` for a body that awaits.
    static func capture(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async -> String? {
        let failures = LockedBox<[String]>([])
        #if canImport(Testing)
        if #_hasSymbol(Test.self), Test.current != nil {
            await withKnownIssue(isIntermittent: true) {
                do { try await body() } catch let error { record(error, in: failures, issueRecorded: true) }
            } matching: { issue in
                failures.withLock { $0.append(String(describing: issue)) }
                return true
            }
            return summary(failures)
        }
        #endif
        do { try await body() } catch { record(error, in: failures, issueRecorded: false) }
        return summary(failures)
    }

    /// Adds `error`'s text, unless `issueRecorded` and it is the error `#require` throws, whose issue (caught as a
    /// known issue) says it better.
    private static func record(_ error: any Error, in failures: LockedBox<[String]>, issueRecorded: Bool) {
        #if canImport(Testing)
        if issueRecorded, #_hasSymbol(ExpectationFailedError.self), error is ExpectationFailedError { return }
        #endif
        failures.withLock { $0.append(String(describing: error)) }
    }

    private static func summary(_ failures: LockedBox<[String]>) -> String? {
        let all = failures.withLock { $0 }
        return all.isEmpty ? nil : all.joined(separator: "; ")
    }
}
