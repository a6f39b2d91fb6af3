// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The test-driven example: `Debouncer` takes the context its action runs in, so a test hands it a TestCoordinator's
// context and drives an hour of typing in virtual time. Nothing sleeps, and each test takes milliseconds.

import DebounceTesting
import ExecTesting
import Testing

@Suite struct DebouncerTests {
    /// The searches made, each with the virtual instant it ran at.
    private let searches = LockedBox<[String]>([])

    /// A search field: `Debouncer<String>` with the search as its action, on the coordinator's simulated main queue.
    private func makeSearchField(on coordinator: TestCoordinator) -> Debouncer<String> {
        Debouncer(interval: .milliseconds(300), context: coordinator.main) { [searches] query in
            let milliseconds = Int(coordinator.elapsed / .milliseconds(1))
            searches.withLock { $0.append("\(query) at \(milliseconds) ms") }
        }
    }

    @Test func anHourOfTypingSearchesOnceAfterEachPauseWithoutWaitingAnHour() {
        let started = ContinuousClock.now
        let coordinator = TestCoordinator()
        let field = makeSearchField(on: coordinator)
        // For an hour, every minute: type "swift" one letter per 100 ms, then stop.
        var expected: [String] = []
        let start = coordinator.now
        for minute in 0..<60 {
            coordinator.advance(to: start + .seconds(minute * 60))
            for length in 1...5 {
                field.send(String("swift".prefix(length)))
                coordinator.advance(by: .milliseconds(100))
            }
            // The last letter came at +400 ms; the search follows 300 ms later.
            expected.append("swift at \(minute * 60_000 + 700) ms")
        }
        coordinator.advance(to: start + .seconds(3_600))

        #expect(searches.withLock { $0 } == expected)
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
        // An hour of virtual time, 300 keystrokes and 60 searches: milliseconds of real time (measured). The bound
        // only proves that no real hour passed; it is loose on purpose, for loaded machines and the Thread Sanitizer.
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func typingFasterThanTheIntervalForAnHourNeverSearchesUntilItStops() {
        let started = ContinuousClock.now
        // 18,000 timers: without call-site recording (a backtrace per timer, the default) the hour takes a few times
        // less real time. A failing teardown check then lists the pending work without the lines that scheduled it.
        let coordinator = TestCoordinator(recordsCallSites: false)
        let field = makeSearchField(on: coordinator)
        let keystrokes = LockedBox(0)
        let typist = coordinator.global.periodicTimer(interval: .milliseconds(200)) {
            let count = keystrokes.withLock { count in
                count += 1
                return count
            }
            field.send("keystroke \(count)")
        }
        coordinator.advance(by: .seconds(3_600))
        #expect(keystrokes.withLock { $0 } == 18_000)
        #expect(searches.withLock { $0 }.isEmpty)

        typist.cancel()
        coordinator.advance(by: .seconds(1))
        #expect(searches.withLock { $0 } == ["keystroke 18000 at 3600300 ms"])
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
        // Measured: 0.1 s in a debug build, 0.5 to 2 s under the Thread Sanitizer on a loaded machine. The bound only
        // proves that no real hour passed; it asserts no speed.
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func theActionRunsInTheContextItWasGiven() {
        let coordinator = TestCoordinator()
        let ranIn = LockedBox<[String?]>([])
        let field = Debouncer<Int>(interval: .seconds(1), context: coordinator.serialQueue(named: "search")) { _ in
            let name = coordinator.currentQueueName
            ranIn.withLock { $0.append(name) }
        }
        field.send(1)
        coordinator.advance(by: .seconds(1))
        #expect(ranIn.withLock { $0 } == ["search"])
    }

    @Test func cancelDropsThePendingValueAndTheNextSendStartsAfresh() {
        let coordinator = TestCoordinator()
        let field = makeSearchField(on: coordinator)
        field.send("draft")
        coordinator.advance(by: .milliseconds(200))
        field.cancel()
        #expect(coordinator.isIdle)  // the timer is gone, not merely ignored
        coordinator.advance(by: .seconds(1))
        #expect(searches.withLock { $0 }.isEmpty)

        field.send("final")
        coordinator.advance(by: .milliseconds(300))
        #expect(searches.withLock { $0 } == ["final at 1500 ms"])
    }

    @Test func releasingTheDebouncerCancelsItsTimer() {
        let coordinator = TestCoordinator()
        var field: Debouncer<String>? = makeSearchField(on: coordinator)
        field?.send("gone")
        field = nil
        #expect(coordinator.isIdle)
        coordinator.advance(by: .seconds(1))
        #expect(searches.withLock { $0 }.isEmpty)
    }
}
