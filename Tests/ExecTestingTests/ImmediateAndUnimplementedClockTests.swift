// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Code under test that takes a clock: retries `attempts` times, `delay` apart, then gives up.
private func retry(attempts: Int, delay: Duration, clock: some Clock<Duration>) async throws -> Int {
    var tries = 0
    for _ in 0..<attempts {
        tries += 1
        try await clock.sleep(for: delay)
    }
    return tries
}

@Suite struct ImmediateClockTests {
    // Guarantees: G-virtual-immediate-clock
    @Test func sleepsReturnAtOnceAndMoveNowByTheTimeSlept() async throws {
        let clock = ImmediateClock()
        let start = clock.now
        let realStart = ContinuousClock.now
        #expect(try await retry(attempts: 3, delay: .seconds(3_600), clock: clock) == 3)
        #expect(clock.elapsed == .seconds(10_800))
        #expect(start.duration(to: clock.now) == .seconds(10_800))
        // Three hours of sleeps: no real hour passed. A loose bound, for loaded machines and TSan: with the whole suite
        // running in parallel on two cores, this test's own turn on the cooperative pool has taken 21 to 34 s.
        #expect(ContinuousClock.now - realStart < .seconds(600))
    }

    // Guarantees: G-virtual-immediate-clock, G-virtual-start-125ns
    @Test func aDeadlineThatHasPassedDoesNotMoveTimeBack() async throws {
        let clock = ImmediateClock()
        try await clock.sleep(for: .seconds(5))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-2)))
        #expect(clock.elapsed == .seconds(5))
        #expect(clock.now.dispatchTime == DispatchTime(uptimeNanoseconds: 125 + 5_000_000_000))
    }

    // Guarantees: G-virtual-immediate-clock
    @Test func aCancelledTaskThrowsAndTimeStays() async {
        let clock = ImmediateClock()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.elapsed == .zero)
    }
}

@Suite struct ImmediateContextTests {
    // Guarantees: G-virtual-immediate-context
    @Test func delayedWorkAndTimersRunBeforeTheCallReturnsMovingTheClock() {
        let clock = ImmediateClock()
        let context = Exec.immediate(clock: clock)
        let log = EventLog()
        context.invoke(after: .seconds(60)) { log.append("after at \(clock.elapsed)") }
        let single = context.singleTimer(interval: .seconds(30)) { log.append("single at \(clock.elapsed)") }
        let periodic = context.periodicTimer(parameter: "tick", interval: .seconds(10)) { log.append("\($0)") }
        context.invokeAsync { log.append("async") }
        #expect(log.entries == ["after at 60.0 seconds", "single at 90.0 seconds", "tick", "async"])
        #expect(context.timestamp() == DispatchTime(uptimeNanoseconds: 125 + 100_000_000_000))
        #expect(context.type == .immediate)
        #expect(context.isCurrent)
        periodic.cancel()
        single.cancel()
    }

    // Guarantees: G-virtual-immediate-context
    @Test func aSessionTimeoutFiresInsideInit() {
        let clock = ImmediateClock()
        let session = Session(context: .immediate(clock: clock), timeout: .seconds(1_800))
        #expect(!session.isOpen)
        #expect(clock.elapsed == .seconds(1_800))
    }

    // Guarantees: G-virtual-immediate-tasks
    @Test func tasksRunToCompletion() async {
        let value = await Exec.immediate().task { 42 }.value
        #expect(value == 42)
    }
}

@Suite struct UnimplementedClockTests {
    // Guarantees: G-virtual-unimplemented-clock, G-virtual-start-125ns
    @Test func readingNowDoesNotFail() {
        #expect(UnimplementedClock().now == VirtualClock.Instant(nanoseconds: 125))
    }

    /// Issue #28, item 8: by default a sleep records an issue in the running test, naming the clock and the line that
    /// made it, and returns, so the test goes on (and fails) instead of the process stopping.
    // Guarantees: G-virtual-unimplemented-clock
    @Test func sleepingRecordsAnIssueInTheRunningTestAndGoesOn() async {
        let wentOn = LockedBox(false)
        await withKnownIssue {
            let clock = UnimplementedClock("retry back-off")
            try? await clock.sleep(for: .seconds(1))
            wentOn.withLock { $0 = true }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("sleep was called on UnimplementedClock(\"retry back-off\")")
            }
                && issue.sourceLocation?.fileID == "ExecTestingTests/ImmediateAndUnimplementedClockTests.swift"
        }
        #expect(wentOn.withLock { $0 })
    }

    #if os(macOS) || os(Linux) || os(Windows)
    /// The fatal form, kept as an explicit option.
    // Guarantees: G-virtual-unimplemented-clock
    @Test func sleepingStopsNamingTheClockAndTheTestsLineWhenAskedTo() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let clock = UnimplementedClock("retry back-off") { fatalError($0) }
            try? await clock.sleep(for: .seconds(1))
        }
        #expect(result.standardErrorText.contains("sleep was called on UnimplementedClock(\"retry back-off\")"))
        #expect(
            result.standardErrorText.contains("made at ExecTestingTests/ImmediateAndUnimplementedClockTests.swift:"))
    }
    #endif
}
