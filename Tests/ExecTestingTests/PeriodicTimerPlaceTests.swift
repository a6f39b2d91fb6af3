// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// *Testing with virtual time*: "A periodic timer's next firing takes its place in that order when the current firing
/// starts, before anything the handler schedules" (issue #32): among work due at the same instant, which runs in the
/// order it was scheduled, the next tick counts as scheduled when the current one starts. Timers on the main queue,
/// the global queue and a serial queue, with the work on each of them.
@Suite struct PeriodicTimerPlaceTests {
    enum Place: String, CaseIterable {
        case main, global, serial
    }

    /// The coordinator's context for `place`.
    private static func context(_ place: Place, of coordinator: TestCoordinator, serial: Exec) -> Exec {
        switch place {
        case .main: coordinator.main
        case .global: coordinator.global
        case .serial: serial
        }
    }

    /// The first tick schedules work due at 2 s, the instant of the second tick: the second tick runs first. (Were the
    /// next tick placed only after its handler returned, the work would run before it.)
    // Guarantees: G-virtual-periodic-next-first
    @Test(arguments: Place.allCases, Place.allCases)
    func theNextTickRunsBeforeWorkItsHandlerSchedulesForTheSameInstant(timerPlace: Place, workPlace: Place) {
        let coordinator = TestCoordinator()
        let serial = coordinator.serialQueue(named: "serial")
        let work = Self.context(workPlace, of: coordinator, serial: serial)
        let log = EventLog()
        let ticks = Shared(0)
        let kept = Shared<[any Lifetime]>([])
        let timer = Self.context(timerPlace, of: coordinator, serial: serial).periodicTimer(interval: .seconds(1)) {
            let tick = ticks.update { ticks in
                ticks += 1
                return ticks
            }
            log.append("tick \(tick) at \(coordinator.seconds)")
            guard tick == 1 else { return }
            work.invoke(after: .seconds(1)) { log.append("invoke(after:) at \(coordinator.seconds)") }
            let single = work.singleTimer(interval: .seconds(1)) { log.append("timer at \(coordinator.seconds)") }
            kept.update { $0.append(single) }
        }
        coordinator.advance(by: .seconds(2))
        #expect(log.entries == ["tick 1 at 1.0", "tick 2 at 2.0", "invoke(after:) at 2.0", "timer at 2.0"])
        timer.cancel()
        kept.update { $0.removeAll() }
    }

    /// The next tick's place is taken when the current tick starts, not when the timer was made nor when the handler
    /// returns: work scheduled for 2 s before the first tick runs before the second tick, and work scheduled for 2 s
    /// after the first tick (by the test, not the handler) runs after it.
    // Guarantees: G-virtual-periodic-next-first
    @Test(arguments: Place.allCases, Place.allCases)
    func theNextTickTakesItsPlaceWhenTheCurrentTickStarts(timerPlace: Place, workPlace: Place) {
        let coordinator = TestCoordinator()
        let serial = coordinator.serialQueue(named: "serial")
        let work = Self.context(workPlace, of: coordinator, serial: serial)
        let log = EventLog()
        let timer = Self.context(timerPlace, of: coordinator, serial: serial).periodicTimer(interval: .seconds(1)) {
            log.append("tick at \(coordinator.seconds)")
        }
        coordinator.advance(by: .milliseconds(500))
        let before = work.singleTimer(interval: .milliseconds(1_500)) { log.append("scheduled at 0.5 s") }
        coordinator.advance(by: .seconds(1))
        let after = work.singleTimer(interval: .milliseconds(500)) { log.append("scheduled at 1.5 s") }
        coordinator.advance(by: .milliseconds(500))
        #expect(log.entries == ["tick at 1.0", "scheduled at 0.5 s", "tick at 2.0", "scheduled at 1.5 s"])
        withExtendedLifetime((timer, before, after)) {}
    }
}
