// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Issue #28, item 8: with no `reportFailure`, a coordinator's failed checks are issues of the running Swift Testing
/// test, at the test's line, and the test goes on; they used to stop the process.
@Suite struct FailureReportTests {
    // Guarantees: G-virtual-run-to-completion
    @Test func runUpToRecordsWorkLeftAtItsBoundAndReturns() {
        let coordinator = TestCoordinator()
        let timer = coordinator.global.periodicTimer(interval: .seconds(1)) {}
        let line = #line + 2
        withKnownIssue {
            coordinator.run(upTo: .seconds(10))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("reached its bound with work still pending") }
                && issue.sourceLocation?.line == line
        }
        #expect(coordinator.elapsed == .seconds(10), "run(upTo:) returned at its bound")
        timer.cancel()
    }

    // Guarantees: G-virtual-assert-no-pending
    @Test func assertNoPendingWorkRecordsWhatIsLeft() {
        let coordinator = TestCoordinator()
        let timer = coordinator.main.singleTimer(interval: .seconds(5)) {}
        withKnownIssue {
            coordinator.assertNoPendingWork()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("1 piece(s) of work still pending") }
        }
        timer.cancel()
        coordinator.assertNoPendingWork()  // nothing left: no issue
    }
}
