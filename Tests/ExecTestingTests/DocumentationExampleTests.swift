// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// The examples of ExecTesting's DocC catalog (ExecTesting.md and TestingWithVirtualTime.md), verbatim, with the code
// under test they assume, so that they keep compiling and passing.

@Test func theSessionExpiresAfterHalfAnHourOfSilence() {
    let coordinator = TestCoordinator()
    let session = Session(context: coordinator.main, timeout: .seconds(1_800))
    coordinator.advance(by: .seconds(1_799))
    #expect(session.isOpen)
    coordinator.advance(by: .seconds(1))
    #expect(!session.isOpen)
    coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
}

@Test func theReminderFiresAfterAnHour() {
    let coordinator = TestCoordinator()
    let reminder = Reminder(launcher: coordinator, clock: coordinator.clock)
    reminder.start(after: .seconds(3_600))
    coordinator.advance(by: .seconds(3_599))
    #expect(!reminder.hasFired)
    coordinator.advance(by: .seconds(1))
    #expect(reminder.hasFired)
    #expect(coordinator.isIdle)
}

/// A session that closes itself after `timeout`, in `context`.
private final class Session: Sendable {
    private let open = LockedBox(true)
    private let timer = LockedBox<(any Lifetime)?>(nil)

    init(context: Exec, timeout: Duration) {
        let expiry = context.singleTimer(interval: timeout) { [open] in open.withLock { $0 = false } }
        timer.withLock { $0 = expiry }
    }

    var isOpen: Bool { open.withLock { $0 } }
}

private final class Reminder: Sendable {
    private let launcher: any TaskLauncher
    private let clock: any Clock<Duration>
    private let fired = LockedBox(false)

    init(launcher: any TaskLauncher = Exec.utility, clock: any Clock<Duration> = ContinuousClock()) {
        self.launcher = launcher
        self.clock = clock
    }

    var hasFired: Bool { fired.withLock { $0 } }

    func start(after delay: Duration) {
        launcher.task { [clock, fired] in
            try await clock.sleep(for: delay)
            fired.withLock { $0 = true }
        }
    }
}
