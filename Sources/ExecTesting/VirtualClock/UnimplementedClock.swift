// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A `Clock` that must never be slept on: `sleep` reports a failure naming the clock and the file and line where the
/// test made it. Pass it to code under test to prove a path never waits on its clock, as
/// ``ExecKit/Exec/unimplemented(_:fileID:line:)`` proves a path never schedules work.
///
/// By default the failure is recorded as an issue of the running Swift Testing test, at the line that made the clock,
/// and `sleep` then returns at once, so the test goes on and fails; outside a Swift Testing test (an XCTest, or none),
/// `sleep` stops the program with the message. Give `reportFailure` to decide: `{ XCTFail($0) }` under XCTest, or
/// `{ fatalError($0) }` to stop in every case (check that with a Swift Testing exit test).
/// <!-- G-virtual-unimplemented-clock -->
///
/// Reading ``now`` does not fail: it is always the start of virtual time. <!-- G-virtual-unimplemented-clock -->
///
/// - Thread-safety: may be used from any thread. <!-- G-virtual-clocks-any-thread -->
public struct UnimplementedClock: Clock {
    private let name: String
    private let fileID: StaticString
    private let line: UInt
    private let reportFailure: (@Sendable (String) -> Void)?

    /// A clock that fails when slept on, naming `name` and the caller's file and line.
    ///
    /// - Parameters:
    ///   - name: Named in the message.
    ///   - fileID: Named in the message, and where the issue is recorded; defaults to the caller's file.
    ///   - line: Named in the message, and where the issue is recorded; defaults to the caller's line.
    ///   - reportFailure: Receives the message when `sleep` is called (which then returns at once); `nil` records it
    ///     in the running Swift Testing test, or stops the program outside one.
    public init(
        _ name: String = "unimplemented", fileID: StaticString = #fileID, line: UInt = #line,
        reportFailure: (@Sendable (String) -> Void)? = nil
    ) {
        self.name = name
        self.fileID = fileID
        self.line = line
        self.reportFailure = reportFailure
    }

    /// The start of virtual time (`nanoseconds == 125`), always.
    public var now: VirtualClock.Instant { VirtualClock.Instant(nanoseconds: CoordinatorState.start) }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Reports a failure naming this clock and where the test made it, then returns at once (when the failure did not
    /// stop the program).
    public func sleep(until deadline: VirtualClock.Instant, tolerance: Duration? = nil) async throws {
        let message =
            "ExecTesting: sleep was called on UnimplementedClock(\"\(name)\"), made at \(fileID):\(line). The test "
            + "says this code path never waits on that clock."
        if let reportFailure {
            reportFailure(message)
        } else {
            FailureReport.report(message, fileID: fileID, line: line)
        }
    }
}
