// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

extension TestCoordinator {
    /// Everything the coordinator holds and has not run, in the order it would run: blocks, timer firings, task jobs
    /// and clock sleeps. Cancelled work is not listed. A task suspended on something other than the coordinator (an
    /// actor, a continuation nobody resumes) is invisible here. <!-- G-virtual-pending-work -->
    ///
    /// - Complexity: O(n log n); takes the coordinator's lock.
    public var pendingWork: [PendingWork] { storage.pendingWork }

    /// Whether nothing is pending. O(1); takes the coordinator's lock.
    public var isIdle: Bool { storage.isIdle }

    /// Reports a failure when work is still pending: call it at the end of a test (a `defer`, or a suite's `deinit`)
    /// to prove the test left no timer running, no sleep waiting and no block unrun. With nothing pending, it reports
    /// a hang instead when a task started inside ``withTasksCaptured(hangGrace:filePath:line:_:)`` (or, in an exploration's run, with
    /// ``task(priority:_:)->Task<Success,Error>``) is still waiting after 0.2 s of real time (the call's `hangGrace`):
    /// nothing the coordinator holds will wake it (a continuation never resumed, say). <!-- G-virtual-captured-tasks-hang -->
    ///
    /// The message lists each pending item with the source line that scheduled it, such as
    /// `timer on "main", due at 1.0 s (#1), scheduled at SearchTests.swift:42` (see ``PendingWork/callSite``).
    /// <!-- G-virtual-assert-no-pending G-virtual-call-site -->
    ///
    /// ```swift
    /// coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }  // Swift Testing
    /// coordinator.assertNoPendingWork { XCTFail($0) }                           // XCTest
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: Named in the message; defaults to the caller's file.
    ///   - line: Named in the message; defaults to the caller's line.
    ///   - reportFailure: Receives the message, which lists each pending item (``PendingWork/description``). By
    ///     default (`nil`) the message is recorded as an issue of the running Swift Testing test, at `fileID`:`line`, and
    ///     the test goes on; outside one it stops the program. Pass `{ XCTFail($0) }` under XCTest, or
    ///     `{ fatalError($0) }` to stop in every case. <!-- G-virtual-assert-no-pending -->
    /// - Cost: nothing beyond taking the lock when nothing is pending and no task is left waiting; a task left waiting
    ///   adds up to 0.2 s of real time (a `withTasksCaptured` call's `hangGrace`); pending work, symbolicating the call sites, tens of milliseconds for each
    ///   source line not looked up before (see ``PendingWork/callSite``). <!-- G-virtual-call-site-cost -->
    public func assertNoPendingWork(
        fileID: StaticString = #fileID,
        line: UInt = #line,
        reportFailure: ((String) -> Void)? = nil
    ) {
        if !isIdle {
            return reportPendingWork(fileID: fileID, line: line, reason: "still pending", reportFailure: reportFailure)
        }
        guard let hung = hungTasks().message else { return }
        let message = "ExecTesting: a hang at \(fileID):\(line): \(hung)."
        if let reportFailure {
            reportFailure(message)
        } else {
            FailureReport.report(message, fileID: fileID, line: line)
        }
    }

    /// Reports the pending work, if any, through `reportFailure`: `reason`, where and when, then one line per item.
    func reportPendingWork(
        fileID: StaticString, line: UInt, reason: String, reportFailure: ((String) -> Void)?
    ) {
        let pending = pendingWork
        guard !pending.isEmpty else { return }
        let list = pending.map { "  - \($0)" }.joined(separator: "\n")
        let hint =
            storage.recordsCallSites
            ? "" : "\n(Make the coordinator with recordsCallSites: true to see the line that scheduled each item.)"
        let message =
            "ExecTesting: \(pending.count) piece(s) of work \(reason) at \(fileID):\(line), "
            + "virtual time \(Double(storage.now - CoordinatorState.start) / 1_000_000_000) s:\n\(list)\(hint)"
        if let reportFailure {
            reportFailure(message)
        } else {
            FailureReport.report(message, fileID: fileID, line: line)
        }
    }
}
