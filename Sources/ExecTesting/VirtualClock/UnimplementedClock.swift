// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A `Clock` that must never be slept on: `sleep` stops the program with a message naming the clock and the file and
/// line where the test made it. Pass it to code under test to prove a path never waits on its clock, as
/// ``ExecKit/Exec/unimplemented(_:fileID:line:)`` proves a path never schedules work.
///
/// Reading ``now`` does not fail: it is always the start of virtual time. Check the stop itself with a Swift Testing
/// exit test (`#expect(processExitsWith: .failure) { … }`).
///
/// - Thread-safety: may be used from any thread.
public struct UnimplementedClock: Clock {
    private let name: String
    private let fileID: StaticString
    private let line: UInt

    /// A clock that stops the program when slept on, naming `name` and the caller's file and line.
    public init(_ name: String = "unimplemented", fileID: StaticString = #fileID, line: UInt = #line) {
        self.name = name
        self.fileID = fileID
        self.line = line
    }

    /// The start of virtual time (`nanoseconds == 125`), always.
    public var now: VirtualClock.Instant { VirtualClock.Instant(nanoseconds: CoordinatorState.start) }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Stops the program with a message naming this clock and where the test made it.
    public func sleep(until deadline: VirtualClock.Instant, tolerance: Duration? = nil) async throws {
        fatalError(
            "ExecTesting: sleep was called on UnimplementedClock(\"\(name)\"), made at \(fileID):\(line). The test "
                + "says this code path never waits on that clock.")
    }
}
