// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Weakly linked: ExecTesting also runs in processes without the Testing library (a benchmark, an XCTest bundle on an
// Apple platform), where its symbols are absent and failures stop the program instead.
@_spi(ExecTesting) import ExecMutex

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
    /// What failed in a run: the text the report shows, and what it was, for telling one failure from another (which
    /// expectation, by its place in the source; which type of error; the values in the text may differ between runs
    /// that fail the same way).
    struct Found: Sendable {
        var message: String
        var kind: String

        /// `failures` joined: their messages, and their kinds.
        init?(_ failures: [Found]) {
            guard !failures.isEmpty else { return nil }
            message = failures.map(\.message).joined(separator: "; ")
            kind = failures.map(\.kind).joined(separator: "; ")
        }

        init(message: String, kind: String) {
            self.message = message
            self.kind = kind
        }
    }

    /// Runs `body`; returns what failed in it (the issues it recorded, or the error it threw), or `nil`.
    static func capture(_ body: () throws -> Void) -> Found? {
        let failures = LockedBox<[Found]>([], observed: false)
        #if canImport(Testing)
        if #_hasSymbol(Test.self), Test.current != nil {
            withKnownIssue(isIntermittent: true) {
                do { try body() } catch let error { record(error, in: failures, issueRecorded: true) }
            } matching: { issue in
                record(issue, in: failures)
                return true
            }
            return Found(failures.withLock { $0 })
        }
        #endif
        do { try body() } catch { record(error, in: failures, issueRecorded: false) }
        return Found(failures.withLock { $0 })
    }

    /// ``capture(_:)`` for a body that awaits.
    static func capture(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async -> Found? {
        let failures = LockedBox<[Found]>([], observed: false)
        #if canImport(Testing)
        if #_hasSymbol(Test.self), Test.current != nil {
            await withKnownIssue(isIntermittent: true) {
                do { try await body() } catch let error { record(error, in: failures, issueRecorded: true) }
            } matching: { issue in
                record(issue, in: failures)
                return true
            }
            return Found(failures.withLock { $0 })
        }
        #endif
        do { try await body() } catch { record(error, in: failures, issueRecorded: false) }
        return Found(failures.withLock { $0 })
    }

    #if canImport(Testing)
    /// Adds a recorded issue: its text, and the place in the source that recorded it.
    private static func record(_ issue: Issue, in failures: LockedBox<[Found]>) {
        let place = issue.sourceLocation.map { "\($0.fileID):\($0.line):\($0.column)" } ?? "an unknown place"
        failures.withLock { $0.append(Found(message: String(describing: issue), kind: "an issue at \(place)")) }
    }
    #endif

    /// Adds `error`'s text, unless `issueRecorded` and it is the error `#require` throws, whose issue (caught as a
    /// known issue) says it better.
    private static func record(_ error: any Error, in failures: LockedBox<[Found]>, issueRecorded: Bool) {
        #if canImport(Testing)
        if issueRecorded, #_hasSymbol(ExpectationFailedError.self), error is ExpectationFailedError { return }
        #endif
        let found = Found(message: String(describing: error), kind: "a thrown \(String(reflecting: type(of: error)))")
        failures.withLock { $0.append(found) }
    }
}
